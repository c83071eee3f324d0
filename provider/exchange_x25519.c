/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EVP_KEYEXCH "X25519": derive gives X25519(our private key, peer's public
 * key), 32 bytes, and fails on an all-zero result (a peer key of small
 * order), as OpenSSL's default provider does.  Like default, it has no
 * context parameters.  The context keeps copies of the two keys' bytes, so
 * it depends on neither key object's lifetime.
 */
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "algorithms.h"
#include "core_version.h"
#include "report.h"
#include "x25519_key.h"
#include "zinc_err.h"
#include "zinc_prov.h"

struct x25519_exch {
	struct zinc_provctx *provctx;
	uint8_t priv[CURVE25519_KEY_SIZE];
	uint8_t peer[CURVE25519_KEY_SIZE];
	bool has_priv;
	bool has_peer;
};

static void *x25519_exch_newctx(void *provctx)
{
	struct x25519_exch *ctx = OPENSSL_zalloc(sizeof(*ctx));

	if (ctx == NULL) {
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		return NULL;
	}
	ctx->provctx = provctx;
	return ctx;
}

static void x25519_exch_freectx(void *vctx)
{
	OPENSSL_clear_free(vctx, sizeof(struct x25519_exch));
}

static void *x25519_exch_dupctx(void *vctx)
{
	const struct x25519_exch *src = vctx;
	struct x25519_exch *dst = OPENSSL_memdup(src, sizeof(*src));

	if (dst == NULL)
		ZINC_RAISE(src->provctx, ZINC_R_OUT_OF_MEMORY);
	return dst;
}

/* As default, a key without its private part is refused only at derive. */
static int x25519_exch_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
	struct x25519_exch *ctx = vctx;
	const struct zinc_x25519_key *key = vkey;

	(void)params;
	if (key == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	memcpy(ctx->priv, key->priv, sizeof(ctx->priv));
	ctx->has_priv = key->has_priv;
	return 1;
}

static int x25519_exch_set_peer(void *vctx, void *vpeer)
{
	struct x25519_exch *ctx = vctx;
	const struct zinc_x25519_key *peer = vpeer;

	if (peer == NULL || !peer->has_pub) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	memcpy(ctx->peer, peer->pub, sizeof(ctx->peer));
	ctx->has_peer = true;
	return 1;
}

/*
 * The secret goes out only when valid: an all-zero result leaves out
 * untouched.  Whether it was all zeros is public (derive reports it).
 */
static int x25519_exch_derive(void *vctx, unsigned char *out, size_t *outlen, size_t outsize)
{
	struct x25519_exch *ctx = vctx;
	uint8_t shared[CURVE25519_KEY_SIZE];
	bool ok;

	if (!ctx->has_priv || !ctx->has_peer) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	if (out == NULL) {
		*outlen = CURVE25519_KEY_SIZE;
		return 1;
	}
	if (outsize < CURVE25519_KEY_SIZE) {
		ZINC_RAISE(ctx->provctx, ZINC_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	/* Once per key agreement, not a hot path: reported where the work is. */
	zinc_report(ZINC_EV_X25519_DERIVE);
	ok = curve25519(shared, ctx->priv, ctx->peer);
	if (ok) {
		memcpy(out, shared, sizeof(shared));
		*outlen = sizeof(shared);
	} else {
		ZINC_RAISE(ctx->provctx, ZINC_R_SMALL_ORDER_PEER_KEY);
	}
	OPENSSL_cleanse(shared, sizeof(shared));
	return ok;
}

/*
 * From 3.4 (its FIPS indicators) default lists no gettable context
 * parameters as an empty list rather than none; zinc does as the loading
 * release does.
 */
static const OSSL_PARAM x25519_exch_no_params[] = { OSSL_PARAM_END };

static const OSSL_PARAM *x25519_exch_gettable_ctx_params(void *vctx, void *provctx)
{
	(void)vctx;
	(void)provctx;
	return zinc_core_at_least(3, 4) ? x25519_exch_no_params : NULL;
}

/* Nothing to get; before 3.4, as default there, no parameters at all. */
static int x25519_exch_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	const struct x25519_exch *ctx = vctx;

	(void)params;
	if (!zinc_core_at_least(3, 4)) {
		ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
		return 0;
	}
	return 1;
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_keyexch_newctx_fn x25519_exch_newctx;
static OSSL_FUNC_keyexch_init_fn x25519_exch_init;
static OSSL_FUNC_keyexch_set_peer_fn x25519_exch_set_peer;
static OSSL_FUNC_keyexch_derive_fn x25519_exch_derive;
static OSSL_FUNC_keyexch_freectx_fn x25519_exch_freectx;
static OSSL_FUNC_keyexch_dupctx_fn x25519_exch_dupctx;
static OSSL_FUNC_keyexch_get_ctx_params_fn x25519_exch_get_ctx_params;
static OSSL_FUNC_keyexch_gettable_ctx_params_fn x25519_exch_gettable_ctx_params;

const OSSL_DISPATCH zinc_x25519_keyexch_functions[] = {
	{ OSSL_FUNC_KEYEXCH_NEWCTX, (void (*)(void))x25519_exch_newctx },
	{ OSSL_FUNC_KEYEXCH_INIT, (void (*)(void))x25519_exch_init },
	{ OSSL_FUNC_KEYEXCH_SET_PEER, (void (*)(void))x25519_exch_set_peer },
	{ OSSL_FUNC_KEYEXCH_DERIVE, (void (*)(void))x25519_exch_derive },
	{ OSSL_FUNC_KEYEXCH_FREECTX, (void (*)(void))x25519_exch_freectx },
	{ OSSL_FUNC_KEYEXCH_DUPCTX, (void (*)(void))x25519_exch_dupctx },
	{ OSSL_FUNC_KEYEXCH_GET_CTX_PARAMS, (void (*)(void))x25519_exch_get_ctx_params },
	{ OSSL_FUNC_KEYEXCH_GETTABLE_CTX_PARAMS, (void (*)(void))x25519_exch_gettable_ctx_params },
	{ 0, NULL }
};
