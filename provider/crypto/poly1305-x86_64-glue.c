/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Poly1305 on x86_64 (generated/poly1305-x86_64.S), #included by poly1305.c.
 *
 * Every path shares one layout of ctx->opaque (see perlasm/poly1305-x86_64.pl):
 * h in radix 2^64 between calls, so the scalar code takes any length and
 * the vector code, which converts h on entry and exit, only long runs.
 */

void zinc_poly1305_init_x86_64(uint64_t st[48], const uint8_t key[16]);
void zinc_poly1305_blocks_x86_64(uint64_t st[48], const uint8_t *in, size_t len,
				 uint32_t padbit);
void zinc_poly1305_blocks_x86_64_bmi2(uint64_t st[48], const uint8_t *in, size_t len,
				      uint32_t padbit);
void zinc_poly1305_emit_x86_64(const uint64_t st[48], uint8_t mac[16],
			       const uint32_t nonce[4]);
void zinc_poly1305_blocks_ifma(uint64_t st[48], const uint8_t *in, size_t len,
			       uint32_t padbit);
void zinc_poly1305_blocks_avx2(uint64_t st[48], const uint8_t *in, size_t len,
			       uint32_t padbit);
void zinc_poly1305_blocks_avx512(uint64_t st[48], const uint8_t *in, size_t len,
				 uint32_t padbit);

/*
 * The vector code takes 128 (IFMA, AVX2) or 256 (AVX-512F) bytes at a time.
 * Below these lengths the scalar code is faster here (measured); the
 * _CACHED ones apply once the context holds its powers of r (which cost
 * about as much as 16 blocks of scalar code).
 */
#define POLY1305_IFMA_MIN 512
#define POLY1305_AVX2_MIN 768
#define POLY1305_IFMA_MIN_CACHED 128
#define POLY1305_AVX2_MIN_CACHED 256
#define POLY1305_AVX512_MIN 1024
#define POLY1305_AVX512_MIN_CACHED 256

/* Offsets in st: see perlasm/poly1305-x86_64.pl. */
enum { ST_R = 3, ST_POWERS_OK = 6, ST_POWERS = 8, ST_R16 = 32, ST_R8_26 = 28 };

enum poly1305_vector { VEC_NONE, VEC_AVX2, VEC_AVX512, VEC_IFMA };

static void (*poly1305_scalar)(uint64_t st[48], const uint8_t *in, size_t len,
			       uint32_t padbit);
static enum poly1305_vector poly1305_vector;
static const char *poly1305_name;

/* c = a b mod 2^130 - 5 in radix 2^44; limbs end below 2^44, 2^45, 2^42. */
static void mul44(uint64_t c[3], const uint64_t a[3], const uint64_t b[3])
{
	const uint64_t m = (UINT64_C(1) << 44) - 1;
	unsigned __int128 d0, d1, d2;
	uint64_t t;

	d0 = (unsigned __int128)a[0] * b[0] + (unsigned __int128)a[1] * (b[2] * 20) +
	     (unsigned __int128)a[2] * (b[1] * 20);
	d1 = (unsigned __int128)a[0] * b[1] + (unsigned __int128)a[1] * b[0] +
	     (unsigned __int128)a[2] * (b[2] * 20);
	d2 = (unsigned __int128)a[0] * b[2] + (unsigned __int128)a[1] * b[1] +
	     (unsigned __int128)a[2] * b[0];
	d1 += d0 >> 44;
	d2 += d1 >> 44;
	t = ((uint64_t)d0 & m) + (uint64_t)(d2 >> 42) * 5;
	c[0] = t & m;
	c[1] = ((uint64_t)d1 & m) + (t >> 44);
	c[2] = (uint64_t)d2 & (m >> 2);
}

/*
 * p[i] = r^i for i = 1..8, and p[16] = r^16, in radix 2^44: a tree of
 * products of depth 4, not a chain of 16.
 */
static void powers44(uint64_t p[17][3], const uint64_t *st)
{
	const uint64_t m = (UINT64_C(1) << 44) - 1, r0 = st[ST_R], r1 = st[ST_R + 1];
	int i;

	p[1][0] = r0 & m;
	p[1][1] = ((r0 >> 44) | (r1 << 20)) & m;
	p[1][2] = r1 >> 24;
	mul44(p[2], p[1], p[1]);
	mul44(p[3], p[2], p[1]);
	mul44(p[4], p[2], p[2]);
	for (i = 5; i <= 8; i++)
		mul44(p[i], p[4], p[i - 4]);
	mul44(p[16], p[8], p[8]);
}

/* Radix 2^44 (limbs below 2^44, 2^45, 2^42) to 2^26: limb 4 ends below 2^27. */
static void radix26(uint64_t out[5], const uint64_t c[3])
{
	const uint64_t m = (UINT64_C(1) << 26) - 1;
	const unsigned __int128 lo = (unsigned __int128)c[0] + ((unsigned __int128)c[1] << 44);
	const unsigned __int128 hi = (lo >> 64) + ((unsigned __int128)c[2] << 24);
	const uint64_t x0 = (uint64_t)lo, x1 = (uint64_t)hi, x2 = (uint64_t)(hi >> 64);

	out[0] = x0 & m;
	out[1] = (x0 >> 26) & m;
	out[2] = ((x0 >> 52) | (x1 << 12)) & m;
	out[3] = (x1 >> 14) & m;
	out[4] = (x1 >> 40) | (x2 << 24);
}

/*
 * The vector code's table of powers of r, once per context, on its first
 * long input (a length, not a secret, decides).  The lane orders are those
 * vpunpck{l,h}qdq leave: see perlasm/poly1305-x86_64.pl.
 */
static void poly1305_powers(uint64_t *st, enum poly1305_vector vec)
{
	static const int lanes8[8] = { 8, 4, 7, 3, 6, 2, 5, 1 }, lanes4[4] = { 4, 2, 3, 1 };
	uint64_t p[17][3], q[5];
	int i, j;

	powers44(p, st);
	switch (vec) {
	case VEC_IFMA:		/* r^(lanes8) limb-major, r^16 */
		for (i = 0; i < 8; i++)
			for (j = 0; j < 3; j++)
				st[ST_POWERS + 8 * j + i] = p[lanes8[i]][j];
		memcpy(st + ST_R16, p[16], sizeof(p[16]));
		break;
	case VEC_AVX512:	/* r^(lanes8) limb-major, radix 2^26 */
		for (i = 0; i < 8; i++) {
			radix26(q, p[lanes8[i]]);
			for (j = 0; j < 5; j++)
				st[ST_POWERS + 8 * j + i] = q[j];
		}
		break;
	case VEC_AVX2:		/* r^(lanes4) limb-major, r^8, radix 2^26 */
		for (i = 0; i < 4; i++) {
			radix26(q, p[lanes4[i]]);
			for (j = 0; j < 5; j++)
				st[ST_POWERS + 4 * j + i] = q[j];
		}
		radix26(st + ST_R8_26, p[8]);
		break;
	case VEC_NONE:
		break;
	}
	zinc_memzero(p, sizeof(p));
	zinc_memzero(q, sizeof(q));
	st[ST_POWERS_OK] = 1;
}

static void poly1305_arch_choose(void)
{
	const unsigned int bmi2_adx = ZINC_CPU_X86_BMI2 | ZINC_CPU_X86_ADX;
	const unsigned int avx512 = ZINC_CPU_X86_AVX2 | ZINC_CPU_X86_AVX512F;
	const unsigned int ifma = avx512 | ZINC_CPU_X86_AVX512IFMA;

	poly1305_scalar = NULL;
	poly1305_vector = VEC_NONE;
	poly1305_name = NULL;
	/*
	 * The MUL path needs nothing beyond x86_64, but ZINC_CPU=none
	 * promises the portable C.
	 */
	if (zinc_cpu_features == 0)
		return;
	if ((zinc_cpu_features & bmi2_adx) == bmi2_adx) {
		poly1305_scalar = zinc_poly1305_blocks_x86_64_bmi2;
		poly1305_name = "x86_64 radix 2^64 (MULX/ADX)";
	} else {
		poly1305_scalar = zinc_poly1305_blocks_x86_64;
		poly1305_name = "x86_64 radix 2^64 (MUL)";
	}
	if ((zinc_cpu_features & ifma) == ifma) {
		poly1305_vector = VEC_IFMA;
		poly1305_name = (zinc_cpu_features & bmi2_adx) == bmi2_adx ?
				"x86_64 radix 2^64 (MULX/ADX) + AVX-512 IFMA radix 2^44" :
				"x86_64 radix 2^64 (MUL) + AVX-512 IFMA radix 2^44";
	} else if ((zinc_cpu_features & avx512) == avx512) {
		poly1305_vector = VEC_AVX512;
		poly1305_name = (zinc_cpu_features & bmi2_adx) == bmi2_adx ?
				"x86_64 radix 2^64 (MULX/ADX) + AVX-512F radix 2^26" :
				"x86_64 radix 2^64 (MUL) + AVX-512F radix 2^26";
	} else if (zinc_cpu_features & ZINC_CPU_X86_AVX2) {
		poly1305_vector = VEC_AVX2;
		poly1305_name = (zinc_cpu_features & bmi2_adx) == bmi2_adx ?
				"x86_64 radix 2^64 (MULX/ADX) + AVX2 radix 2^26" :
				"x86_64 radix 2^64 (MUL) + AVX2 radix 2^26";
	}
}

static bool poly1305_init_arch(void *opaque, const uint8_t key[16])
{
	if (poly1305_scalar == NULL)
		return false;
	zinc_poly1305_init_x86_64(opaque, key);
	return true;
}

static bool poly1305_blocks_arch(void *opaque, const uint8_t *in, size_t len,
				 uint32_t padbit)
{
	uint64_t *st = opaque;
	size_t n;

	if (poly1305_scalar == NULL)
		return false;
	if (poly1305_vector == VEC_IFMA &&
	    len >= (st[ST_POWERS_OK] ? POLY1305_IFMA_MIN_CACHED : POLY1305_IFMA_MIN)) {
		n = len & ~(size_t)127;
		if (!st[ST_POWERS_OK])
			poly1305_powers(st, VEC_IFMA);
		zinc_poly1305_blocks_ifma(st, in, n, padbit);
		in += n;
		len -= n;
	} else if (poly1305_vector == VEC_AVX512 &&
		   len >= (st[ST_POWERS_OK] ? POLY1305_AVX512_MIN_CACHED : POLY1305_AVX512_MIN)) {
		n = len & ~(size_t)255;
		if (!st[ST_POWERS_OK])
			poly1305_powers(st, VEC_AVX512);
		zinc_poly1305_blocks_avx512(st, in, n, padbit);
		in += n;
		len -= n;
	} else if (poly1305_vector == VEC_AVX2 &&
		   len >= (st[ST_POWERS_OK] ? POLY1305_AVX2_MIN_CACHED : POLY1305_AVX2_MIN)) {
		n = len & ~(size_t)127;
		if (!st[ST_POWERS_OK])
			poly1305_powers(st, VEC_AVX2);
		zinc_poly1305_blocks_avx2(st, in, n, padbit);
		in += n;
		len -= n;
	}
	poly1305_scalar(st, in, len, padbit);
	return true;
}

static bool poly1305_emit_arch(void *opaque, uint8_t mac[POLY1305_MAC_SIZE],
			       const uint32_t nonce[4])
{
	if (poly1305_scalar == NULL)
		return false;
	zinc_poly1305_emit_x86_64(opaque, mac, nonce);
	return true;
}

static const char *poly1305_arch_name(void)
{
	return poly1305_name;
}
