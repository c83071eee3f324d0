/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Poly1305 on AArch64 (generated/poly1305-armv8.S), #included by poly1305.c,
 * which states what each function of a path does.
 *
 * Both paths share one layout of st (see perlasm/poly1305-armv8.pl):
 * h in radix 2^64 between calls, so the scalar code takes any length and
 * the NEON code, which converts h on entry and exit, only runs of 64 bytes.
 */

void zinc_poly1305_init_armv8(void *st, const uint8_t key[16]);
void zinc_poly1305_blocks_armv8(void *st, const uint8_t *in, size_t len, uint32_t padbit);
void zinc_poly1305_emit_armv8(const void *st, uint8_t mac[16], const uint32_t nonce[4]);
void zinc_poly1305_blocks_neon(void *st, const uint8_t *in, size_t len, uint32_t padbit);
void zinc_poly1305_powers_neon(void *st);

/*
 * Thresholds, reasoned (no hardware here to measure on; see the estimates
 * in the generator): on a Cortex-A72 the scalar code costs ~2.2 cycles/byte
 * and NEON ~1, NEON's entry and exit ~50 cycles and the table ~130 cycles
 * once a context.  NEON gains ~1.2 cycles/byte: it repays its entry from
 * ~40 bytes and the table too from ~150.  On a Neoverse N1 the two paths
 * run about level, so the thresholds err long: 128 bytes once the table
 * exists, 256 before.
 */
static const struct poly1305_path poly1305_paths[] = {
	{ .path = { ZINC_CPU_ARM_ASM | ZINC_CPU_ARM_NEON,
		    "AArch64 NEON (radix 2^26, 4 blocks) + scalar (radix 2^64)" },
	  .init = zinc_poly1305_init_armv8, .blocks = zinc_poly1305_blocks_armv8,
	  .emit = zinc_poly1305_emit_armv8,
	  .powers = zinc_poly1305_powers_neon, .vector = zinc_poly1305_blocks_neon,
	  .unit = 64, .min = 256, .min_cached = 128 },
	{ .path = { ZINC_CPU_ARM_ASM, "AArch64 scalar (radix 2^64)" },
	  .init = zinc_poly1305_init_armv8, .blocks = zinc_poly1305_blocks_armv8,
	  .emit = zinc_poly1305_emit_armv8 },
};
