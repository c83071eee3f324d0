/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Many ChaCha20 streams side by side: up to CHACHA20_LANES_MAX records
 * under one key, each with its own IV, advanced together by one call (as
 * OpenSSL's cipher pipelines ask).  Their blocks go to chacha20_jobs() in
 * batches; a record with many whole blocks at once goes through the
 * single-stream chacha20_crypt() instead.  The AEAD lanes
 * (chacha20poly1305.h) run on this.
 */
#ifndef ZINC_CHACHA20_LANES_H
#define ZINC_CHACHA20_LANES_H

#include "zinc/chacha20.h"

enum {
	CHACHA20_LANES_MAX = 32		/* OpenSSL's EVP_MAX_PIPES */
};

struct chacha20_lane {
	uint32_t key[8];	/* state words 4..11: the key, or XChaCha20's subkey */
	uint32_t iv[4];		/* words 12..15 of the next block: counter, nonce */
	/* Keystream left over from the last partial block. */
	uint8_t keystream[CHACHA20_BLOCK_SIZE];
	unsigned int keystream_left;
};

struct chacha20_lanes {
	size_t n;
	struct chacha20_lane lane[CHACHA20_LANES_MAX];
};

/*
 * n (1..CHACHA20_LANES_MAX) streams under key, stream i with iv[i]
 * (counter || nonce, as chacha20_init); the counter carries into word 13
 * past 0xffffffff, as in chacha20.h.
 */
void chacha20_lanes_init(struct chacha20_lanes *ctx, const uint8_t key[CHACHA20_KEY_SIZE],
			 const uint8_t *const iv[], size_t n);

/*
 * For each lane i, XORs len[i] bytes of its keystream into src[i], writing
 * dst[i], streaming across calls like chacha20_crypt.  dst[i] may equal
 * src[i]; no lane's bytes may overlap another's.  A lane with len[i] == 0
 * is left alone (its pointers are not read).
 */
void chacha20_lanes_crypt(struct chacha20_lanes *ctx, uint8_t *const dst[],
			  const uint8_t *const src[], const size_t len[]);

/* Wipes the lanes in use (a whole context is some 4 KB: the unused ones stay). */
void chacha20_lanes_wipe(struct chacha20_lanes *ctx);

#endif
