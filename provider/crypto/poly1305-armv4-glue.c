/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Poly1305 on ARMv7 (generated/poly1305-armv4.S), #included by poly1305.c,
 * which states what each function of a path does.
 *
 * Both paths share one layout of st (see perlasm/poly1305-armv4.pl):
 * h in radix 2^32 between calls, so the scalar code takes any length.  Here,
 * around a NEON call, h goes to radix 2^26 (lane A; lane B starts at 0) and
 * back (the sum of the lanes), and the first NEON call of a context
 * computes r^2, r^3 and r^4.  The words of st are accessed with memcpy: its
 * declared type is uint64_t.
 */

void zinc_poly1305_init_armv4(void *st, const uint8_t key[16]);
void zinc_poly1305_blocks_armv4(void *st, const uint8_t *in, size_t len, uint32_t padbit);
void zinc_poly1305_emit_armv4(const void *st, uint8_t mac[16], const uint32_t nonce[4]);
/* len a non-zero multiple of 64, padbit 1, h in the lanes (below). */
void zinc_poly1305_blocks_neon(void *st, const uint8_t *in, size_t len);

/* Offsets in 32-bit words of st: see the generator. */
enum { W_H = 0, W_R = 5, W_LANES = 16, W_POWERS = 32 };

static uint32_t st_get(const void *st, size_t w)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)st + 4 * w, 4);
	return v;
}

static void st_put(void *st, size_t w, uint32_t v)
{
	memcpy((uint8_t *)st + 4 * w, &v, 4);
}

#define M26 ((UINT32_C(1) << 26) - 1)

/* a * b mod' p in radix 2^26, every limb carried below 2^26 + 2^9. */
static void poly1305_mul26(uint32_t out[5], const uint32_t a[5], const uint32_t b[5])
{
	const uint32_t s1 = b[1] * 5, s2 = b[2] * 5, s3 = b[3] * 5, s4 = b[4] * 5;
	uint64_t d[5], c;
	size_t i;

	d[0] = (uint64_t)a[0] * b[0] + (uint64_t)a[1] * s4 + (uint64_t)a[2] * s3 +
	       (uint64_t)a[3] * s2 + (uint64_t)a[4] * s1;
	d[1] = (uint64_t)a[0] * b[1] + (uint64_t)a[1] * b[0] + (uint64_t)a[2] * s4 +
	       (uint64_t)a[3] * s3 + (uint64_t)a[4] * s2;
	d[2] = (uint64_t)a[0] * b[2] + (uint64_t)a[1] * b[1] + (uint64_t)a[2] * b[0] +
	       (uint64_t)a[3] * s4 + (uint64_t)a[4] * s3;
	d[3] = (uint64_t)a[0] * b[3] + (uint64_t)a[1] * b[2] + (uint64_t)a[2] * b[1] +
	       (uint64_t)a[3] * b[0] + (uint64_t)a[4] * s4;
	d[4] = (uint64_t)a[0] * b[4] + (uint64_t)a[1] * b[3] + (uint64_t)a[2] * b[2] +
	       (uint64_t)a[3] * b[1] + (uint64_t)a[4] * b[0];
	for (i = 0; i < 4; i++) {
		d[i + 1] += d[i] >> 26;
		d[i] &= M26;
	}
	c = d[4] >> 26;
	d[4] &= M26;
	d[0] += c * 5;
	d[1] += d[0] >> 26;
	d[0] &= M26;
	for (i = 0; i < 5; i++)
		out[i] = (uint32_t)d[i];
	zinc_memzero(d, sizeof(d));
}

/* r^1..r^4, each as R0..R4, S1..S4 (S_j = 5 R_j), 0. */
static void poly1305_powers(void *st)
{
	uint32_t r0 = st_get(st, W_R), r1 = st_get(st, W_R + 1);
	uint32_t r2 = st_get(st, W_R + 2), r3 = st_get(st, W_R + 3);
	uint32_t p[4][5];
	size_t k, j;

	p[0][0] = r0 & M26;
	p[0][1] = ((r0 >> 26) | (r1 << 6)) & M26;
	p[0][2] = ((r1 >> 20) | (r2 << 12)) & M26;
	p[0][3] = ((r2 >> 14) | (r3 << 18)) & M26;
	p[0][4] = r3 >> 8;
	poly1305_mul26(p[1], p[0], p[0]);
	poly1305_mul26(p[2], p[1], p[0]);
	poly1305_mul26(p[3], p[1], p[1]);
	for (k = 0; k < 4; k++) {
		for (j = 0; j < 5; j++)
			st_put(st, W_POWERS + 10 * k + j, p[k][j]);
		for (j = 1; j < 5; j++)
			st_put(st, W_POWERS + 10 * k + 4 + j, p[k][j] * 5);
		st_put(st, W_POWERS + 10 * k + 9, 0);
	}
	zinc_memzero(p, sizeof(p));
	((uint64_t *)st)[POLY1305_POWERS_OK] = 1;
}

/* h, radix 2^32 (h4 <= 4), into lane A of the NEON state; lane B = 0. */
static void poly1305_to_lanes(void *st)
{
	uint32_t h0 = st_get(st, W_H), h1 = st_get(st, W_H + 1), h2 = st_get(st, W_H + 2);
	uint32_t h3 = st_get(st, W_H + 3), h4 = st_get(st, W_H + 4);
	uint32_t l[5] = {
		h0 & M26,
		((h0 >> 26) | (h1 << 6)) & M26,
		((h1 >> 20) | (h2 << 12)) & M26,
		((h2 >> 14) | (h3 << 18)) & M26,
		(h3 >> 8) | (h4 << 24),		/* < 2^26 + 2^24 */
	};
	size_t i;

	for (i = 0; i < 5; i++) {
		st_put(st, W_LANES + 2 * i, l[i]);
		st_put(st, W_LANES + 2 * i + 1, 0);
	}
	zinc_memzero(l, sizeof(l));
}

/* Lanes A + B (limbs < 2^27.01) back to radix 2^32, h4 folded to <= 4. */
static void poly1305_from_lanes(void *st)
{
	uint32_t l[5], h[5];
	uint64_t t;
	size_t i;

	for (i = 0; i < 5; i++)
		l[i] = st_get(st, W_LANES + 2 * i) + st_get(st, W_LANES + 2 * i + 1);
	t = l[0] + ((uint64_t)l[1] << 26);
	h[0] = (uint32_t)t;
	t = (t >> 32) + ((uint64_t)l[2] << 20);
	h[1] = (uint32_t)t;
	t = (t >> 32) + ((uint64_t)l[3] << 14);
	h[2] = (uint32_t)t;
	t = (t >> 32) + ((uint64_t)l[4] << 8);
	h[3] = (uint32_t)t;
	h[4] = (uint32_t)(t >> 32);	/* < 2^4 */
	/* 2^130 == 5: fold h4 >> 2 back so that h4 <= 3 + 1. */
	t = (uint64_t)h[0] + (h[4] >> 2) * 5;
	h[4] &= 3;
	for (i = 0; i < 4; i++) {
		st_put(st, W_H + i, (uint32_t)t);
		t = (t >> 32) + (i < 3 ? h[i + 1] : h[4]);
	}
	st_put(st, W_H + 4, (uint32_t)t);
	zinc_memzero(l, sizeof(l));
	zinc_memzero(h, sizeof(h));
}

static void poly1305_neon_blocks(void *st, const uint8_t *in, size_t len, uint32_t padbit)
{
	(void)padbit;
	poly1305_to_lanes(st);
	zinc_poly1305_blocks_neon(st, in, len);
	poly1305_from_lanes(st);
}

/*
 * The NEON code takes 64 bytes at a time, the scalar code the rest.  No
 * hardware to measure on: thresholds from the estimates in the generator's
 * header.  On Cortex-A15 a 64-byte NEON iteration (~65 cycles) saves ~130
 * cycles against 4 scalar blocks (~190), on Cortex-A7 ~150 against ~300.
 * A call's fixed cost (~60 cycles: table loads, VPUSH/VPOP, the radix
 * conversions here) pays off from 64 bytes on and clearly from 128; a
 * fresh context's powers of r (~300-400 cycles in C) from 192-256.  So
 * 256 bytes for a fresh context, 128 once its powers are there.
 */
static const struct poly1305_path poly1305_paths[] = {
	{ .path = { ZINC_CPU_ARM_ASM | ZINC_CPU_ARM_NEON,
		    "ARMv7 NEON (radix 2^26) + scalar (radix 2^32)" },
	  .init = zinc_poly1305_init_armv4, .blocks = zinc_poly1305_blocks_armv4,
	  .emit = zinc_poly1305_emit_armv4,
	  .powers = poly1305_powers, .vector = poly1305_neon_blocks,
	  .unit = 64, .min = 256, .min_cached = 128 },
	{ .path = { ZINC_CPU_ARM_ASM, "ARMv7 scalar (radix 2^32)" },
	  .init = zinc_poly1305_init_armv4, .blocks = zinc_poly1305_blocks_armv4,
	  .emit = zinc_poly1305_emit_armv4 },
};
