/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aead-file: encrypt or decrypt a file with ChaCha20-Poly1305 or
 * XChaCha20-Poly1305 through OpenSSL's EVP interface.
 *
 *   aead-file encrypt|decrypt ALG HEXKEY IN OUT
 *
 * ALG is chacha20-poly1305 (12-byte nonce) or xchacha20-poly1305 (24-byte
 * nonce); HEXKEY is 64 hex digits (32 bytes).  The file format is
 *
 *   nonce || ciphertext || tag (16 bytes)
 *
 * The program does not name a provider: EVP_CIPHER_fetch() with a NULL
 * library context and NULL properties lets openssl.cnf decide, so with
 * "default_properties = ?zinc.preferred" zinc serves the cipher.
 *
 * Never reuse a nonce with the same key: each encryption draws a fresh
 * random one.  With XChaCha20's 24-byte nonce random nonces are safe for
 * any number of messages; with ChaCha20-Poly1305's 12 bytes, keep well
 * below 2^32 messages per key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#define KEY_LEN 32
#define TAG_LEN 16
#define MAX_NONCE_LEN 24
#define CHUNK 65536	/* bytes read and ciphered at a time */

static const char *const algorithms[][2] = {
	/* command-line name, EVP name */
	{ "chacha20-poly1305", "ChaCha20-Poly1305" },
	{ "xchacha20-poly1305", "XChaCha20-Poly1305" },
};

/* Buffers for one chunk; the extra TAG_LEN holds back the tag while decrypting. */
static unsigned char inbuf[CHUNK + TAG_LEN], outbuf[CHUNK];

static int fail(const char *what)
{
	fprintf(stderr, "aead-file: %s\n", what);
	ERR_print_errors_fp(stderr);
	return 0;
}

static int write_all(FILE *out, const unsigned char *buf, size_t len)
{
	if (fwrite(buf, 1, len, out) != len)
		return fail("cannot write the output");
	return 1;
}

/* Cipher whole chunks from IN to OUT; EVP_CipherUpdate encrypts or decrypts. */
static int cipher_chunk(EVP_CIPHER_CTX *ctx, FILE *out, const unsigned char *in, size_t len)
{
	int outl;

	if (!EVP_CipherUpdate(ctx, outbuf, &outl, in, (int)len))
		return fail("cipher update failed");
	return write_all(out, outbuf, (size_t)outl);
}

static int encrypt_file(EVP_CIPHER_CTX *ctx, FILE *in, FILE *out, int nonce_len)
{
	unsigned char nonce[MAX_NONCE_LEN], tag[TAG_LEN];
	size_t n;
	int outl;

	/* A fresh random nonce for every file, stored in front of the ciphertext. */
	if (RAND_bytes(nonce, nonce_len) != 1)
		return fail("cannot get a random nonce");
	if (!EVP_EncryptInit_ex2(ctx, NULL, NULL, nonce, NULL))
		return fail("cannot set the nonce");
	if (!write_all(out, nonce, (size_t)nonce_len))
		return 0;

	while ((n = fread(inbuf, 1, CHUNK, in)) > 0)
		if (!cipher_chunk(ctx, out, inbuf, n))
			return 0;
	if (ferror(in))
		return fail("cannot read the input");

	/* A stream cipher has nothing left to write; final computes the tag. */
	if (!EVP_EncryptFinal_ex(ctx, outbuf, &outl) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAG_LEN, tag))
		return fail("cannot compute the tag");
	return write_all(out, tag, TAG_LEN);
}

static int decrypt_file(EVP_CIPHER_CTX *ctx, FILE *in, FILE *out, int nonce_len)
{
	unsigned char nonce[MAX_NONCE_LEN];
	size_t n, have = 0;
	int outl;

	if (fread(nonce, 1, (size_t)nonce_len, in) != (size_t)nonce_len)
		return fail("input too short: no nonce");
	if (!EVP_DecryptInit_ex2(ctx, NULL, NULL, nonce, NULL))
		return fail("cannot set the nonce");

	/*
	 * The tag is the last TAG_LEN bytes, but we only know where the file
	 * ends once we have read it: keep the last TAG_LEN bytes seen back
	 * and decrypt everything before them.
	 */
	while ((n = fread(inbuf + have, 1, CHUNK, in)) > 0) {
		have += n;
		if (have > TAG_LEN) {
			if (!cipher_chunk(ctx, out, inbuf, have - TAG_LEN))
				return 0;
			memmove(inbuf, inbuf + have - TAG_LEN, TAG_LEN);
			have = TAG_LEN;
		}
	}
	if (ferror(in))
		return fail("cannot read the input");
	if (have < TAG_LEN)
		return fail("input too short: no tag");

	/* Final fails unless the tag verifies; only then is OUT trustworthy. */
	if (!EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TAG_LEN, inbuf))
		return fail("cannot set the tag");
	if (!EVP_DecryptFinal_ex(ctx, outbuf, &outl))
		return fail("authentication failed: the file is corrupt, or the key is wrong");
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: aead-file encrypt|decrypt chacha20-poly1305|xchacha20-poly1305 "
		"HEXKEY IN OUT\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *evp_name = NULL, *out_name;
	EVP_CIPHER *cipher = NULL;
	EVP_CIPHER_CTX *ctx = NULL;
	unsigned char *key = NULL;
	char *tmp_name = NULL;
	FILE *in = NULL, *out;
	long key_len = 0;
	int encrypt, ok = 0;
	size_t i, tmp_len;

	if (argc != 6)
		return usage();
	if (strcmp(argv[1], "encrypt") == 0)
		encrypt = 1;
	else if (strcmp(argv[1], "decrypt") == 0)
		encrypt = 0;
	else
		return usage();
	for (i = 0; i < sizeof(algorithms) / sizeof(algorithms[0]); i++)
		if (strcmp(argv[2], algorithms[i][0]) == 0)
			evp_name = algorithms[i][1];
	if (evp_name == NULL)
		return usage();
	out_name = argv[5];

	key = OPENSSL_hexstr2buf(argv[3], &key_len);
	if (key == NULL || key_len != KEY_LEN) {
		fail("the key must be 64 hex digits");
		goto done;
	}

	/* NULL context and properties: openssl.cnf chooses the provider. */
	cipher = EVP_CIPHER_fetch(NULL, evp_name, NULL);
	if (cipher == NULL) {
		fail("cipher not available (is the provider loaded?)");
		goto done;
	}
	fprintf(stderr, "aead-file: %s served by provider %s\n", evp_name,
		OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(cipher)));

	ctx = EVP_CIPHER_CTX_new();
	if (ctx == NULL || !EVP_CipherInit_ex2(ctx, cipher, key, NULL, encrypt, NULL)) {
		fail("cannot set up the cipher");
		goto done;
	}

	in = fopen(argv[4], "rb");
	if (in == NULL) {
		fprintf(stderr, "aead-file: %s: %s\n", argv[4], strerror(errno));
		goto done;
	}
	/*
	 * Write to OUT.tmp and rename it to OUT only when everything succeeded:
	 * a failed decryption leaves no unauthenticated plaintext behind.
	 */
	tmp_len = strlen(out_name) + sizeof(".tmp");
	tmp_name = OPENSSL_malloc(tmp_len);
	if (tmp_name == NULL)
		goto done;
	snprintf(tmp_name, tmp_len, "%s.tmp", out_name);
	out = fopen(tmp_name, "wb");
	if (out == NULL) {
		fprintf(stderr, "aead-file: %s: %s\n", tmp_name, strerror(errno));
		goto done;
	}

	if (encrypt)
		ok = encrypt_file(ctx, in, out, EVP_CIPHER_get_iv_length(cipher));
	else
		ok = decrypt_file(ctx, in, out, EVP_CIPHER_get_iv_length(cipher));
	if (fclose(out) != 0 && ok)
		ok = fail("cannot write the output");
	if (ok && rename(tmp_name, out_name) != 0) {
		fprintf(stderr, "aead-file: %s: %s\n", out_name, strerror(errno));
		ok = 0;
	}
	if (!ok)
		remove(tmp_name);

done:
	if (in != NULL)
		fclose(in);
	OPENSSL_free(tmp_name);
	/* Wipe the key and whatever plaintext the buffers still hold. */
	OPENSSL_clear_free(key, (size_t)key_len);
	OPENSSL_cleanse(inbuf, sizeof(inbuf));
	OPENSSL_cleanse(outbuf, sizeof(outbuf));
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(cipher);
	return ok ? 0 : 1;
}
