/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ChaCha20 and HChaCha20 on x86_64 (generated/chacha20-x86_64.S, and
 * chacha20-jobs-x86_64.S for chacha20_jobs()), #included by chacha20.c,
 * which states what each function of a path does.
 */

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
chacha20_jobs_fn zinc_chacha20_jobs_avx512, zinc_chacha20_jobs_avx512vl, zinc_chacha20_jobs_avx2,
	zinc_chacha20_jobs_ssse3;

/*
 * A lone block, alone or as the key block, runs scalar: one block is one
 * chain of 20 rounds, and a vector add or rotate has twice the latency of a
 * scalar one on Zen 5 (perlasm/chacha20-x86_64.pl has the figures).
 * Beside data, the assembly runs the key block in the general-purpose
 * registers during the data's vector pass.
 */
static bool chacha20_bytes_avx512(uint32_t state[16], uint8_t *first, uint8_t *dst,
				  const uint8_t *src, size_t len,
				  uint8_t tail[CHACHA20_BLOCK_SIZE])
{
	size_t nblocks = (len + CHACHA20_BLOCK_SIZE - 1) / CHACHA20_BLOCK_SIZE;

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

/*
 * Up to 8 jobs, an 8-lane ymm pass takes 0.6 times as long as a 16-lane
 * zmm pass here (perlasm/chacha20-jobs-x86_64.pl): it runs what is left
 * over past whole 16-lane passes if that fits in one.
 */
static void chacha20_jobs_avx512(const struct chacha20_job *jobs, size_t n)
{
	size_t rest = n % 16;

	if (rest > 0 && rest <= 8) {
		n -= rest;
		zinc_chacha20_jobs_avx512vl(jobs + n, rest);
	}
	zinc_chacha20_jobs_avx512(jobs, n);
}

#define CHACHA20_AVX2 (ZINC_CPU_X86_AVX | ZINC_CPU_X86_AVX2)
#define CHACHA20_AVX512 (CHACHA20_AVX2 | ZINC_CPU_X86_AVX512F | ZINC_CPU_X86_AVX512VL)

/*
 * The scalar code takes one block alone or left over after full passes
 * (two with SSSE3), where a short vector pass is slower.  It needs only
 * x86_64, but runs only beside a vector path (ZINC_CPU=none means the
 * portable C).
 */
static const struct chacha20_path chacha20_paths[] = {
	{ .path = { CHACHA20_AVX512 | ZINC_CPU_X86_AVX512BW, "x86_64 AVX-512" },
	  .blocks = zinc_chacha20_avx512, .pass_blocks = 32,
	  .scalar = zinc_chacha20_x64_1, .scalar_max = 1,
	  /* masked byte loads and stores need AVX512BW */
	  .bytes = chacha20_bytes_avx512, .hchacha20 = zinc_hchacha20_x64,
	  .jobs = chacha20_jobs_avx512 },
	{ .path = { CHACHA20_AVX512, "x86_64 AVX-512" },
	  .blocks = zinc_chacha20_avx512, .pass_blocks = 32,
	  .scalar = zinc_chacha20_x64_1, .scalar_max = 1,
	  .hchacha20 = zinc_hchacha20_x64, .jobs = zinc_chacha20_jobs_avx512vl },
	{ .path = { CHACHA20_AVX2, "x86_64 AVX2" },
	  .blocks = zinc_chacha20_avx2, .pass_blocks = 8,
	  .scalar = zinc_chacha20_x64_1, .scalar_max = 1,
	  .hchacha20 = zinc_hchacha20_x64, .jobs = zinc_chacha20_jobs_avx2 },
	{ .path = { ZINC_CPU_X86_SSSE3, "x86_64 SSSE3" },
	  .blocks = zinc_chacha20_ssse3, .pass_blocks = 4,
	  .scalar = zinc_chacha20_x64_1, .scalar_max = 2,
	  .hchacha20 = zinc_hchacha20_x64, .jobs = zinc_chacha20_jobs_ssse3 },
};
