/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 on x86_64 (generated/curve25519-x86_64.S), #included by curve25519.c.
 *
 * The whole ladder and the fixed-base multiplication run in assembly,
 * radix 2^64, with MULX/ADCX/ADOX where BMI2 and ADX are there and with
 * MUL otherwise: see perlasm/curve25519-x86_64.pl.
 */

void zinc_x25519_ladder_mulx(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
void zinc_x25519_ladder_mul(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
void zinc_x25519_base_mulx(uint8_t out[32], const int8_t digits[64]);
void zinc_x25519_base_mul(uint8_t out[32], const int8_t digits[64]);

static void (*x25519_ladder)(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
static void (*x25519_base)(uint8_t out[32], const int8_t digits[64]);
static const char *x25519_name;

static void curve25519_arch_choose(void)
{
	const unsigned int bmi2_adx = ZINC_CPU_X86_BMI2 | ZINC_CPU_X86_ADX;

	x25519_ladder = NULL;
	x25519_base = NULL;
	x25519_name = NULL;
	/* The MUL path needs nothing beyond x86_64, but ZINC_CPU=none promises the portable C. */
	if (zinc_cpu_features == 0)
		return;
	if ((zinc_cpu_features & bmi2_adx) == bmi2_adx) {
		x25519_ladder = zinc_x25519_ladder_mulx;
		x25519_base = zinc_x25519_base_mulx;
		x25519_name = "x86_64 radix 2^64 (MULX/ADX), fixed-base table";
	} else {
		x25519_ladder = zinc_x25519_ladder_mul;
		x25519_base = zinc_x25519_base_mul;
		x25519_name = "x86_64 radix 2^64 (MUL), fixed-base table";
	}
}

static bool curve25519_arch(uint8_t out[CURVE25519_KEY_SIZE],
			    const uint8_t scalar[CURVE25519_KEY_SIZE],
			    const uint8_t u[CURVE25519_KEY_SIZE])
{
	if (x25519_ladder == NULL)
		return false;
	x25519_ladder(out, scalar, u);
	return true;
}

/*
 * The clamped scalar as 64 signed digits in [-8, 8], k = sum e[i] 16^i:
 * each nibble above 7 borrows 16 from the next one.  The top nibble of a
 * clamped scalar is at most 7, so the last digit stays within 8.
 */
static bool curve25519_base_arch(uint8_t pub[CURVE25519_KEY_SIZE],
				 const uint8_t secret[CURVE25519_KEY_SIZE])
{
	uint8_t k[CURVE25519_KEY_SIZE];
	int8_t e[64];
	int i, carry = 0, v;

	if (x25519_base == NULL)
		return false;
	memcpy(k, secret, sizeof(k));
	curve25519_clamp_secret(k);
	for (i = 0; i < 63; i++) {
		v = ((k[i >> 1] >> ((i & 1) * 4)) & 15) + carry;
		carry = (v + 8) >> 4;
		e[i] = (int8_t)(v - (carry << 4));
	}
	e[63] = (int8_t)((k[31] >> 4) + carry);
	x25519_base(pub, e);
	zinc_memzero(k, sizeof(k));
	zinc_memzero(e, sizeof(e));
	return true;
}

static const char *curve25519_arch_name(void)
{
	return x25519_name;
}
