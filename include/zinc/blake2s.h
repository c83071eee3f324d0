/* SPDX-License-Identifier: Apache-2.0 */
/* BLAKE2s (RFC 7693), with the salt and personalisation of the BLAKE2 paper. */
#ifndef ZINC_BLAKE2S_H
#define ZINC_BLAKE2S_H

#include "zinc/zinc.h"

enum {
	BLAKE2S_BLOCK_SIZE = 64,
	BLAKE2S_HASH_SIZE = 32,	/* the largest output */
	BLAKE2S_KEY_SIZE = 32,	/* the largest key */
	BLAKE2S_SALT_SIZE = 8,
	BLAKE2S_PERSONAL_SIZE = 8
};

struct blake2s_state {
	uint32_t h[8];
	uint32_t t[2];
	uint32_t f[2];
	uint8_t buf[BLAKE2S_BLOCK_SIZE];
	unsigned int buflen;
	unsigned int outlen;
};

/*
 * outlen is 1..32 and keylen 0..32 (0: unkeyed); salt and personal are
 * 8 bytes each, or NULL for zeros.  Out-of-range lengths are the caller's
 * bug: the provider checks them first.
 */
void blake2s_init(struct blake2s_state *state, size_t outlen);
void blake2s_init_key(struct blake2s_state *state, size_t outlen,
		      const uint8_t *key, size_t keylen);
void blake2s_init_param(struct blake2s_state *state, size_t outlen,
			const uint8_t *key, size_t keylen,
			const uint8_t salt[BLAKE2S_SALT_SIZE],
			const uint8_t personal[BLAKE2S_PERSONAL_SIZE]);
void blake2s_update(struct blake2s_state *state, const uint8_t *in, size_t inlen);
/* Writes state->outlen bytes and wipes state. */
void blake2s_final(struct blake2s_state *state, uint8_t *out);

/* One-shot. */
void blake2s(uint8_t *out, const uint8_t *in, const uint8_t *key,
	     size_t outlen, size_t inlen, size_t keylen);

const char *blake2s_implementation(void);

#endif
