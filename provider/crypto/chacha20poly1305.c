/* SPDX-License-Identifier: Apache-2.0 */
/* ChaCha20-Poly1305 (RFC 8439 section 2.8) and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha). */
#include "config.h"
#include <stddef.h>
#include "zinc/chacha20poly1305.h"
#include "internal.h"

static const uint8_t pad0[16];

void chacha20poly1305_init(struct chacha20poly1305_ctx *ctx,
			   const uint8_t key[CHACHA20POLY1305_KEY_SIZE],
			   const uint8_t nonce[CHACHA20POLY1305_NONCE_SIZE])
{
	uint8_t iv[CHACHA20_IV_SIZE] = { 0 };

	/* Block 0 keys Poly1305 (its first 32 bytes); data starts at block 1. */
	memcpy(iv + 4, nonce, CHACHA20POLY1305_NONCE_SIZE);
	chacha20_init(&ctx->chacha, key, iv);
	ctx->ad_len = 0;
	ctx->data_len = 0;
	ctx->held = 0;
	ctx->poly_keyed = false;
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

/* Zeros that pad len bytes to a whole Poly1305 block. */
static size_t pad16(uint64_t len)
{
	return (size_t)((0x10 - len) & 0xf);
}

/*
 * Keys Poly1305 with block 0; returns the bytes of mac_buf (the AD that
 * waited there, padded if no more AD can come) left to authenticate.
 */
static size_t poly_begin(struct chacha20poly1305_ctx *ctx, uint8_t block0[CHACHA20_BLOCK_SIZE],
			 bool ad_done)
{
	size_t n = ctx->ad_len;

	poly1305_init(&ctx->poly, block0);
	zinc_memzero(block0, CHACHA20_BLOCK_SIZE);
	ctx->poly_keyed = true;
	if (ad_done) {
		const size_t pad = pad16(n);	/* fits: AD_BUFFER is a multiple of 16 */

		memset(ctx->mac_buf + n, 0, pad);
		n += pad;
	}
	return n;
}

static void poly_start(struct chacha20poly1305_ctx *ctx, uint8_t block0[CHACHA20_BLOCK_SIZE],
		       bool ad_done)
{
	poly1305_update(&ctx->poly, ctx->mac_buf, poly_begin(ctx, block0, ad_done));
}

/*
 * poly_start for the first data, whose ciphertext is mac_in.  Each
 * Poly1305 call has a fixed cost beyond its blocks (for 48 bytes, AD, data
 * and lengths in three calls took about a third longer than in one, when
 * measured): short data waits in mac_buf, after the AD, for final.
 */
static void poly_start_data(struct chacha20poly1305_ctx *ctx,
			    uint8_t block0[CHACHA20_BLOCK_SIZE], const uint8_t *mac_in, size_t len)
{
	size_t n = poly_begin(ctx, block0, true);

	if (len > CHACHA20POLY1305_HOLD_MAX) {
		poly1305_update(&ctx->poly, ctx->mac_buf, n);
		poly1305_update(&ctx->poly, mac_in, len);
		return;
	}
	memcpy(ctx->mac_buf + n, mac_in, len);
	ctx->held = (uint16_t)(n + len);
}

/* Block 0 on its own, when no data can share its pass. */
static void poly_key(struct chacha20poly1305_ctx *ctx, bool ad_done)
{
	uint8_t block0[CHACHA20_BLOCK_SIZE];

	chacha20_crypt_first(&ctx->chacha, block0, NULL, NULL, 0);
	poly_start(ctx, block0, ad_done);
}

bool chacha20poly1305_ad(struct chacha20poly1305_ctx *ctx, const uint8_t *ad, size_t len)
{
	if (ctx->data_len > 0)
		return false;
	if (len == 0)
		return true;
	if (!ctx->poly_keyed && len <= CHACHA20POLY1305_AD_BUFFER - ctx->ad_len) {
		memcpy(ctx->mac_buf + ctx->ad_len, ad, len);
		ctx->ad_len += len;
		return true;
	}
	if (!ctx->poly_keyed)
		poly_key(ctx, false);
	poly1305_update(&ctx->poly, ad, len);
	ctx->ad_len += len;
	return true;
}

/* False if len would pass the limit of one nonce. */
static bool data_fits(const struct chacha20poly1305_ctx *ctx, size_t len)
{
	return (uint64_t)len <= CHACHA20POLY1305_MAX_DATA - ctx->data_len;
}

/*
 * Before more data is authenticated: Poly1305 keyed, AD padded, held
 * bytes authenticated.
 */
static void data_begin(struct chacha20poly1305_ctx *ctx)
{
	if (!ctx->poly_keyed) {
		poly_key(ctx, true);
	} else if (ctx->data_len == 0) {
		poly1305_update(&ctx->poly, pad0, pad16(ctx->ad_len));
	} else if (ctx->held > 0) {
		poly1305_update(&ctx->poly, ctx->mac_buf, ctx->held);
		ctx->held = 0;
	}
}

bool chacha20poly1305_encrypt_update(struct chacha20poly1305_ctx *ctx, uint8_t *dst,
				     const uint8_t *src, size_t len)
{
	if (!data_fits(ctx, len))
		return false;
	if (len == 0)
		return true;
	if (!ctx->poly_keyed) {
		/* The key block and the first data in one pass. */
		uint8_t block0[CHACHA20_BLOCK_SIZE];

		chacha20_crypt_first(&ctx->chacha, block0, dst, src, len);
		poly_start_data(ctx, block0, dst, len);
	} else {
		data_begin(ctx);
		chacha20_crypt(&ctx->chacha, dst, src, len);
		poly1305_update(&ctx->poly, dst, len);
	}
	ctx->data_len += len;
	return true;
}

/* In-place decryption up to this length copies the ciphertext to fuse the key block. */
#define DECRYPT_COPY_MAX 512

bool chacha20poly1305_decrypt_update(struct chacha20poly1305_ctx *ctx, uint8_t *dst,
				     const uint8_t *src, size_t len)
{
	const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	const bool disjoint = d + len <= s || s + len <= d;

	if (!data_fits(ctx, len))
		return false;
	if (len == 0)
		return true;
	if (!ctx->poly_keyed && (disjoint || len <= DECRYPT_COPY_MAX)) {
		/*
		 * Key block and data in one pass, then the MAC over the
		 * ciphertext: src if the pass leaves it, else a copy.
		 */
		uint8_t block0[CHACHA20_BLOCK_SIZE], ciphertext[DECRYPT_COPY_MAX];
		const uint8_t *mac_in = src;

		if (!disjoint) {
			memcpy(ciphertext, src, len);
			mac_in = ciphertext;
		}
		chacha20_crypt_first(&ctx->chacha, block0, dst, src, len);
		poly_start_data(ctx, block0, mac_in, len);
	} else {
		/* Authenticate the ciphertext before dst (maybe src) is overwritten. */
		data_begin(ctx);
		poly1305_update(&ctx->poly, src, len);
		chacha20_crypt(&ctx->chacha, dst, src, len);
	}
	ctx->data_len += len;
	return true;
}

void chacha20poly1305_final(struct chacha20poly1305_ctx *ctx,
			    uint8_t tag[CHACHA20POLY1305_TAG_SIZE])
{
	uint8_t lengths[16];
	size_t n = ctx->held;

	zinc_store_le64(lengths, ctx->ad_len);
	zinc_store_le64(lengths + 8, ctx->data_len);
	if (n > 0) {
		/*
		 * Held AD and data, padded, and the lengths: one call.  Fits:
		 * padded AD <= AD_BUFFER, data + pad <= HOLD_MAX (both
		 * multiples of 16).
		 */
		memset(ctx->mac_buf + n, 0, pad16(n));
		n += pad16(n);
		memcpy(ctx->mac_buf + n, lengths, sizeof(lengths));
		poly1305_update(&ctx->poly, ctx->mac_buf, n + sizeof(lengths));
	} else {
		data_begin(ctx);
		poly1305_update(&ctx->poly, pad0, pad16(ctx->data_len));
		poly1305_update(&ctx->poly, lengths, sizeof(lengths));
	}
	poly1305_final(&ctx->poly, tag);	/* wipes ctx->poly, the last member */
	zinc_memzero(ctx, offsetof(struct chacha20poly1305_ctx, poly));
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
