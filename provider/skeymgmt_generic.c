/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SKEYMGMT "GENERIC-SECRET" (OpenSSL 3.5+): an opaque symmetric key that
 * zinc's ciphers and MACs take through their skey inits, as libcrypto hands
 * an EVP_SKEY only to algorithms of the provider that made it.  Imported
 * from "raw-bytes" and exported back, as in the default provider; zinc also
 * generates one of "key-length" random bytes.  Offered only when the
 * loading libcrypto is 3.5 or later (zinc_prov.c).
 */
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "algorithms.h"
#include "ossl_compat.h"
#include "zinc_err.h"
#include "zinc_prov.h"
#include "zinc_skey.h"

/* A new key of len bytes, left for the caller to fill; len > 0. */
static struct zinc_skey *generic_skey_new(struct zinc_provctx *provctx, size_t len)
{
	struct zinc_skey *skey = OPENSSL_zalloc(sizeof(*skey));

	if (skey != NULL)
		skey->bytes = OPENSSL_malloc(len);
	if (skey == NULL || skey->bytes == NULL) {
		OPENSSL_free(skey);
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		return NULL;
	}
	skey->len = len;
	return skey;
}

static void generic_skey_free(void *keydata)
{
	struct zinc_skey *skey = keydata;

	if (skey == NULL)
		return;
	OPENSSL_clear_free(skey->bytes, skey->len);
	OPENSSL_free(skey);
}

/* The key is all there is to select.  An empty key is refused: nothing here takes one. */
static void *generic_skey_import(void *vprovctx, int selection, const OSSL_PARAM params[])
{
	struct zinc_provctx *provctx = vprovctx;
	struct zinc_skey *skey;
	const OSSL_PARAM *p;
	const void *bytes = NULL;
	size_t len = 0;

	p = OSSL_PARAM_locate_const(params, OSSL_SKEY_PARAM_RAW_BYTES);
	if ((selection & OSSL_SKEYMGMT_SELECT_SECRET_KEY) == 0 || p == NULL) {
		ZINC_RAISE(provctx, ZINC_R_NO_KEY_SET);
		return NULL;
	}
	if (!OSSL_PARAM_get_octet_string_ptr(p, &bytes, &len)) {
		ZINC_RAISE(provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
		return NULL;
	}
	if (len == 0) {
		ZINC_RAISE(provctx, ZINC_R_INVALID_KEY_LENGTH);
		return NULL;
	}
	if (bytes == NULL) {
		ZINC_RAISE(provctx, ZINC_R_NULL_ARGUMENT);
		return NULL;
	}
	skey = generic_skey_new(provctx, len);
	if (skey != NULL)
		memcpy(skey->bytes, bytes, len);
	return skey;
}

/* The key is all there is to give: without it selected, a failure, as default's. */
static int generic_skey_export(void *keydata, int selection, OSSL_CALLBACK *param_cb, void *cbarg)
{
	struct zinc_skey *skey = keydata;
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };

	if (skey == NULL || (selection & OSSL_SKEYMGMT_SELECT_SECRET_KEY) == 0)
		return 0;
	params[0] = OSSL_PARAM_construct_octet_string(OSSL_SKEY_PARAM_RAW_BYTES, skey->bytes,
						      skey->len);
	return param_cb(params, cbarg);
}

/*
 * Secret bytes (zinc_random_bytes); libcrypto's error stays on the queue
 * when there are none to give.  A generated key is a key, not bulk data:
 * at most 1 KiB.
 */
enum { GENERIC_SKEY_MAX_GENERATE = 1024 };

static void *generic_skey_generate(void *vprovctx, const OSSL_PARAM params[])
{
	struct zinc_provctx *provctx = vprovctx;
	struct zinc_skey *skey;
	const OSSL_PARAM *p;
	size_t len = 0;

	p = OSSL_PARAM_locate_const(params, OSSL_SKEY_PARAM_KEY_LENGTH);
	if (p != NULL && !OSSL_PARAM_get_size_t(p, &len)) {
		ZINC_RAISE(provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
		return NULL;
	}
	if (len == 0 || len > GENERIC_SKEY_MAX_GENERATE) {
		ZINC_RAISE(provctx, ZINC_R_INVALID_KEY_LENGTH);
		return NULL;
	}
	skey = generic_skey_new(provctx, len);
	if (skey != NULL && !zinc_random_bytes(provctx, skey->bytes, len)) {
		generic_skey_free(skey);
		return NULL;
	}
	return skey;
}

static const OSSL_PARAM generic_skey_imp_settable[] = {
	OSSL_PARAM_octet_string(OSSL_SKEY_PARAM_RAW_BYTES, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *generic_skey_imp_settable_params(void *provctx)
{
	(void)provctx;
	return generic_skey_imp_settable;
}

static const OSSL_PARAM generic_skey_gen_settable[] = {
	OSSL_PARAM_size_t(OSSL_SKEY_PARAM_KEY_LENGTH, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM *generic_skey_gen_settable_params(void *provctx)
{
	(void)provctx;
	return generic_skey_gen_settable;
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_skeymgmt_free_fn generic_skey_free;
static OSSL_FUNC_skeymgmt_import_fn generic_skey_import;
static OSSL_FUNC_skeymgmt_export_fn generic_skey_export;
static OSSL_FUNC_skeymgmt_generate_fn generic_skey_generate;
static OSSL_FUNC_skeymgmt_imp_settable_params_fn generic_skey_imp_settable_params;
static OSSL_FUNC_skeymgmt_gen_settable_params_fn generic_skey_gen_settable_params;

const OSSL_DISPATCH zinc_generic_skeymgmt_functions[] = {
	{ OSSL_FUNC_SKEYMGMT_FREE, (void (*)(void))generic_skey_free },
	{ OSSL_FUNC_SKEYMGMT_IMPORT, (void (*)(void))generic_skey_import },
	{ OSSL_FUNC_SKEYMGMT_EXPORT, (void (*)(void))generic_skey_export },
	{ OSSL_FUNC_SKEYMGMT_GENERATE, (void (*)(void))generic_skey_generate },
	{ OSSL_FUNC_SKEYMGMT_IMP_SETTABLE_PARAMS, (void (*)(void))generic_skey_imp_settable_params },
	{ OSSL_FUNC_SKEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))generic_skey_gen_settable_params },
	{ 0, NULL }
};
