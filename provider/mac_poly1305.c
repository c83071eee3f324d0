/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EVP_MAC "POLY1305": a one-time authenticator, so a key serves one message.
 * Behaves as OpenSSL's default provider does: init without a key keeps the
 * key loaded last if nothing has been absorbed with it yet (or, with no key
 * at all, succeeds and leaves update and final to fail), and fails once the
 * key has been used.  Where the default provider would run on a wiped or
 * missing state (update or final after final, or with no key), zinc raises
 * an error instead.
 */
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "algorithms.h"
#include "ctx_common.h"
#include "ossl_compat.h"
#include "report.h"
#include "zinc_err.h"
#include "zinc_params.h"
#include "zinc_prov.h"
#include "zinc_skey.h"
#include "zinc/poly1305.h"

/*
 * Phases: IDLE, no key loaded; FRESH, a key loaded and nothing absorbed (init
 * without a key may keep it); ABSORBING, update ran (the key is spent for
 * any other message); DONE, final ran.
 */
struct poly1305_mac {
	struct zinc_ctx_head head;
	struct poly1305_ctx state;
};

static void *poly1305_mac_new(void *provctx)
{
	return zinc_ctx_new(provctx, sizeof(struct poly1305_mac));
}

static void poly1305_mac_free(void *vmac)
{
	zinc_ctx_free(vmac, sizeof(struct poly1305_mac));
}

static void *poly1305_mac_dup(void *vsrc)
{
	return zinc_ctx_dup(vsrc, sizeof(struct poly1305_mac));
}

static int poly1305_mac_setkey(struct poly1305_mac *mac, const void *key, size_t keylen)
{
	if (keylen != POLY1305_KEY_SIZE) {
		ZINC_RAISE(mac->head.provctx, ZINC_R_INVALID_KEY_LENGTH);
		return 0;
	}
	poly1305_init(&mac->state, key);
	mac->head.phase = ZINC_PHASE_FRESH;
	return 1;
}

static const OSSL_PARAM poly1305_settable[] = {
	OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *poly1305_mac_settable_ctx_params(void *vmac, void *provctx)
{
	(void)vmac;
	(void)provctx;
	return poly1305_settable;
}

static int poly1305_mac_set_ctx_params(void *vmac, const OSSL_PARAM params[])
{
	struct poly1305_mac *mac = vmac;
	const OSSL_PARAM *p;
	const void *key;
	size_t keylen;

	p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY);
	if (p == NULL)
		return 1;
	if (!OSSL_PARAM_get_octet_string_ptr(p, &key, &keylen)) {
		ZINC_RAISE(mac->head.provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	return poly1305_mac_setkey(mac, key, keylen);
}

static int poly1305_mac_init(void *vmac, const unsigned char *key, size_t keylen,
			     const OSSL_PARAM params[])
{
	struct poly1305_mac *mac = vmac;

	if (!poly1305_mac_set_ctx_params(mac, params))
		return 0;
	if (key != NULL) {
		if (!poly1305_mac_setkey(mac, key, keylen))
			return 0;
	} else if (mac->head.phase == ZINC_PHASE_ABSORBING || mac->head.phase == ZINC_PHASE_DONE) {
		/* Without a key, a key already used for a message cannot serve again. */
		ZINC_RAISE(mac->head.provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	zinc_report(ZINC_EV_POLY1305_MAC);
	return 1;
}

/* EVP_MAC_init_SKEY (3.5+): a zinc GENERIC-SECRET's bytes, through the same checks. */
static int poly1305_mac_init_skey(void *vmac, void *skeydata, const OSSL_PARAM params[])
{
	size_t keylen;
	const unsigned char *key = zinc_skey_bytes(skeydata, &keylen);

	return poly1305_mac_init(vmac, key, keylen, params);
}

static int poly1305_mac_update(void *vmac, const unsigned char *in, size_t len)
{
	struct poly1305_mac *mac = vmac;

	if (!ZINC_CTX_READY(&mac->head, ZINC_R_NO_KEY_SET))
		return 0;
	mac->head.phase = ZINC_PHASE_ABSORBING;
	if (len > 0)
		poly1305_update(&mac->state, in, len);
	return 1;
}

static int poly1305_mac_final(void *vmac, unsigned char *out, size_t *outl, size_t outsize)
{
	struct poly1305_mac *mac = vmac;

	if (!ZINC_CTX_READY(&mac->head, ZINC_R_NO_KEY_SET))
		return 0;
	if (outsize < POLY1305_MAC_SIZE) {
		ZINC_RAISE(mac->head.provctx, ZINC_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	poly1305_final(&mac->state, out);
	mac->head.phase = ZINC_PHASE_DONE;
	*outl = POLY1305_MAC_SIZE;
	return 1;
}

/* Only an algorithm-level "size", as the default provider has. */
static const OSSL_PARAM poly1305_gettable[] = {
	OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM *poly1305_mac_gettable_params(void *provctx)
{
	(void)provctx;
	return poly1305_gettable;
}

/* No provider context reaches here, so a failure cannot be raised. */
static int poly1305_mac_get_params(OSSL_PARAM params[])
{
	OSSL_PARAM *p = zinc_param_locate(params, OSSL_MAC_PARAM_SIZE);

	return p == NULL || OSSL_PARAM_set_size_t(p, POLY1305_MAC_SIZE);
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_mac_newctx_fn poly1305_mac_new;
static OSSL_FUNC_mac_dupctx_fn poly1305_mac_dup;
static OSSL_FUNC_mac_freectx_fn poly1305_mac_free;
static OSSL_FUNC_mac_init_fn poly1305_mac_init;
static OSSL_FUNC_mac_init_skey_fn poly1305_mac_init_skey;
static OSSL_FUNC_mac_update_fn poly1305_mac_update;
static OSSL_FUNC_mac_final_fn poly1305_mac_final;
static OSSL_FUNC_mac_gettable_params_fn poly1305_mac_gettable_params;
static OSSL_FUNC_mac_get_params_fn poly1305_mac_get_params;
static OSSL_FUNC_mac_settable_ctx_params_fn poly1305_mac_settable_ctx_params;
static OSSL_FUNC_mac_set_ctx_params_fn poly1305_mac_set_ctx_params;

const OSSL_DISPATCH zinc_poly1305_mac_functions[] = {
	{ OSSL_FUNC_MAC_NEWCTX, (void (*)(void))poly1305_mac_new },
	{ OSSL_FUNC_MAC_DUPCTX, (void (*)(void))poly1305_mac_dup },
	{ OSSL_FUNC_MAC_FREECTX, (void (*)(void))poly1305_mac_free },
	{ OSSL_FUNC_MAC_INIT, (void (*)(void))poly1305_mac_init },
	{ OSSL_FUNC_MAC_INIT_SKEY, (void (*)(void))poly1305_mac_init_skey },
	{ OSSL_FUNC_MAC_UPDATE, (void (*)(void))poly1305_mac_update },
	{ OSSL_FUNC_MAC_FINAL, (void (*)(void))poly1305_mac_final },
	{ OSSL_FUNC_MAC_GETTABLE_PARAMS, (void (*)(void))poly1305_mac_gettable_params },
	{ OSSL_FUNC_MAC_GET_PARAMS, (void (*)(void))poly1305_mac_get_params },
	{ OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))poly1305_mac_settable_ctx_params },
	{ OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))poly1305_mac_set_ctx_params },
	{ 0, NULL }
};
