/* SPDX-License-Identifier: Apache-2.0 */
/* STUB: to be written (curve25519 on armv4). */

static void curve25519_arch_choose(unsigned int features)
{
	(void)features;
}

static bool curve25519_arch(uint8_t out[CURVE25519_KEY_SIZE],
			    const uint8_t scalar[CURVE25519_KEY_SIZE],
			    const uint8_t u[CURVE25519_KEY_SIZE])
{
	(void)out;
	(void)scalar;
	(void)u;
	return false;
}

static bool curve25519_base_arch(uint8_t pub[CURVE25519_KEY_SIZE],
				 const uint8_t secret[CURVE25519_KEY_SIZE])
{
	(void)pub;
	(void)secret;
	return false;
}

static const char *curve25519_arch_name(void)
{
	return NULL;
}
