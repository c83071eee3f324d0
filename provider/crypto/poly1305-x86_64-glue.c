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
void zinc_poly1305_blocks_avx512(uint64_t st[48], const uint8_t *in, size_t len,
				 uint32_t padbit);
void zinc_poly1305_blocks_avx2(uint64_t st[48], const uint8_t *in, size_t len,
			       uint32_t padbit);
/* The vector paths' tables of powers of r, from r; set st[6]. */
void zinc_poly1305_powers_ifma(uint64_t st[48]);
void zinc_poly1305_powers_avx512(uint64_t st[48]);
void zinc_poly1305_powers_avx2(uint64_t st[48]);

/*
 * The vector code takes 128 (IFMA, AVX2) or 256 (AVX-512F) bytes at a time,
 * the scalar code the rest.  Measured here (Zen 5, shared and noisy; init,
 * blocks and emit of one message, medians of 7 to 9 runs, lengths 64..2048
 * in steps of 64), the shortest length from which the vector path wins:
 *   fresh context (its powers of r computed first, 24-34 ns):
 *     IFMA 256 (63 ns against 74 scalar; 192: 72 against 59),
 *     AVX-512F 512 (79 against 120; 448: 120 against 104),
 *     AVX2 512 (105 against 119; 448: 116 against 105);
 *   context holding its powers (the _CACHED thresholds):
 *     IFMA 128 (36 ns against 43), AVX-512F 256 (41 against 58),
 *     AVX2 256 (45 against 59; 128: 33 against 29).
 * Above them the vector path stays ahead at every length measured.
 */
#define POLY1305_IFMA_MIN 256
#define POLY1305_IFMA_MIN_CACHED 128
#define POLY1305_AVX512_MIN 512
#define POLY1305_AVX512_MIN_CACHED 256
#define POLY1305_AVX2_MIN 512
#define POLY1305_AVX2_MIN_CACHED 256

/* Offsets in st: see perlasm/poly1305-x86_64.pl. */
enum { ST_POWERS_OK = 6 };

struct poly1305_vector_path {
	unsigned int needs;	/* CPU features */
	void (*powers)(uint64_t st[48]);
	void (*blocks)(uint64_t st[48], const uint8_t *in, size_t len, uint32_t padbit);
	size_t unit;		/* bytes an iteration */
	size_t min, min_cached;	/* the lengths from which it is used */
	const char *name[2];	/* beside the MUL or the MULX/ADX scalar code */
};

/* The fastest first. */
static const struct poly1305_vector_path poly1305_vector_paths[] = {
	{ ZINC_CPU_X86_AVX2 | ZINC_CPU_X86_AVX512F | ZINC_CPU_X86_AVX512IFMA,
	  zinc_poly1305_powers_ifma, zinc_poly1305_blocks_ifma,
	  128, POLY1305_IFMA_MIN, POLY1305_IFMA_MIN_CACHED,
	  { "x86_64 radix 2^64 (MUL) + AVX-512 IFMA radix 2^44",
	    "x86_64 radix 2^64 (MULX/ADX) + AVX-512 IFMA radix 2^44" } },
	{ ZINC_CPU_X86_AVX2 | ZINC_CPU_X86_AVX512F,
	  zinc_poly1305_powers_avx512, zinc_poly1305_blocks_avx512,
	  256, POLY1305_AVX512_MIN, POLY1305_AVX512_MIN_CACHED,
	  { "x86_64 radix 2^64 (MUL) + AVX-512F radix 2^26",
	    "x86_64 radix 2^64 (MULX/ADX) + AVX-512F radix 2^26" } },
	{ ZINC_CPU_X86_AVX2,
	  zinc_poly1305_powers_avx2, zinc_poly1305_blocks_avx2,
	  128, POLY1305_AVX2_MIN, POLY1305_AVX2_MIN_CACHED,
	  { "x86_64 radix 2^64 (MUL) + AVX2 radix 2^26",
	    "x86_64 radix 2^64 (MULX/ADX) + AVX2 radix 2^26" } },
};

static void (*poly1305_scalar)(uint64_t st[48], const uint8_t *in, size_t len,
			       uint32_t padbit);
static const struct poly1305_vector_path *poly1305_vector;
static const char *poly1305_name;

static void poly1305_arch_choose(unsigned int f)
{
	const unsigned int bmi2_adx = ZINC_CPU_X86_BMI2 | ZINC_CPU_X86_ADX;
	const bool mulx = (f & bmi2_adx) == bmi2_adx;
	size_t i;

	poly1305_scalar = NULL;
	poly1305_vector = NULL;
	poly1305_name = NULL;
	/*
	 * The MUL path needs nothing beyond x86_64, but ZINC_CPU=none
	 * promises the portable C.
	 */
	if (f == 0)
		return;
	poly1305_scalar = mulx ? zinc_poly1305_blocks_x86_64_bmi2 : zinc_poly1305_blocks_x86_64;
	poly1305_name = mulx ? "x86_64 radix 2^64 (MULX/ADX)" : "x86_64 radix 2^64 (MUL)";
	for (i = 0; i < sizeof(poly1305_vector_paths) / sizeof(poly1305_vector_paths[0]); i++) {
		const struct poly1305_vector_path *v = &poly1305_vector_paths[i];

		if ((f & v->needs) == v->needs) {
			poly1305_vector = v;
			poly1305_name = v->name[mulx];
			break;
		}
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
	const struct poly1305_vector_path *v = poly1305_vector;
	uint64_t *st = opaque;

	if (poly1305_scalar == NULL)
		return false;
	/*
	 * The first long input of a context computes its powers of r (a
	 * length, not a secret, decides).
	 */
	if (v != NULL && len >= (st[ST_POWERS_OK] ? v->min_cached : v->min)) {
		const size_t n = len & ~(v->unit - 1);

		if (!st[ST_POWERS_OK])
			v->powers(st);
		v->blocks(st, in, n, padbit);
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
