/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 on x86_64 (generated/curve25519-x86_64.S), #included by
 * curve25519.c, which states what each function of a path does.
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

/*
 * X25519(secret, 9) by base, which takes the clamped scalar as 52 signed
 * digits in [-16, 16], k = sum e[i] 32^i:
 * each 5-bit group (plus the borrow it owes) above 15 borrows 32 from the
 * next one; 51 groups cover bits 0..254 and the last digit is the final
 * borrow.  Which bytes are read depends on i only.
 */
static void x25519_base_digits(uint8_t pub[CURVE25519_KEY_SIZE],
			       const uint8_t secret[CURVE25519_KEY_SIZE],
			       void (*base)(uint8_t out[32], const int8_t digits[X25519_DIGITS]))
{
	uint8_t k[CURVE25519_KEY_SIZE + 1];
	int8_t e[X25519_DIGITS];
	int i, carry = 0;

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
	base(pub, e);
	zinc_memzero(k, sizeof(k));
	zinc_memzero(e, sizeof(e));
}

static void x25519_base_mulx(uint8_t pub[CURVE25519_KEY_SIZE],
			     const uint8_t secret[CURVE25519_KEY_SIZE])
{
	x25519_base_digits(pub, secret, zinc_x25519_base_mulx);
}

static void x25519_base_mul(uint8_t pub[CURVE25519_KEY_SIZE],
			    const uint8_t secret[CURVE25519_KEY_SIZE])
{
	x25519_base_digits(pub, secret, zinc_x25519_base_mul);
}

#define X25519_MULX (ZINC_CPU_X86_BMI2 | ZINC_CPU_X86_ADX)

/* The MUL path needs nothing beyond x86_64. */
static const struct curve25519_path curve25519_paths[] = {
	{ { X25519_MULX | ZINC_CPU_X86_AVX2,
	    "x86_64 radix 2^64 (MULX/ADX), fixed-base table (AVX2)" },
	  zinc_x25519_ladder_mulx, x25519_base_mulx },
	{ { X25519_MULX, "x86_64 radix 2^64 (MULX/ADX), fixed-base table (MUL)" },
	  zinc_x25519_ladder_mulx, x25519_base_mul },
	{ { 0, "x86_64 radix 2^64 (MUL), fixed-base table" },
	  zinc_x25519_ladder_mul, x25519_base_mul },
};
