/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XChaCha20-Poly1305, which the default provider lacks: zinc in pieces the
 * input chooses against libsodium (ciphertext, tag, libsodium's decryption
 * of zinc's message, and the verdict on a tampered tag, ciphertext or AAD);
 * zinc's decryption of its own output in other pieces gives the message
 * back, and any flipped bit, in a tag of any length the input chooses, is
 * refused.  configure --enable-fuzzing requires libsodium.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <sodium.h>
#include "fuzz.h"

#define TAG 16

static EVP_CIPHER *zc;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		fz_fail("sodium_init failed");
	zc = EVP_CIPHER_fetch(fz_zinc_ctx(), "XChaCha20-Poly1305", NULL);
	if (zc == NULL)
		fz_fail("cannot fetch XChaCha20-Poly1305");
	return 0;
}

/* Feeds len bytes in the pieces sp draws (out NULL: AAD). */
static int feed(EVP_CIPHER_CTX *ctx, struct fz_split *sp, uint8_t *out, const uint8_t *in,
		size_t len)
{
	size_t done = 0;

	do {
		size_t n = fz_split_next(sp, len - done);
		int outl = -1;

		if (!EVP_CipherUpdate(ctx, out != NULL ? out + done : NULL, &outl, in + done, (int)n) ||
		    (size_t)outl != n)
			return 0;
		done += n;
	} while (done < len);
	return 1;
}

/* zinc; on decryption the tag is set before the data, on encryption got after final. */
static int zinc(int enc, const uint8_t key[32], const uint8_t nonce[24], const uint8_t *aad,
		size_t alen, const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag,
		size_t taglen, struct fz_split *sp)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	OSSL_PARAM p[2] = { OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, taglen),
			    OSSL_PARAM_END };
	int ok, outl = -1;

	if (ctx == NULL)
		abort();
	ok = EVP_CipherInit_ex2(ctx, zc, key, nonce, enc, NULL) &&
	     (enc || EVP_CIPHER_CTX_set_params(ctx, p)) && feed(ctx, sp, NULL, aad, alen) &&
	     feed(ctx, sp, out, in, len) && EVP_CipherFinal_ex(ctx, out + len, &outl) &&
	     outl == 0 && (!enc || EVP_CIPHER_CTX_get_params(ctx, p));
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct fz_split sp;
	uint8_t key[32], nonce[24], tag[TAG], bad[TAG];
	uint8_t flags = fz_u8(&in), bit = (uint8_t)(1 << (fz_u8(&in) & 7));
	size_t taglen = 1 + fz_u8(&in) % TAG, at = fz_below(&in, 65536);
	size_t alen = fz_below(&in, 512), len;
	uint8_t *aad, *ct, *pt;
	const uint8_t *msg;
	int where;

	fz_take(&in, key, sizeof(key));
	fz_take(&in, nonce, sizeof(nonce));
	fz_split_init(&sp, &in);
	aad = fz_malloc(alen);
	fz_take(&in, aad, alen);
	msg = fz_ref(&in, SIZE_MAX, &len);
	/* Exactly len bytes each, so that ASan sees a write past the end. */
	ct = fz_malloc(len);
	pt = fz_malloc(len);

	/* Encryption, in place or not. */
	if (flags & 1)
		memcpy(ct, msg, len);
	FZ_CHECK(zinc(1, key, nonce, aad, alen, flags & 1 ? ct : msg, ct, len, tag, TAG, &sp),
		 "zinc encryption failed");
	{
		uint8_t *want = fz_malloc(len), wtag[TAG];

		crypto_aead_xchacha20poly1305_ietf_encrypt_detached(want, wtag, NULL, msg, len, aad,
								    alen, NULL, nonce, key);
		fz_check_eq(ct, len, want, len, "ciphertext (libsodium)");
		fz_check_eq(tag, TAG, wtag, TAG, "tag (libsodium)");
		FZ_CHECK(crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
				 want, NULL, ct, len, tag, aad, alen, nonce, key) == 0,
			 "libsodium refuses zinc's message");
		fz_check_eq(want, len, msg, len, "decrypted text (libsodium)");
		free(want);
	}

	/* Decryption, with the whole tag or the first taglen bytes of it. */
	FZ_CHECK(zinc(0, key, nonce, aad, alen, ct, pt, len, tag, taglen, &sp),
		 "zinc refuses its own message (tag length %zu)", taglen);
	fz_check_eq(pt, len, msg, len, "decrypted text");

	/*
	 * One bit flipped in the tag, the ciphertext or the AAD: refused.  A
	 * tag of a few bytes is forged by chance (the fuzzer finds 1 in 2^16),
	 * so a flip outside the tag must be refused only when it has 8 or more.
	 */
	memcpy(bad, tag, TAG);
	where = taglen < 8 ? 0 : (flags >> 1) % 3;
	if (where == 1 && len > 0)
		ct[at % len] ^= bit;
	else if (where == 2 && alen > 0)
		aad[at % alen] ^= bit;
	else
		bad[at % taglen] ^= bit;
	FZ_CHECK(!zinc(0, key, nonce, aad, alen, ct, pt, len, bad, taglen, &sp),
		 "zinc accepts a flipped bit (tag length %zu, where %d)", taglen, where);
	if (taglen == TAG)
		FZ_CHECK(crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
				 pt, NULL, ct, len, bad, aad, alen, nonce, key) != 0,
			 "libsodium accepts the flipped bit");
	free(aad);
	free(ct);
	free(pt);
	return 0;
}
