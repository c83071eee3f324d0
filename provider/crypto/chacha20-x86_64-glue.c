/* SPDX-License-Identifier: Apache-2.0 */
/* ChaCha20 and HChaCha20 on x86_64: picks a generated/chacha20-x86_64.S path. */

void chacha20_ssse3(uint8_t *dst, const uint8_t *src, size_t nblocks, const uint32_t state[16]);
void chacha20_avx2(uint8_t *dst, const uint8_t *src, size_t nblocks, const uint32_t state[16]);
void chacha20_avx512(uint8_t *dst, const uint8_t *src, size_t nblocks, const uint32_t state[16]);
void hchacha20_ssse3(uint8_t out[HCHACHA20_KEY_SIZE], const uint8_t nonce[HCHACHA20_NONCE_SIZE],
		     const uint8_t key[HCHACHA20_KEY_SIZE]);
void hchacha20_avx512vl(uint8_t out[HCHACHA20_KEY_SIZE],
			const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			const uint8_t key[HCHACHA20_KEY_SIZE]);

static void (*chacha20_x86_64)(uint8_t *dst, const uint8_t *src, size_t nblocks,
			       const uint32_t state[16]);
static const char *chacha20_x86_64_name;
static void (*hchacha20_x86_64)(uint8_t out[HCHACHA20_KEY_SIZE],
				const uint8_t nonce[HCHACHA20_NONCE_SIZE],
				const uint8_t key[HCHACHA20_KEY_SIZE]);

static void chacha20_arch_choose(void)
{
	unsigned int f = zinc_cpu_features;
	const unsigned int avx2 = ZINC_CPU_X86_AVX | ZINC_CPU_X86_AVX2;
	const unsigned int avx512 = avx2 | ZINC_CPU_X86_AVX512F | ZINC_CPU_X86_AVX512VL;

	chacha20_x86_64 = NULL;
	chacha20_x86_64_name = NULL;
	hchacha20_x86_64 = NULL;
	if ((f & avx512) == avx512) {
		chacha20_x86_64 = chacha20_avx512;
		chacha20_x86_64_name = "x86_64 AVX-512";
		hchacha20_x86_64 = hchacha20_avx512vl;
	} else if ((f & avx2) == avx2) {
		chacha20_x86_64 = chacha20_avx2;
		chacha20_x86_64_name = "x86_64 AVX2";
	} else if (f & ZINC_CPU_X86_SSSE3) {
		chacha20_x86_64 = chacha20_ssse3;
		chacha20_x86_64_name = "x86_64 SSSE3";
	}
	if (!hchacha20_x86_64 && (f & ZINC_CPU_X86_SSSE3))
		hchacha20_x86_64 = hchacha20_ssse3;
}

static bool chacha20_arch(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len)
{
	size_t nblocks = len / CHACHA20_BLOCK_SIZE;

	if (!chacha20_x86_64)
		return false;
	if (nblocks > 0)
		chacha20_x86_64(dst, src, nblocks, state);
	state[12] += (uint32_t)nblocks;
	return true;
}

static bool hchacha20_arch(uint8_t out[HCHACHA20_KEY_SIZE],
			   const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			   const uint8_t key[HCHACHA20_KEY_SIZE])
{
	if (!hchacha20_x86_64)
		return false;
	hchacha20_x86_64(out, nonce, key);
	return true;
}

static const char *chacha20_arch_name(void)
{
	return chacha20_x86_64_name;
}

/* LEAD PLACEHOLDER (helper: replace with the real AVX-512 byte-length entry). */
static bool chacha20_bytes_arch(uint32_t state[16], uint8_t *first, uint8_t *dst,
				const uint8_t *src, size_t len, uint8_t tail[64])
{
	(void)state;
	(void)first;
	(void)dst;
	(void)src;
	(void)len;
	(void)tail;
	return false;
}
