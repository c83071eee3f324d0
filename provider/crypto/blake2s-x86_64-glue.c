/* SPDX-License-Identifier: Apache-2.0 */
/* BLAKE2s compression on x86_64: picks a generated/blake2s-x86_64.S path. */

void zinc_blake2s_compress_ssse3(struct blake2s_state *state, const uint8_t *block,
				 size_t nblocks, uint32_t inc);
void zinc_blake2s_compress_avx512vl(struct blake2s_state *state, const uint8_t *block,
				    size_t nblocks, uint32_t inc);
void zinc_blake2s_compress_bmi2(struct blake2s_state *state, const uint8_t *block,
				size_t nblocks, uint32_t inc);

static void (*blake2s_x86_64)(struct blake2s_state *state, const uint8_t *block,
			      size_t nblocks, uint32_t inc);
static const char *blake2s_x86_64_name;

/*
 * One block is one long dependency chain, and on Zen 5 a vector add or
 * rotate takes twice as long as a scalar one: there the scalar path is the
 * fastest at every length and the row paths are slower than the portable C
 * (perlasm/blake2s-x86_64.pl has the figures).  BMI2 picks the scalar path;
 * the row paths serve CPUs without BMI2.
 */
static void blake2s_arch_choose(unsigned int f)
{
	const unsigned int avx512vl = ZINC_CPU_X86_AVX | ZINC_CPU_X86_AVX512F |
				      ZINC_CPU_X86_AVX512VL;

	blake2s_x86_64 = NULL;
	blake2s_x86_64_name = NULL;
	if (f & ZINC_CPU_X86_BMI2) {
		blake2s_x86_64 = zinc_blake2s_compress_bmi2;
		blake2s_x86_64_name = "x86_64 scalar (BMI2 RORX)";
	} else if ((f & avx512vl) == avx512vl) {
		blake2s_x86_64 = zinc_blake2s_compress_avx512vl;
		blake2s_x86_64_name = "x86_64 AVX-512VL";
	} else if (f & ZINC_CPU_X86_SSSE3) {
		blake2s_x86_64 = zinc_blake2s_compress_ssse3;
		blake2s_x86_64_name = "x86_64 SSSE3";
	}
}

static bool blake2s_compress_arch(struct blake2s_state *state, const uint8_t *block,
				  size_t nblocks, uint32_t inc)
{
	if (!blake2s_x86_64)
		return false;
	if (nblocks > 0)
		blake2s_x86_64(state, block, nblocks, inc);
	return true;
}

static const char *blake2s_arch_name(void)
{
	return blake2s_x86_64_name;
}
