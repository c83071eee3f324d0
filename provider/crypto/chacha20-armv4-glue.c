/* SPDX-License-Identifier: Apache-2.0 */
/* STUB: to be written (chacha20 on armv4). */

static void chacha20_arch_choose(unsigned int features)
{
	(void)features;
}

static bool chacha20_arch(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len)
{
	(void)state;
	(void)dst;
	(void)src;
	(void)len;
	return false;
}

static bool hchacha20_arch(uint8_t out[HCHACHA20_KEY_SIZE],
			   const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			   const uint8_t key[HCHACHA20_KEY_SIZE])
{
	(void)out;
	(void)nonce;
	(void)key;
	return false;
}

static bool chacha20_bytes_arch(uint32_t state[16], uint8_t *first, uint8_t *dst,
				const uint8_t *src, size_t len, uint8_t tail[CHACHA20_BLOCK_SIZE])
{
	(void)state;
	(void)first;
	(void)dst;
	(void)src;
	(void)len;
	(void)tail;
	return false;
}

static const char *chacha20_arch_name(void)
{
	return NULL;
}
