/* SPDX-License-Identifier: Apache-2.0 */
/* ChaCha20 and HChaCha20 on ARMv7: picks a generated/chacha20-armv4.S path. */

void zinc_chacha20_armv7_1(uint8_t *dst, const uint8_t *src, size_t nblocks,
			   const uint32_t state[16]);
void zinc_chacha20_armv7_neon(uint8_t *dst, const uint8_t *src, size_t nblocks,
			      const uint32_t state[16]);
void zinc_hchacha20_armv7(uint8_t out[HCHACHA20_KEY_SIZE],
			  const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			  const uint8_t key[HCHACHA20_KEY_SIZE]);

static bool chacha20_armv7_scalar;
static bool chacha20_armv7_vector;

/*
 * The NEON code runs four blocks per pass (vertical layout); a pass costs
 * about as much for one block as for four, while the scalar block is
 * estimated at ~13 (Cortex-A7) / ~6.5 (Cortex-A15) cycles per byte against
 * ~10.5 / ~5.5 for a full NEON pass (see perlasm/chacha20-armv4.pl): so
 * NEON takes the whole passes of four and the 1..3 blocks left over run
 * scalar, which would cost a whole pass in NEON for a fraction of its
 * output.  HChaCha20 is a single block without feed-forward: scalar.
 */
static void chacha20_arch_choose(unsigned int f)
{
	const unsigned int neon = ZINC_CPU_ARM_ASM | ZINC_CPU_ARM_NEON;

	chacha20_armv7_scalar = (f & ZINC_CPU_ARM_ASM) != 0;
	chacha20_armv7_vector = (f & neon) == neon;
}

static bool chacha20_arch(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len)
{
	size_t nblocks = len / CHACHA20_BLOCK_SIZE;
	size_t vec = chacha20_armv7_vector ? nblocks & ~(size_t)3 : 0;

	if (!chacha20_armv7_scalar)
		return false;
	if (vec > 0) {
		zinc_chacha20_armv7_neon(dst, src, vec, state);
		state[12] += (uint32_t)vec;
		dst += vec * CHACHA20_BLOCK_SIZE;
		src += vec * CHACHA20_BLOCK_SIZE;
		nblocks -= vec;
	}
	if (nblocks > 0) {
		zinc_chacha20_armv7_1(dst, src, nblocks, state);
		state[12] += (uint32_t)nblocks;
	}
	return true;
}

static bool hchacha20_arch(uint8_t out[HCHACHA20_KEY_SIZE],
			   const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			   const uint8_t key[HCHACHA20_KEY_SIZE])
{
	if (!chacha20_armv7_scalar)
		return false;
	zinc_hchacha20_armv7(out, nonce, key);
	return true;
}

static const char *chacha20_arch_name(void)
{
	if (chacha20_armv7_vector)
		return "ARMv7 NEON (4 blocks) + scalar";
	return chacha20_armv7_scalar ? "ARMv7 scalar" : NULL;
}
