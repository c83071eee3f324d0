/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 on AArch64 (generated/curve25519-armv8.S), #included by
 * curve25519.c, which states what each function of a path does.
 *
 * The whole ladder runs in assembly, radix 2^64 with MUL/UMULH: see
 * perlasm/curve25519-armv8.pl.  Public keys use the same ladder with u = 9;
 * NEON adds nothing here, so "armv8,neon" takes the same path as "armv8".
 */

void zinc_x25519_ladder_armv8(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);

static const struct curve25519_path curve25519_paths[] = {
	{ { ZINC_CPU_ARM_ASM, "AArch64 radix 2^64 (MUL/UMULH)" }, zinc_x25519_ladder_armv8, NULL },
};
