/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BLAKE2s compression on x86_64 (generated/blake2s-x86_64.S), #included by
 * blake2s.c, which states what each function of a path does.
 */

void zinc_blake2s_compress_ssse3(struct blake2s_state *state, const uint8_t *block,
				 size_t nblocks, uint32_t inc);
void zinc_blake2s_compress_avx512vl(struct blake2s_state *state, const uint8_t *block,
				    size_t nblocks, uint32_t inc);
void zinc_blake2s_compress_bmi2(struct blake2s_state *state, const uint8_t *block,
				size_t nblocks, uint32_t inc);

/*
 * One block is one long dependency chain, and on Zen 5 a vector add or
 * rotate takes twice as long as a scalar one: there the scalar path is the
 * fastest at every length and the row paths are slower than the portable C
 * (perlasm/blake2s-x86_64.pl has the figures).  BMI2 picks the scalar path;
 * the row paths serve CPUs without BMI2.
 */
static const struct blake2s_path blake2s_paths[] = {
	{ { ZINC_CPU_X86_BMI2, "x86_64 scalar (BMI2 RORX)" }, zinc_blake2s_compress_bmi2 },
	{ { ZINC_CPU_X86_AVX | ZINC_CPU_X86_AVX512F | ZINC_CPU_X86_AVX512VL, "x86_64 AVX-512VL" },
	  zinc_blake2s_compress_avx512vl },
	{ { ZINC_CPU_X86_SSSE3, "x86_64 SSSE3" }, zinc_blake2s_compress_ssse3 },
};
