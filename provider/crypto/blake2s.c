/* SPDX-License-Identifier: Apache-2.0 */
/* BLAKE2s (RFC 7693; salt and personalisation from the BLAKE2 paper): portable C and dispatch. */
#include "config.h"
#include "zinc/blake2s.h"
#include "internal.h"

/*
 * Dispatch: the arch glue is a table blake2s_paths[] (internal.h) of these.
 *
 * compress compresses nblocks (>= 1) whole blocks; before each it adds inc
 * to the 64-bit counter state->t, and it uses state->f as it is (the
 * generic code passes the last block alone, with f[0] set, and inc = its
 * length).
 */
struct blake2s_path {
	struct zinc_path path;
	void (*compress)(struct blake2s_state *state, const uint8_t *block, size_t nblocks,
			 uint32_t inc);
};

#if defined(ZINC_ASM_X86_64)
#include "blake2s-x86_64-glue.c"
#endif

static const struct blake2s_path *blake2s_path;

/* --- portable C ---------------------------------------------------------- */

static const uint32_t blake2s_iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
};

/*
 * RFC 7693, 2.7: the message schedule, SIGMA[r mod 10] for round r.  Round
 * r's mixes take message words schedule[r][2 i] and schedule[r][2 i + 1],
 * i = 0..7, in the order of blake2s_round()'s mixes.  Public constants, so
 * indexing by them is fine.
 */
static const uint8_t blake2s_schedule[10][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
};

/*
 * The rounds below are only fast fully inlined and unrolled, v in
 * registers; GCC will not inline ten copies of a round by itself.
 */
#if defined(__GNUC__)
#define BLAKE2S_INLINE inline __attribute__((always_inline))
#else
#define BLAKE2S_INLINE inline
#endif

/*
 * RFC 7693, 3.1: G.  The working vector is a 4 x 4 matrix, row by row;
 * G mixes one word of each row (a from row 0 ... d from row 3) with the
 * message words x and y, in two halves that differ only in the rotations.
 */
static BLAKE2S_INLINE void blake2s_mix(uint32_t v[16], unsigned int a, unsigned int b, unsigned int c,
			       unsigned int d, uint32_t x, uint32_t y)
{
	v[a] += v[b] + x;
	v[d] = zinc_ror32(v[d] ^ v[a], 16);
	v[c] += v[d];
	v[b] = zinc_ror32(v[b] ^ v[c], 12);
	v[a] += v[b] + y;
	v[d] = zinc_ror32(v[d] ^ v[a], 8);
	v[c] += v[d];
	v[b] = zinc_ror32(v[b] ^ v[c], 7);
}

/*
 * RFC 7693, 3.2: one round mixes the four columns, then the four
 * diagonals (diagonal i starts at column i of row 0 and moves one column
 * right per row, wrapping), taking the message words in schedule order.
 * Written out with constant positions so that v lives in registers.
 */
static BLAKE2S_INLINE void blake2s_round(uint32_t v[16], const uint32_t m[16], const uint8_t s[16])
{
	blake2s_mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
	blake2s_mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
	blake2s_mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
	blake2s_mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
	blake2s_mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
	blake2s_mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
	blake2s_mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
	blake2s_mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

static void blake2s_compress_generic(struct blake2s_state *state, const uint8_t *block,
				     size_t nblocks, uint32_t inc)
{
	uint32_t m[16], v[16];
	size_t i;

	while (nblocks-- > 0) {
		/* the 64-bit byte counter, t, counts this block's bytes too */
		state->t[0] += inc;
		state->t[1] += state->t[0] < inc;
		for (i = 0; i < 16; i++)
			m[i] = zinc_load_le32(block + 4 * i);
		/* v = h, then the IV with t and f mixed into its last four words */
		for (i = 0; i < 8; i++) {
			v[i] = state->h[i];
			v[8 + i] = blake2s_iv[i];
		}
		v[12] ^= state->t[0];
		v[13] ^= state->t[1];
		v[14] ^= state->f[0];
		v[15] ^= state->f[1];
		blake2s_round(v, m, blake2s_schedule[0]);
		blake2s_round(v, m, blake2s_schedule[1]);
		blake2s_round(v, m, blake2s_schedule[2]);
		blake2s_round(v, m, blake2s_schedule[3]);
		blake2s_round(v, m, blake2s_schedule[4]);
		blake2s_round(v, m, blake2s_schedule[5]);
		blake2s_round(v, m, blake2s_schedule[6]);
		blake2s_round(v, m, blake2s_schedule[7]);
		blake2s_round(v, m, blake2s_schedule[8]);
		blake2s_round(v, m, blake2s_schedule[9]);
		for (i = 0; i < 8; i++)
			state->h[i] ^= v[i] ^ v[8 + i];
		block += BLAKE2S_BLOCK_SIZE;
	}
	zinc_memzero(m, sizeof(m));
	zinc_memzero(v, sizeof(v));
}

static void blake2s_compress(struct blake2s_state *state, const uint8_t *block,
			     size_t nblocks, uint32_t inc)
{
	if (blake2s_path == NULL)
		blake2s_compress_generic(state, block, nblocks, inc);
	else if (nblocks > 0)
		blake2s_path->compress(state, block, nblocks, inc);
}

void blake2s_init_param(struct blake2s_state *state, size_t outlen,
			const uint8_t *key, size_t keylen,
			const uint8_t salt[BLAKE2S_SALT_SIZE],
			const uint8_t personal[BLAKE2S_PERSONAL_SIZE])
{
	size_t i;

	/* Field by field: GCC 12 clears the whole state with a slow rep stos. */
	for (i = 0; i < 8; i++)
		state->h[i] = blake2s_iv[i];
	state->t[0] = state->t[1] = 0;
	state->f[0] = state->f[1] = 0;
	state->buflen = 0;
	/* Parameter block: digest length, key length, fanout 1, depth 1; rest 0. */
	state->h[0] ^= 0x01010000 | (uint32_t)keylen << 8 | (uint32_t)outlen;
	if (salt) {
		state->h[4] ^= zinc_load_le32(salt);
		state->h[5] ^= zinc_load_le32(salt + 4);
	}
	if (personal) {
		state->h[6] ^= zinc_load_le32(personal);
		state->h[7] ^= zinc_load_le32(personal + 4);
	}
	state->outlen = (unsigned int)outlen;
	if (keylen > 0) {
		/* The key, zero-padded, is the first block (kept: it may be the last). */
		memset(state->buf, 0, BLAKE2S_BLOCK_SIZE);
		memcpy(state->buf, key, keylen);
		state->buflen = BLAKE2S_BLOCK_SIZE;
	}
}

void blake2s_init(struct blake2s_state *state, size_t outlen)
{
	blake2s_init_param(state, outlen, NULL, 0, NULL, NULL);
}

void blake2s_init_key(struct blake2s_state *state, size_t outlen,
		      const uint8_t *key, size_t keylen)
{
	blake2s_init_param(state, outlen, key, keylen, NULL, NULL);
}

void blake2s_update(struct blake2s_state *state, const uint8_t *in, size_t inlen)
{
	size_t fill = BLAKE2S_BLOCK_SIZE - state->buflen;

	if (inlen == 0)
		return;
	/* The last block, even a full one, stays buffered for final's f0 flag. */
	if (inlen > fill) {
		size_t nblocks;

		memcpy(state->buf + state->buflen, in, fill);
		blake2s_compress(state, state->buf, 1, BLAKE2S_BLOCK_SIZE);
		state->buflen = 0;
		in += fill;
		inlen -= fill;
		nblocks = (inlen - 1) / BLAKE2S_BLOCK_SIZE;
		if (nblocks > 0) {
			blake2s_compress(state, in, nblocks, BLAKE2S_BLOCK_SIZE);
			in += nblocks * BLAKE2S_BLOCK_SIZE;
			inlen -= nblocks * BLAKE2S_BLOCK_SIZE;
		}
	}
	memcpy(state->buf + state->buflen, in, inlen);
	state->buflen += (unsigned int)inlen;
}

void blake2s_final(struct blake2s_state *state, uint8_t *out)
{
	size_t i;

	state->f[0] = 0xffffffff;
	memset(state->buf + state->buflen, 0, BLAKE2S_BLOCK_SIZE - state->buflen);
	blake2s_compress(state, state->buf, 1, state->buflen);
	if (state->outlen == BLAKE2S_HASH_SIZE) {
		/* The usual size: straight to out, no copy to wipe. */
		for (i = 0; i < 8; i++)
			zinc_store_le32(out + 4 * i, state->h[i]);
	} else {
		uint8_t digest[BLAKE2S_HASH_SIZE];

		for (i = 0; i < 8; i++)
			zinc_store_le32(digest + 4 * i, state->h[i]);
		memcpy(out, digest, state->outlen);
		zinc_memzero(digest, sizeof(digest));
	}
	zinc_memzero(state, sizeof(*state));
}

void blake2s(uint8_t *out, const uint8_t *in, const uint8_t *key,
	     size_t outlen, size_t inlen, size_t keylen)
{
	struct blake2s_state state;

	blake2s_init_key(&state, outlen, key, keylen);
	blake2s_update(&state, in, inlen);
	blake2s_final(&state, out);
}

void zinc_blake2s_choose(unsigned int features)
{
#ifdef ZINC_ASM_X86_64
	blake2s_path = ZINC_CHOOSE_PATH(blake2s_paths, features);
#else
	(void)features;
#endif
}

const char *blake2s_implementation(void)
{
	return blake2s_path != NULL ? blake2s_path->path.name : "portable C";
}
