/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 key generation from `dhkem-ikm` (RFC 9180 DeriveKeyPair for
 * DHKEM(X25519, HKDF-SHA256)), which OpenSSL's default provider has from
 * 3.2 on: the RFC's key pairs, default as the oracle for random IKMs, the
 * IKMs both refuse, and OSSL_HPKE_keygen with zinc preferred.  Before 3.2
 * neither provider lists the parameter.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#if OPENSSL_VERSION_NUMBER >= 0x30200000L
#include <openssl/hpke.h>
#endif
#include "testutil.h"

/* 3.0's headers lack the name; the parameter is the same string. */
#ifndef OSSL_PKEY_PARAM_DHKEM_IKM
#define OSSL_PKEY_PARAM_DHKEM_IKM "dhkem-ikm"
#endif

enum { KEYLEN = 32 };

static const char *const short_ikm_reason = "invalid input length";
static const char *const no_hkdf_reason = "cannot fetch HKDF-SHA256 for dhkem-ikm";
static const char *const bad_type_reason = "failed to set parameter";

/* The libcrypto running this test, not the headers it was built with. */
static int libcrypto_has_dhkem_ikm(void)
{
	return OPENSSL_version_major() > 3 ||
	       (OPENSSL_version_major() == 3 && OPENSSL_version_minor() >= 2);
}

static const char *provider_of(const EVP_PKEY *pkey)
{
	const OSSL_PROVIDER *prov = pkey == NULL ? NULL : EVP_PKEY_get0_provider(pkey);

	return prov == NULL ? "(none)" : OSSL_PROVIDER_get0_name(prov);
}

static int in_zinc(const EVP_PKEY *pkey)
{
	return strcmp(provider_of(pkey), "zinc") == 0;
}

/* A generated key's raw parts. */
struct keypair {
	unsigned char priv[KEYLEN];
	unsigned char pub[KEYLEN];
};

static int raw_keypair(const EVP_PKEY *pkey, struct keypair *out)
{
	size_t priv_len = KEYLEN, pub_len = KEYLEN;

	return EVP_PKEY_get_raw_private_key(pkey, out->priv, &priv_len) == 1 &&
	       priv_len == KEYLEN &&
	       EVP_PKEY_get_raw_public_key(pkey, out->pub, &pub_len) == 1 && pub_len == KEYLEN;
}

/*
 * X25519 generation in libctx with the parameter ikm (dhkem-ikm, or what
 * stands for it), `times` times on the same context; 1 with each key's
 * parts in out[] if all succeed.  *zinc_served says whether zinc made them.
 */
static int generate(OSSL_LIB_CTX *libctx, const OSSL_PARAM *ikm, struct keypair *out,
		    int times, int *zinc_served)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, "X25519", NULL);
	OSSL_PARAM params[2] = { *ikm, OSSL_PARAM_END };
	int ok, i;

	*zinc_served = 1;
	ok = ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1 &&
	     EVP_PKEY_CTX_set_params(ctx, params) == 1;
	for (i = 0; ok && i < times; i++) {
		EVP_PKEY *pkey = NULL;

		ok = EVP_PKEY_generate(ctx, &pkey) == 1 && raw_keypair(pkey, &out[i]);
		*zinc_served &= in_zinc(pkey);
		EVP_PKEY_free(pkey);
	}
	EVP_PKEY_CTX_free(ctx);
	return ok;
}

static OSSL_PARAM ikm_param(const unsigned char *ikm, size_t len)
{
	return OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_DHKEM_IKM, (void *)ikm, len);
}

/* zinc's key in zt_preferred_ctx() and default's from the same IKM. */
static int zinc_and_default(const OSSL_PARAM *ikm, struct keypair *zinc,
			    struct keypair *dflt, const char *what)
{
	int zinc_served, default_zinc;
	int zok = generate(zt_preferred_ctx(), ikm, zinc, 1, &zinc_served);
	int dok = generate(zt_default_ctx(), ikm, dflt, 1, &default_zinc);

	if (!zt_ok(zok && dok, "%s: zinc and default generate", what)) {
		zt_clear_errors();
		return 0;
	}
	return zt_ok(zinc_served, "%s: zinc made the key", what);
}

static int lists_dhkem_ikm(const OSSL_PARAM *settable)
{
	return settable != NULL && OSSL_PARAM_locate_const(settable, OSSL_PKEY_PARAM_DHKEM_IKM);
}

/* Both list dhkem-ikm from 3.2 on, neither before; the same list in full is test_x25519_evp's. */
static void test_settable(void)
{
	EVP_KEYMGMT *z = EVP_KEYMGMT_fetch(zt_zinc_ctx(), "X25519", NULL);
	EVP_KEYMGMT *d = EVP_KEYMGMT_fetch(zt_default_ctx(), "X25519", NULL);
	int want = libcrypto_has_dhkem_ikm();

	if (zt_ok(z != NULL && d != NULL, "X25519 key managers of zinc and default")) {
		zt_ok(lists_dhkem_ikm(EVP_KEYMGMT_gen_settable_params(d)) == want,
		      "default %s dhkem-ikm on libcrypto %s", want ? "lists" : "does not list",
		      OpenSSL_version(OPENSSL_VERSION_STRING));
		zt_ok(lists_dhkem_ikm(EVP_KEYMGMT_gen_settable_params(z)) == want,
		      "zinc %s dhkem-ikm, as default", want ? "lists" : "does not list");
	}
	EVP_KEYMGMT_free(z);
	EVP_KEYMGMT_free(d);
	zt_clear_errors();
}

/* RFC 9180 Appendix A.1, DHKEM(X25519, HKDF-SHA256): each role's ikm and key pair. */
static const struct {
	const char *name, *ikm, *sk, *pk;
} rfc9180[] = {
	{ "A.1.1 ikmE", "7268600d403fce431561aef583ee1613527cff655c1343f29812e66706df3234",
	  "52c4a758a802cd8b936eceea314432798d5baf2d7e9235dc084ab1b9cfa2f736",
	  "37fda3567bdbd628e88668c3c8d7e97d1d1253b6d4ea6d44c150f741f1bf4431" },
	{ "A.1.1 ikmR", "6db9df30aa07dd42ee5e8181afdb977e538f5e1fec8a06223f33f7013e525037",
	  "4612c550263fc8ad58375df3f557aac531d26850903e55a9f23f21d8534e8ac8",
	  "3948cfe0ad1ddb695d780e59077195da6c56506b027329794ab02bca80815c4d" },
	{ "A.1.2 ikmE", "78628c354e46f3e169bd231be7b2ff1c77aa302460a26dbfa15515684c00130b",
	  "463426a9ffb42bb17dbe6044b9abd1d4e4d95f9041cef0e99d7824eef2b6f588",
	  "0ad0950d9fb9588e59690b74f1237ecdf1d775cd60be2eca57af5a4b0471c91b" },
	{ "A.1.2 ikmR", "d4a09d09f575fef425905d2ab396c1449141463f698f8efdb7accfaff8995098",
	  "c5eb01eb457fe6c6f57577c5413b931550a162c71a03ac8d196babbd4e5ce0fd",
	  "9fed7e8c17387560e92cc6462a68049657246a09bfa8ade7aefe589672016366" },
	{ "A.1.3 ikmE", "6e6d8f200ea2fb20c30b003a8b4f433d2f4ed4c2658d5bc8ce2fef718059c9f7",
	  "ff4442ef24fbc3c1ff86375b0be1e77e88a0de1e79b30896d73411c5ff4c3518",
	  "23fb952571a14a25e3d678140cd0e5eb47a0961bb18afcf85896e5453c312e76" },
	{ "A.1.3 ikmR", "f1d4a30a4cef8d6d4e3b016e6fd3799ea057db4f345472ed302a67ce1c20cdec",
	  "fdea67cf831f1ca98d8e27b1f6abeb5b7745e9d35348b80fa407ff6958f9137e",
	  "1632d5c2f71c2b38d0a8fcc359355200caa8b1ffdf28618080466c909cb69b2e" },
	{ "A.1.3 ikmS", "94b020ce91d73fca4649006c7e7329a67b40c55e9e93cc907d282bbbff386f58",
	  "dc4a146313cce60a278a5323d321f051c5707e9c45ba21a3479fecdf76fc69dd",
	  "8b0c70873dc5aecb7f9ee4e62406a397b350e57012be45cf53b7105ae731790b" },
};

/* The RFC gives DeriveKeyPair's sk; OpenSSL stores a generated key clamped. */
static void clamp(unsigned char k[KEYLEN])
{
	k[0] &= 248;
	k[31] &= 127;
	k[31] |= 64;
}

static void test_rfc9180(void)
{
	size_t i;

	for (i = 0; i < sizeof(rfc9180) / sizeof(rfc9180[0]); i++) {
		size_t ikm_len, sk_len, pk_len;
		unsigned char *ikm = zt_unhex(rfc9180[i].ikm, &ikm_len);
		unsigned char *sk = zt_unhex(rfc9180[i].sk, &sk_len);
		unsigned char *pk = zt_unhex(rfc9180[i].pk, &pk_len);
		OSSL_PARAM p = ikm_param(ikm, ikm_len);
		struct keypair z, d;

		clamp(sk);
		if (zinc_and_default(&p, &z, &d, rfc9180[i].name)) {
			zt_ok(zt_mem_eq(z.priv, KEYLEN, sk, sk_len, "private key") &&
			      zt_mem_eq(z.pub, KEYLEN, pk, pk_len, "public key"),
			      "RFC 9180 %s: zinc's key pair is the RFC's (sk clamped)",
			      rfc9180[i].name);
			zt_ok(zt_mem_eq(d.priv, KEYLEN, sk, sk_len, "private key") &&
			      zt_mem_eq(d.pub, KEYLEN, pk, pk_len, "public key"),
			      "RFC 9180 %s: default's key pair is the RFC's too", rfc9180[i].name);
		}
		OPENSSL_free(ikm);
		OPENSSL_free(sk);
		OPENSSL_free(pk);
	}
}

/* Random IKMs, from the shortest default takes to longer than one SHA-256 block. */
static void test_random_ikms(void)
{
	static const size_t lengths[] = { 32, 33, 55, 64, 66, 100, 1000 };
	size_t i;

	for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		unsigned char ikm[1000];
		OSSL_PARAM p = ikm_param(ikm, lengths[i]);
		/* twice zeroed: cppcheck cannot follow the zt_ok guard. */
		struct keypair z, d, twice[2] = { 0 };
		char what[64];
		int zinc_served;

		snprintf(what, sizeof(what), "random %zu-byte IKM", lengths[i]);
		zt_rand(ikm, lengths[i]);
		if (zinc_and_default(&p, &z, &d, what))
			zt_ok(zt_mem_eq(z.priv, KEYLEN, d.priv, KEYLEN, "private key") &&
			      zt_mem_eq(z.pub, KEYLEN, d.pub, KEYLEN, "public key"),
			      "%s: zinc's key pair is default's", what);
		if (zt_ok(generate(zt_preferred_ctx(), &p, twice, 2, &zinc_served) && zinc_served,
			  "%s: zinc generates twice on one context", what))
			zt_ok(memcmp(&twice[0], &twice[1], sizeof(twice[0])) == 0 &&
			      memcmp(&twice[0], &z, sizeof(z)) == 0,
			      "%s: the same key pair each time", what);
		zt_clear_errors();
	}
}

/*
 * What default ignores, zinc ignores: an empty IKM, alone (the keys are
 * random) or set after an IKM (which then stays).
 */
static void test_empty_ikm(void)
{
	static const unsigned char ikm[KEYLEN] = { 1, 2, 3 };
	OSSL_PARAM set_ikm[2] = { ikm_param(ikm, sizeof(ikm)), OSSL_PARAM_END };
	OSSL_PARAM set_empty[2] = { ikm_param(ikm, 0), OSSL_PARAM_END };
	/* Zeroed: cppcheck cannot follow the zt_ok guard. */
	struct keypair z[2] = { 0 }, d[2] = { 0 };
	int zinc_served, default_zinc;

	if (zt_ok(generate(zt_preferred_ctx(), set_empty, z, 2, &zinc_served) && zinc_served &&
		  generate(zt_default_ctx(), set_empty, d, 2, &default_zinc),
		  "empty IKM: zinc and default generate"))
		zt_ok(memcmp(&z[0], &z[1], sizeof(z[0])) != 0 &&
		      memcmp(&d[0], &d[1], sizeof(d[0])) != 0,
		      "empty IKM: ignored, two keys differ for zinc as for default");
	zt_clear_errors();

	if (zt_ok(generate(zt_preferred_ctx(), set_ikm, &z[0], 1, &zinc_served) && zinc_served,
		  "32-byte IKM: zinc generates")) {
		EVP_PKEY_CTX *zctx = EVP_PKEY_CTX_new_from_name(zt_preferred_ctx(), "X25519", NULL);
		EVP_PKEY_CTX *dctx = EVP_PKEY_CTX_new_from_name(zt_default_ctx(), "X25519", NULL);
		EVP_PKEY *zk = NULL, *dk = NULL;

		if (zt_ok(zctx != NULL && dctx != NULL && EVP_PKEY_keygen_init(zctx) == 1 &&
			  EVP_PKEY_keygen_init(dctx) == 1 &&
			  EVP_PKEY_CTX_set_params(zctx, set_ikm) == 1 &&
			  EVP_PKEY_CTX_set_params(dctx, set_ikm) == 1 &&
			  EVP_PKEY_CTX_set_params(zctx, set_empty) == 1 &&
			  EVP_PKEY_CTX_set_params(dctx, set_empty) == 1 &&
			  EVP_PKEY_generate(zctx, &zk) == 1 && EVP_PKEY_generate(dctx, &dk) == 1 &&
			  raw_keypair(zk, &z[1]) && raw_keypair(dk, &d[1]),
			  "IKM, then an empty IKM: zinc and default generate"))
			zt_ok(in_zinc(zk) && memcmp(&z[1], &z[0], sizeof(z[0])) == 0 &&
			      memcmp(&d[1], &z[0], sizeof(z[0])) == 0,
			      "IKM, then an empty IKM: the IKM stays, for zinc as for default");
		EVP_PKEY_free(zk);
		EVP_PKEY_free(dk);
		EVP_PKEY_CTX_free(zctx);
		EVP_PKEY_CTX_free(dctx);
	}
	zt_clear_errors();
}

/*
 * An IKM default refuses, at set_params or at generation: zinc refuses it
 * with reason.
 */
static void refuse(const OSSL_PARAM *p, const char *what, const char *reason)
{
	struct keypair k;
	int zinc_served;
	int zok = generate(zt_preferred_ctx(), p, &k, 1, &zinc_served);
	const char *got = zt_zinc_reason();
	int dok = generate(zt_default_ctx(), p, &k, 1, &zinc_served);

	ERR_clear_error();
	zt_ok(!dok, "%s: default refuses it", what);
	zt_ok(!zok && got != NULL && strcmp(got, reason) == 0, "%s: zinc says \"%s\" (%s)", what,
	      reason, zok ? "generated" : got != NULL ? got : "no zinc error");
}

static void test_refusals(void)
{
	static const unsigned char ikm[KEYLEN] = { 0 };
	OSSL_PARAM p;
	size_t lengths[] = { 1, KEYLEN - 1 };
	size_t i;

	for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		char what[64];

		snprintf(what, sizeof(what), "%zu-byte IKM", lengths[i]);
		p = ikm_param(ikm, lengths[i]);
		refuse(&p, what, short_ikm_reason);
	}
	p = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_DHKEM_IKM,
					     "an IKM of thirty-two characters.", 0);
	refuse(&p, "IKM as a UTF-8 string", bad_type_reason);
}

/* With zinc alone, HKDF and SHA-256 are nowhere: a clean failure, no random key. */
static void test_without_hkdf(void)
{
	static const unsigned char ikm[KEYLEN] = { 0 };
	OSSL_PARAM p = ikm_param(ikm, sizeof(ikm));
	struct keypair k;
	int zinc_served;
	int ok = generate(zt_zinc_ctx(), &p, &k, 1, &zinc_served);
	const char *got = zt_zinc_reason();

	zt_ok(!ok && got != NULL && strcmp(got, no_hkdf_reason) == 0,
	      "zinc alone, 32-byte IKM: zinc says \"%s\" (%s)", no_hkdf_reason,
	      ok ? "generated" : got != NULL ? got : "no zinc error");
}

/*
 * Where default_properties = provider=zinc requires zinc (zinc(7),
 * CONFIGURATION), HKDF and SHA-256 are out of reach too: a clean refusal,
 * not a random key.
 */
static void test_zinc_required(void)
{
	static const unsigned char ikm[KEYLEN] = { 0 };
	OSSL_PARAM p = ikm_param(ikm, sizeof(ikm));
	OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
	const char *dir = getenv("ZINC_MODULE_DIR");
	OSSL_PROVIDER *zinc = NULL, *dflt = NULL;

	if (zt_ok(libctx != NULL &&
		  (dir == NULL || OSSL_PROVIDER_set_default_search_path(libctx, dir)) &&
		  (zinc = OSSL_PROVIDER_load(libctx, "zinc")) != NULL &&
		  (dflt = OSSL_PROVIDER_load(libctx, "default")) != NULL &&
		  EVP_set_default_properties(libctx, "provider=zinc"),
		  "a context with zinc and default, provider=zinc required")) {
		struct keypair k;
		int zinc_served;
		int ok = generate(libctx, &p, &k, 1, &zinc_served);
		const char *got = zt_zinc_reason();

		zt_ok(!ok && got != NULL && strcmp(got, no_hkdf_reason) == 0,
		      "provider=zinc required, 32-byte IKM: zinc says \"%s\" (%s)", no_hkdf_reason,
		      ok ? "generated" : got != NULL ? got : "no zinc error");
	}
	zt_clear_errors();
	OSSL_PROVIDER_unload(dflt);
	OSSL_PROVIDER_unload(zinc);
	OSSL_LIB_CTX_free(libctx);
}

#if OPENSSL_VERSION_NUMBER >= 0x30200000L
/* OSSL_HPKE_keygen with ikm in libctx: the key pair and whether zinc made it. */
static int hpke_keygen(OSSL_LIB_CTX *libctx, const unsigned char *ikm, size_t ikm_len,
		       struct keypair *out, int *zinc_served)
{
	OSSL_HPKE_SUITE suite = { OSSL_HPKE_KEM_ID_X25519, OSSL_HPKE_KDF_ID_HKDF_SHA256,
				  OSSL_HPKE_AEAD_ID_CHACHA_POLY1305 };
	unsigned char pub[KEYLEN];
	size_t pub_len = sizeof(pub);
	EVP_PKEY *priv = NULL;
	int ok;

	ok = OSSL_HPKE_keygen(suite, pub, &pub_len, &priv, ikm, ikm_len, libctx, NULL) == 1 &&
	     pub_len == KEYLEN && raw_keypair(priv, out) && memcmp(pub, out->pub, KEYLEN) == 0;
	*zinc_served = in_zinc(priv);
	EVP_PKEY_free(priv);
	return ok;
}

static void test_hpke(void)
{
	size_t i;

	for (i = 0; i < 2; i++) {
		size_t ikm_len, pk_len;
		unsigned char *ikm = zt_unhex(rfc9180[i].ikm, &ikm_len);
		unsigned char *pk = zt_unhex(rfc9180[i].pk, &pk_len);
		struct keypair z, d;
		int zinc_served, default_zinc;

		if (zt_ok(hpke_keygen(zt_preferred_ctx(), ikm, ikm_len, &z, &zinc_served) &&
			  hpke_keygen(zt_default_ctx(), ikm, ikm_len, &d, &default_zinc),
			  "OSSL_HPKE_keygen, RFC 9180 %s: zinc preferred and default",
			  rfc9180[i].name)) {
			zt_ok(zinc_served, "OSSL_HPKE_keygen, RFC 9180 %s: zinc made the key",
			      rfc9180[i].name);
			zt_ok(memcmp(&z, &d, sizeof(z)) == 0 &&
			      zt_mem_eq(z.pub, KEYLEN, pk, pk_len, "public key"),
			      "OSSL_HPKE_keygen, RFC 9180 %s: default's key pair, the RFC's pkXm",
			      rfc9180[i].name);
		}
		zt_clear_errors();
		OPENSSL_free(ikm);
		OPENSSL_free(pk);
	}
}
#endif

/* Before 3.2 default ignores the unknown parameter, and so does zinc. */
static void test_ignored(void)
{
	static const unsigned char ikm[KEYLEN] = { 0 };
	OSSL_PARAM p = ikm_param(ikm, sizeof(ikm));
	/* Zeroed: cppcheck cannot follow the zt_ok guard. */
	struct keypair z[2] = { 0 }, d[2] = { 0 };
	int zinc_served, default_zinc;

	if (zt_ok(generate(zt_preferred_ctx(), &p, z, 2, &zinc_served) && zinc_served &&
		  generate(zt_default_ctx(), &p, d, 2, &default_zinc),
		  "dhkem-ikm set: zinc and default generate"))
		zt_ok(memcmp(&z[0], &z[1], sizeof(z[0])) != 0 &&
		      memcmp(&d[0], &d[1], sizeof(d[0])) != 0,
		      "dhkem-ikm ignored: two keys differ for zinc as for default");
	zt_clear_errors();
}

int main(void)
{
	test_settable();
	if (!libcrypto_has_dhkem_ikm()) {
		test_ignored();
		zt_skip("dhkem-ikm: libcrypto %s has none (OpenSSL 3.2 added it)",
			OpenSSL_version(OPENSSL_VERSION_STRING));
		return zt_done();
	}
	test_rfc9180();
	test_random_ikms();
	test_empty_ikm();
	test_refusals();
	test_without_hkdf();
	test_zinc_required();
#if OPENSSL_VERSION_NUMBER >= 0x30200000L
	test_hpke();
#else
	zt_skip("OSSL_HPKE_keygen: built with OpenSSL headers before 3.2");
#endif
	return zt_done();
}
