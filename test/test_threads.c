/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Threads: THREADS threads share one zinc provider (one library context),
 * one set of fetched algorithms, one X25519 key pair and keyed MAC
 * templates; each has its own contexts, and runs every algorithm ROUNDS
 * times over messages of several lengths, encrypting, decrypting and
 * verifying, checking every result against values the default provider
 * computed beforehand.  A ThreadSanitizer build (configure --enable-tsan)
 * runs it to find data races; $ZINC_THREADS_ROUNDS sets ROUNDS.
 */
#include "config.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "testutil.h"

#define THREADS 8
#define NMSG 8
#define MAXLEN 4096

enum alg { CHACHA20, AEAD, XAEAD, POLY1305, BLAKE2SMAC, BLAKE2S256, X25519, FETCH, NALG };
static const char *const alg_names[NALG] = {
	"ChaCha20", "ChaCha20-Poly1305", "XChaCha20-Poly1305", "POLY1305", "BLAKE2SMAC",
	"BLAKE2S-256", "X25519 derive", "fetch in threads",
};

static const size_t lens[NMSG] = { 0, 1, 63, 64, 65, 255, 1000, MAXLEN };

/* Shared by all threads: read only once they start. */
static struct {
	EVP_CIPHER *c20, *aead, *xaead;
	EVP_MAC *poly, *b2mac;
	EVP_MD *b2;
	EVP_PKEY *priv, *peer;
	EVP_MAC_CTX *b2mac_template;	/* keyed, salted: each thread dups it */
	unsigned char key[32], iv[16], nonce[24], aad[29], msg[MAXLEN];
	size_t b2size;
} S;

/* Expected values, from the default provider. */
static struct {
	unsigned char c20[NMSG][MAXLEN], aead[NMSG][MAXLEN], xaead[NMSG][MAXLEN];
	unsigned char aead_tag[NMSG][16], xaead_tag[NMSG][16];
	unsigned char poly[NMSG][16], b2mac[NMSG][32], b2[NMSG][32];
	unsigned char secret[32];
} W;

static int rounds = 20;
static pthread_barrier_t start;
static atomic_int failures[NALG];

static void bail(const char *what)
{
	printf("Bail out! %s\n", what);
	exit(99);
}

/* --- operations, used both for the expected values and in the threads ------ */

static int cipher(const EVP_CIPHER *c, int enc, const unsigned char *key,
		  const unsigned char *iv, const unsigned char *in, unsigned char *out, size_t len,
		  unsigned char *tag, int aead)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = -1, fin = -1, ok;

	ok = ctx != NULL && EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL) &&
	     (!aead || enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag)) &&
	     (!aead || EVP_CipherUpdate(ctx, NULL, &outl, S.aad, sizeof(S.aad))) &&
	     EVP_CipherUpdate(ctx, out, &outl, in, (int)len) && (size_t)outl == len &&
	     EVP_CipherFinal_ex(ctx, out + len, &fin) && fin == 0 &&
	     (!aead || !enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag));
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

static int mac(EVP_MAC_CTX *ctx, const unsigned char *key, size_t len, unsigned char *out,
	       size_t size)
{
	size_t outl = 0;
	int ok = ctx != NULL && EVP_MAC_init(ctx, key, key != NULL ? 32 : 0, NULL) &&
		 EVP_MAC_update(ctx, S.msg, len) && EVP_MAC_final(ctx, out, &outl, size) &&
		 outl == size;

	EVP_MAC_CTX_free(ctx);
	return ok;
}

static int digest(const EVP_MD *md, size_t len, unsigned char out[32])
{
	unsigned int outl = 0;

	return EVP_Digest(S.msg, len, out, &outl, md, NULL) && outl == 32;
}

static int derive(OSSL_LIB_CTX *lib, EVP_PKEY *priv, EVP_PKEY *peer, unsigned char out[32])
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(lib, priv, NULL);
	size_t len = 32;
	int ok = ctx != NULL && EVP_PKEY_derive_init(ctx) > 0 &&
		 EVP_PKEY_derive_set_peer(ctx, peer) > 0 && EVP_PKEY_derive(ctx, out, &len) > 0 &&
		 len == 32;

	EVP_PKEY_CTX_free(ctx);
	return ok;
}

static EVP_MAC_CTX *b2mac_ctx(EVP_MAC *m)
{
	static const unsigned char salt[8] = "threads", custom[8] = "zinctest";
	EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(m);
	OSSL_PARAM p[5] = {
		OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, &S.b2size),
		OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, S.key, sizeof(S.key)),
		OSSL_PARAM_octet_string(OSSL_MAC_PARAM_SALT, (void *)salt, sizeof(salt)),
		OSSL_PARAM_octet_string(OSSL_MAC_PARAM_CUSTOM, (void *)custom, sizeof(custom)),
		OSSL_PARAM_END
	};

	if (ctx == NULL || !EVP_MAC_CTX_set_params(ctx, p))
		bail("cannot set BLAKE2SMAC's parameters");
	return ctx;
}

/* HChaCha20 through default's ChaCha20: its keystream block minus the input state. */
static void hchacha20_via_default(EVP_CIPHER *c20, unsigned char out[32])
{
	static const unsigned char sigma[16] = "expand 32-byte k";
	unsigned char zero[64] = { 0 }, block[64];

	if (!cipher(c20, 1, S.key, S.nonce, zero, block, 64, NULL, 0))
		bail("default ChaCha20 failed");
	for (size_t w = 0; w < 8; w++) {
		const unsigned char *ks = block + (w < 4 ? 4 * w : 4 * (w + 8));
		const unsigned char *st = w < 4 ? sigma + 4 * w : S.nonce + 4 * (w - 4);
		uint32_t v = (uint32_t)(ks[0] | ks[1] << 8 | ks[2] << 16 | (uint32_t)ks[3] << 24) -
			     (uint32_t)(st[0] | st[1] << 8 | st[2] << 16 | (uint32_t)st[3] << 24);

		for (int b = 0; b < 4; b++)
			out[4 * w + b] = (unsigned char)(v >> (8 * b));
	}
}

static EVP_PKEY *raw_key(OSSL_LIB_CTX *lib, int priv, const unsigned char k[32])
{
	EVP_PKEY *key = priv ? EVP_PKEY_new_raw_private_key_ex(lib, "X25519", NULL, k, 32)
			     : EVP_PKEY_new_raw_public_key_ex(lib, "X25519", NULL, k, 32);

	if (key == NULL)
		bail("cannot make an X25519 key");
	return key;
}

static void expected(void)
{
	OSSL_LIB_CTX *d = zt_default_ctx();
	EVP_CIPHER *c20 = EVP_CIPHER_fetch(d, "ChaCha20", NULL);
	EVP_CIPHER *aead = EVP_CIPHER_fetch(d, "ChaCha20-Poly1305", NULL);
	EVP_MAC *poly = EVP_MAC_fetch(d, "POLY1305", NULL);
	EVP_MAC *b2mac = EVP_MAC_fetch(d, "BLAKE2SMAC", NULL);
	EVP_MD *b2 = EVP_MD_fetch(d, "BLAKE2S-256", NULL);
	unsigned char priv[32], peer_priv[32], peer_pub[32], subkey[32], xiv[12] = { 0 };
	size_t publen = sizeof(peer_pub);
	EVP_PKEY *dpriv, *dpeer;

	if (c20 == NULL || aead == NULL || poly == NULL || b2mac == NULL || b2 == NULL)
		bail("cannot fetch from the default provider");
	/* XChaCha20-Poly1305 is ChaCha20-Poly1305 under the HChaCha20 subkey. */
	hchacha20_via_default(c20, subkey);
	memcpy(xiv + 4, S.nonce + 16, 8);
	for (int i = 0; i < NMSG; i++) {
		if (!cipher(c20, 1, S.key, S.iv, S.msg, W.c20[i], lens[i], NULL, 0) ||
		    !cipher(aead, 1, S.key, S.nonce, S.msg, W.aead[i], lens[i], W.aead_tag[i], 1) ||
		    !cipher(aead, 1, subkey, xiv, S.msg, W.xaead[i], lens[i], W.xaead_tag[i], 1) ||
		    !mac(EVP_MAC_CTX_new(poly), S.key, lens[i], W.poly[i], 16) ||
		    !mac(b2mac_ctx(b2mac), NULL, lens[i], W.b2mac[i], S.b2size) ||
		    !digest(b2, lens[i], W.b2[i]))
			bail("the default provider failed");
	}
	zt_rand(priv, sizeof(priv));
	zt_rand(peer_priv, sizeof(peer_priv));
	dpriv = raw_key(d, 1, priv);
	dpeer = raw_key(d, 1, peer_priv);
	if (!EVP_PKEY_get_raw_public_key(dpeer, peer_pub, &publen) ||
	    !derive(d, dpriv, dpeer, W.secret))
		bail("default X25519 failed");
	/* The shared keys, zinc's. */
	S.priv = raw_key(zt_zinc_ctx(), 1, priv);
	S.peer = raw_key(zt_zinc_ctx(), 0, peer_pub);
	EVP_PKEY_free(dpriv);
	EVP_PKEY_free(dpeer);
	EVP_CIPHER_free(c20);
	EVP_CIPHER_free(aead);
	EVP_MAC_free(poly);
	EVP_MAC_free(b2mac);
	EVP_MD_free(b2);
}

/* --- the threads --------------------------------------------------------------- */

static void check(enum alg a, int ok)
{
	if (!ok)
		atomic_fetch_add(&failures[a], 1);
}

static int aead_both(const EVP_CIPHER *c, const unsigned char *key, const unsigned char *nonce,
		     int i, const unsigned char *want, const unsigned char *wtag,
		     unsigned char *buf, unsigned char *back)
{
	unsigned char tag[16];
	size_t len = lens[i];

	if (!cipher(c, 1, key, nonce, S.msg, buf, len, tag, 1) || memcmp(buf, want, len) != 0 ||
	    memcmp(tag, wtag, 16) != 0 || !cipher(c, 0, key, nonce, buf, back, len, tag, 1) ||
	    memcmp(back, S.msg, len) != 0)
		return 0;
	/* A flipped tag bit: refused. */
	tag[i % 16] ^= 0x20;
	return !cipher(c, 0, key, nonce, buf, back, len, tag, 1);
}

static void *worker(void *arg)
{
	unsigned char *buf = malloc(MAXLEN), *back = malloc(MAXLEN), out[32];
	EVP_CIPHER *own;

	(void)arg;
	if (buf == NULL || back == NULL)
		bail("out of memory");
	pthread_barrier_wait(&start);
	/* Every thread fetches too, all at once. */
	own = EVP_CIPHER_fetch(zt_zinc_ctx(), "ChaCha20-Poly1305", NULL);
	check(FETCH, own != NULL && EVP_CIPHER_get0_provider(own) == EVP_CIPHER_get0_provider(S.aead));
	EVP_CIPHER_free(own);
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < NMSG; i++) {
			size_t len = lens[i];

			check(CHACHA20, cipher(S.c20, r & 1, S.key, S.iv, S.msg, buf, len, NULL, 0) &&
					memcmp(buf, W.c20[i], len) == 0);
			check(AEAD, aead_both(S.aead, S.key, S.nonce, i, W.aead[i], W.aead_tag[i], buf,
					      back));
			check(XAEAD, aead_both(S.xaead, S.key, S.nonce, i, W.xaead[i], W.xaead_tag[i],
					       buf, back));
			check(POLY1305, mac(EVP_MAC_CTX_new(S.poly), S.key, len, out, 16) &&
					memcmp(out, W.poly[i], 16) == 0);
			check(BLAKE2SMAC, mac(EVP_MAC_CTX_dup(S.b2mac_template), NULL, len, out,
					      S.b2size) &&
					  memcmp(out, W.b2mac[i], S.b2size) == 0);
			check(BLAKE2S256, digest(S.b2, len, out) && memcmp(out, W.b2[i], 32) == 0);
		}
		check(X25519, derive(zt_zinc_ctx(), S.priv, S.peer, out) &&
			      memcmp(out, W.secret, 32) == 0);
	}
	free(buf);
	free(back);
	return NULL;
}

int main(void)
{
	OSSL_LIB_CTX *z = zt_zinc_ctx();
	const char *env = getenv("ZINC_THREADS_ROUNDS");
	pthread_t threads[THREADS];
	int started = 0;

	if (env != NULL && atoi(env) > 0)
		rounds = atoi(env);
	zt_rand(S.key, sizeof(S.key));
	zt_rand(S.iv, sizeof(S.iv));
	zt_rand(S.nonce, sizeof(S.nonce));
	zt_rand(S.aad, sizeof(S.aad));
	zt_rand(S.msg, sizeof(S.msg));
	S.b2size = 1 + zt_rand_below(32);
	expected();

	S.c20 = EVP_CIPHER_fetch(z, "ChaCha20", NULL);
	S.aead = EVP_CIPHER_fetch(z, "ChaCha20-Poly1305", NULL);
	S.xaead = EVP_CIPHER_fetch(z, "XChaCha20-Poly1305", NULL);
	S.poly = EVP_MAC_fetch(z, "POLY1305", NULL);
	S.b2mac = EVP_MAC_fetch(z, "BLAKE2SMAC", NULL);
	S.b2 = EVP_MD_fetch(z, "BLAKE2S-256", NULL);
	if (S.c20 == NULL || S.aead == NULL || S.xaead == NULL || S.poly == NULL ||
	    S.b2mac == NULL || S.b2 == NULL)
		bail("cannot fetch from zinc");
	S.b2mac_template = b2mac_ctx(S.b2mac);
	if (!EVP_MAC_init(S.b2mac_template, NULL, 0, NULL))
		bail("cannot key the BLAKE2SMAC template");

	pthread_barrier_init(&start, NULL, THREADS);
	for (int t = 0; t < THREADS; t++)
		started += pthread_create(&threads[t], NULL, worker, NULL) == 0;
	if (started != THREADS)
		bail("cannot start the threads");
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);
	pthread_barrier_destroy(&start);

	for (int a = 0; a < NALG; a++)
		zt_ok(atomic_load(&failures[a]) == 0,
		      "%s: %d threads x %d rounds, shared algorithms and keys, results as default's"
		      " (%d failures)", alg_names[a], THREADS, a == FETCH ? 1 : rounds,
		      atomic_load(&failures[a]));

	EVP_MAC_CTX_free(S.b2mac_template);
	EVP_PKEY_free(S.priv);
	EVP_PKEY_free(S.peer);
	EVP_CIPHER_free(S.c20);
	EVP_CIPHER_free(S.aead);
	EVP_CIPHER_free(S.xaead);
	EVP_MAC_free(S.poly);
	EVP_MAC_free(S.b2mac);
	EVP_MD_free(S.b2);
	return zt_done();
}
