/* SPDX-License-Identifier: Apache-2.0 */
/* Poly1305 one-time authenticator (RFC 8439). */
#ifndef ZINC_POLY1305_H
#define ZINC_POLY1305_H

#include "zinc/zinc.h"

enum {
	POLY1305_KEY_SIZE = 32,
	POLY1305_MAC_SIZE = 16,
	POLY1305_BLOCK_SIZE = 16
};

struct poly1305_ctx {
	/*
	 * Accumulator and powers of r, laid out by whichever implementation
	 * runs; large enough for the vector implementations, which use
	 * unaligned loads so that contexts need no more than malloc's alignment.
	 */
	uint64_t opaque[48];
	uint32_t nonce[4];		/* s, the second half of the key */
	uint8_t buf[POLY1305_BLOCK_SIZE];
	size_t buflen;
};

void poly1305_init(struct poly1305_ctx *ctx, const uint8_t key[POLY1305_KEY_SIZE]);
void poly1305_update(struct poly1305_ctx *ctx, const uint8_t *in, size_t len);
/*
 * The same as poly1305_update(ctx[i], in[i], len[i]) for each i < n, in
 * parallel lanes where the CPU has them: for many records, each under its
 * own key (ChaCha20-Poly1305 pipelines).  The contexts must be distinct.
 */
void poly1305_update_many(struct poly1305_ctx *const ctx[], const uint8_t *const in[],
			  const size_t len[], size_t n);
/* Writes the tag and wipes ctx. */
void poly1305_final(struct poly1305_ctx *ctx, uint8_t mac[POLY1305_MAC_SIZE]);

/* One-shot. */
void poly1305(uint8_t mac[POLY1305_MAC_SIZE], const uint8_t *in, size_t len,
	      const uint8_t key[POLY1305_KEY_SIZE]);

const char *poly1305_implementation(void);

#endif
