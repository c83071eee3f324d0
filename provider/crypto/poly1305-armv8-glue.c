/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Poly1305 on AArch64 (generated/poly1305-armv8.S), #included by poly1305.c.
 *
 * Both paths share one layout of ctx->opaque (see perlasm/poly1305-armv8.pl):
 * h in radix 2^64 between calls, so the scalar code takes any length and
 * the NEON code, which converts h on entry and exit, only runs of 64 bytes.
 */

void zinc_poly1305_init_armv8(uint64_t st[48], const uint8_t key[16]);
void zinc_poly1305_blocks_armv8(uint64_t st[48], const uint8_t *in, size_t len,
				uint32_t padbit);
void zinc_poly1305_emit_armv8(const uint64_t st[48], uint8_t mac[16],
			      const uint32_t nonce[4]);
void zinc_poly1305_blocks_neon(uint64_t st[48], const uint8_t *in, size_t len,
			       uint32_t padbit);
/* The NEON table of r^1..r^4, from r; sets st[6]. */
void zinc_poly1305_powers_neon(uint64_t st[48]);

/*
 * Thresholds, reasoned (no hardware here to measure on; see the estimates
 * in the generator): on a Cortex-A72 the scalar code costs ~2.2 cycles/byte
 * and NEON ~1, NEON's entry and exit ~50 cycles and the table ~130 cycles
 * once a context.  NEON gains ~1.2 cycles/byte: it repays its entry from
 * ~40 bytes and the table too from ~150.  On a Neoverse N1 the two paths
 * run about level, so the thresholds err long: 128 bytes once the table
 * exists, 256 before.
 */
#define POLY1305_NEON_MIN 256
#define POLY1305_NEON_MIN_CACHED 128
#define POLY1305_NEON_UNIT 64

/* Offsets in st: see perlasm/poly1305-armv8.pl. */
enum { ST_POWERS_OK = 6 };

static bool poly1305_use_asm, poly1305_use_neon;

static void poly1305_arch_choose(unsigned int f)
{
	const unsigned int neon = ZINC_CPU_ARM_ASM | ZINC_CPU_ARM_NEON;

	poly1305_use_asm = (f & ZINC_CPU_ARM_ASM) != 0;
	poly1305_use_neon = (f & neon) == neon;
}

static bool poly1305_init_arch(void *opaque, const uint8_t key[16])
{
	if (!poly1305_use_asm)
		return false;
	zinc_poly1305_init_armv8(opaque, key);
	return true;
}

static bool poly1305_blocks_arch(void *opaque, const uint8_t *in, size_t len,
				 uint32_t padbit)
{
	uint64_t *st = opaque;

	if (!poly1305_use_asm)
		return false;
	/*
	 * The first long input of a context computes its table (a length,
	 * not a secret, decides).
	 */
	if (poly1305_use_neon &&
	    len >= (st[ST_POWERS_OK] ? POLY1305_NEON_MIN_CACHED : POLY1305_NEON_MIN)) {
		const size_t n = len & ~(size_t)(POLY1305_NEON_UNIT - 1);

		if (!st[ST_POWERS_OK])
			zinc_poly1305_powers_neon(st);
		zinc_poly1305_blocks_neon(st, in, n, padbit);
		in += n;
		len -= n;
	}
	zinc_poly1305_blocks_armv8(st, in, len, padbit);
	return true;
}

static bool poly1305_emit_arch(void *opaque, uint8_t mac[POLY1305_MAC_SIZE],
			       const uint32_t nonce[4])
{
	if (!poly1305_use_asm)
		return false;
	zinc_poly1305_emit_armv8(opaque, mac, nonce);
	return true;
}

static const char *poly1305_arch_name(void)
{
	if (poly1305_use_neon)
		return "AArch64 NEON (radix 2^26, 4 blocks) + scalar (radix 2^64)";
	if (poly1305_use_asm)
		return "AArch64 scalar (radix 2^64)";
	return NULL;
}
