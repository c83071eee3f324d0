/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 on x86_64 (generated/curve25519-x86_64.S), #included by curve25519.c.
 *
 * The whole ladder and the fixed-base multiplication run in assembly,
 * radix 2^64, with MULX/ADCX/ADOX where BMI2 and ADX are there and with
 * MUL otherwise; the MULX fixed-base code also selects table entries with
 * AVX2: see perlasm/curve25519-x86_64.pl.
 */

/* Signed radix-32 digits of the clamped scalar (the table's layout). */
#define X25519_DIGITS 52

void zinc_x25519_ladder_mulx(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
void zinc_x25519_ladder_mul(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
void zinc_x25519_base_mulx(uint8_t out[32], const int8_t digits[X25519_DIGITS]);
void zinc_x25519_base_mul(uint8_t out[32], const int8_t digits[X25519_DIGITS]);

static void (*x25519_ladder)(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
static void (*x25519_base)(uint8_t out[32], const int8_t digits[X25519_DIGITS]);
static const char *x25519_name;

static void curve25519_arch_choose(unsigned int features)
{
	const unsigned int bmi2_adx = ZINC_CPU_X86_BMI2 | ZINC_CPU_X86_ADX;
	const unsigned int avx2 = ZINC_CPU_X86_AVX2;

	x25519_ladder = NULL;
	x25519_base = NULL;
	x25519_name = NULL;
	/* The MUL path needs nothing beyond x86_64, but ZINC_CPU=none promises the portable C. */
	if (features == 0)
		return;
	if ((features & (bmi2_adx | avx2)) == (bmi2_adx | avx2)) {
		x25519_ladder = zinc_x25519_ladder_mulx;
		x25519_base = zinc_x25519_base_mulx;
		x25519_name = "x86_64 radix 2^64 (MULX/ADX), fixed-base table (AVX2)";
	} else if ((features & bmi2_adx) == bmi2_adx) {
		x25519_ladder = zinc_x25519_ladder_mulx;
		x25519_base = zinc_x25519_base_mul;
		x25519_name = "x86_64 radix 2^64 (MULX/ADX), fixed-base table (MUL)";
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
 * The clamped scalar as 52 signed digits in [-16, 16], k = sum e[i] 32^i:
 * each 5-bit group (plus the borrow it owes) above 15 borrows 32 from the
 * next one; 51 groups cover bits 0..254 and the last digit is the final
 * borrow.  Which bytes are read depends on i only.
 */
static bool curve25519_base_arch(uint8_t pub[CURVE25519_KEY_SIZE],
				 const uint8_t secret[CURVE25519_KEY_SIZE])
{
	uint8_t k[CURVE25519_KEY_SIZE + 1];
	int8_t e[X25519_DIGITS];
	int i, carry = 0;

	if (x25519_base == NULL)
		return false;
	memcpy(k, secret, CURVE25519_KEY_SIZE);
	k[CURVE25519_KEY_SIZE] = 0;
	curve25519_clamp_secret(k);
	for (i = 0; i < X25519_DIGITS - 1; i++) {
		const int b = 5 * i;
		const int v = (((k[b >> 3] | k[(b >> 3) + 1] << 8) >> (b & 7)) & 31) + carry;

		carry = (v + 16) >> 5;
		e[i] = (int8_t)(v - (carry << 5));
	}
	e[X25519_DIGITS - 1] = (int8_t)carry;
	x25519_base(pub, e);
	zinc_memzero(k, sizeof(k));
	zinc_memzero(e, sizeof(e));
	return true;
}

static const char *curve25519_arch_name(void)
{
	return x25519_name;
}
