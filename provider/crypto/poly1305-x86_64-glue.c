/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Poly1305 on x86_64 (generated/poly1305-x86_64.S), #included by poly1305.c,
 * which states what each function of a path does.
 *
 * Every path shares one layout of st (see perlasm/poly1305-x86_64.pl): h in
 * radix 2^64 between calls, so the scalar code takes any length and the
 * vector code, which converts h on entry and exit, only long runs.
 */

void zinc_poly1305_init_x86_64(void *st, const uint8_t key[16]);
void zinc_poly1305_blocks_x86_64(void *st, const uint8_t *in, size_t len, uint32_t padbit);
void zinc_poly1305_blocks_x86_64_bmi2(void *st, const uint8_t *in, size_t len,
				      uint32_t padbit);
void zinc_poly1305_emit_x86_64(const void *st, uint8_t mac[16], const uint32_t nonce[4]);
void zinc_poly1305_blocks_ifma(void *st, const uint8_t *in, size_t len, uint32_t padbit);
void zinc_poly1305_blocks_avx512(void *st, const uint8_t *in, size_t len, uint32_t padbit);
void zinc_poly1305_blocks_avx2(void *st, const uint8_t *in, size_t len, uint32_t padbit);
void zinc_poly1305_powers_ifma(void *st);
void zinc_poly1305_powers_avx512(void *st);
void zinc_poly1305_powers_avx2(void *st);
void zinc_poly1305_many_ifma(void *const st[], const uint8_t *const in[], const size_t len[],
			     size_t n);

#define POLY1305_MULX (ZINC_CPU_X86_BMI2 | ZINC_CPU_X86_ADX)
#define POLY1305_AVX512 (ZINC_CPU_X86_AVX2 | ZINC_CPU_X86_AVX512F)

/*
 * The scalar code beside each vector path, MULX/ADX where there; the MUL
 * path needs nothing beyond x86_64.
 */
#define POLY1305_SCALAR(blocks_fn)						\
	.init = zinc_poly1305_init_x86_64, .blocks = (blocks_fn),			\
	.emit = zinc_poly1305_emit_x86_64
#define POLY1305_SCALAR_MULX POLY1305_SCALAR(zinc_poly1305_blocks_x86_64_bmi2)
#define POLY1305_SCALAR_MUL POLY1305_SCALAR(zinc_poly1305_blocks_x86_64)

/*
 * The vector path of each kind with its lengths (powers of r computed
 * first, and once they exist): the shortest from which it beat the scalar
 * code here, measured (perlasm/poly1305-x86_64.pl has the figures).
 */
#define POLY1305_IFMA							\
	.powers = zinc_poly1305_powers_ifma, .vector = zinc_poly1305_blocks_ifma, \
	.unit = 128, .min = 256, .min_cached = 128
/*
 * Many records side by side (perlasm/poly1305-many-x86_64.pl), up to 16,
 * each with 64 to 1791 bytes of whole blocks: fewer run as fast on the
 * scalar code, more on the vector path alone (measured there).
 */
#define POLY1305_IFMA_MANY						\
	.many = zinc_poly1305_many_ifma, .lanes = 16, .many_min = 64, .many_max = 1792

#define POLY1305_AVX512F						\
	.powers = zinc_poly1305_powers_avx512, .vector = zinc_poly1305_blocks_avx512, \
	.unit = 256, .min = 512, .min_cached = 256
#define POLY1305_AVX2							\
	.powers = zinc_poly1305_powers_avx2, .vector = zinc_poly1305_blocks_avx2, \
	.unit = 128, .min = 512, .min_cached = 256

static const struct poly1305_path poly1305_paths[] = {
	{ .path = { POLY1305_AVX512 | ZINC_CPU_X86_AVX512IFMA | POLY1305_MULX,
		    "x86_64 radix 2^64 (MULX/ADX) + AVX-512 IFMA radix 2^44" },
	  POLY1305_SCALAR_MULX, POLY1305_IFMA, POLY1305_IFMA_MANY },
	{ .path = { POLY1305_AVX512 | ZINC_CPU_X86_AVX512IFMA,
		    "x86_64 radix 2^64 (MUL) + AVX-512 IFMA radix 2^44" },
	  POLY1305_SCALAR_MUL, POLY1305_IFMA, POLY1305_IFMA_MANY },
	{ .path = { POLY1305_AVX512 | POLY1305_MULX,
		    "x86_64 radix 2^64 (MULX/ADX) + AVX-512F radix 2^26" },
	  POLY1305_SCALAR_MULX, POLY1305_AVX512F },
	{ .path = { POLY1305_AVX512, "x86_64 radix 2^64 (MUL) + AVX-512F radix 2^26" },
	  POLY1305_SCALAR_MUL, POLY1305_AVX512F },
	{ .path = { ZINC_CPU_X86_AVX2 | POLY1305_MULX,
		    "x86_64 radix 2^64 (MULX/ADX) + AVX2 radix 2^26" },
	  POLY1305_SCALAR_MULX, POLY1305_AVX2 },
	{ .path = { ZINC_CPU_X86_AVX2, "x86_64 radix 2^64 (MUL) + AVX2 radix 2^26" },
	  POLY1305_SCALAR_MUL, POLY1305_AVX2 },
	{ .path = { POLY1305_MULX, "x86_64 radix 2^64 (MULX/ADX)" }, POLY1305_SCALAR_MULX },
	{ .path = { 0, "x86_64 radix 2^64 (MUL)" }, POLY1305_SCALAR_MUL },
};
