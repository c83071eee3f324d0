/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 (RFC 7748): portable constant-time C and dispatch.
 *
 * Field elements mod p = 2^255 - 19 are unsigned limbs kept loosely
 * reduced: radix 2^51 (5 x 64-bit limbs, 128-bit products) where the
 * compiler has unsigned __int128, otherwise radix 2^25.5 (10 x 32-bit limbs
 * of alternately 26 and 25 bits, 64-bit products) for 32-bit targets.
 * Defining ZINC_CURVE25519_FORCE_32BIT selects the latter anywhere, so that
 * the test can build and check it on a 64-bit machine too.
 *
 * Nothing secret steers a branch or a memory index: the ladder swaps with
 * masks and every loop bound is public.
 */
#include "config.h"
#include "zinc/curve25519.h"
#include "internal.h"

/*
 * Dispatch: the arch glue is a table curve25519_paths[] (internal.h) of
 * these.  The copy the test builds with the 32-bit field
 * (ZINC_CURVE25519_FORCE_32BIT) stays portable.
 *
 * scalarmult computes X25519(scalar, u) exactly as the portable code does
 * (clamping, top bit of u ignored, result fully reduced); base computes
 * X25519(secret, 9), NULL meaning scalarmult with u = 9.
 */
struct curve25519_path {
	struct zinc_path path;
	void (*scalarmult)(uint8_t out[CURVE25519_KEY_SIZE],
			   const uint8_t scalar[CURVE25519_KEY_SIZE],
			   const uint8_t u[CURVE25519_KEY_SIZE]);
	void (*base)(uint8_t pub[CURVE25519_KEY_SIZE], const uint8_t secret[CURVE25519_KEY_SIZE]);
};

#if defined(ZINC_CURVE25519_FORCE_32BIT)
#undef ZINC_HAVE_ASM
#elif defined(ZINC_ASM_X86_64)
#include "curve25519-x86_64-glue.c"
#elif defined(ZINC_ASM_ARMV8)
#include "curve25519-armv8-glue.c"
#elif defined(ZINC_ASM_ARMV4)
#include "curve25519-armv4-glue.c"
#endif

static const struct curve25519_path *curve25519_path;

/* --- portable C: field arithmetic ---------------------------------------- */

/*
 * Keeps the optimiser from reasoning about a mask's value, so that it
 * cannot turn the masked selection back into a branch.
 */
#if defined(__GNUC__)
#define VALUE_BARRIER(x) __asm__("" : "+r"(x))
#else
#define VALUE_BARRIER(x) ((void)0)
#endif

/*
 * Each representation provides fe (an array type), fe_0, fe_1, fe_copy,
 * fe_cswap, fe_add, fe_sub, fe_mul, fe_sq, fe_mul121665, fe_frombytes and
 * fe_tobytes.  Bounds: fe_mul, fe_sq, fe_mul121665 and fe_frombytes return
 * "carried" limbs (each at most its nominal width plus a little);
 * fe_add and fe_sub take carried operands only, and their results are
 * only ever multiplied.
 */
#if defined(__SIZEOF_INT128__) && !defined(ZINC_CURVE25519_FORCE_32BIT)

#define FE_NAME "radix 2^51"
#define FE_LIMBS 5

__extension__ typedef __uint128_t u128;
typedef uint64_t fe[FE_LIMBS];

#define MASK51 ((UINT64_C(1) << 51) - 1)

/* Bit 255 is dropped; a value >= p stays as it is, which is fine mod p. */
static void fe_frombytes(fe h, const uint8_t s[32])
{
	h[0] = zinc_load_le64(s) & MASK51;
	h[1] = (zinc_load_le64(s + 6) >> 3) & MASK51;
	h[2] = (zinc_load_le64(s + 12) >> 6) & MASK51;
	h[3] = (zinc_load_le64(s + 19) >> 1) & MASK51;
	h[4] = (zinc_load_le64(s + 24) >> 12) & MASK51;
}

/*
 * Carries the 128-bit column sums into 51-bit limbs; the carry out of the
 * top limb is worth 19 at the bottom (2^255 = 19 mod p).
 */
static void fe_carry_wide(fe h, u128 t[5])
{
	u128 c;

	t[1] += (uint64_t)(t[0] >> 51);
	t[2] += (uint64_t)(t[1] >> 51);
	t[3] += (uint64_t)(t[2] >> 51);
	t[4] += (uint64_t)(t[3] >> 51);
	c = (u128)((uint64_t)t[0] & MASK51) + (u128)(uint64_t)(t[4] >> 51) * 19;
	h[0] = (uint64_t)c & MASK51;
	h[1] = ((uint64_t)t[1] & MASK51) + (uint64_t)(c >> 51);
	h[2] = (uint64_t)t[2] & MASK51;
	h[3] = (uint64_t)t[3] & MASK51;
	h[4] = (uint64_t)t[4] & MASK51;
}

/* Operand limbs below 2^54: every column sum stays below 2^115. */
static void fe_mul(fe h, const fe f, const fe g)
{
	uint64_t g1_19 = 19 * g[1], g2_19 = 19 * g[2], g3_19 = 19 * g[3], g4_19 = 19 * g[4];
	u128 t[5];

	t[0] = (u128)f[0] * g[0] + (u128)f[1] * g4_19 + (u128)f[2] * g3_19 +
	       (u128)f[3] * g2_19 + (u128)f[4] * g1_19;
	t[1] = (u128)f[0] * g[1] + (u128)f[1] * g[0] + (u128)f[2] * g4_19 +
	       (u128)f[3] * g3_19 + (u128)f[4] * g2_19;
	t[2] = (u128)f[0] * g[2] + (u128)f[1] * g[1] + (u128)f[2] * g[0] +
	       (u128)f[3] * g4_19 + (u128)f[4] * g3_19;
	t[3] = (u128)f[0] * g[3] + (u128)f[1] * g[2] + (u128)f[2] * g[1] +
	       (u128)f[3] * g[0] + (u128)f[4] * g4_19;
	t[4] = (u128)f[0] * g[4] + (u128)f[1] * g[3] + (u128)f[2] * g[2] +
	       (u128)f[3] * g[1] + (u128)f[4] * g[0];
	fe_carry_wide(h, t);
}

static void fe_sq(fe h, const fe f)
{
	uint64_t f0_2 = 2 * f[0], f1_2 = 2 * f[1], f2_2 = 2 * f[2], f3_2 = 2 * f[3];
	uint64_t f3_19 = 19 * f[3], f4_19 = 19 * f[4];
	u128 t[5];

	t[0] = (u128)f[0] * f[0] + (u128)f1_2 * f4_19 + (u128)f2_2 * f3_19;
	t[1] = (u128)f0_2 * f[1] + (u128)f2_2 * f4_19 + (u128)f[3] * f3_19;
	t[2] = (u128)f0_2 * f[2] + (u128)f[1] * f[1] + (u128)f3_2 * f4_19;
	t[3] = (u128)f0_2 * f[3] + (u128)f1_2 * f[2] + (u128)f[4] * f4_19;
	t[4] = (u128)f0_2 * f[4] + (u128)f1_2 * f[3] + (u128)f[2] * f[2];
	fe_carry_wide(h, t);
}

/* h = f * (A - 2) / 4 = f * 121665 */
static void fe_mul121665(fe h, const fe f)
{
	u128 t[5];
	int i;

	for (i = 0; i < 5; i++)
		t[i] = (u128)f[i] * 121665;
	fe_carry_wide(h, t);
}

static void fe_add(fe h, const fe f, const fe g)
{
	int i;

	for (i = 0; i < 5; i++)
		h[i] = f[i] + g[i];
}

/* h = f - g + 4p: carried g never exceeds 4p's limbs, so nothing wraps. */
static void fe_sub(fe h, const fe f, const fe g)
{
	const uint64_t four_p0 = (MASK51 - 18) * 4, four_p = MASK51 * 4;

	h[0] = f[0] + four_p0 - g[0];
	h[1] = f[1] + four_p - g[1];
	h[2] = f[2] + four_p - g[2];
	h[3] = f[3] + four_p - g[3];
	h[4] = f[4] + four_p - g[4];
}

/* The unique representative in [0, p), little-endian. */
static void fe_tobytes(uint8_t s[32], const fe f)
{
	uint64_t h[5], q;
	int i;

	/* One carry pass: limbs 1..4 below 2^51, and the value below 2p. */
	memcpy(h, f, sizeof(h));
	for (i = 0; i < 4; i++) {
		h[i + 1] += h[i] >> 51;
		h[i] &= MASK51;
	}
	h[0] += 19 * (h[4] >> 51);
	h[4] &= MASK51;

	/* q = 1 exactly when h >= p, i.e. when h + 19 reaches 2^255. */
	q = (h[0] + 19) >> 51;
	for (i = 1; i < 5; i++)
		q = (h[i] + q) >> 51;

	/* h - q * p = h + 19 * q - q * 2^255: add, carry, drop bit 255. */
	h[0] += 19 * q;
	for (i = 0; i < 4; i++) {
		h[i + 1] += h[i] >> 51;
		h[i] &= MASK51;
	}
	h[4] &= MASK51;

	zinc_store_le64(s, h[0] | h[1] << 51);
	zinc_store_le64(s + 8, h[1] >> 13 | h[2] << 38);
	zinc_store_le64(s + 16, h[2] >> 26 | h[3] << 25);
	zinc_store_le64(s + 24, h[3] >> 39 | h[4] << 12);
	zinc_memzero(h, sizeof(h));
}

/* Swaps f and g if bit is 1, leaves them if 0, in the same time either way. */
static void fe_cswap(fe f, fe g, uint64_t bit)
{
	uint64_t mask = 0 - bit;
	int i;

	VALUE_BARRIER(mask);
	for (i = 0; i < 5; i++) {
		const uint64_t x = mask & (f[i] ^ g[i]);

		f[i] ^= x;
		g[i] ^= x;
	}
}

#else /* 32-bit limbs */

#define FE_NAME "radix 2^25.5"
#define FE_LIMBS 10

/* Limb i holds bits ceil(25.5 i) upwards: 26 bits when i is even, 25 when odd. */
typedef uint32_t fe[FE_LIMBS];

#define MASK26 ((UINT32_C(1) << 26) - 1)
#define MASK25 ((UINT32_C(1) << 25) - 1)

static uint32_t limb_mask(int i)
{
	return (i & 1) ? MASK25 : MASK26;
}

static void fe_frombytes(fe h, const uint8_t s[32])
{
	/* Every limb lies within the four bytes at its first bit's byte. */
	static const uint8_t pos[FE_LIMBS] = { 0, 26, 51, 77, 102, 128, 153, 179, 204, 230 };
	int i;

	for (i = 0; i < FE_LIMBS; i++)
		h[i] = (zinc_load_le32(s + (pos[i] >> 3)) >> (pos[i] & 7)) & limb_mask(i);
}

/* Carries 64-bit column sums into limbs; the top carry is worth 19 at the bottom. */
static void fe_carry_wide(fe h, uint64_t t[FE_LIMBS])
{
	int i;

	for (i = 0; i < FE_LIMBS - 1; i++) {
		t[i + 1] += t[i] >> (26 - (i & 1));
		t[i] &= limb_mask(i);
	}
	t[0] += 19 * (t[9] >> 25);
	t[9] &= MASK25;
	t[1] += t[0] >> 26;
	t[0] &= MASK26;
	for (i = 0; i < FE_LIMBS; i++)
		h[i] = (uint32_t)t[i];
}

/*
 * Column k sums f[i] g[j] over i + j = k, and 19 f[i] g[j] over
 * i + j = k + 10; a product of two odd limbs counts twice, because
 * ceil(25.5 i) + ceil(25.5 j) exceeds ceil(25.5 (i + j)) by one exactly
 * when i and j are both odd.  With operand limbs at most three times
 * their nominal width (sums and differences of carried values), 19 times a
 * limb still fits in 32 bits (57 * 2^26 < 2^32) and the largest column
 * stays below 2^62.2.
 */
static void fe_mul(fe h, const fe f, const fe g)
{
	uint32_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
	uint32_t f5 = f[5], f6 = f[6], f7 = f[7], f8 = f[8], f9 = f[9];
	uint32_t f1_2 = 2 * f1, f3_2 = 2 * f3, f5_2 = 2 * f5, f7_2 = 2 * f7, f9_2 = 2 * f9;
	uint32_t g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3], g4 = g[4];
	uint32_t g5 = g[5], g6 = g[6], g7 = g[7], g8 = g[8], g9 = g[9];
	uint32_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4;
	uint32_t g5_19 = 19 * g5, g6_19 = 19 * g6, g7_19 = 19 * g7, g8_19 = 19 * g8;
	uint32_t g9_19 = 19 * g9;
	uint64_t t[FE_LIMBS];

	t[0] = (uint64_t)f0 * g0 + (uint64_t)f1_2 * g9_19 + (uint64_t)f2 * g8_19 +
	       (uint64_t)f3_2 * g7_19 + (uint64_t)f4 * g6_19 + (uint64_t)f5_2 * g5_19 +
	       (uint64_t)f6 * g4_19 + (uint64_t)f7_2 * g3_19 + (uint64_t)f8 * g2_19 +
	       (uint64_t)f9_2 * g1_19;
	t[1] = (uint64_t)f0 * g1 + (uint64_t)f1 * g0 + (uint64_t)f2 * g9_19 +
	       (uint64_t)f3 * g8_19 + (uint64_t)f4 * g7_19 + (uint64_t)f5 * g6_19 +
	       (uint64_t)f6 * g5_19 + (uint64_t)f7 * g4_19 + (uint64_t)f8 * g3_19 +
	       (uint64_t)f9 * g2_19;
	t[2] = (uint64_t)f0 * g2 + (uint64_t)f1_2 * g1 + (uint64_t)f2 * g0 +
	       (uint64_t)f3_2 * g9_19 + (uint64_t)f4 * g8_19 + (uint64_t)f5_2 * g7_19 +
	       (uint64_t)f6 * g6_19 + (uint64_t)f7_2 * g5_19 + (uint64_t)f8 * g4_19 +
	       (uint64_t)f9_2 * g3_19;
	t[3] = (uint64_t)f0 * g3 + (uint64_t)f1 * g2 + (uint64_t)f2 * g1 + (uint64_t)f3 * g0 +
	       (uint64_t)f4 * g9_19 + (uint64_t)f5 * g8_19 + (uint64_t)f6 * g7_19 +
	       (uint64_t)f7 * g6_19 + (uint64_t)f8 * g5_19 + (uint64_t)f9 * g4_19;
	t[4] = (uint64_t)f0 * g4 + (uint64_t)f1_2 * g3 + (uint64_t)f2 * g2 + (uint64_t)f3_2 * g1 +
	       (uint64_t)f4 * g0 + (uint64_t)f5_2 * g9_19 + (uint64_t)f6 * g8_19 +
	       (uint64_t)f7_2 * g7_19 + (uint64_t)f8 * g6_19 + (uint64_t)f9_2 * g5_19;
	t[5] = (uint64_t)f0 * g5 + (uint64_t)f1 * g4 + (uint64_t)f2 * g3 + (uint64_t)f3 * g2 +
	       (uint64_t)f4 * g1 + (uint64_t)f5 * g0 + (uint64_t)f6 * g9_19 +
	       (uint64_t)f7 * g8_19 + (uint64_t)f8 * g7_19 + (uint64_t)f9 * g6_19;
	t[6] = (uint64_t)f0 * g6 + (uint64_t)f1_2 * g5 + (uint64_t)f2 * g4 + (uint64_t)f3_2 * g3 +
	       (uint64_t)f4 * g2 + (uint64_t)f5_2 * g1 + (uint64_t)f6 * g0 +
	       (uint64_t)f7_2 * g9_19 + (uint64_t)f8 * g8_19 + (uint64_t)f9_2 * g7_19;
	t[7] = (uint64_t)f0 * g7 + (uint64_t)f1 * g6 + (uint64_t)f2 * g5 + (uint64_t)f3 * g4 +
	       (uint64_t)f4 * g3 + (uint64_t)f5 * g2 + (uint64_t)f6 * g1 + (uint64_t)f7 * g0 +
	       (uint64_t)f8 * g9_19 + (uint64_t)f9 * g8_19;
	t[8] = (uint64_t)f0 * g8 + (uint64_t)f1_2 * g7 + (uint64_t)f2 * g6 + (uint64_t)f3_2 * g5 +
	       (uint64_t)f4 * g4 + (uint64_t)f5_2 * g3 + (uint64_t)f6 * g2 + (uint64_t)f7_2 * g1 +
	       (uint64_t)f8 * g0 + (uint64_t)f9_2 * g9_19;
	t[9] = (uint64_t)f0 * g9 + (uint64_t)f1 * g8 + (uint64_t)f2 * g7 + (uint64_t)f3 * g6 +
	       (uint64_t)f4 * g5 + (uint64_t)f5 * g4 + (uint64_t)f6 * g3 + (uint64_t)f7 * g2 +
	       (uint64_t)f8 * g1 + (uint64_t)f9 * g0;
	fe_carry_wide(h, t);
}

/* The same columns as fe_mul with f = g, each cross product taken once, doubled. */
static void fe_sq(fe h, const fe f)
{
	uint32_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
	uint32_t f5 = f[5], f6 = f[6], f7 = f[7], f8 = f[8], f9 = f[9];
	uint32_t f0_2 = 2 * f0, f1_2 = 2 * f1, f2_2 = 2 * f2, f3_2 = 2 * f3, f4_2 = 2 * f4;
	uint32_t f5_2 = 2 * f5, f6_2 = 2 * f6, f7_2 = 2 * f7, f8_2 = 2 * f8, f9_2 = 2 * f9;
	uint32_t f1_4 = 4 * f1, f3_4 = 4 * f3, f5_4 = 4 * f5, f7_4 = 4 * f7;
	uint32_t f5_19 = 19 * f5, f6_19 = 19 * f6, f7_19 = 19 * f7, f8_19 = 19 * f8;
	uint32_t f9_19 = 19 * f9;
	uint64_t t[FE_LIMBS];

	t[0] = (uint64_t)f0 * f0 + (uint64_t)f1_4 * f9_19 + (uint64_t)f2_2 * f8_19 +
	       (uint64_t)f3_4 * f7_19 + (uint64_t)f4_2 * f6_19 + (uint64_t)f5_2 * f5_19;
	t[1] = (uint64_t)f0_2 * f1 + (uint64_t)f2_2 * f9_19 + (uint64_t)f3_2 * f8_19 +
	       (uint64_t)f4_2 * f7_19 + (uint64_t)f5_2 * f6_19;
	t[2] = (uint64_t)f0_2 * f2 + (uint64_t)f1_2 * f1 + (uint64_t)f3_4 * f9_19 +
	       (uint64_t)f4_2 * f8_19 + (uint64_t)f5_4 * f7_19 + (uint64_t)f6 * f6_19;
	t[3] = (uint64_t)f0_2 * f3 + (uint64_t)f1_2 * f2 + (uint64_t)f4_2 * f9_19 +
	       (uint64_t)f5_2 * f8_19 + (uint64_t)f6_2 * f7_19;
	t[4] = (uint64_t)f0_2 * f4 + (uint64_t)f1_4 * f3 + (uint64_t)f2 * f2 +
	       (uint64_t)f5_4 * f9_19 + (uint64_t)f6_2 * f8_19 + (uint64_t)f7_2 * f7_19;
	t[5] = (uint64_t)f0_2 * f5 + (uint64_t)f1_2 * f4 + (uint64_t)f2_2 * f3 +
	       (uint64_t)f6_2 * f9_19 + (uint64_t)f7_2 * f8_19;
	t[6] = (uint64_t)f0_2 * f6 + (uint64_t)f1_4 * f5 + (uint64_t)f2_2 * f4 +
	       (uint64_t)f3_2 * f3 + (uint64_t)f7_4 * f9_19 + (uint64_t)f8 * f8_19;
	t[7] = (uint64_t)f0_2 * f7 + (uint64_t)f1_2 * f6 + (uint64_t)f2_2 * f5 +
	       (uint64_t)f3_2 * f4 + (uint64_t)f8_2 * f9_19;
	t[8] = (uint64_t)f0_2 * f8 + (uint64_t)f1_4 * f7 + (uint64_t)f2_2 * f6 +
	       (uint64_t)f3_4 * f5 + (uint64_t)f4 * f4 + (uint64_t)f9_2 * f9_19;
	t[9] = (uint64_t)f0_2 * f9 + (uint64_t)f1_2 * f8 + (uint64_t)f2_2 * f7 +
	       (uint64_t)f3_2 * f6 + (uint64_t)f4_2 * f5;
	fe_carry_wide(h, t);
}

static void fe_mul121665(fe h, const fe f)
{
	uint64_t t[FE_LIMBS];
	int i;

	for (i = 0; i < FE_LIMBS; i++)
		t[i] = (uint64_t)f[i] * 121665;
	fe_carry_wide(h, t);
}

static void fe_add(fe h, const fe f, const fe g)
{
	int i;

	for (i = 0; i < FE_LIMBS; i++)
		h[i] = f[i] + g[i];
}

/* h = f - g + 2p: carried g never exceeds 2p's limbs, so nothing wraps. */
static void fe_sub(fe h, const fe f, const fe g)
{
	int i;

	h[0] = f[0] + 2 * (MASK26 - 18) - g[0];
	for (i = 1; i < FE_LIMBS; i++)
		h[i] = f[i] + 2 * limb_mask(i) - g[i];
}

static void fe_tobytes(uint8_t s[32], const fe f)
{
	uint32_t h[FE_LIMBS], q;
	uint64_t acc = 0;
	int i, bits = 0, n = 0;

	/* One carry pass: limbs 1..9 within their widths, the value below 2p. */
	memcpy(h, f, sizeof(h));
	for (i = 0; i < FE_LIMBS - 1; i++) {
		h[i + 1] += h[i] >> (26 - (i & 1));
		h[i] &= limb_mask(i);
	}
	h[0] += 19 * (h[9] >> 25);
	h[9] &= MASK25;

	/* q = 1 exactly when h >= p, i.e. when h + 19 reaches 2^255. */
	q = (h[0] + 19) >> 26;
	for (i = 1; i < FE_LIMBS; i++)
		q = (h[i] + q) >> (26 - (i & 1));

	h[0] += 19 * q;
	for (i = 0; i < FE_LIMBS - 1; i++) {
		h[i + 1] += h[i] >> (26 - (i & 1));
		h[i] &= limb_mask(i);
	}
	h[9] &= MASK25;

	for (i = 0; i < FE_LIMBS; i++) {
		acc |= (uint64_t)h[i] << bits;
		bits += 26 - (i & 1);
		for (; bits >= 8; bits -= 8) {
			s[n++] = (uint8_t)acc;
			acc >>= 8;
		}
	}
	s[n] = (uint8_t)acc;	/* bits 248..254 */
	zinc_memzero(h, sizeof(h));
}

static void fe_cswap(fe f, fe g, uint32_t bit)
{
	uint32_t mask = 0 - bit;
	int i;

	VALUE_BARRIER(mask);
	for (i = 0; i < FE_LIMBS; i++) {
		const uint32_t x = mask & (f[i] ^ g[i]);

		f[i] ^= x;
		g[i] ^= x;
	}
}

#endif

static void fe_0(fe h)
{
	memset(h, 0, sizeof(fe));
}

static void fe_1(fe h)
{
	memset(h, 0, sizeof(fe));
	h[0] = 1;
}

static void fe_copy(fe h, const fe f)
{
	memcpy(h, f, sizeof(fe));
}

/* h = f squared n times (n >= 1). */
static void fe_sq_n(fe h, const fe f, int n)
{
	fe_sq(h, f);
	while (--n > 0)
		fe_sq(h, h);
}

/* h = z^(p - 2) = 1/z (0 for z = 0): a fixed chain of 254 squarings and 11 multiplications. */
static void fe_invert(fe h, const fe z)
{
	fe z2, z9, z11, a, b, c;

	fe_sq(z2, z);			/* z^2 */
	fe_sq_n(a, z2, 2);		/* z^8 */
	fe_mul(z9, a, z);		/* z^9 */
	fe_mul(z11, z9, z2);		/* z^11 */
	fe_sq(a, z11);			/* z^22 */
	fe_mul(a, a, z9);		/* z^(2^5 - 1) */
	fe_sq_n(b, a, 5);
	fe_mul(a, b, a);		/* z^(2^10 - 1) */
	fe_sq_n(b, a, 10);
	fe_mul(b, b, a);		/* z^(2^20 - 1) */
	fe_sq_n(c, b, 20);
	fe_mul(b, c, b);		/* z^(2^40 - 1) */
	fe_sq_n(b, b, 10);
	fe_mul(a, b, a);		/* z^(2^50 - 1) */
	fe_sq_n(b, a, 50);
	fe_mul(b, b, a);		/* z^(2^100 - 1) */
	fe_sq_n(c, b, 100);
	fe_mul(b, c, b);		/* z^(2^200 - 1) */
	fe_sq_n(b, b, 50);
	fe_mul(b, b, a);		/* z^(2^250 - 1) */
	fe_sq_n(b, b, 5);		/* z^(2^255 - 2^5) */
	fe_mul(h, b, z11);		/* z^(2^255 - 21) */

	zinc_memzero(z2, sizeof(fe));
	zinc_memzero(z9, sizeof(fe));
	zinc_memzero(z11, sizeof(fe));
	zinc_memzero(a, sizeof(fe));
	zinc_memzero(b, sizeof(fe));
	zinc_memzero(c, sizeof(fe));
}

/* --- portable C: the Montgomery ladder (RFC 7748, section 5) ------------- */

static void curve25519_generic(uint8_t out[CURVE25519_KEY_SIZE],
			       const uint8_t scalar[CURVE25519_KEY_SIZE],
			       const uint8_t u[CURVE25519_KEY_SIZE])
{
	uint8_t k[CURVE25519_KEY_SIZE];
	fe x1, x2, z2, x3, z3, a, aa, b, bb, e, c, d;
	unsigned int swap = 0;
	int t;

	memcpy(k, scalar, sizeof(k));
	curve25519_clamp_secret(k);
	fe_frombytes(x1, u);
	fe_1(x2);
	fe_0(z2);
	fe_copy(x3, x1);
	fe_1(z3);

	/* Bit 255 of the clamped scalar is 0 and bit 254 is 1: 255 steps. */
	for (t = 254; t >= 0; t--) {
		const unsigned int bit = (k[t >> 3] >> (t & 7)) & 1;

		swap ^= bit;
		fe_cswap(x2, x3, swap);
		fe_cswap(z2, z3, swap);
		swap = bit;

		fe_add(a, x2, z2);		/* A = x2 + z2 */
		fe_sub(b, x2, z2);		/* B = x2 - z2 */
		fe_add(c, x3, z3);		/* C = x3 + z3 */
		fe_sub(d, x3, z3);		/* D = x3 - z3 */
		fe_sq(aa, a);			/* AA */
		fe_sq(bb, b);			/* BB */
		fe_mul(d, d, a);		/* DA */
		fe_mul(c, c, b);		/* CB */
		fe_sub(e, aa, bb);		/* E = AA - BB */
		fe_add(a, d, c);
		fe_sq(x3, a);			/* x3 = (DA + CB)^2 */
		fe_sub(b, d, c);
		fe_sq(b, b);
		fe_mul(z3, x1, b);		/* z3 = x1 (DA - CB)^2 */
		fe_mul(x2, aa, bb);		/* x2 = AA BB */
		fe_mul121665(a, e);
		fe_add(a, aa, a);
		fe_mul(z2, e, a);		/* z2 = E (AA + a24 E) */
	}
	/* RFC 7748's final swap is the identity: bit 0 of a clamped scalar is 0. */

	fe_invert(z2, z2);
	fe_mul(x2, x2, z2);
	fe_tobytes(out, x2);

	zinc_memzero(k, sizeof(k));
	zinc_memzero(x1, sizeof(fe));
	zinc_memzero(x2, sizeof(fe));
	zinc_memzero(z2, sizeof(fe));
	zinc_memzero(x3, sizeof(fe));
	zinc_memzero(z3, sizeof(fe));
	zinc_memzero(a, sizeof(fe));
	zinc_memzero(aa, sizeof(fe));
	zinc_memzero(b, sizeof(fe));
	zinc_memzero(bb, sizeof(fe));
	zinc_memzero(e, sizeof(fe));
	zinc_memzero(c, sizeof(fe));
	zinc_memzero(d, sizeof(fe));
}

/* --- API ------------------------------------------------------------------ */

void curve25519_clamp_secret(uint8_t secret[CURVE25519_KEY_SIZE])
{
	secret[0] &= 248;
	secret[31] = (secret[31] & 127) | 64;
}

bool curve25519(uint8_t shared[CURVE25519_KEY_SIZE], const uint8_t scalar[CURVE25519_KEY_SIZE],
		const uint8_t u[CURVE25519_KEY_SIZE])
{
	static const uint8_t zero[CURVE25519_KEY_SIZE];

	if (curve25519_path != NULL)
		curve25519_path->scalarmult(shared, scalar, u);
	else
		curve25519_generic(shared, scalar, u);
	return !zinc_memeq(shared, zero, CURVE25519_KEY_SIZE);
}

void curve25519_generate_public(uint8_t pub[CURVE25519_KEY_SIZE],
				const uint8_t secret[CURVE25519_KEY_SIZE])
{
	static const uint8_t basepoint[CURVE25519_KEY_SIZE] = { 9 };

	if (curve25519_path == NULL)
		curve25519_generic(pub, secret, basepoint);
	else if (curve25519_path->base == NULL)
		curve25519_path->scalarmult(pub, secret, basepoint);
	else
		curve25519_path->base(pub, secret);
}

void zinc_curve25519_choose(unsigned int features)
{
#ifdef ZINC_HAVE_ASM
	curve25519_path = ZINC_CHOOSE_PATH(curve25519_paths, features);
#else
	(void)features;
#endif
}

const char *curve25519_implementation(void)
{
	return curve25519_path != NULL ? curve25519_path->path.name : "portable C (" FE_NAME ")";
}
