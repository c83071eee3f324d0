/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 on ARMv7 (generated/curve25519-armv4.S), #included by
 * curve25519.c, which states what each function of a path does.
 *
 * With NEON, the 255 ladder steps run in assembly, two field
 * multiplications at a time in the two lanes of VMULL.U32 (radix 2^25.5,
 * the portable 32-bit field's limbs): see perlasm/curve25519-armv4.pl.
 * The inversion of z2 (a fixed chain of 254 squarings and 11
 * multiplications), the final multiplication, the full reduction and the
 * encoding use the portable field below: they are about a fifth of the
 * work and nothing in them is faster in two lanes.  Without NEON there is
 * no ARMv7 assembly for X25519: the portable C runs.
 */

#if defined(__SIZEOF_INT128__)
#error "the ARMv7 glue needs the portable 32-bit field (radix 2^25.5)"
#endif

/* The portable field (defined below in curve25519.c; fe is uint32_t[10] here). */
static void fe_frombytes(uint32_t h[10], const uint8_t s[32]);
static void fe_mul(uint32_t h[10], const uint32_t f[10], const uint32_t g[10]);
static void fe_invert(uint32_t h[10], const uint32_t z[10]);
static void fe_tobytes(uint8_t s[32], const uint32_t f[10]);

void zinc_x25519_ladder_neon(uint32_t xz[20], const uint8_t k[32], const uint32_t x1[10]);

static void x25519_neon(uint8_t out[CURVE25519_KEY_SIZE],
			const uint8_t scalar[CURVE25519_KEY_SIZE],
			const uint8_t u[CURVE25519_KEY_SIZE])
{
	uint8_t k[CURVE25519_KEY_SIZE];
	uint32_t x1[10], xz[20], zinv[10];

	memcpy(k, scalar, sizeof(k));
	curve25519_clamp_secret(k);
	fe_frombytes(x1, u);
	zinc_x25519_ladder_neon(xz, k, x1);
	fe_invert(zinv, xz + 10);
	fe_mul(xz, xz, zinv);
	fe_tobytes(out, xz);

	zinc_memzero(k, sizeof(k));
	zinc_memzero(x1, sizeof(x1));
	zinc_memzero(xz, sizeof(xz));
	zinc_memzero(zinv, sizeof(zinv));
}

static const struct curve25519_path curve25519_paths[] = {
	{ { ZINC_CPU_ARM_ASM | ZINC_CPU_ARM_NEON, "ARMv7 NEON (radix 2^25.5, two lanes)" },
	  x25519_neon, NULL },
};
