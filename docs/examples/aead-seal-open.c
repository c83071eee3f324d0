/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aead-seal-open: seal and open a message with ChaCha20-Poly1305 and
 * XChaCha20-Poly1305 from zinc, through OpenSSL's EVP interface.
 *
 * zinc is loaded into a library context of this program's own, beside the
 * default provider (which supplies the random generator), and every fetch
 * asks for "provider=zinc".  The directory zinc.so is loaded from is
 * $ZINC_MODULE_DIR if set, else OpenSSL's module directory.
 *
 * Sealed message: nonce || ciphertext || tag.  Never seal twice with the
 * same key and nonce; a fresh random nonce per message is the simple way.
 * With XChaCha20-Poly1305's 24-byte nonce that is safe for any number of
 * messages; with ChaCha20-Poly1305's 12 bytes, stay well below 2^32 per key.
 *
 *   cc aead-seal-open.c -o aead-seal-open $(pkg-config --cflags --libs libcrypto)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#define KEY_LEN 32
#define TAG_LEN 16
#define MAX_NONCE_LEN 24

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *default_prov, *zinc_prov;

static void print_hex(const char *label, const unsigned char *p, size_t len)
{
	printf("  %-11s", label);
	for (size_t i = 0; i < len; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* Loads default (for random numbers), then zinc, into libctx. */
static int load_providers(void)
{
	const char *dir = getenv("ZINC_MODULE_DIR");

	libctx = OSSL_LIB_CTX_new();
	if (libctx == NULL)
		return 0;
	if (dir != NULL && !OSSL_PROVIDER_set_default_search_path(libctx, dir))
		return 0;
	default_prov = OSSL_PROVIDER_load(libctx, "default");
	zinc_prov = OSSL_PROVIDER_load(libctx, "zinc");
	if (default_prov == NULL || zinc_prov == NULL) {
		fprintf(stderr, "cannot load the providers (is ZINC_MODULE_DIR right?)\n");
		return 0;
	}
	return 1;
}

/* Fetches a cipher from zinc, and makes sure zinc is what served it. */
static EVP_CIPHER *fetch_zinc_cipher(const char *name)
{
	EVP_CIPHER *cipher = EVP_CIPHER_fetch(libctx, name, "provider=zinc");

	if (cipher == NULL)
		return NULL;
	if (strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(cipher)), "zinc") != 0) {
		EVP_CIPHER_free(cipher);
		return NULL;
	}
	return cipher;
}

/*
 * sealed = nonce || ciphertext || tag, of nonce_len + len + TAG_LEN bytes.
 * The AAD is authenticated but not encrypted nor included.
 */
static int seal(EVP_CIPHER *cipher, const unsigned char key[KEY_LEN],
		const unsigned char *aad, size_t aad_len,
		const unsigned char *msg, size_t len, unsigned char *sealed)
{
	int nonce_len = EVP_CIPHER_get_iv_length(cipher);
	unsigned char *ct = sealed + nonce_len;
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl, ok = 0;

	if (ctx == NULL)
		return 0;
	if (RAND_bytes_ex(libctx, sealed, (size_t)nonce_len, 0) == 1 &&
	    EVP_EncryptInit_ex2(ctx, cipher, key, sealed, NULL) &&
	    /* AAD first: an update with no output buffer. */
	    EVP_EncryptUpdate(ctx, NULL, &outl, aad, (int)aad_len) &&
	    EVP_EncryptUpdate(ctx, ct, &outl, msg, (int)len) &&
	    EVP_EncryptFinal_ex(ctx, ct + outl, &outl) &&
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAG_LEN, ct + len))
		ok = 1;
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/* Opens what seal() made; returns 0, writing nothing usable, if it was altered. */
static int open_sealed(EVP_CIPHER *cipher, const unsigned char key[KEY_LEN],
		       const unsigned char *aad, size_t aad_len,
		       const unsigned char *sealed, size_t sealed_len, unsigned char *msg)
{
	int nonce_len = EVP_CIPHER_get_iv_length(cipher);
	const unsigned char *ct = sealed + nonce_len;
	size_t len;
	EVP_CIPHER_CTX *ctx;
	int outl, ok = 0;

	if (sealed_len < (size_t)nonce_len + TAG_LEN)
		return 0;
	len = sealed_len - (size_t)nonce_len - TAG_LEN;
	ctx = EVP_CIPHER_CTX_new();
	if (ctx == NULL)
		return 0;
	if (EVP_DecryptInit_ex2(ctx, cipher, key, sealed, NULL) &&
	    EVP_DecryptUpdate(ctx, NULL, &outl, aad, (int)aad_len) &&
	    EVP_DecryptUpdate(ctx, msg, &outl, ct, (int)len) &&
	    /* The expected tag, then final checks it. */
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TAG_LEN, (void *)(ct + len)) &&
	    EVP_DecryptFinal_ex(ctx, msg + outl, &outl) > 0)
		ok = 1;
	EVP_CIPHER_CTX_free(ctx);
	if (!ok)
		OPENSSL_cleanse(msg, len);
	return ok;
}

static int demo(const char *name)
{
	static const unsigned char aad[] = "header: not secret, but authenticated";
	static const unsigned char msg[] = "Attack at dawn, bring the ChaCha.";
	const size_t len = sizeof(msg) - 1;
	unsigned char key[KEY_LEN], sealed[MAX_NONCE_LEN + sizeof(msg) + TAG_LEN];
	unsigned char opened[sizeof(msg)];
	EVP_CIPHER *cipher = fetch_zinc_cipher(name);
	size_t nonce_len, sealed_len;
	int ok = 0;

	if (cipher == NULL) {
		fprintf(stderr, "%s: not available from zinc\n", name);
		return 0;
	}
	nonce_len = (size_t)EVP_CIPHER_get_iv_length(cipher);
	sealed_len = nonce_len + len + TAG_LEN;
	printf("%s from %s (%zu-byte nonce)\n", EVP_CIPHER_get0_name(cipher),
	       OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(cipher)), nonce_len);

	if (RAND_bytes_ex(libctx, key, sizeof(key), 0) != 1 ||
	    !seal(cipher, key, aad, sizeof(aad) - 1, msg, len, sealed)) {
		fprintf(stderr, "%s: sealing failed\n", name);
		goto out;
	}
	print_hex("nonce", sealed, nonce_len);
	print_hex("ciphertext", sealed + nonce_len, len);
	print_hex("tag", sealed + nonce_len + len, TAG_LEN);

	if (!open_sealed(cipher, key, aad, sizeof(aad) - 1, sealed, sealed_len, opened) ||
	    memcmp(opened, msg, len) != 0) {
		fprintf(stderr, "%s: opening failed\n", name);
		goto out;
	}
	printf("  opened:    %.*s\n", (int)len, (const char *)opened);

	/* One flipped bit anywhere must make opening fail. */
	sealed[nonce_len] ^= 0x01;
	if (open_sealed(cipher, key, aad, sizeof(aad) - 1, sealed, sealed_len, opened)) {
		fprintf(stderr, "%s: a tampered message was accepted\n", name);
		goto out;
	}
	ERR_clear_error();	/* the expected "tag mismatch" */
	printf("  tampered:  rejected, as it must be\n");
	ok = 1;
out:
	OPENSSL_cleanse(key, sizeof(key));
	EVP_CIPHER_free(cipher);
	return ok;
}

int main(void)
{
	int ok = load_providers() && demo("ChaCha20-Poly1305") && demo("XChaCha20-Poly1305");

	if (!ok)
		ERR_print_errors_fp(stderr);
	if (zinc_prov != NULL)
		OSSL_PROVIDER_unload(zinc_prov);
	if (default_prov != NULL)
		OSSL_PROVIDER_unload(default_prov);
	OSSL_LIB_CTX_free(libctx);
	return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
