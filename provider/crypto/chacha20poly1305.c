/* SPDX-License-Identifier: Apache-2.0 */
/* ChaCha20-Poly1305 (RFC 8439 section 2.8) and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha). */
#include "config.h"
#include "zinc/chacha20poly1305.h"
#include "internal.h"

static const uint8_t pad0[16];

void chacha20poly1305_init(struct chacha20poly1305_ctx *ctx,
			   const uint8_t key[CHACHA20POLY1305_KEY_SIZE],
			   const uint8_t nonce[CHACHA20POLY1305_NONCE_SIZE])
{
	uint8_t iv[CHACHA20_IV_SIZE] = { 0 };
	uint8_t block0[CHACHA20_BLOCK_SIZE] = { 0 };

	/* Block 0 keys Poly1305 (its first 32 bytes); data starts at block 1. */
	memcpy(iv + 4, nonce, CHACHA20POLY1305_NONCE_SIZE);
	chacha20_init(&ctx->chacha, key, iv);
	chacha20_crypt(&ctx->chacha, block0, block0, sizeof(block0));
	poly1305_init(&ctx->poly, block0);
	zinc_memzero(block0, sizeof(block0));
	ctx->ad_len = 0;
	ctx->data_len = 0;
}

void xchacha20poly1305_init(struct chacha20poly1305_ctx *ctx,
			    const uint8_t key[CHACHA20POLY1305_KEY_SIZE],
			    const uint8_t nonce[XCHACHA20POLY1305_NONCE_SIZE])
{
	uint8_t subkey[HCHACHA20_KEY_SIZE];
	uint8_t inner[CHACHA20POLY1305_NONCE_SIZE] = { 0 };

	hchacha20(subkey, nonce, key);
	memcpy(inner + 4, nonce + HCHACHA20_NONCE_SIZE, 8);
	chacha20poly1305_init(ctx, subkey, inner);
	zinc_memzero(subkey, sizeof(subkey));
}

bool chacha20poly1305_ad(struct chacha20poly1305_ctx *ctx, const uint8_t *ad, size_t len)
{
	if (ctx->data_len > 0)
		return false;
	poly1305_update(&ctx->poly, ad, len);
	ctx->ad_len += len;
	return true;
}

/* Checks the limit and, at the first data, pads the AD; false if len is too much. */
static bool data_begin(struct chacha20poly1305_ctx *ctx, size_t len)
{
	if ((uint64_t)len > CHACHA20POLY1305_MAX_DATA - ctx->data_len)
		return false;
	if (ctx->data_len == 0 && len > 0)
		poly1305_update(&ctx->poly, pad0, (0x10 - ctx->ad_len) & 0xf);
	return true;
}

bool chacha20poly1305_encrypt_update(struct chacha20poly1305_ctx *ctx, uint8_t *dst,
				     const uint8_t *src, size_t len)
{
	if (!data_begin(ctx, len))
		return false;
	chacha20_crypt(&ctx->chacha, dst, src, len);
	poly1305_update(&ctx->poly, dst, len);
	ctx->data_len += len;
	return true;
}

bool chacha20poly1305_decrypt_update(struct chacha20poly1305_ctx *ctx, uint8_t *dst,
				     const uint8_t *src, size_t len)
{
	if (!data_begin(ctx, len))
		return false;
	/* Authenticate the ciphertext before dst (maybe src) is overwritten. */
	poly1305_update(&ctx->poly, src, len);
	chacha20_crypt(&ctx->chacha, dst, src, len);
	ctx->data_len += len;
	return true;
}

void chacha20poly1305_final(struct chacha20poly1305_ctx *ctx,
			    uint8_t tag[CHACHA20POLY1305_TAG_SIZE])
{
	uint8_t lengths[16];

	if (ctx->data_len == 0)
		poly1305_update(&ctx->poly, pad0, (0x10 - ctx->ad_len) & 0xf);
	poly1305_update(&ctx->poly, pad0, (0x10 - ctx->data_len) & 0xf);
	zinc_store_le64(lengths, ctx->ad_len);
	zinc_store_le64(lengths + 8, ctx->data_len);
	poly1305_update(&ctx->poly, lengths, sizeof(lengths));
	poly1305_final(&ctx->poly, tag);
	zinc_memzero(ctx, sizeof(*ctx));
}

bool chacha20poly1305_final_verify(struct chacha20poly1305_ctx *ctx,
				   const uint8_t *tag, size_t tag_len)
{
	uint8_t computed[CHACHA20POLY1305_TAG_SIZE];
	bool ok;

	chacha20poly1305_final(ctx, computed);
	ok = tag_len >= 1 && tag_len <= CHACHA20POLY1305_TAG_SIZE &&
	     zinc_memeq(computed, tag, tag_len);
	zinc_memzero(computed, sizeof(computed));
	return ok;
}

/* One-shot, over an initialised context. */
static void aead_encrypt(struct chacha20poly1305_ctx *ctx, uint8_t *dst,
			 const uint8_t *src, size_t src_len, const uint8_t *ad, size_t ad_len)
{
	chacha20poly1305_ad(ctx, ad, ad_len);
	if (!chacha20poly1305_encrypt_update(ctx, dst, src, src_len)) {
		/* Too long for one nonce: output nothing that could pass as valid. */
		zinc_memzero(ctx, sizeof(*ctx));
		zinc_memzero(dst, src_len + CHACHA20POLY1305_TAG_SIZE);
		return;
	}
	chacha20poly1305_final(ctx, dst + src_len);
}

static bool aead_decrypt(struct chacha20poly1305_ctx *ctx, uint8_t *dst,
			 const uint8_t *src, size_t src_len, const uint8_t *ad, size_t ad_len)
{
	size_t len;

	if (src_len < CHACHA20POLY1305_TAG_SIZE) {
		zinc_memzero(ctx, sizeof(*ctx));
		return false;
	}
	len = src_len - CHACHA20POLY1305_TAG_SIZE;
	chacha20poly1305_ad(ctx, ad, ad_len);
	if (!chacha20poly1305_decrypt_update(ctx, dst, src, len)) {
		zinc_memzero(ctx, sizeof(*ctx));
		return false;
	}
	if (!chacha20poly1305_final_verify(ctx, src + len, CHACHA20POLY1305_TAG_SIZE)) {
		zinc_memzero(dst, len);
		return false;
	}
	return true;
}

void chacha20poly1305_encrypt(uint8_t *dst, const uint8_t *src, size_t src_len,
			      const uint8_t *ad, size_t ad_len,
			      const uint8_t nonce[CHACHA20POLY1305_NONCE_SIZE],
			      const uint8_t key[CHACHA20POLY1305_KEY_SIZE])
{
	struct chacha20poly1305_ctx ctx;

	chacha20poly1305_init(&ctx, key, nonce);
	aead_encrypt(&ctx, dst, src, src_len, ad, ad_len);
}

bool chacha20poly1305_decrypt(uint8_t *dst, const uint8_t *src, size_t src_len,
			      const uint8_t *ad, size_t ad_len,
			      const uint8_t nonce[CHACHA20POLY1305_NONCE_SIZE],
			      const uint8_t key[CHACHA20POLY1305_KEY_SIZE])
{
	struct chacha20poly1305_ctx ctx;

	chacha20poly1305_init(&ctx, key, nonce);
	return aead_decrypt(&ctx, dst, src, src_len, ad, ad_len);
}

void xchacha20poly1305_encrypt(uint8_t *dst, const uint8_t *src, size_t src_len,
			       const uint8_t *ad, size_t ad_len,
			       const uint8_t nonce[XCHACHA20POLY1305_NONCE_SIZE],
			       const uint8_t key[CHACHA20POLY1305_KEY_SIZE])
{
	struct chacha20poly1305_ctx ctx;

	xchacha20poly1305_init(&ctx, key, nonce);
	aead_encrypt(&ctx, dst, src, src_len, ad, ad_len);
}

bool xchacha20poly1305_decrypt(uint8_t *dst, const uint8_t *src, size_t src_len,
			       const uint8_t *ad, size_t ad_len,
			       const uint8_t nonce[XCHACHA20POLY1305_NONCE_SIZE],
			       const uint8_t key[CHACHA20POLY1305_KEY_SIZE])
{
	struct chacha20poly1305_ctx ctx;

	xchacha20poly1305_init(&ctx, key, nonce);
	return aead_decrypt(&ctx, dst, src, src_len, ad, ad_len);
}
