/* SPDX-License-Identifier: Apache-2.0 */
/*
 * WireGuard's KDF building blocks over zinc's BLAKE2S-256: OpenSSL's HMAC
 * and HKDF (default provider code) running zinc's digest, once through the
 * default properties "?zinc.preferred" and once with "provider=zinc" forced,
 * against the same computations in the default provider alone.  Then the
 * chain of the WireGuard paper, T0 = HMAC(C, input), T1 = HMAC(T0, 0x1),
 * Ti = HMAC(T0, Ti-1 || i), which is HKDF with salt C and no info.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "testutil.h"

#define DIGEST "BLAKE2S-256"
#define HASH_LEN 32
#define MAX_OUT ((size_t)255 * HASH_LEN)	/* HKDF's limit */

/* NULL: the library context's default properties.  Never for the oracle. */
static const char *forced;

static const char *props_for(const OSSL_LIB_CTX *libctx)
{
	return libctx == zt_default_ctx() ? NULL : forced;
}

static int hmac(OSSL_LIB_CTX *libctx, const unsigned char *key, size_t keylen,
		const unsigned char *in, size_t inlen, unsigned char out[HASH_LEN])
{
	EVP_MAC *mac = EVP_MAC_fetch(libctx, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[3], *p = params;
	const char *props = props_for(libctx);
	size_t outl = 0;
	int ok;

	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, DIGEST, 0);
	if (props != NULL)
		*p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES, (char *)props,
							0);
	*p = OSSL_PARAM_construct_end();
	ok = ctx != NULL && EVP_MAC_init(ctx, key, keylen, params) &&
	     EVP_MAC_update(ctx, in, inlen) && EVP_MAC_final(ctx, out, &outl, HASH_LEN) &&
	     outl == HASH_LEN;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok;
}

/* mode: "EXTRACT_AND_EXPAND", "EXTRACT_ONLY" or "EXPAND_ONLY". */
static int hkdf(OSSL_LIB_CTX *libctx, const char *mode, const unsigned char *key, size_t keylen,
		const unsigned char *salt, size_t saltlen, const unsigned char *info,
		size_t infolen, unsigned char *out, size_t outlen)
{
	EVP_KDF *kdf = EVP_KDF_fetch(libctx, "HKDF", NULL);
	EVP_KDF_CTX *ctx = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
	OSSL_PARAM params[7], *p = params;
	const char *props = props_for(libctx);
	int ok;

	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, DIGEST, 0);
	if (props != NULL)
		*p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_PROPERTIES, (char *)props,
							0);
	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_MODE, (char *)mode, 0);
	*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)key, keylen);
	if (salt != NULL)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt,
							 saltlen);
	if (info != NULL)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info,
							 infolen);
	*p = OSSL_PARAM_construct_end();
	ok = ctx != NULL && EVP_KDF_derive(ctx, out, outlen, params);
	EVP_KDF_CTX_free(ctx);
	EVP_KDF_free(kdf);
	return ok;
}

static void test_fetch(void)
{
	EVP_MD *md = EVP_MD_fetch(zt_preferred_ctx(), DIGEST, NULL);
	const char *name = md != NULL ? OSSL_PROVIDER_get0_name(EVP_MD_get0_provider(md)) : "none";

	zt_ok(strcmp(name, "zinc") == 0, "%s in the preferring context comes from zinc (%s)",
	      DIGEST, name);
	EVP_MD_free(md);
}

/* Key lengths around the block size: longer keys are hashed first. */
static void test_hmac(void)
{
	static const size_t keylens[] = { 0, 1, 16, 32, 63, 64, 65, 100, 200 };
	static const size_t inlens[] = { 0, 1, 31, 32, 63, 64, 65, 128, 1000, 5000 };
	unsigned char key[200], in[5000], got[HASH_LEN], want[HASH_LEN];
	size_t i, j;

	zt_rand(key, sizeof(key));
	zt_rand(in, sizeof(in));
	for (i = 0; i < sizeof(keylens) / sizeof(keylens[0]); i++)
		for (j = 0; j < sizeof(inlens) / sizeof(inlens[0]); j++) {
			int dok = hmac(zt_default_ctx(), key, keylens[i], in, inlens[j], want);
			int ok = hmac(zt_preferred_ctx(), key, keylens[i], in, inlens[j], got);

			zt_ok(ok && dok, "HMAC-%s %s, key %zu, input %zu: computed", DIGEST,
			      forced != NULL ? forced : "preferred", keylens[i], inlens[j]);
			zt_mem_eq(got, HASH_LEN, want, HASH_LEN, "  equal to default's");
		}
	zt_clear_errors();
}

/* HMAC's own context duplicated mid-stream duplicates zinc's digest contexts. */
static void test_hmac_dup(void)
{
	EVP_MAC *mac = EVP_MAC_fetch(zt_preferred_ctx(), "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL, *copy = NULL;
	OSSL_PARAM params[3], *p = params;
	unsigned char key[32], in[300], in2[200];
	unsigned char got[HASH_LEN], got2[HASH_LEN], want[HASH_LEN], want2[HASH_LEN];
	size_t outl = 0, outl2 = 0;
	int ok, dok;

	zt_rand(key, sizeof(key));
	zt_rand(in, sizeof(in));
	/* The original sees in; the copy in[0..100) || in[200..300). */
	memcpy(in2, in, 100);
	memcpy(in2 + 100, in + 200, 100);
	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, DIGEST, 0);
	if (forced != NULL)
		*p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES, (char *)forced,
							0);
	*p = OSSL_PARAM_construct_end();
	ok = ctx != NULL && EVP_MAC_init(ctx, key, sizeof(key), params) &&
	     EVP_MAC_update(ctx, in, 100) && (copy = EVP_MAC_CTX_dup(ctx)) != NULL &&
	     EVP_MAC_update(ctx, in + 100, 200) && EVP_MAC_update(copy, in + 200, 100) &&
	     EVP_MAC_final(copy, got2, &outl2, HASH_LEN) &&
	     EVP_MAC_final(ctx, got, &outl, HASH_LEN);
	dok = hmac(zt_default_ctx(), key, sizeof(key), in, sizeof(in), want) &&
	      hmac(zt_default_ctx(), key, sizeof(key), in2, sizeof(in2), want2);
	zt_ok(ok && dok, "HMAC-%s %s duplicated mid-stream: computed", DIGEST,
	      forced != NULL ? forced : "preferred");
	zt_mem_eq(got, outl, want, HASH_LEN, "  the original equals default's");
	zt_mem_eq(got2, outl2, want2, HASH_LEN, "  the copy equals default's");
	EVP_MAC_CTX_free(copy);
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	zt_clear_errors();
}

static void test_hkdf(void)
{
	static const struct {
		size_t keylen, saltlen, infolen, outlen;
		int no_salt, no_info;
	} cases[] = {
		{ 32, 32, 0, 32, 0, 0 },
		{ 32, 0, 0, 32, 1, 1 },
		{ 0, 32, 0, 64, 0, 0 },
		{ 32, 32, 10, 1, 0, 0 },
		{ 16, 13, 77, 33, 0, 0 },
		{ 80, 80, 200, 96, 0, 0 },
		{ 64, 65, 64, 100, 0, 0 },
		{ 1, 1, 1, MAX_OUT, 0, 0 },
		{ 32, 32, 32, MAX_OUT - 1, 0, 0 },
	};
	static const char *const modes[] = { "EXTRACT_AND_EXPAND", "EXTRACT_ONLY", "EXPAND_ONLY" };
	static unsigned char got[MAX_OUT], want[MAX_OUT];
	unsigned char key[80], salt[80], info[200];
	size_t i, m;

	zt_rand(key, sizeof(key));
	zt_rand(salt, sizeof(salt));
	zt_rand(info, sizeof(info));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (m = 0; m < 3; m++) {
			const unsigned char *s = cases[i].no_salt ? NULL : salt;
			const unsigned char *inf = cases[i].no_info ? NULL : info;
			/* Extraction gives exactly one hash; expansion from a short key is fine. */
			size_t outlen = m == 1 ? HASH_LEN : cases[i].outlen;
			int dok, ok;

			if (m == 2 && cases[i].keylen == 0)
				continue;	/* HKDF refuses an empty key */
			memset(got, 0, outlen);
			dok = hkdf(zt_default_ctx(), modes[m], key, cases[i].keylen, s,
				   cases[i].saltlen, inf, cases[i].infolen, want, outlen);
			ok = hkdf(zt_preferred_ctx(), modes[m], key, cases[i].keylen, s,
				  cases[i].saltlen, inf, cases[i].infolen, got, outlen);
			zt_ok(ok && dok,
			      "HKDF-%s %s %s, key %zu salt %s%zu info %s%zu, %zu bytes: derived",
			      DIGEST, forced != NULL ? forced : "preferred", modes[m],
			      cases[i].keylen, s == NULL ? "none/" : "", cases[i].saltlen,
			      inf == NULL ? "none/" : "", cases[i].infolen, outlen);
			zt_mem_eq(got, outlen, want, outlen, "  equal to default's");
		}
	zt_clear_errors();
}

/* KDF_n(C, input) of the WireGuard paper, n = 1..3, by HMAC chaining. */
static int wireguard_kdf(OSSL_LIB_CTX *libctx, const unsigned char *c, size_t clen,
			 const unsigned char *in, size_t inlen, unsigned char out[3 * HASH_LEN])
{
	unsigned char t0[HASH_LEN], block[HASH_LEN + 1];
	size_t i;
	int ok = hmac(libctx, c, clen, in, inlen, t0);

	for (i = 0; ok && i < 3; i++) {
		size_t n = 0;

		if (i > 0) {
			memcpy(block, out + (i - 1) * HASH_LEN, HASH_LEN);
			n = HASH_LEN;
		}
		block[n++] = (unsigned char)(i + 1);
		ok = hmac(libctx, t0, HASH_LEN, block, n, out + i * HASH_LEN);
	}
	OPENSSL_cleanse(t0, sizeof(t0));
	return ok;
}

static void test_wireguard(void)
{
	static const size_t inlens[] = { 0, 32, 64, 100 };
	unsigned char c[HASH_LEN], in[100], got[3 * HASH_LEN], want[3 * HASH_LEN],
		viahkdf[3 * HASH_LEN];
	size_t i;

	for (i = 0; i < sizeof(inlens) / sizeof(inlens[0]); i++) {
		int ok, dok, hok;

		zt_rand(c, sizeof(c));
		zt_rand(in, sizeof(in));
		dok = wireguard_kdf(zt_default_ctx(), c, sizeof(c), in, inlens[i], want);
		ok = wireguard_kdf(zt_preferred_ctx(), c, sizeof(c), in, inlens[i], got);
		hok = inlens[i] > 0 &&
		      hkdf(zt_preferred_ctx(), "EXTRACT_AND_EXPAND", in, inlens[i], c, sizeof(c),
			   (const unsigned char *)"", 0, viahkdf, sizeof(viahkdf));
		zt_ok(ok && dok, "WireGuard KDF3 %s, input %zu: computed",
		      forced != NULL ? forced : "preferred", inlens[i]);
		zt_mem_eq(got, sizeof(got), want, sizeof(want), "  T1 T2 T3 equal to default's");
		/* HKDF refuses an empty input key; the chain does not need one. */
		if (inlens[i] > 0)
			zt_mem_eq(viahkdf, hok ? sizeof(viahkdf) : 0, want, sizeof(want),
				  "  and to HKDF with salt C and no info");
	}
	zt_clear_errors();
}

int main(void)
{
	int pass;

	test_fetch();
	for (pass = 0; pass < 2; pass++) {
		forced = pass == 0 ? NULL : "provider=zinc";
		test_hmac();
		test_hmac_dup();
		test_hkdf();
		test_wireguard();
	}
	return zt_done();
}
