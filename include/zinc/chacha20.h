/* SPDX-License-Identifier: Apache-2.0 */
/* ChaCha20 (RFC 8439) and HChaCha20 (draft-irtf-cfrg-xchacha). */
#ifndef ZINC_CHACHA20_H
#define ZINC_CHACHA20_H

#include "zinc/zinc.h"

enum {
	CHACHA20_KEY_SIZE = 32,
	CHACHA20_NONCE_SIZE = 12,
	CHACHA20_IV_SIZE = 16, /* 32-bit little-endian block counter || nonce */
	CHACHA20_BLOCK_SIZE = 64,
	HCHACHA20_NONCE_SIZE = 16,
	HCHACHA20_KEY_SIZE = 32
};

struct chacha20_ctx {
	/*
	 * "expand 32-byte k", key, block counter, nonce.  The counter is
	 * words 12 and 13 taken as one 64-bit number: past 0xffffffff it
	 * carries into word 13, as OpenSSL's ChaCha20 does.
	 */
	uint32_t state[16];
	/* Keystream left over from the last partial block. */
	uint8_t keystream[CHACHA20_BLOCK_SIZE];
	unsigned int keystream_left;
};

/* Sets key and IV (counter || nonce) and discards buffered keystream. */
void chacha20_init(struct chacha20_ctx *ctx, const uint8_t key[CHACHA20_KEY_SIZE],
		   const uint8_t iv[CHACHA20_IV_SIZE]);
void chacha20_set_key(struct chacha20_ctx *ctx, const uint8_t key[CHACHA20_KEY_SIZE]);
void chacha20_set_iv(struct chacha20_ctx *ctx, const uint8_t iv[CHACHA20_IV_SIZE]);

/*
 * XORs len bytes of keystream into src, writing dst; streams across calls
 * of any length.  dst may equal src but must not otherwise overlap it.
 */
void chacha20_crypt(struct chacha20_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t len);

/*
 * One block of some ChaCha20 stream, for chacha20_jobs(): many streams
 * (records under one key or several) side by side, a block per lane.
 */
struct chacha20_job {
	const uint32_t *key;	/* state words 4..11, in host order */
	const uint8_t *src;
	uint8_t *dst;
	uint32_t iv[4];		/* state words 12..15: block counter, nonce */
	size_t len;		/* 1..64 bytes of this block to XOR, src into dst */
};

/*
 * Runs n jobs: XORs the first len bytes of each job's keystream block into
 * its src, writing its dst (dst == src allowed, never a byte past dst +
 * len).  The jobs are independent: no two may write the same bytes, and
 * none may read what another writes.
 */
void chacha20_jobs(const struct chacha20_job *jobs, size_t n);

/* HChaCha20: derives a 32-byte subkey from a key and a 16-byte nonce. */
void hchacha20(uint8_t out[HCHACHA20_KEY_SIZE], const uint8_t nonce[HCHACHA20_NONCE_SIZE],
	       const uint8_t key[HCHACHA20_KEY_SIZE]);

/* The implementation chacha20_crypt() runs on this CPU, for buildinfo. */
const char *chacha20_implementation(void);

#endif
