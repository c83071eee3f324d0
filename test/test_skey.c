/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Opaque symmetric keys (EVP_SKEY, OpenSSL 3.5+) with zinc: its
 * GENERIC-SECRET key manager, and its ciphers and MACs keyed through
 * EVP_CipherInit_SKEY and EVP_MAC_init_SKEY against raw-key inits of the
 * default provider (of zinc for XChaCha20-Poly1305, which default lacks).
 * The EVP_SKEY functions are looked up in the running libcrypto, so that
 * this compiles against 3.0's headers; under 3.0 zinc must offer no key
 * manager, and the rest is skipped.
 */
#include "config.h"	/* _GNU_SOURCE, for RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "ossl_compat.h"
#include "testutil.h"

typedef struct evp_skey_st zt_skey;

static struct {
	zt_skey *(*import)(OSSL_LIB_CTX *libctx, const char *name, const char *propq,
			   int selection, const OSSL_PARAM *params);
	zt_skey *(*import_raw_key)(OSSL_LIB_CTX *libctx, const char *name, unsigned char *key,
				   size_t keylen, const char *propq);
	zt_skey *(*generate)(OSSL_LIB_CTX *libctx, const char *name, const char *propq,
			     const OSSL_PARAM *params);
	zt_skey *(*to_provider)(zt_skey *skey, OSSL_LIB_CTX *libctx, OSSL_PROVIDER *prov,
				const char *propq);
	void (*free)(zt_skey *skey);
	const char *(*get0_provider_name)(const zt_skey *skey);
	int (*get0_raw_key)(const zt_skey *skey, const unsigned char **key, size_t *len);
	int (*export)(const zt_skey *skey, int selection, OSSL_CALLBACK *cb, void *cbarg);
	int (*cipher_init)(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, zt_skey *skey,
			   const unsigned char *iv, size_t ivlen, int enc, const OSSL_PARAM *params);
	int (*mac_init)(EVP_MAC_CTX *ctx, zt_skey *skey, const OSSL_PARAM *params);
} api;

#define RESOLVE(field, symbol) \
	((api.field = (__typeof__(api.field))dlsym(RTLD_DEFAULT, symbol)) != NULL)

static bool resolve_api(void)
{
	return RESOLVE(import, "EVP_SKEY_import") &&
	       RESOLVE(import_raw_key, "EVP_SKEY_import_raw_key") &&
	       RESOLVE(generate, "EVP_SKEY_generate") &&
	       RESOLVE(to_provider, "EVP_SKEY_to_provider") &&
	       RESOLVE(free, "EVP_SKEY_free") &&
	       RESOLVE(get0_provider_name, "EVP_SKEY_get0_provider_name") &&
	       RESOLVE(get0_raw_key, "EVP_SKEY_get0_raw_key") &&
	       RESOLVE(export, "EVP_SKEY_export") &&
	       RESOLVE(cipher_init, "EVP_CipherInit_SKEY") &&
	       RESOLVE(mac_init, "EVP_MAC_init_SKEY");
}

#define GENERIC "GENERIC-SECRET"
#define KEY_LEN 32
#define MSG_LEN 100	/* not a whole number of ChaCha20 blocks */
#define AAD_LEN 20
#define TAG_LEN 16

static const char tag_mismatch[] = "tag mismatch: the message is not authentic";

static unsigned char key[KEY_LEN + 1], iv[24], aad[AAD_LEN], msg[MSG_LEN];

static bool is_named(const char *got, const char *want)
{
	return got != NULL && strcmp(got, want) == 0;
}

static bool cipher_from(const EVP_CIPHER *c, const char *provider)
{
	return c != NULL && is_named(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)), provider);
}

/* No zinc reason: libcrypto refused before zinc saw the call. */
static bool refused_by_libcrypto(void)
{
	return zt_zinc_reason() == NULL;
}

static bool reason_is(const char *want)
{
	return is_named(zt_zinc_reason(), want);
}

/* A key that should not have been made: true if none was (one made is freed). */
static bool refused(zt_skey *skey)
{
	api.free(skey);
	return skey == NULL;
}

/*
 * Under 3.5+ zinc answers OSSL_OP_SKEYMGMT with GENERIC-SECRET; under an
 * older core it answers nothing, whichever headers it was built with.
 */
static void test_offered(bool want)
{
	OSSL_PROVIDER *prov = OSSL_PROVIDER_load(zt_zinc_ctx(), "zinc");
	const OSSL_ALGORITHM *algs;
	int no_cache = 0;
	bool generic = false;

	if (!zt_ok(prov != NULL, "zinc's OSSL_PROVIDER"))
		return;
	algs = OSSL_PROVIDER_query_operation(prov, OSSL_OP_SKEYMGMT, &no_cache);
	for (const OSSL_ALGORITHM *a = algs; a != NULL && a->algorithm_names != NULL; a++)
		generic |= is_named(a->algorithm_names, GENERIC);
	if (want)
		zt_ok(generic, "OpenSSL %u.%u: zinc offers SKEYMGMT " GENERIC,
		      OPENSSL_version_major(), OPENSSL_version_minor());
	else
		zt_ok(algs == NULL, "OpenSSL %u.%u: zinc offers no SKEYMGMT",
		      OPENSSL_version_major(), OPENSSL_version_minor());
	OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_SKEYMGMT, algs);
	OSSL_PROVIDER_unload(prov);
}

struct sealed {
	unsigned char ct[MSG_LEN];
	unsigned char tag[TAG_LEN];
};

/*
 * Encrypts msg (after aad for an AEAD) with c, keyed by skey if given,
 * else by rawkey; with split, key and IV come in two skey inits.
 */
static bool seal(const EVP_CIPHER *c, zt_skey *skey, const unsigned char *rawkey, bool split,
		 size_t ivlen, bool aead, struct sealed *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int len, fin;
	bool ok;

	if (skey == NULL)
		ok = EVP_CipherInit_ex2(ctx, c, rawkey, iv, 1, NULL);
	else if (split)
		ok = api.cipher_init(ctx, c, skey, NULL, 0, 1, NULL) &&
		     api.cipher_init(ctx, NULL, NULL, iv, ivlen, -1, NULL);
	else
		ok = api.cipher_init(ctx, c, skey, iv, ivlen, 1, NULL);
	ok = ok && (!aead || EVP_CipherUpdate(ctx, NULL, &len, aad, AAD_LEN)) &&
	     EVP_CipherUpdate(ctx, out->ct, &len, msg, MSG_LEN) && len == MSG_LEN &&
	     EVP_CipherFinal_ex(ctx, out->ct + len, &fin) && fin == 0 &&
	     (!aead || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAG_LEN, out->tag) > 0);
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/* Decrypts through an skey init; an AEAD checks tag.  The plaintext goes to pt. */
static bool open_sealed(const EVP_CIPHER *c, zt_skey *skey, size_t ivlen, bool aead,
			const struct sealed *in, const unsigned char tag[TAG_LEN],
			unsigned char pt[MSG_LEN])
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int len, fin;
	bool ok;

	ok = api.cipher_init(ctx, c, skey, iv, ivlen, 0, NULL) &&
	     (!aead || (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TAG_LEN,
					    (void *)tag) > 0 &&
			EVP_CipherUpdate(ctx, NULL, &len, aad, AAD_LEN))) &&
	     EVP_CipherUpdate(ctx, pt, &len, in->ct, MSG_LEN) && len == MSG_LEN &&
	     EVP_CipherFinal_ex(ctx, pt + len, &fin) && fin == 0;
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

static void test_cipher(const char *name, size_t ivlen, bool aead, zt_skey *skey)
{
	/* Default lacks XChaCha20-Poly1305: zinc's raw-key init is the reference. */
	OSSL_LIB_CTX *oracle_ctx = strcmp(name, "XChaCha20-Poly1305") == 0 ? zt_zinc_ctx()
									    : zt_default_ctx();
	EVP_CIPHER *c = EVP_CIPHER_fetch(zt_preferred_ctx(), name, NULL);
	EVP_CIPHER *oracle = EVP_CIPHER_fetch(oracle_ctx, name, NULL);
	struct sealed want, got, split;
	unsigned char pt[MSG_LEN], bad_tag[TAG_LEN];

	memset(&want, 0, sizeof(want));
	memset(&got, 0, sizeof(got));
	memset(&split, 0, sizeof(split));
	if (!zt_ok(cipher_from(c, "zinc") && oracle != NULL, "%s: zinc's, and the reference", name))
		goto out;
	if (!zt_ok(seal(oracle, NULL, key, false, ivlen, aead, &want), "%s: raw-key reference", name))
		goto out;
	if (zt_ok(seal(c, skey, NULL, false, ivlen, aead, &got), "%s: EVP_CipherInit_SKEY encrypts", name)) {
		zt_mem_eq(got.ct, MSG_LEN, want.ct, MSG_LEN, "%s: skey ciphertext = raw key's", name);
		if (aead)
			zt_mem_eq(got.tag, TAG_LEN, want.tag, TAG_LEN, "%s: skey tag = raw key's", name);
	}
	if (zt_ok(seal(c, skey, NULL, true, ivlen, aead, &split),
		  "%s: skey init, then an IV-only init with no skey", name))
		zt_mem_eq(split.ct, MSG_LEN, want.ct, MSG_LEN, "%s: key and IV in two inits", name);
	if (zt_ok(open_sealed(c, skey, ivlen, aead, &want, want.tag, pt),
		  "%s: EVP_CipherInit_SKEY decrypts", name))
		zt_mem_eq(pt, MSG_LEN, msg, MSG_LEN, "%s: skey decryption gives the message", name);
	if (aead) {
		memcpy(bad_tag, want.tag, TAG_LEN);
		bad_tag[0] ^= 1;
		zt_ok(!open_sealed(c, skey, ivlen, aead, &want, bad_tag, pt) &&
		      reason_is(tag_mismatch), "%s: skey decryption checks the tag", name);
	}
out:
	zt_clear_errors();
	EVP_CIPHER_free(c);
	EVP_CIPHER_free(oracle);
}

/* One MAC over msg, keyed by skey if given, else by the raw key of keylen bytes. */
static bool mac(EVP_MAC *m, zt_skey *skey, size_t keylen, unsigned char *out, size_t *outl)
{
	EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(m);
	bool ok;

	ok = ctx != NULL && (skey != NULL ? api.mac_init(ctx, skey, NULL)
					  : EVP_MAC_init(ctx, key, keylen, NULL)) &&
	     EVP_MAC_update(ctx, msg, MSG_LEN) && EVP_MAC_final(ctx, out, outl, 64);
	EVP_MAC_CTX_free(ctx);
	return ok;
}

static void test_mac(const char *name, size_t keylen)
{
	EVP_MAC *m = EVP_MAC_fetch(zt_preferred_ctx(), name, NULL);
	EVP_MAC *oracle = EVP_MAC_fetch(zt_default_ctx(), name, NULL);
	zt_skey *skey = api.import_raw_key(zt_preferred_ctx(), GENERIC, key, keylen, NULL);
	unsigned char want[64], got[64];
	size_t wantl = 0, gotl = 0;

	if (!zt_ok(m != NULL && oracle != NULL && skey != NULL &&
		   is_named(OSSL_PROVIDER_get0_name(EVP_MAC_get0_provider(m)), "zinc"),
		   "%s: zinc's, default's, and a %zu-byte zinc skey", name, keylen))
		goto out;
	if (!zt_ok(mac(oracle, NULL, keylen, want, &wantl), "%s: default's raw-key MAC", name))
		goto out;
	if (zt_ok(mac(m, skey, keylen, got, &gotl), "%s: EVP_MAC_init_SKEY", name))
		zt_mem_eq(got, gotl, want, wantl, "%s: skey MAC = default's raw-key MAC", name);
out:
	zt_clear_errors();
	api.free(skey);
	EVP_MAC_free(m);
	EVP_MAC_free(oracle);
}

static int export_seen(const OSSL_PARAM params[], void *arg)
{
	(void)params;
	(void)arg;
	return 1;
}

static void test_import_export(void)
{
	zt_skey *skey = api.import_raw_key(zt_preferred_ctx(), GENERIC, key, KEY_LEN, NULL);
	zt_skey *dflt = api.import_raw_key(zt_default_ctx(), GENERIC, key, KEY_LEN, NULL);
	const unsigned char *raw = NULL;
	size_t rawlen = 0;

	zt_ok(skey != NULL && is_named(api.get0_provider_name(skey), "zinc"),
	      ZT_PREFER_ZINC ": " GENERIC " without properties is zinc's");
	zt_ok(dflt != NULL && is_named(api.get0_provider_name(dflt), "default"),
	      "default alone: " GENERIC " is default's");
	if (zt_ok(skey != NULL && api.get0_raw_key(skey, &raw, &rawlen), "zinc skey exports"))
		zt_mem_eq(raw, rawlen, key, KEY_LEN, "zinc skey: exported bytes = imported");
	/* Selecting only parameters (1): there is nothing to export. */
	zt_ok(skey != NULL && dflt != NULL && api.export(skey, 1, export_seen, NULL) == 0 &&
	      api.export(dflt, 1, export_seen, NULL) == 0,
	      "export without the secret key selected fails, as default's");
	zt_clear_errors();
	api.free(skey);
	api.free(dflt);
}

static void test_generate(void)
{
	size_t len = KEY_LEN, zero = 0, over = 1025;
	OSSL_PARAM params[] = { OSSL_PARAM_size_t(OSSL_SKEY_PARAM_KEY_LENGTH, &len),
				OSSL_PARAM_END };
	OSSL_PARAM zero_len[] = { OSSL_PARAM_size_t(OSSL_SKEY_PARAM_KEY_LENGTH, &zero),
				  OSSL_PARAM_END };
	OSSL_PARAM too_long[] = { OSSL_PARAM_size_t(OSSL_SKEY_PARAM_KEY_LENGTH, &over),
				  OSSL_PARAM_END };
	zt_skey *a = api.generate(zt_preferred_ctx(), GENERIC, NULL, params);
	zt_skey *b = api.generate(zt_preferred_ctx(), GENERIC, NULL, params);
	EVP_CIPHER *c = EVP_CIPHER_fetch(zt_preferred_ctx(), "ChaCha20-Poly1305", NULL);
	EVP_CIPHER *oracle = EVP_CIPHER_fetch(zt_default_ctx(), "ChaCha20-Poly1305", NULL);
	const unsigned char *ra = NULL, *rb = NULL;
	size_t la = 0, lb = 0;
	struct sealed got, want;

	if (!zt_ok(a != NULL && b != NULL && is_named(api.get0_provider_name(a), "zinc") &&
		   api.get0_raw_key(a, &ra, &la) && api.get0_raw_key(b, &rb, &lb) &&
		   la == KEY_LEN && lb == KEY_LEN,
		   "EVP_SKEY_generate: two zinc keys of key-length %d bytes", KEY_LEN))
		goto out;
	zt_ok(memcmp(ra, rb, KEY_LEN) != 0, "EVP_SKEY_generate: the two keys differ");
	/* The generated key keys zinc's AEAD as its exported bytes key default's. */
	if (zt_ok(c != NULL && oracle != NULL && seal(c, a, NULL, false, 12, true, &got) &&
		  seal(oracle, NULL, ra, false, 12, true, &want), "generated key seals"))
		zt_mem_eq(got.tag, TAG_LEN, want.tag, TAG_LEN,
			  "generated skey's tag = default's with its exported bytes");
	zt_clear_errors();
	zt_ok(refused(api.generate(zt_preferred_ctx(), GENERIC, NULL, zero_len)) &&
	      reason_is("invalid key length"), "EVP_SKEY_generate, key-length 0: refused by zinc");
	zt_ok(refused(api.generate(zt_preferred_ctx(), GENERIC, NULL, NULL)) &&
	      reason_is("invalid key length"), "EVP_SKEY_generate, no key-length: refused by zinc");
	zt_ok(refused(api.generate(zt_preferred_ctx(), GENERIC, NULL, too_long)) &&
	      reason_is("invalid key length"),
	      "EVP_SKEY_generate, key-length 1025: refused by zinc (a key, at most 1 KiB)");
	{
		/* zinc alone has no DRBG: the bytes come from the core's entropy. */
		zt_skey *alone = api.generate(zt_zinc_ctx(), GENERIC, NULL, params);
		const unsigned char *r = NULL;
		size_t l = 0;

		zt_ok(alone != NULL && api.get0_raw_key(alone, &r, &l) && l == KEY_LEN &&
		      memcmp(r, ra, KEY_LEN) != 0,
		      "EVP_SKEY_generate with zinc alone (no random generator there) works");
		api.free(alone);
	}
out:
	zt_clear_errors();
	api.free(a);
	api.free(b);
	EVP_CIPHER_free(c);
	EVP_CIPHER_free(oracle);
}

static void test_bad_keys(void)
{
	static const struct {
		const char *name;
		size_t keylen;
		bool is_mac;
	} wrong[] = {
		{ "ChaCha20", 16, false },
		{ "ChaCha20-Poly1305", 31, false },
		{ "XChaCha20-Poly1305", 33, false },
		{ "POLY1305", 16, true },
		{ "BLAKE2SMAC", 33, true },
	};
	OSSL_PARAM no_bytes[] = { OSSL_PARAM_END };
	OSSL_PARAM text[] = { OSSL_PARAM_utf8_string(OSSL_SKEY_PARAM_RAW_BYTES, "key", 3),
			      OSSL_PARAM_END };
	size_t i;

	for (i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		zt_skey *skey = api.import_raw_key(zt_preferred_ctx(), GENERIC, key,
						   wrong[i].keylen, NULL);
		bool failed = false;

		if (!zt_ok(skey != NULL, "%zu-byte zinc skey", wrong[i].keylen))
			continue;
		if (wrong[i].is_mac) {
			EVP_MAC *m = EVP_MAC_fetch(zt_preferred_ctx(), wrong[i].name, NULL);
			EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;

			failed = ctx != NULL && !api.mac_init(ctx, skey, NULL);
			EVP_MAC_CTX_free(ctx);
			EVP_MAC_free(m);
		} else {
			EVP_CIPHER *c = EVP_CIPHER_fetch(zt_preferred_ctx(), wrong[i].name, NULL);
			EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

			failed = c != NULL && !api.cipher_init(ctx, c, skey, NULL, 0, 1, NULL);
			EVP_CIPHER_CTX_free(ctx);
			EVP_CIPHER_free(c);
		}
		zt_ok(failed && reason_is("invalid key length"),
		      "%s with a %zu-byte skey: zinc says \"invalid key length\"", wrong[i].name,
		      wrong[i].keylen);
		zt_clear_errors();
		api.free(skey);
	}

	zt_ok(refused(api.import_raw_key(zt_preferred_ctx(), GENERIC, key, 0, NULL)) &&
	      reason_is("invalid key length"), "import of 0 bytes: zinc says \"invalid key length\"");
	zt_ok(refused(api.import_raw_key(zt_preferred_ctx(), GENERIC, NULL, KEY_LEN, NULL)) &&
	      reason_is("null argument"), "import of no bytes at all: zinc says \"null argument\"");
	zt_ok(refused(api.import(zt_preferred_ctx(), GENERIC, NULL,
				 OSSL_SKEYMGMT_SELECT_SECRET_KEY, text)) &&
	      reason_is("failed to get parameter"),
	      "raw-bytes as a UTF-8 string: zinc says \"failed to get parameter\"");
	zt_ok(refused(api.import(zt_preferred_ctx(), GENERIC, NULL,
				 OSSL_SKEYMGMT_SELECT_SECRET_KEY, no_bytes)) &&
	      reason_is("no key set"),
	      "import without raw-bytes: zinc says \"no key set\"");
	zt_ok(refused(api.import(zt_preferred_ctx(), GENERIC, NULL,
				 OSSL_SKEYMGMT_SELECT_PARAMETERS, NULL)) &&
	      reason_is("no key set"),
	      "import selecting no secret key: zinc says \"no key set\"");
	zt_clear_errors();
}

/*
 * libcrypto hands an EVP_SKEY only to an algorithm of the provider that
 * made it (evp_cipher_init_skey_internal, EVP_MAC_init_SKEY): a key from
 * one provider cannot key the other's cipher or MAC, and
 * EVP_SKEY_to_provider is the way across.
 */
static void test_same_provider_rule(void)
{
	OSSL_LIB_CTX *ctx = zt_preferred_ctx();
	zt_skey *zinc_key = api.import_raw_key(ctx, GENERIC, key, KEY_LEN, NULL);
	zt_skey *dflt_key = api.import_raw_key(ctx, GENERIC, key, KEY_LEN, "provider=default");
	zt_skey *moved = NULL, *aes_key = NULL;
	EVP_CIPHER *zc = EVP_CIPHER_fetch(ctx, "ChaCha20", NULL);
	EVP_CIPHER *dc = EVP_CIPHER_fetch(ctx, "ChaCha20", "provider=default");
	EVP_CIPHER *aes = EVP_CIPHER_fetch(ctx, "AES-128-CBC", NULL);
	EVP_MAC *zm = EVP_MAC_fetch(ctx, "POLY1305", NULL);
	EVP_MAC_CTX *mctx = zm != NULL ? EVP_MAC_CTX_new(zm) : NULL;
	EVP_CIPHER_CTX *cctx = EVP_CIPHER_CTX_new();
	struct sealed want, got;

	memset(&got, 0, sizeof(got));
	if (!zt_ok(zinc_key != NULL && dflt_key != NULL &&
		   is_named(api.get0_provider_name(dflt_key), "default") &&
		   cipher_from(zc, "zinc") && cipher_from(dc, "default") &&
		   cipher_from(aes, "default") && mctx != NULL,
		   "keys, ciphers and MAC from zinc and from default"))
		goto out;
	zt_ok(!api.cipher_init(cctx, zc, dflt_key, iv, 16, 1, NULL) && refused_by_libcrypto(),
	      "zinc's ChaCha20 with default's skey: libcrypto refuses (same-provider rule)");
	zt_ok(!api.cipher_init(cctx, dc, zinc_key, iv, 16, 1, NULL) && refused_by_libcrypto(),
	      "default's ChaCha20 with zinc's skey: libcrypto refuses (same-provider rule)");
	zt_ok(!api.mac_init(mctx, dflt_key, NULL) && refused_by_libcrypto(),
	      "zinc's POLY1305 with default's skey: libcrypto refuses (same-provider rule)");

	/* zinc(7)'s limit: zinc's GENERIC-SECRET cannot key default's AES. */
	aes_key = api.import_raw_key(ctx, GENERIC, key, 16, NULL);
	zt_ok(aes_key != NULL && !api.cipher_init(cctx, aes, aes_key, iv, 16, 1, NULL) &&
	      refused_by_libcrypto(),
	      "default's AES-128-CBC with zinc's " GENERIC ": libcrypto refuses");

	moved = api.to_provider(zinc_key, ctx, NULL, "provider=default");
	if (zt_ok(moved != NULL && is_named(api.get0_provider_name(moved), "default"),
		  "EVP_SKEY_to_provider moves zinc's skey to default") &&
	    zt_ok(seal(dc, moved, NULL, false, 16, false, &got) &&
		  seal(dc, NULL, key, false, 16, false, &want), "default's ChaCha20 with the moved skey"))
		zt_mem_eq(got.ct, MSG_LEN, want.ct, MSG_LEN, "moved skey: ciphertext = raw key's");
out:
	zt_clear_errors();
	api.free(zinc_key);
	api.free(dflt_key);
	api.free(aes_key);
	api.free(moved);
	EVP_CIPHER_CTX_free(cctx);
	EVP_MAC_CTX_free(mctx);
	EVP_MAC_free(zm);
	EVP_CIPHER_free(zc);
	EVP_CIPHER_free(dc);
	EVP_CIPHER_free(aes);
}

int main(void)
{
	bool have_skey = OPENSSL_version_major() > 3 ||
			 (OPENSSL_version_major() == 3 && OPENSSL_version_minor() >= 5);
	zt_skey *skey;

	test_offered(have_skey);
	if (!have_skey) {
		zt_skip("EVP_SKEY needs OpenSSL 3.5 or later; this is %s",
			OpenSSL_version(OPENSSL_VERSION));
		return zt_done();
	}
	if (!zt_ok(resolve_api(), "EVP_SKEY functions found in libcrypto %u.%u",
		   OPENSSL_version_major(), OPENSSL_version_minor()))
		return zt_done();

	zt_rand(key, sizeof(key));
	zt_rand(iv, sizeof(iv));
	zt_rand(aad, sizeof(aad));
	zt_rand(msg, sizeof(msg));

	test_import_export();
	skey = api.import_raw_key(zt_preferred_ctx(), GENERIC, key, KEY_LEN, NULL);
	if (zt_ok(skey != NULL, "a %d-byte zinc skey", KEY_LEN)) {
		test_cipher("ChaCha20", 16, false, skey);
		test_cipher("ChaCha20-Poly1305", 12, true, skey);
		test_cipher("XChaCha20-Poly1305", 24, true, skey);
	}
	api.free(skey);
	test_mac("POLY1305", 32);
	test_mac("BLAKE2SMAC", 32);
	test_mac("BLAKE2SMAC", 16);
	test_generate();
	test_bad_keys();
	test_same_provider_rule();
	return zt_done();
}
