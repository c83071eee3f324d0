/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provider as OpenSSL sees it: its parameters, its algorithms' names,
 * aliases and OIDs (the same as the default provider's), which provider a
 * fetch lands in, and errors that carry zinc's name and reason strings.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "testutil.h"

static void test_provider_params(void)
{
	OSSL_PROVIDER *prov = OSSL_PROVIDER_load(zt_zinc_ctx(), "zinc");
	const char *name = NULL, *version = NULL, *buildinfo = NULL;
	int status = 0;
	OSSL_PARAM params[] = {
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name, 0),
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&version, 0),
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&buildinfo, 0),
		OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, &status),
		OSSL_PARAM_END
	};

	if (!zt_ok(prov != NULL, "zinc loads"))
		return;
	zt_ok(OSSL_PROVIDER_get_params(prov, params), "provider get_params succeeds");
	zt_ok(name != NULL && strcmp(name, "zinc") == 0, "name is zinc (%s)", name ? name : "null");
	zt_ok(version != NULL && strcmp(version, PACKAGE_VERSION) == 0,
	      "version is %s (%s)", PACKAGE_VERSION, version ? version : "null");
	zt_ok(status == 1, "status is 1");
	zt_ok(buildinfo != NULL && strstr(buildinfo, "chacha20: ") != NULL &&
	      strstr(buildinfo, "poly1305: ") != NULL && strstr(buildinfo, "blake2s: ") != NULL &&
	      strstr(buildinfo, "cpu: ") != NULL,
	      "buildinfo names each primitive's implementation and the CPU features");
	zt_diag("buildinfo: %s", buildinfo ? buildinfo : "(none)");
	zt_ok(OSSL_PROVIDER_available(zt_zinc_ctx(), "zinc"), "zinc is available");
	OSSL_PROVIDER_unload(prov);
}

/*
 * Every 3.x is libcrypto.so.3: a test run against one OpenSSL that loaded
 * another would pass while testing the wrong thing.
 */
static void test_running_libcrypto(void)
{
	const char *configured = getenv("ZINC_CRYPTO_VERSION");
	const char *running = OpenSSL_version(OPENSSL_VERSION_STRING);

	if (configured == NULL || *configured == '\0') {
		zt_skip("ZINC_CRYPTO_VERSION is not set (run through make check)");
		return;
	}
	zt_ok(strcmp(configured, running) == 0,
	      "the running libcrypto is the one configure found (%s, running %s)",
	      configured, running);
}

/* Collects an algorithm's names as a sorted, comma-joined string. */
struct names {
	char *list[16];
	size_t n;
};

static void add_name(const char *name, void *arg)
{
	struct names *names = arg;

	if (names->n < 16)
		names->list[names->n++] = strdup(name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_join(struct names *names, char *out, size_t outlen)
{
	size_t i;

	qsort(names->list, names->n, sizeof(names->list[0]), cmp_str);
	out[0] = '\0';
	for (i = 0; i < names->n; i++) {
		if (i > 0)
			strncat(out, ",", outlen - strlen(out) - 1);
		strncat(out, names->list[i], outlen - strlen(out) - 1);
		free(names->list[i]);
	}
	names->n = 0;
}

enum kind { CIPHER, MAC, DIGEST };

struct algorithm {
	const char *name;	/* as zinc registers it */
	const char *lookup[3];	/* other names it must be fetchable by */
	enum kind kind;
	int default_has;	/* OpenSSL's default provider has it too */
};

static const struct algorithm algorithms[] = {
	{ "ChaCha20", { "chacha20" }, CIPHER, 1 },
	{ "ChaCha20-Poly1305", { "chacha20-poly1305" }, CIPHER, 1 },
	{ "XChaCha20-Poly1305", { "xchacha20-poly1305" }, CIPHER, 0 },
	{ "POLY1305", { "poly1305" }, MAC, 1 },
	{ "BLAKE2SMAC", { "1.3.6.1.4.1.1722.12.2.2", "blake2smac" }, MAC, 1 },
	{ "BLAKE2S-256", { "BLAKE2s256", "1.3.6.1.4.1.1722.12.2.2.8", "blake2s-256" }, DIGEST, 1 },
};

/* Fetches by name; returns the provider's name (or NULL) and collects the names. */
static const char *fetch(const struct algorithm *alg, OSSL_LIB_CTX *ctx, const char *name,
			 const char *propq, struct names *names)
{
	const char *prov = NULL;

	switch (alg->kind) {
	case CIPHER: {
		EVP_CIPHER *c = EVP_CIPHER_fetch(ctx, name, propq);

		if (c != NULL) {
			prov = OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c));
			if (names != NULL)
				EVP_CIPHER_names_do_all(c, add_name, names);
		}
		EVP_CIPHER_free(c);
		break;
	}
	case MAC: {
		EVP_MAC *m = EVP_MAC_fetch(ctx, name, propq);

		if (m != NULL) {
			prov = OSSL_PROVIDER_get0_name(EVP_MAC_get0_provider(m));
			if (names != NULL)
				EVP_MAC_names_do_all(m, add_name, names);
		}
		EVP_MAC_free(m);
		break;
	}
	case DIGEST: {
		EVP_MD *md = EVP_MD_fetch(ctx, name, propq);

		if (md != NULL) {
			prov = OSSL_PROVIDER_get0_name(EVP_MD_get0_provider(md));
			if (names != NULL)
				EVP_MD_names_do_all(md, add_name, names);
		}
		EVP_MD_free(md);
		break;
	}
	}
	ERR_clear_error();
	return prov;
}

static int is(const char *prov, const char *want)
{
	return prov != NULL && strcmp(prov, want) == 0;
}

static void test_algorithm(const struct algorithm *alg)
{
	struct names names = { { 0 }, 0 };
	char zinc_names[512], default_names[512];
	size_t i;

	zt_ok(is(fetch(alg, zt_zinc_ctx(), alg->name, NULL, &names), "zinc"),
	      "%s: fetched from zinc alone", alg->name);
	names_join(&names, zinc_names, sizeof(zinc_names));
	for (i = 0; i < 3 && alg->lookup[i] != NULL; i++)
		zt_ok(is(fetch(alg, zt_zinc_ctx(), alg->lookup[i], NULL, NULL), "zinc"),
		      "%s: fetched as %s", alg->name, alg->lookup[i]);
	zt_ok(is(fetch(alg, zt_zinc_ctx(), alg->name, "provider=zinc", NULL), "zinc"),
	      "%s: matches provider=zinc", alg->name);
	zt_ok(is(fetch(alg, zt_preferred_ctx(), alg->name, NULL, NULL), "zinc"),
	      "%s: preferred over default under " ZT_PREFER_ZINC, alg->name);
	zt_ok(is(fetch(alg, zt_preferred_ctx(), alg->name, "provider!=fips", NULL), "zinc"),
	      "%s: still preferred when the application asks for provider!=fips", alg->name);
	if (!alg->default_has) {
		zt_ok(fetch(alg, zt_default_ctx(), alg->name, NULL, NULL) == NULL,
		      "%s: the default provider has none", alg->name);
		return;
	}
	zt_ok(is(fetch(alg, zt_preferred_ctx(), alg->name, "provider=default", NULL), "default"),
	      "%s: default still reachable with provider=default", alg->name);
	fetch(alg, zt_default_ctx(), alg->name, NULL, &names);
	names_join(&names, default_names, sizeof(default_names));
	zt_ok(strcmp(zinc_names, default_names) == 0, "%s: same names as default (%s | %s)",
	      alg->name, zinc_names, default_names);
}

/* An error raised by zinc carries zinc's library name and reason string. */
static void test_errors(void)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(zt_zinc_ctx(), "ChaCha20", NULL);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned char key[31] = { 0 };
	size_t keylen = sizeof(key);
	OSSL_PARAM params[] = {
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen),
		OSSL_PARAM_END
	};
	const char *reason;

	zt_ok(c != NULL && ctx != NULL, "ChaCha20 context");
	zt_ok(!EVP_EncryptInit_ex2(ctx, c, NULL, NULL, params), "a 31-byte key length is refused");
	reason = zt_zinc_reason();
	zt_ok(reason != NULL && strcmp(reason, "invalid key length") == 0,
	      "the error is zinc's \"invalid key length\" (%s)", reason ? reason : "none");
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}

int main(void)
{
	size_t i;

	test_provider_params();
	test_running_libcrypto();
	for (i = 0; i < sizeof(algorithms) / sizeof(algorithms[0]); i++)
		test_algorithm(&algorithms[i]);
	test_errors();
	return zt_done();
}
