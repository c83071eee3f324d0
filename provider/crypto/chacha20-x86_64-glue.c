/* SPDX-License-Identifier: Apache-2.0 */
/* ChaCha20 and HChaCha20 on x86_64: picks a generated/chacha20-x86_64.S path. */

void zinc_chacha20_ssse3(uint8_t *dst, const uint8_t *src, size_t nblocks,
			 const uint32_t state[16]);
void zinc_chacha20_avx2(uint8_t *dst, const uint8_t *src, size_t nblocks,
			const uint32_t state[16]);
void zinc_chacha20_avx512(uint8_t *dst, const uint8_t *src, size_t nblocks,
			  const uint32_t state[16]);
void zinc_chacha20_x64_1(uint8_t *dst, const uint8_t *src, size_t nblocks,
			 const uint32_t state[16]);
void zinc_chacha20_avx512_bytes(uint8_t *dst, const uint8_t *src, size_t len,
				const uint32_t state[16], uint8_t *first,
				uint8_t tail[CHACHA20_BLOCK_SIZE]);
void zinc_chacha20_xor_partial_avx512(uint8_t *dst, const uint8_t *src,
				      const uint8_t ks[CHACHA20_BLOCK_SIZE], size_t len);
void zinc_hchacha20_x64(uint8_t out[HCHACHA20_KEY_SIZE], const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			const uint8_t key[HCHACHA20_KEY_SIZE]);

static void (*chacha20_x86_64)(uint8_t *dst, const uint8_t *src, size_t nblocks,
			       const uint32_t state[16]);
static const char *chacha20_x86_64_name;
/*
 * The scalar code takes up to scalar_max blocks, alone or left over after
 * the vector path's full passes of pass_blocks blocks (where the vector
 * code would run a short pass for them).
 */
static size_t chacha20_x86_64_scalar_max;
static size_t chacha20_x86_64_pass_blocks;
static bool chacha20_x86_64_bytes;
static void (*hchacha20_x86_64)(uint8_t out[HCHACHA20_KEY_SIZE],
				const uint8_t nonce[HCHACHA20_NONCE_SIZE],
				const uint8_t key[HCHACHA20_KEY_SIZE]);

/*
 * One block is one dependency chain of 20 rounds, and vector integer ops
 * have twice the latency of scalar ones here (Zen 5): the scalar block
 * takes 73 ns, a one-block vector pass 101 (AVX-512) to 133 (SSSE3); two
 * blocks: scalar 144, SSSE3 171, AVX2 133, AVX-512 103.  HChaCha20: scalar
 * 69 ns, AVX-512VL 96, SSSE3 123.  Left over after full passes, one
 * block (two with SSSE3) scalar instead of a short vector pass: SSSE3 5
 * blocks 313 -> 243 ns, 6: 339 -> 315, AVX2 9: 312 -> 243, AVX-512 33:
 * 308 -> 271 (medians, noisy machine).  The scalar code needs only x86_64,
 * but runs only where a vector path is chosen: ZINC_CPU=none means
 * portable C.
 */
static void chacha20_arch_choose(unsigned int f)
{
	const unsigned int avx2 = ZINC_CPU_X86_AVX | ZINC_CPU_X86_AVX2;
	const unsigned int avx512 = avx2 | ZINC_CPU_X86_AVX512F | ZINC_CPU_X86_AVX512VL;

	chacha20_x86_64 = NULL;
	chacha20_x86_64_name = NULL;
	chacha20_x86_64_scalar_max = 1;
	chacha20_x86_64_pass_blocks = 1;
	chacha20_x86_64_bytes = false;
	hchacha20_x86_64 = NULL;
	if ((f & avx512) == avx512) {
		chacha20_x86_64 = zinc_chacha20_avx512;
		chacha20_x86_64_name = "x86_64 AVX-512";
		chacha20_x86_64_pass_blocks = 32;
		/* masked byte loads and stores need AVX512BW */
		chacha20_x86_64_bytes = (f & ZINC_CPU_X86_AVX512BW) != 0;
	} else if ((f & avx2) == avx2) {
		chacha20_x86_64 = zinc_chacha20_avx2;
		chacha20_x86_64_name = "x86_64 AVX2";
		chacha20_x86_64_pass_blocks = 8;
	} else if (f & ZINC_CPU_X86_SSSE3) {
		chacha20_x86_64 = zinc_chacha20_ssse3;
		chacha20_x86_64_name = "x86_64 SSSE3";
		chacha20_x86_64_scalar_max = 2;
		chacha20_x86_64_pass_blocks = 4;
	}
	if (chacha20_x86_64)
		hchacha20_x86_64 = zinc_hchacha20_x64;
}

static bool chacha20_arch(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len)
{
	size_t nblocks = len / CHACHA20_BLOCK_SIZE;
	size_t scalar;

	if (!chacha20_x86_64)
		return false;
	scalar = nblocks % chacha20_x86_64_pass_blocks;
	if (nblocks <= chacha20_x86_64_scalar_max)
		scalar = nblocks;
	else if (scalar > chacha20_x86_64_scalar_max)
		scalar = 0;
	if (nblocks > scalar) {
		chacha20_x86_64(dst, src, nblocks - scalar, state);
		state[12] += (uint32_t)(nblocks - scalar);
		dst += (nblocks - scalar) * CHACHA20_BLOCK_SIZE;
		src += (nblocks - scalar) * CHACHA20_BLOCK_SIZE;
	}
	if (scalar > 0) {
		zinc_chacha20_x64_1(dst, src, scalar, state);
		state[12] += (uint32_t)scalar;
	}
	return true;
}

#define CHACHA20_HAVE_BYTES_ARCH
/*
 * One pass for what would take several block calls (the AVX-512 F+VL+BW
 * path only; false otherwise, and the caller falls back to block calls).
 * If first is not NULL, the keystream block at counter state[12] goes raw
 * (not XORed) to first[0..63] and the data starts at the next block.  Then
 * len bytes (any length, 0 included) of keystream are XORed into src,
 * writing dst (dst == src allowed); no byte before dst or past src + len,
 * dst + len is touched.  If len % 64 != 0, the whole keystream block of
 * the partial last block also goes raw to tail[0..63].  state[12] is
 * advanced by every block used: (first != NULL) + ceil(len / 64).  The
 * caller keeps those blocks within one 2^32 span of state[12] (no carry
 * into state[13] here).
 */
static bool chacha20_bytes_arch(uint32_t state[16], uint8_t *first, uint8_t *dst,
				const uint8_t *src, size_t len, uint8_t tail[CHACHA20_BLOCK_SIZE])
{
	size_t nblocks = (len + CHACHA20_BLOCK_SIZE - 1) / CHACHA20_BLOCK_SIZE;

	if (!chacha20_x86_64_bytes)
		return false;
	/*
	 * A lone block is faster scalar: 73 ns against 107 for a horizontal
	 * pass (80-93 with the masked XOR of a partial block below).  Beside data,
	 * the asm runs the key block in the GPRs during the data's pass.
	 */
	if (first && len == 0) {
		memset(first, 0, CHACHA20_BLOCK_SIZE);
		zinc_chacha20_x64_1(first, first, 1, state);
	} else if (first || nblocks > 1) {
		zinc_chacha20_avx512_bytes(dst, src, len, state, first, tail);
	} else if (len == CHACHA20_BLOCK_SIZE) {
		zinc_chacha20_x64_1(dst, src, 1, state);
	} else if (len > 0) {
		memset(tail, 0, CHACHA20_BLOCK_SIZE);
		zinc_chacha20_x64_1(tail, tail, 1, state);
		zinc_chacha20_xor_partial_avx512(dst, src, tail, len);
	}
	state[12] += (uint32_t)(nblocks + (first != NULL));
	return true;
}

static bool hchacha20_arch(uint8_t out[HCHACHA20_KEY_SIZE],
			   const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			   const uint8_t key[HCHACHA20_KEY_SIZE])
{
	if (!hchacha20_x86_64)
		return false;
	hchacha20_x86_64(out, nonce, key);
	return true;
}

static const char *chacha20_arch_name(void)
{
	return chacha20_x86_64_name;
}
