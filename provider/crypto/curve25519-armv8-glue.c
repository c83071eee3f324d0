/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 on AArch64 (generated/curve25519-armv8.S), #included by curve25519.c.
 *
 * The whole ladder runs in assembly, radix 2^64 with MUL/UMULH: see
 * perlasm/curve25519-armv8.pl.  Public keys use the same ladder with u = 9;
 * NEON adds nothing here, so "armv8,neon" takes the same path as "armv8".
 */

void zinc_x25519_ladder_armv8(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);

static bool x25519_use_asm;

static void curve25519_arch_choose(unsigned int features)
{
	x25519_use_asm = (features & ZINC_CPU_ARM_ASM) != 0;
}

static bool curve25519_arch(uint8_t out[CURVE25519_KEY_SIZE],
			    const uint8_t scalar[CURVE25519_KEY_SIZE],
			    const uint8_t u[CURVE25519_KEY_SIZE])
{
	if (!x25519_use_asm)
		return false;
	zinc_x25519_ladder_armv8(out, scalar, u);
	return true;
}

static bool curve25519_base_arch(uint8_t pub[CURVE25519_KEY_SIZE],
				 const uint8_t secret[CURVE25519_KEY_SIZE])
{
	static const uint8_t basepoint[CURVE25519_KEY_SIZE] = { 9 };

	if (!x25519_use_asm)
		return false;
	zinc_x25519_ladder_armv8(pub, secret, basepoint);
	return true;
}

static const char *curve25519_arch_name(void)
{
	return x25519_use_asm ? "AArch64 radix 2^64 (MUL/UMULH)" : NULL;
}
