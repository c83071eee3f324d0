/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ChaCha20 and HChaCha20 on ARMv7 (generated/chacha20-armv4.S), #included by
 * chacha20.c, which states what each function of a path does.
 */

void zinc_chacha20_armv7_1(uint8_t *dst, const uint8_t *src, size_t nblocks,
			   const uint32_t state[16]);
void zinc_chacha20_armv7_neon(uint8_t *dst, const uint8_t *src, size_t nblocks,
			      const uint32_t state[16]);
void zinc_hchacha20_armv7(uint8_t out[HCHACHA20_KEY_SIZE],
			  const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			  const uint8_t key[HCHACHA20_KEY_SIZE]);

/*
 * The NEON code runs four blocks a pass (vertical layout), and a pass costs
 * about as much for one block as for four, while by the estimates in
 * perlasm/chacha20-armv4.pl a scalar block costs little more per byte than
 * a full pass: NEON takes the whole passes of four, and the 1..3 blocks
 * left run scalar.  HChaCha20, one block without feed-forward: scalar.
 */
static const struct chacha20_path chacha20_paths[] = {
	{ .path = { ZINC_CPU_ARM_ASM | ZINC_CPU_ARM_NEON, "ARMv7 NEON (4 blocks) + scalar" },
	  .blocks = zinc_chacha20_armv7_neon, .pass_blocks = 4,
	  .scalar = zinc_chacha20_armv7_1, .scalar_max = 3,
	  .hchacha20 = zinc_hchacha20_armv7 },
	{ .path = { ZINC_CPU_ARM_ASM, "ARMv7 scalar" },
	  .blocks = zinc_chacha20_armv7_1, .pass_blocks = 1,
	  .hchacha20 = zinc_hchacha20_armv7 },
};
