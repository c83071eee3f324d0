/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ChaCha20 and HChaCha20 on AArch64 (generated/chacha20-armv8.S, and
 * chacha20-jobs-armv8.S for chacha20_jobs()), #included by chacha20.c,
 * which states what each function of a path does.
 */

void zinc_chacha20_a64_1(uint8_t *dst, const uint8_t *src, size_t nblocks,
			 const uint32_t state[16]);
void zinc_chacha20_neon(uint8_t *dst, const uint8_t *src, size_t nblocks,
			const uint32_t state[16], uint8_t *first, uint8_t *last);
void zinc_hchacha20_a64(uint8_t out[HCHACHA20_KEY_SIZE], const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			const uint8_t key[HCHACHA20_KEY_SIZE]);
chacha20_jobs_fn zinc_chacha20_jobs_neon;

static void chacha20_neon_blocks(uint8_t *dst, const uint8_t *src, size_t nblocks,
				 const uint32_t state[16])
{
	zinc_chacha20_neon(dst, src, nblocks, state, NULL, NULL);
}

/*
 * The key block (first) and the keystream of a partial last block (tail)
 * come out of the NEON passes as raw blocks beside the data, instead of a
 * scalar block each.  The blocks are split as the block calls split them
 * (first always falls in the NEON part, which makes at least 3 blocks); 1
 * or 2 blocks in all: not taken, the block calls are as fast.
 */
static bool chacha20_bytes_neon(uint32_t state[16], uint8_t *first, uint8_t *dst,
				const uint8_t *src, size_t len, uint8_t tail[CHACHA20_BLOCK_SIZE]);

/*
 * zinc_chacha20_neon makes 5 blocks a pass (4 in NEON lanes, 1 in the
 * general-purpose registers), and what is left in one 4-lane pass.  By the
 * estimates in perlasm/chacha20-armv8.pl (no hardware to measure on), one
 * block alone is about twice as fast scalar as a NEON pass, two are about
 * even (likely cheaper scalar on in-order cores), three favour NEON: 1 or
 * 2 blocks, alone or left over, run scalar.  HChaCha20 is one
 * latency-bound permutation: scalar.
 */
static const struct chacha20_path chacha20_paths[] = {
	{ .path = { ZINC_CPU_ARM_ASM | ZINC_CPU_ARM_NEON,
		    "AArch64 NEON (4 blocks + 1 scalar) + scalar" },
	  .blocks = chacha20_neon_blocks, .pass_blocks = 5,
	  .scalar = zinc_chacha20_a64_1, .scalar_max = 2,
	  .bytes = chacha20_bytes_neon, .hchacha20 = zinc_hchacha20_a64,
	  .jobs = zinc_chacha20_jobs_neon },
	{ .path = { ZINC_CPU_ARM_ASM, "AArch64 scalar" },
	  .blocks = zinc_chacha20_a64_1, .pass_blocks = 1,
	  .hchacha20 = zinc_hchacha20_a64 },
};

static bool chacha20_bytes_neon(uint32_t state[16], uint8_t *first, uint8_t *dst,
				const uint8_t *src, size_t len, uint8_t tail[CHACHA20_BLOCK_SIZE])
{
	size_t full = len / CHACHA20_BLOCK_SIZE, part = len % CHACHA20_BLOCK_SIZE;
	size_t nblocks = (first != NULL) + full + (part != 0);
	size_t scalar, vec, i;
	bool tail_in_vec;

	if (nblocks <= 2)
		return false;
	scalar = chacha20_scalar_blocks(&chacha20_paths[0], nblocks);
	vec = nblocks - scalar;
	tail_in_vec = part != 0 && scalar == 0;
	zinc_chacha20_neon(dst, src, vec, state, first, tail_in_vec ? tail : NULL);
	state[12] += (uint32_t)vec;
	vec -= (first != NULL) + tail_in_vec;	/* the whole data blocks among them */
	dst += vec * CHACHA20_BLOCK_SIZE;
	src += vec * CHACHA20_BLOCK_SIZE;
	full -= vec;
	if (full > 0) {
		zinc_chacha20_a64_1(dst, src, full, state);
		state[12] += (uint32_t)full;
		dst += full * CHACHA20_BLOCK_SIZE;
		src += full * CHACHA20_BLOCK_SIZE;
	}
	if (part != 0 && !tail_in_vec) {
		memset(tail, 0, CHACHA20_BLOCK_SIZE);
		zinc_chacha20_a64_1(tail, tail, 1, state);
		state[12]++;
	}
	for (i = 0; i < part; i++)
		dst[i] = src[i] ^ tail[i];
	return true;
}
