/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_report.sh's helper, not a test itself: one process that uses zinc's
 * algorithms step by step, and between two steps can make a ZINC_REPORT
 * file openable, so that the script sees what zinc writes before and after
 * without timing anything.  Each use prints its result in hex, so that a
 * run can be compared with one without ZINC_REPORT.
 *
 *   report_steps STEP...
 *     digest   BLAKE2S-256 of "abc"
 *     mac      POLY1305 of "abc" under a fixed key
 *     seal     ChaCha20-Poly1305 encryption of "abc" under a fixed key and nonce
 *     derive   X25519 with RFC 7748's section 6.1 keys
 *     race     eight threads at once, each doing digest and seal 50 times;
 *              prints "race ok" if every result is the default provider's
 *     mkdir:PATH, rm:PATH   make a directory, remove a file
 *
 * zinc is loaded alone, from ZINC_MODULE_DIR.  Exit status 0 if every step
 * worked.
 */
#include "config.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define RACE_THREADS 8
#define RACE_ROUNDS 50

static OSSL_LIB_CTX *zinc_ctx;
static const unsigned char abc[3] = { 'a', 'b', 'c' };

static size_t digest(OSSL_LIB_CTX *libctx, unsigned char *out)
{
	EVP_MD *md = EVP_MD_fetch(libctx, "BLAKE2S-256", NULL);
	unsigned int len = 0;
	int ok = md != NULL && EVP_Digest(abc, sizeof(abc), out, &len, md, NULL);

	EVP_MD_free(md);
	return ok ? len : 0;
}

static size_t mac(OSSL_LIB_CTX *libctx, unsigned char *out)
{
	static const unsigned char key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
					       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
					       30, 31, 32 };
	EVP_MAC *m = EVP_MAC_fetch(libctx, "POLY1305", NULL);
	EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
	size_t len = 0;
	int ok = ctx != NULL && EVP_MAC_init(ctx, key, sizeof(key), NULL) &&
		 EVP_MAC_update(ctx, abc, sizeof(abc)) && EVP_MAC_final(ctx, out, &len, 16);

	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(m);
	return ok ? len : 0;
}

static size_t seal(OSSL_LIB_CTX *libctx, unsigned char *out)
{
	static const unsigned char key[32], nonce[12];
	EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", NULL);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int len = 0, fin = 0;
	int ok = c != NULL && ctx != NULL && EVP_EncryptInit_ex2(ctx, c, key, nonce, NULL) &&
		 EVP_EncryptUpdate(ctx, out, &len, abc, sizeof(abc)) &&
		 EVP_EncryptFinal_ex(ctx, out + len, &fin) && len + fin == (int)sizeof(abc) &&
		 EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out + sizeof(abc)) > 0;

	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
	return ok ? sizeof(abc) + 16 : 0;
}

static size_t derive(OSSL_LIB_CTX *libctx, unsigned char *out)
{
	/* RFC 7748, section 6.1: Alice's private key, Bob's public key. */
	static const unsigned char alice[32] = {
		0x77, 0x07, 0x6d, 0x0a, 0x73, 0x18, 0xa5, 0x7d, 0x3c, 0x16, 0xc1, 0x72, 0x51, 0xb2,
		0x66, 0x45, 0xdf, 0x4c, 0x2f, 0x87, 0xeb, 0xc0, 0x99, 0x2a, 0xb1, 0x77, 0xfb, 0xa5,
		0x1d, 0xb9, 0x2c, 0x2a
	};
	static const unsigned char bob_pub[32] = {
		0xde, 0x9e, 0xdb, 0x7d, 0x7b, 0x7d, 0xc1, 0xb4, 0xd3, 0x5b, 0x61, 0xc2, 0xec, 0xe4,
		0x35, 0x37, 0x3f, 0x83, 0x43, 0xc8, 0x5b, 0x78, 0x67, 0x4d, 0xad, 0xfc, 0x7e, 0x14,
		0x6f, 0x88, 0x2b, 0x4f
	};
	EVP_PKEY *priv = EVP_PKEY_new_raw_private_key_ex(libctx, "X25519", NULL, alice, 32);
	EVP_PKEY *peer = EVP_PKEY_new_raw_public_key_ex(libctx, "X25519", NULL, bob_pub, 32);
	EVP_PKEY_CTX *ctx = priv != NULL ? EVP_PKEY_CTX_new_from_pkey(libctx, priv, NULL) : NULL;
	size_t len = 32;
	int ok = ctx != NULL && peer != NULL && EVP_PKEY_derive_init(ctx) > 0 &&
		 EVP_PKEY_derive_set_peer(ctx, peer) > 0 && EVP_PKEY_derive(ctx, out, &len) > 0;

	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(peer);
	EVP_PKEY_free(priv);
	return ok ? len : 0;
}

static unsigned char want_digest[64], want_seal[64];
static size_t want_digest_len, want_seal_len;
static pthread_barrier_t start;
static atomic_int race_failures;

static void *racer(void *arg)
{
	unsigned char got[64];

	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < RACE_ROUNDS; i++) {
		if (digest(zinc_ctx, got) != want_digest_len || memcmp(got, want_digest, want_digest_len) != 0)
			atomic_fetch_add(&race_failures, 1);
		if (seal(zinc_ctx, got) != want_seal_len || memcmp(got, want_seal, want_seal_len) != 0)
			atomic_fetch_add(&race_failures, 1);
	}
	return NULL;
}

/* The threads' results against the default provider's: zinc's first uses are theirs. */
static int race(void)
{
	OSSL_LIB_CTX *default_ctx = OSSL_LIB_CTX_new();
	OSSL_PROVIDER *prov = default_ctx != NULL ? OSSL_PROVIDER_load(default_ctx, "default") : NULL;
	pthread_t threads[RACE_THREADS];
	int started = 0;

	if (prov != NULL) {
		want_digest_len = digest(default_ctx, want_digest);
		want_seal_len = seal(default_ctx, want_seal);
		OSSL_PROVIDER_unload(prov);
	}
	OSSL_LIB_CTX_free(default_ctx);
	if (want_digest_len == 0 || want_seal_len == 0)
		return 0;
	pthread_barrier_init(&start, NULL, RACE_THREADS);
	while (started < RACE_THREADS && pthread_create(&threads[started], NULL, racer, NULL) == 0)
		started++;
	if (started < RACE_THREADS) {
		fprintf(stderr, "report_steps: pthread_create failed\n");
		exit(2);	/* the others wait at the barrier */
	}
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&start);
	return atomic_load(&race_failures) == 0;
}

static int step(const char *s)
{
	static const struct {
		const char *name;
		size_t (*run)(OSSL_LIB_CTX *libctx, unsigned char *out);
	} uses[] = { { "digest", digest }, { "mac", mac }, { "seal", seal }, { "derive", derive } };
	unsigned char out[64];
	size_t len;

	if (strncmp(s, "mkdir:", 6) == 0)
		return mkdir(s + 6, 0700) == 0;
	if (strncmp(s, "rm:", 3) == 0)
		return unlink(s + 3) == 0;
	if (strcmp(s, "race") == 0) {
		if (!race())
			return 0;
		printf("race ok\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof(uses) / sizeof(uses[0]); i++) {
		if (strcmp(s, uses[i].name) != 0)
			continue;
		len = uses[i].run(zinc_ctx, out);
		if (len == 0)
			return 0;
		printf("%s ", s);
		for (size_t j = 0; j < len; j++)
			printf("%02x", out[j]);
		printf("\n");
		return 1;
	}
	fprintf(stderr, "report_steps: unknown step %s\n", s);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("ZINC_MODULE_DIR");
	OSSL_PROVIDER *zinc = NULL;
	int i;

	zinc_ctx = OSSL_LIB_CTX_new();
	if (zinc_ctx != NULL && (dir == NULL || OSSL_PROVIDER_set_default_search_path(zinc_ctx, dir)))
		zinc = OSSL_PROVIDER_load(zinc_ctx, "zinc");
	if (zinc == NULL) {
		fprintf(stderr, "report_steps: cannot load zinc\n");
		ERR_print_errors_fp(stderr);
		return 1;
	}
	for (i = 1; i < argc && step(argv[i]); i++)
		fflush(stdout);
	if (i < argc) {
		fprintf(stderr, "report_steps: step %s failed\n", argv[i]);
		ERR_print_errors_fp(stderr);
	}
	/* Everything freed: a sanitizer build's leak check passes. */
	OSSL_PROVIDER_unload(zinc);
	OSSL_LIB_CTX_free(zinc_ctx);
	return i < argc;
}
