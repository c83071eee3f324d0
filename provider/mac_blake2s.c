/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EVP_MAC "BLAKE2SMAC": keyed BLAKE2s with the paper's salt and
 * personalisation ("custom").  As in OpenSSL's default provider, parameters
 * are applied in the order size, key, custom, salt, and take effect at the
 * next init, which reuses the key set last when given none.
 */
#include <string.h>
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
#include "zinc/blake2s.h"

/* Phases: IDLE until the first init, then ABSORBING, then DONE after final. */
struct blake2s_mac {
	struct zinc_ctx_head head;
	struct blake2s_state state;
	/* What the next init uses. */
	size_t size;
	size_t keylen;			/* 0: no key set */
	uint8_t key[BLAKE2S_KEY_SIZE];
	uint8_t salt[BLAKE2S_SALT_SIZE];
	uint8_t custom[BLAKE2S_PERSONAL_SIZE];
};

static void *blake2s_mac_new(void *provctx)
{
	struct blake2s_mac *mac = zinc_ctx_new(provctx, sizeof(*mac));

	if (mac != NULL)
		mac->size = BLAKE2S_HASH_SIZE;
	return mac;
}

static void blake2s_mac_free(void *vmac)
{
	zinc_ctx_free(vmac, sizeof(struct blake2s_mac));
}

static void *blake2s_mac_dup(void *vsrc)
{
	return zinc_ctx_dup(vsrc, sizeof(struct blake2s_mac));
}

static int blake2s_mac_setkey(struct blake2s_mac *mac, const void *key, size_t keylen)
{
	if (keylen == 0 || keylen > BLAKE2S_KEY_SIZE) {
		ZINC_RAISE(mac->head.provctx, ZINC_R_INVALID_KEY_LENGTH);
		return 0;
	}
	OPENSSL_cleanse(mac->key, sizeof(mac->key));
	memcpy(mac->key, key, keylen);
	mac->keylen = keylen;
	return 1;
}

/* An octet string of at most sizeof(field) bytes, stored zero-padded. */
static int blake2s_mac_set_padded(struct blake2s_mac *mac, const OSSL_PARAM *p,
				  uint8_t *field, size_t field_size, int bad_length)
{
	const void *data;
	size_t len;

	if (!OSSL_PARAM_get_octet_string_ptr(p, &data, &len)) {
		ZINC_RAISE(mac->head.provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	if (len > field_size) {
		ZINC_RAISE(mac->head.provctx, bad_length);
		return 0;
	}
	memset(field, 0, field_size);
	if (len > 0)
		memcpy(field, data, len);
	return 1;
}

static const OSSL_PARAM blake2s_mac_settable[] = {
	OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
	OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_MAC_PARAM_CUSTOM, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_MAC_PARAM_SALT, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *blake2s_mac_settable_ctx_params(void *vmac, void *provctx)
{
	(void)vmac;
	(void)provctx;
	return blake2s_mac_settable;
}

static int blake2s_mac_set_ctx_params(void *vmac, const OSSL_PARAM params[])
{
	struct blake2s_mac *mac = vmac;
	const OSSL_PARAM *p;

	p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_SIZE);
	if (p != NULL) {
		size_t size;

		if (p->data_type != OSSL_PARAM_INTEGER &&
		    p->data_type != OSSL_PARAM_UNSIGNED_INTEGER) {
			ZINC_RAISE(mac->head.provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
			return 0;
		}
		if (!OSSL_PARAM_get_size_t(p, &size) || size < 1 || size > BLAKE2S_HASH_SIZE) {
			ZINC_RAISE(mac->head.provctx, ZINC_R_INVALID_OUTPUT_SIZE);
			return 0;
		}
		mac->size = size;
	}
	p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY);
	if (p != NULL) {
		const void *key;
		size_t keylen;

		if (!OSSL_PARAM_get_octet_string_ptr(p, &key, &keylen)) {
			ZINC_RAISE(mac->head.provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
			return 0;
		}
		if (!blake2s_mac_setkey(mac, key, keylen))
			return 0;
	}
	p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_CUSTOM);
	if (p != NULL && !blake2s_mac_set_padded(mac, p, mac->custom, sizeof(mac->custom),
						 ZINC_R_INVALID_CUSTOM_LENGTH))
		return 0;
	p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_SALT);
	if (p != NULL && !blake2s_mac_set_padded(mac, p, mac->salt, sizeof(mac->salt),
						 ZINC_R_INVALID_SALT_LENGTH))
		return 0;
	return 1;
}

static const OSSL_PARAM blake2s_mac_gettable[] = {
	OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
	OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM *blake2s_mac_gettable_ctx_params(void *vmac, void *provctx)
{
	(void)vmac;
	(void)provctx;
	return blake2s_mac_gettable;
}

static int blake2s_mac_get_ctx_params(void *vmac, OSSL_PARAM params[])
{
	struct blake2s_mac *mac = vmac;
	OSSL_PARAM *p;

	p = zinc_param_locate(params, OSSL_MAC_PARAM_SIZE);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, mac->size))
		goto bad;
	p = zinc_param_locate(params, OSSL_MAC_PARAM_BLOCK_SIZE);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, BLAKE2S_BLOCK_SIZE))
		goto bad;
	return 1;
bad:
	ZINC_RAISE(mac->head.provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
	return 0;
}

static int blake2s_mac_init(void *vmac, const unsigned char *key, size_t keylen,
			    const OSSL_PARAM params[])
{
	struct blake2s_mac *mac = vmac;

	if (!blake2s_mac_set_ctx_params(mac, params))
		return 0;
	if (key != NULL) {
		if (!blake2s_mac_setkey(mac, key, keylen))
			return 0;
	} else if (mac->keylen == 0) {
		ZINC_RAISE(mac->head.provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	blake2s_init_param(&mac->state, mac->size, mac->key, mac->keylen, mac->salt, mac->custom);
	mac->head.phase = ZINC_PHASE_ABSORBING;
	zinc_report(ZINC_EV_BLAKE2SMAC_MAC);
	return 1;
}

/* EVP_MAC_init_SKEY (3.5+): a zinc GENERIC-SECRET's bytes, through the same checks. */
static int blake2s_mac_init_skey(void *vmac, void *skeydata, const OSSL_PARAM params[])
{
	size_t keylen;
	const unsigned char *key = zinc_skey_bytes(skeydata, &keylen);

	return blake2s_mac_init(vmac, key, keylen, params);
}

static int blake2s_mac_update(void *vmac, const unsigned char *in, size_t len)
{
	struct blake2s_mac *mac = vmac;

	if (!ZINC_CTX_READY(&mac->head, ZINC_R_NOT_INITIALISED))
		return 0;
	if (len > 0)
		blake2s_update(&mac->state, in, len);
	return 1;
}

static int blake2s_mac_final(void *vmac, unsigned char *out, size_t *outl, size_t outsize)
{
	struct blake2s_mac *mac = vmac;

	if (!ZINC_CTX_READY(&mac->head, ZINC_R_NOT_INITIALISED))
		return 0;
	/*
	 * A size set after init takes effect at the next init, but EVP sizes
	 * the output by it: the default provider then writes past the buffer
	 * or leaves bytes unwritten.  Refuse instead.
	 */
	if (mac->size != mac->state.outlen) {
		ZINC_RAISE(mac->head.provctx, ZINC_R_INVALID_OUTPUT_SIZE);
		return 0;
	}
	if (outsize < mac->size) {
		ZINC_RAISE(mac->head.provctx, ZINC_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	blake2s_final(&mac->state, out);
	mac->head.phase = ZINC_PHASE_DONE;
	*outl = mac->size;
	return 1;
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_mac_newctx_fn blake2s_mac_new;
static OSSL_FUNC_mac_dupctx_fn blake2s_mac_dup;
static OSSL_FUNC_mac_freectx_fn blake2s_mac_free;
static OSSL_FUNC_mac_init_fn blake2s_mac_init;
static OSSL_FUNC_mac_init_skey_fn blake2s_mac_init_skey;
static OSSL_FUNC_mac_update_fn blake2s_mac_update;
static OSSL_FUNC_mac_final_fn blake2s_mac_final;
static OSSL_FUNC_mac_gettable_ctx_params_fn blake2s_mac_gettable_ctx_params;
static OSSL_FUNC_mac_get_ctx_params_fn blake2s_mac_get_ctx_params;
static OSSL_FUNC_mac_settable_ctx_params_fn blake2s_mac_settable_ctx_params;
static OSSL_FUNC_mac_set_ctx_params_fn blake2s_mac_set_ctx_params;

const OSSL_DISPATCH zinc_blake2s_mac_functions[] = {
	{ OSSL_FUNC_MAC_NEWCTX, (void (*)(void))blake2s_mac_new },
	{ OSSL_FUNC_MAC_DUPCTX, (void (*)(void))blake2s_mac_dup },
	{ OSSL_FUNC_MAC_FREECTX, (void (*)(void))blake2s_mac_free },
	{ OSSL_FUNC_MAC_INIT, (void (*)(void))blake2s_mac_init },
	{ OSSL_FUNC_MAC_INIT_SKEY, (void (*)(void))blake2s_mac_init_skey },
	{ OSSL_FUNC_MAC_UPDATE, (void (*)(void))blake2s_mac_update },
	{ OSSL_FUNC_MAC_FINAL, (void (*)(void))blake2s_mac_final },
	{ OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, (void (*)(void))blake2s_mac_gettable_ctx_params },
	{ OSSL_FUNC_MAC_GET_CTX_PARAMS, (void (*)(void))blake2s_mac_get_ctx_params },
	{ OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))blake2s_mac_settable_ctx_params },
	{ OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))blake2s_mac_set_ctx_params },
	{ 0, NULL }
};
