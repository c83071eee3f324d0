/* SPDX-License-Identifier: Apache-2.0 */
/* The provider's entry point: algorithm tables and provider parameters. */
#include <stdio.h>
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "algorithms.h"
#include "core_version.h"
#include "ossl_compat.h"
#include "report.h"
#include "zinc_err.h"
#include "zinc_prov.h"
#include "zinc/zinc.h"
#include "config.h"

/* The ciphers, with one set of functions or another. */
#define ZINC_CIPHER_ROWS(chacha20, chacha20_poly1305, xchacha20_poly1305) \
	{ "ChaCha20", ZINC_PROPERTIES, chacha20, "ChaCha20 (RFC 8439)" }, \
	{ "ChaCha20-Poly1305", ZINC_PROPERTIES, chacha20_poly1305, \
	  "ChaCha20-Poly1305 AEAD (RFC 8439)" }, \
	{ "XChaCha20-Poly1305", ZINC_PROPERTIES, xchacha20_poly1305, \
	  "XChaCha20-Poly1305 AEAD (draft-irtf-cfrg-xchacha)" }

static const OSSL_ALGORITHM zinc_ciphers[] = {
	ZINC_CIPHER_ROWS(zinc_chacha20_functions, zinc_chacha20_poly1305_functions,
			 zinc_xchacha20_poly1305_functions),
	{ NULL, NULL, NULL, NULL }
};

/* OpenSSL 3.5+: the same ciphers with the cipher pipeline functions. */
static const OSSL_ALGORITHM zinc_ciphers_3_5[] = {
	ZINC_CIPHER_ROWS(zinc_chacha20_pipeline_functions,
			 zinc_chacha20_poly1305_pipeline_functions,
			 zinc_xchacha20_poly1305_pipeline_functions),
	{ NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM zinc_macs[] = {
	{ "POLY1305", ZINC_PROPERTIES, zinc_poly1305_mac_functions, "Poly1305 (RFC 8439)" },
	{ "BLAKE2SMAC:1.3.6.1.4.1.1722.12.2.2", ZINC_PROPERTIES, zinc_blake2s_mac_functions,
	  "keyed BLAKE2s (RFC 7693)" },
	{ NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM zinc_digests[] = {
	{ "BLAKE2S-256:BLAKE2s256:1.3.6.1.4.1.1722.12.2.2.8", ZINC_PROPERTIES,
	  zinc_blake2s256_functions, "BLAKE2s-256 (RFC 7693)" },
	{ NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM zinc_keymgmt[] = {
	{ "X25519:1.3.101.110", ZINC_PROPERTIES, zinc_x25519_keymgmt_functions,
	  "X25519 keys (RFC 7748)" },
	{ NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM zinc_keyexch[] = {
	{ "X25519:1.3.101.110", ZINC_PROPERTIES, zinc_x25519_keyexch_functions,
	  "X25519 key agreement (RFC 7748)" },
	{ NULL, NULL, NULL, NULL }
};

/* OpenSSL 3.5+: the opaque keys zinc's ciphers and MACs take (EVP_SKEY). */
static const OSSL_ALGORITHM zinc_skeymgmt[] = {
	{ "GENERIC-SECRET", ZINC_PROPERTIES, zinc_generic_skeymgmt_functions,
	  "opaque symmetric key of any length" },
	{ NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM *zinc_query(void *provctx, int operation_id, int *no_cache)
{
	(void)provctx;
	*no_cache = 0;
	switch (operation_id) {
	case OSSL_OP_CIPHER:
		/* Cipher functions 15..18 are pipelines from 3.5 on: before, offer none. */
		return zinc_core_at_least(3, 5) ? zinc_ciphers_3_5 : zinc_ciphers;
	case OSSL_OP_MAC:
		return zinc_macs;
	case OSSL_OP_DIGEST:
		return zinc_digests;
	case OSSL_OP_KEYMGMT:
		return zinc_keymgmt;
	case OSSL_OP_KEYEXCH:
		return zinc_keyexch;
	case OSSL_OP_ENCODER:
		return zinc_x25519_encoders;
	case OSSL_OP_DECODER:
		return zinc_x25519_decoders;
	case OSSL_OP_SKEYMGMT:
		/* Operation 15 means nothing to a core before 3.5: offer nothing there. */
		return zinc_core_at_least(3, 5) ? zinc_skeymgmt : NULL;
	default:
		return NULL;
	}
}

/*
 * Written once, at the first load, when the implementations are known;
 * each is followed by the paths that failed their self-test, if any.
 */
static char buildinfo[1024];

static void make_buildinfo(void)
{
	size_t n = (size_t)snprintf(buildinfo, sizeof(buildinfo), "zinc %s", PACKAGE_VERSION);

	for (enum zinc_primitive p = 0; p < ZINC_PRIMITIVE_COUNT && n < sizeof(buildinfo); p++)
		n += (size_t)snprintf(buildinfo + n, sizeof(buildinfo) - n, "; %s: %s%s",
				      zinc_primitive_name(p), zinc_primitive_implementation(p),
				      zinc_selftest_note(zinc_primitive_name(p)));
	if (n < sizeof(buildinfo))
		snprintf(buildinfo + n, sizeof(buildinfo) - n, "; cpu: %s",
			 zinc_cpu_features_string());
}

static const OSSL_PARAM zinc_gettable_params_list[] = {
	OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
	OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
	OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
	OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM *zinc_gettable_params(void *provctx)
{
	(void)provctx;
	return zinc_gettable_params_list;
}

static int zinc_get_params(void *vprovctx, OSSL_PARAM params[])
{
	OSSL_PARAM *p;

	p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
	if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, "zinc"))
		goto bad;
	p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
	if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, PACKAGE_VERSION))
		goto bad;
	p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
	if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, buildinfo))
		goto bad;
	/* 1 after a self-test fallback too: the paths kept all passed theirs. */
	p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
	if (p != NULL && !OSSL_PARAM_set_int(p, 1))
		goto bad;
	return 1;
bad:
	ZINC_RAISE(vprovctx, ZINC_R_FAILED_TO_GET_PARAMETER);
	return 0;
}

static const OSSL_ITEM *zinc_get_reason_strings(void *provctx)
{
	(void)provctx;
	return zinc_reason_strings;
}

static void zinc_teardown(void *vprovctx)
{
	struct zinc_provctx *provctx = vprovctx;

	OSSL_LIB_CTX_free(provctx->libctx);
	OPENSSL_free(provctx);
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_provider_teardown_fn zinc_teardown;
static OSSL_FUNC_provider_gettable_params_fn zinc_gettable_params;
static OSSL_FUNC_provider_get_params_fn zinc_get_params;
static OSSL_FUNC_provider_query_operation_fn zinc_query;
static OSSL_FUNC_provider_get_reason_strings_fn zinc_get_reason_strings;
OSSL_FUNC_provider_get_capabilities_fn zinc_get_capabilities;

static const OSSL_DISPATCH zinc_dispatch[] = {
	{ OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))zinc_teardown },
	{ OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))zinc_gettable_params },
	{ OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))zinc_get_params },
	{ OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))zinc_query },
	{ OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))zinc_get_reason_strings },
	{ OSSL_FUNC_PROVIDER_GET_CAPABILITIES, (void (*)(void))zinc_get_capabilities },
	{ 0, NULL }
};

/*
 * A portable C failed its self-test: nothing is left to fall back on.  The
 * error's text says which, as the core shows no reason string of a
 * provider that did not load.
 */
static void refuse_to_load(const OSSL_CORE_HANDLE *handle)
{
	struct zinc_provctx failing = { .handle = handle };
	const OSSL_ITEM *reason = zinc_reason_strings;
	const char *sep = ": ";
	char text[512];
	enum zinc_primitive p;
	size_t n;

	while (reason->id != ZINC_R_SELF_TEST_FAILED)
		reason++;
	n = (size_t)snprintf(text, sizeof(text), "zinc: %s", (const char *)reason->ptr);
	for (p = 0; p < ZINC_PRIMITIVE_COUNT && n < sizeof(text); p++) {
		if (zinc_selftest_passed(zinc_primitive_name(p)))
			continue;
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s: %s failed its self-test",
				      sep, zinc_primitive_name(p), zinc_primitive_implementation(p));
		sep = ", ";
	}
	ZINC_RAISE_DATA(&failing, ZINC_R_SELF_TEST_FAILED, text);
}

/* The module's one exported symbol (declared in <openssl/core.h>). */
__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
		       const OSSL_DISPATCH **out, void **provctx_out)
{
	static CRYPTO_ONCE once = CRYPTO_ONCE_STATIC_INIT;
	struct zinc_provctx *provctx;

	zinc_err_init(in);
	if (!zinc_core_version_check(handle, in))
		return 0;
	zinc_init();
	if (!zinc_selftest_passed(NULL)) {
		refuse_to_load(handle);
		return 0;
	}
	zinc_report_init();
	if (!CRYPTO_THREAD_run_once(&once, make_buildinfo))
		return 0;

	provctx = OPENSSL_zalloc(sizeof(*provctx));
	if (provctx == NULL)
		return 0;
	provctx->handle = handle;
	for (const OSSL_DISPATCH *f = in; f->function_id != 0; f++) {
		if (f->function_id == OSSL_FUNC_GET_ENTROPY)
			provctx->get_entropy = OSSL_FUNC_get_entropy(f);
		else if (f->function_id == OSSL_FUNC_CLEANUP_ENTROPY)
			provctx->cleanup_entropy = OSSL_FUNC_cleanup_entropy(f);
	}
	provctx->libctx = OSSL_LIB_CTX_new_child(handle, in);
	if (provctx->libctx == NULL) {
		OPENSSL_free(provctx);
		return 0;
	}
	*out = zinc_dispatch;
	*provctx_out = provctx;
	return 1;
}
