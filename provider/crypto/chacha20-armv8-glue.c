/* SPDX-License-Identifier: Apache-2.0 */
/* ChaCha20 and HChaCha20 on AArch64: picks a generated/chacha20-armv8.S path. */

void zinc_chacha20_a64_1(uint8_t *dst, const uint8_t *src, size_t nblocks,
			 const uint32_t state[16]);
void zinc_chacha20_neon(uint8_t *dst, const uint8_t *src, size_t nblocks,
			const uint32_t state[16], uint8_t *first, uint8_t *last);
void zinc_hchacha20_a64(uint8_t out[HCHACHA20_KEY_SIZE], const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			const uint8_t key[HCHACHA20_KEY_SIZE]);

static bool chacha20_armv8_scalar;
static bool chacha20_armv8_neon;

/*
 * zinc_chacha20_neon makes 5 blocks per pass (4 in NEON lanes, 1 in the
 * general-purpose registers), then 1..4 left over in one 4-lane NEON pass.
 * From the design estimates in perlasm/chacha20-armv8.pl (no hardware to
 * measure on): a lone block is about twice as fast scalar as a NEON pass
 * (Cortex-A72 520 vs 940 cycles, Neoverse N1 360 vs 620), two blocks are
 * about even (1040 vs 940, 720 vs 620) and likely cheaper scalar on
 * in-order cores such as the Cortex-A53, three favour NEON (1560 vs 940).
 * So an input of 1 or 2 blocks, and 1 or 2 left after the 5-block passes,
 * go to the scalar code.  HChaCha20 is one latency-bound permutation:
 * scalar.
 */
static void chacha20_arch_choose(unsigned int f)
{
	const unsigned int neon = ZINC_CPU_ARM_ASM | ZINC_CPU_ARM_NEON;

	chacha20_armv8_scalar = (f & ZINC_CPU_ARM_ASM) != 0;
	chacha20_armv8_neon = (f & neon) == neon;
}

static bool chacha20_arch(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len)
{
	size_t nblocks = len / CHACHA20_BLOCK_SIZE;
	size_t scalar = nblocks;

	if (!chacha20_armv8_scalar)
		return false;
	if (chacha20_armv8_neon) {
		scalar = nblocks % 5;
		if (scalar > 2)
			scalar = 0;
	}
	if (nblocks > scalar) {
		zinc_chacha20_neon(dst, src, nblocks - scalar, state, NULL, NULL);
		state[12] += (uint32_t)(nblocks - scalar);
		dst += (nblocks - scalar) * CHACHA20_BLOCK_SIZE;
		src += (nblocks - scalar) * CHACHA20_BLOCK_SIZE;
	}
	if (scalar > 0) {
		zinc_chacha20_a64_1(dst, src, scalar, state);
		state[12] += (uint32_t)scalar;
	}
	return true;
}

#define CHACHA20_HAVE_BYTES_ARCH
/*
 * One pass (see chacha20.c) where NEON is chosen: the key block (first) and
 * the keystream of a partial last block (tail) come out of the NEON passes
 * as raw blocks beside the data, instead of a scalar block each.  The
 * blocks are split as in chacha20_arch(): what the 5-block passes leave,
 * if 1 or 2, runs scalar (first is always in the NEON part, which makes
 * at least 3 blocks).  1 or 2 blocks in all: false, the block calls are
 * as fast.
 */
static bool chacha20_bytes_arch(uint32_t state[16], uint8_t *first, uint8_t *dst,
				const uint8_t *src, size_t len, uint8_t tail[CHACHA20_BLOCK_SIZE])
{
	size_t full = len / CHACHA20_BLOCK_SIZE, part = len % CHACHA20_BLOCK_SIZE;
	size_t nblocks = (first != NULL) + full + (part != 0);
	size_t scalar, vec, i;
	bool tail_in_vec;

	if (!chacha20_armv8_neon || nblocks <= 2)
		return false;
	scalar = nblocks % 5;
	if (scalar > 2)
		scalar = 0;
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

static bool hchacha20_arch(uint8_t out[HCHACHA20_KEY_SIZE],
			   const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			   const uint8_t key[HCHACHA20_KEY_SIZE])
{
	if (!chacha20_armv8_scalar)
		return false;
	zinc_hchacha20_a64(out, nonce, key);
	return true;
}

static const char *chacha20_arch_name(void)
{
	if (chacha20_armv8_neon)
		return "AArch64 NEON (4 blocks + 1 scalar) + scalar";
	return chacha20_armv8_scalar ? "AArch64 scalar" : NULL;
}
