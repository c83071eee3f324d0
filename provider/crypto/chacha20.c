/* SPDX-License-Identifier: Apache-2.0 */
/* ChaCha20 (RFC 8439) and HChaCha20 (draft-irtf-cfrg-xchacha): portable C and dispatch. */
#include "config.h"
#include "zinc/chacha20.h"
#include "internal.h"

/*
 * Dispatch: the arch glue is a table chacha20_paths[] (internal.h) of these.
 *
 * blocks(dst, src, nblocks, state) XORs nblocks (>= 1) whole blocks of
 * keystream, from the counter state[12] on, into src, writing dst (dst ==
 * src allowed, either unaligned); it does not write state.  The generic
 * code advances state[12], never lets one call pass a 2^32 boundary of it
 * and carries into state[13] itself, so a 32-bit counter in the assembly
 * is correct.  A vector path's blocks runs passes of pass_blocks blocks
 * and a short one for what is left; its scalar, one block at a time, takes
 * inputs and remainders of up to scalar_max blocks, where a short pass
 * would cost more (chacha20_scalar_blocks()); scalar_max = pass_blocks - 1
 * leaves blocks whole passes only.
 *
 * bytes, optional, does in one pass what would take several block calls:
 * if first is not NULL, it stores the keystream block at state[12] raw into
 * first[0..63] and the data starts at the next block; it XORs len bytes
 * (any length, 0 included) of keystream into src, writing dst, touching no
 * byte outside dst[0..len); if len % 64 != 0 it also stores the whole
 * keystream block of the partial last block raw into tail.  It advances
 * state[12] by every block it used, (first != NULL) + ceil(len / 64),
 * within one 2^32 span (the caller makes sure).  False: not taken, the
 * block calls do the same.
 *
 * hchacha20 is HChaCha20 (draft-irtf-cfrg-xchacha 2.2).
 *
 * jobs, optional, is chacha20_jobs() (include/zinc/chacha20.h) for any n,
 * 0 included; NULL: the portable C's.
 */
typedef void chacha20_blocks_fn(uint8_t *dst, const uint8_t *src, size_t nblocks,
				const uint32_t state[16]);
typedef void chacha20_jobs_fn(const struct chacha20_job *jobs, size_t n);

struct chacha20_path {
	struct zinc_path path;
	chacha20_blocks_fn *blocks;
	size_t pass_blocks;
	chacha20_blocks_fn *scalar;	/* NULL: blocks takes everything */
	size_t scalar_max;
	bool (*bytes)(uint32_t state[16], uint8_t *first, uint8_t *dst, const uint8_t *src,
		      size_t len, uint8_t tail[CHACHA20_BLOCK_SIZE]);
	void (*hchacha20)(uint8_t out[HCHACHA20_KEY_SIZE],
			  const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			  const uint8_t key[HCHACHA20_KEY_SIZE]);
	chacha20_jobs_fn *jobs;
};

/*
 * Of nblocks, those the scalar code takes: all of them up to scalar_max,
 * else what the full passes leave if that is at most scalar_max.
 */
static size_t chacha20_scalar_blocks(const struct chacha20_path *p, size_t nblocks)
{
	size_t rest;

	if (p->scalar == NULL)
		return 0;
	if (nblocks <= p->scalar_max)
		return nblocks;
	rest = nblocks % p->pass_blocks;
	return rest <= p->scalar_max ? rest : 0;
}

#if defined(ZINC_ASM_X86_64) || defined(ZINC_ASM_ARMV8)
/* The 64-bit assembly of chacha20_jobs() reads struct chacha20_job at these offsets. */
_Static_assert(offsetof(struct chacha20_job, key) == 0 &&
	       offsetof(struct chacha20_job, src) == 8 &&
	       offsetof(struct chacha20_job, dst) == 16 &&
	       offsetof(struct chacha20_job, iv) == 24 &&
	       offsetof(struct chacha20_job, len) == 40 &&
	       sizeof(struct chacha20_job) == 48, "struct chacha20_job as the assembly reads it");
#endif

#if defined(ZINC_ASM_X86_64)
#include "chacha20-x86_64-glue.c"
#elif defined(ZINC_ASM_ARMV8)
#include "chacha20-armv8-glue.c"
#elif defined(ZINC_ASM_ARMV4)
#include "chacha20-armv4-glue.c"
#endif

static const struct chacha20_path *chacha20_path;

/* nblocks whole blocks within one 2^32 span of state[12]; false: no path. */
static bool chacha20_arch(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct chacha20_path *p = chacha20_path;
	size_t scalar;

	if (p == NULL)
		return false;
	scalar = chacha20_scalar_blocks(p, nblocks);
	if (nblocks > scalar) {
		p->blocks(dst, src, nblocks - scalar, state);
		state[12] += (uint32_t)(nblocks - scalar);
		dst += (nblocks - scalar) * CHACHA20_BLOCK_SIZE;
		src += (nblocks - scalar) * CHACHA20_BLOCK_SIZE;
	}
	if (scalar > 0) {
		p->scalar(dst, src, scalar, state);
		state[12] += (uint32_t)scalar;
	}
	return true;
}

/* --- portable C ---------------------------------------------------------- */

#define QUARTER_ROUND(a, b, c, d) do {				\
		(a) += (b); (d) = zinc_rol32((d) ^ (a), 16);	\
		(c) += (d); (b) = zinc_rol32((b) ^ (c), 12);	\
		(a) += (b); (d) = zinc_rol32((d) ^ (a), 8);	\
		(c) += (d); (b) = zinc_rol32((b) ^ (c), 7);	\
	} while (0)

/* The 20 rounds (10 column + diagonal double rounds), in place. */
static void chacha20_permute(uint32_t x[16])
{
	size_t i;

	for (i = 0; i < 10; i++) {
		QUARTER_ROUND(x[0], x[4], x[8], x[12]);
		QUARTER_ROUND(x[1], x[5], x[9], x[13]);
		QUARTER_ROUND(x[2], x[6], x[10], x[14]);
		QUARTER_ROUND(x[3], x[7], x[11], x[15]);
		QUARTER_ROUND(x[0], x[5], x[10], x[15]);
		QUARTER_ROUND(x[1], x[6], x[11], x[12]);
		QUARTER_ROUND(x[2], x[7], x[8], x[13]);
		QUARTER_ROUND(x[3], x[4], x[9], x[14]);
	}
}

/* One block at a time: for what is left after the 4-lane code. */
static void chacha20_generic_1(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			       size_t nblocks)
{
	uint32_t x[16];
	size_t i;

	while (nblocks--) {
		memcpy(x, state, sizeof(x));
		chacha20_permute(x);
		for (i = 0; i < 16; i++)
			zinc_store_le32(dst + 4 * i,
					zinc_load_le32(src + 4 * i) ^ (x[i] + state[i]));
		state[12]++;
		dst += CHACHA20_BLOCK_SIZE;
		src += CHACHA20_BLOCK_SIZE;
	}
	zinc_memzero(x, sizeof(x));
}

/*
 * Four blocks side by side, word-major: each step of a quarter round is a
 * loop over the four lanes, which compilers turn into 128-bit vector
 * operations (about 1.4 times the speed of one block at a time with GCC
 * -O2 and SSE2).
 */
#define LANES 4
#define QUARTER_ROUND_LANES(a, b, c, d) do {				\
		int l_;							\
		for (l_ = 0; l_ < LANES; l_++) {			\
			x[a][l_] += x[b][l_];				\
			x[d][l_] = zinc_rol32(x[d][l_] ^ x[a][l_], 16);	\
			x[c][l_] += x[d][l_];				\
			x[b][l_] = zinc_rol32(x[b][l_] ^ x[c][l_], 12);	\
			x[a][l_] += x[b][l_];				\
			x[d][l_] = zinc_rol32(x[d][l_] ^ x[a][l_], 8);	\
			x[c][l_] += x[d][l_];				\
			x[b][l_] = zinc_rol32(x[b][l_] ^ x[c][l_], 7);	\
		}							\
	} while (0)

/* The 20 rounds of LANES blocks side by side, in place. */
static void chacha20_permute_lanes(uint32_t x[16][LANES])
{
	size_t i;

	for (i = 0; i < 10; i++) {
		QUARTER_ROUND_LANES(0, 4, 8, 12);
		QUARTER_ROUND_LANES(1, 5, 9, 13);
		QUARTER_ROUND_LANES(2, 6, 10, 14);
		QUARTER_ROUND_LANES(3, 7, 11, 15);
		QUARTER_ROUND_LANES(0, 5, 10, 15);
		QUARTER_ROUND_LANES(1, 6, 11, 12);
		QUARTER_ROUND_LANES(2, 7, 8, 13);
		QUARTER_ROUND_LANES(3, 4, 9, 14);
	}
}

/* nblocks whole blocks; state[12] + nblocks must not pass 2^32 (the caller carries). */
static void chacha20_generic(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			     size_t nblocks)
{
	uint32_t x[16][LANES];
	size_t i, l;

	for (; nblocks >= LANES; nblocks -= LANES) {
		for (i = 0; i < 16; i++)
			for (l = 0; l < LANES; l++)
				x[i][l] = state[i];
		for (l = 0; l < LANES; l++)
			x[12][l] += (uint32_t)l;
		chacha20_permute_lanes(x);
		for (l = 0; l < LANES; l++) {
			x[12][l] += (uint32_t)l;
			for (i = 0; i < 16; i++)
				zinc_store_le32(dst + 4 * i,
						zinc_load_le32(src + 4 * i) ^ (x[i][l] + state[i]));
			dst += CHACHA20_BLOCK_SIZE;
			src += CHACHA20_BLOCK_SIZE;
		}
		state[12] += LANES;
	}
	zinc_memzero(x, sizeof(x));
	chacha20_generic_1(state, dst, src, nblocks);
}

/* Whole blocks, split at each 2^32 boundary of word 12, then carried into word 13. */
static void chacha20_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			    size_t nblocks)
{
	while (nblocks > 0) {
		uint64_t room = (UINT64_C(1) << 32) - state[12];
		size_t n = (uint64_t)nblocks < room ? nblocks : (size_t)room;

		if (!chacha20_arch(state, dst, src, n))
			chacha20_generic(state, dst, src, n);
		if (state[12] == 0)
			state[13]++;
		dst += n * CHACHA20_BLOCK_SIZE;
		src += n * CHACHA20_BLOCK_SIZE;
		nblocks -= n;
	}
}

static void discard_keystream(struct chacha20_ctx *ctx)
{
	zinc_memzero(ctx->keystream, sizeof(ctx->keystream));
	ctx->keystream_left = 0;
}

static void load_key(struct chacha20_ctx *ctx, const uint8_t key[CHACHA20_KEY_SIZE])
{
	size_t i;

	/* "expand 32-byte k" */
	ctx->state[0] = 0x61707865;
	ctx->state[1] = 0x3320646e;
	ctx->state[2] = 0x79622d32;
	ctx->state[3] = 0x6b206574;
	for (i = 0; i < 8; i++)
		ctx->state[4 + i] = zinc_load_le32(key + 4 * i);
}

static void load_iv(struct chacha20_ctx *ctx, const uint8_t iv[CHACHA20_IV_SIZE])
{
	size_t i;

	for (i = 0; i < 4; i++)
		ctx->state[12 + i] = zinc_load_le32(iv + 4 * i);
}

/* Keystream of another key or IV must never be used: each setter discards it. */
void chacha20_set_key(struct chacha20_ctx *ctx, const uint8_t key[CHACHA20_KEY_SIZE])
{
	load_key(ctx, key);
	discard_keystream(ctx);
}

void chacha20_set_iv(struct chacha20_ctx *ctx, const uint8_t iv[CHACHA20_IV_SIZE])
{
	load_iv(ctx, iv);
	discard_keystream(ctx);
}

void chacha20_init(struct chacha20_ctx *ctx, const uint8_t key[CHACHA20_KEY_SIZE],
		   const uint8_t iv[CHACHA20_IV_SIZE])
{
	load_key(ctx, key);
	load_iv(ctx, iv);
	discard_keystream(ctx);
}

/*
 * Blocks a run of len bytes uses (plus a leading one if first), if they fit
 * before the next 2^32 boundary of state[12]; 0 if they do not.
 */
static uint64_t blocks_within_span(const uint32_t state[16], bool first, size_t len)
{
	uint64_t n = (uint64_t)first + ((uint64_t)len + CHACHA20_BLOCK_SIZE - 1) / CHACHA20_BLOCK_SIZE;

	return n <= (UINT64_C(1) << 32) - state[12] ? n : 0;
}

/* One arch pass over a fresh stretch (no buffered keystream); false if not taken. */
static bool crypt_one_pass(struct chacha20_ctx *ctx, uint8_t *first, uint8_t *dst,
			   const uint8_t *src, size_t len)
{
	uint64_t n = blocks_within_span(ctx->state, first != NULL, len);

	if (n == 0 || chacha20_path == NULL || chacha20_path->bytes == NULL ||
	    !chacha20_path->bytes(ctx->state, first, dst, src, len, ctx->keystream))
		return false;
	if (ctx->state[12] == 0)
		ctx->state[13]++;
	ctx->keystream_left = (unsigned int)((CHACHA20_BLOCK_SIZE - len % CHACHA20_BLOCK_SIZE) %
					     CHACHA20_BLOCK_SIZE);
	return true;
}

void chacha20_crypt_first(struct chacha20_ctx *ctx, uint8_t first[CHACHA20_BLOCK_SIZE],
			  uint8_t *dst, const uint8_t *src, size_t len)
{
	if (ctx->keystream_left == 0 && crypt_one_pass(ctx, first, dst, src, len))
		return;
	memset(first, 0, CHACHA20_BLOCK_SIZE);
	chacha20_crypt(ctx, first, first, CHACHA20_BLOCK_SIZE);
	chacha20_crypt(ctx, dst, src, len);
}

void chacha20_crypt(struct chacha20_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t len)
{
	size_t i, n;

	if (ctx->keystream_left > 0) {
		const uint8_t *ks = ctx->keystream + CHACHA20_BLOCK_SIZE - ctx->keystream_left;

		n = len < ctx->keystream_left ? len : ctx->keystream_left;
		for (i = 0; i < n; i++)
			dst[i] = src[i] ^ ks[i];
		ctx->keystream_left -= (unsigned int)n;
		if (ctx->keystream_left == 0)
			zinc_memzero(ctx->keystream, sizeof(ctx->keystream));
		dst += n;
		src += n;
		len -= n;
	}
	if (len == 0 || crypt_one_pass(ctx, NULL, dst, src, len))
		return;

	n = len / CHACHA20_BLOCK_SIZE;
	if (n > 0) {
		chacha20_blocks(ctx->state, dst, src, n);
		dst += n * CHACHA20_BLOCK_SIZE;
		src += n * CHACHA20_BLOCK_SIZE;
		len -= n * CHACHA20_BLOCK_SIZE;
	}

	if (len > 0) {
		/* One more block of keystream: encrypt zeros; keep what is left. */
		memset(ctx->keystream, 0, sizeof(ctx->keystream));
		chacha20_blocks(ctx->state, ctx->keystream, ctx->keystream, 1);
		for (i = 0; i < len; i++)
			dst[i] = src[i] ^ ctx->keystream[i];
		ctx->keystream_left = (unsigned int)(CHACHA20_BLOCK_SIZE - len);
	}
}

/* LANES jobs at a time; a short group repeats its last job in the spare lanes. */
static void chacha20_jobs_generic(const struct chacha20_job *jobs, size_t n)
{
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	uint32_t init[16][LANES], x[16][LANES];
	uint8_t block[CHACHA20_BLOCK_SIZE];
	size_t i, l, k, lanes, len;

	for (; n > 0; jobs += lanes, n -= lanes) {
		lanes = LANES;
		if (n < LANES)
			lanes = n;
		for (l = 0; l < LANES; l++) {
			const struct chacha20_job *job = &jobs[l < lanes ? l : lanes - 1];

			for (i = 0; i < 4; i++) {
				init[i][l] = sigma[i];
				init[12 + i][l] = job->iv[i];
			}
			for (i = 0; i < 8; i++)
				init[4 + i][l] = job->key[i];
		}
		memcpy(x, init, sizeof(x));
		chacha20_permute_lanes(x);
		for (l = 0; l < lanes; l++) {
			for (i = 0; i < 16; i++)
				zinc_store_le32(block + 4 * i, x[i][l] + init[i][l]);
			len = jobs[l].len;
			if (len > CHACHA20_BLOCK_SIZE)	/* as the assembly's byte masks */
				len = CHACHA20_BLOCK_SIZE;
			for (k = 0; k < len; k++)
				jobs[l].dst[k] = jobs[l].src[k] ^ block[k];
		}
	}
	zinc_memzero(init, sizeof(init));
	zinc_memzero(x, sizeof(x));
	zinc_memzero(block, sizeof(block));
}

void chacha20_jobs(const struct chacha20_job *jobs, size_t n)
{
	if (chacha20_path != NULL && chacha20_path->jobs != NULL)
		chacha20_path->jobs(jobs, n);
	else
		chacha20_jobs_generic(jobs, n);
}

void hchacha20(uint8_t out[HCHACHA20_KEY_SIZE], const uint8_t nonce[HCHACHA20_NONCE_SIZE],
	       const uint8_t key[HCHACHA20_KEY_SIZE])
{
	uint32_t x[16];
	size_t i;

	if (chacha20_path != NULL) {
		chacha20_path->hchacha20(out, nonce, key);
		return;
	}
	x[0] = 0x61707865;
	x[1] = 0x3320646e;
	x[2] = 0x79622d32;
	x[3] = 0x6b206574;
	for (i = 0; i < 8; i++)
		x[4 + i] = zinc_load_le32(key + 4 * i);
	for (i = 0; i < 4; i++)
		x[12 + i] = zinc_load_le32(nonce + 4 * i);
	chacha20_permute(x);
	/* Words 0..3 and 12..15, without the final addition of the input. */
	for (i = 0; i < 4; i++) {
		zinc_store_le32(out + 4 * i, x[i]);
		zinc_store_le32(out + 16 + 4 * i, x[12 + i]);
	}
	zinc_memzero(x, sizeof(x));
}

void zinc_chacha20_choose(unsigned int features)
{
#ifdef ZINC_HAVE_ASM
	chacha20_path = ZINC_CHOOSE_PATH(chacha20_paths, features);
#else
	(void)features;
#endif
}

const char *chacha20_implementation(void)
{
	return chacha20_path != NULL ? chacha20_path->path.name : "portable C";
}
