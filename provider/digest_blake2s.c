/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EVP_MD "BLAKE2S-256": unkeyed BLAKE2s with a 32-byte output.  HMAC and
 * HKDF run over it, duplicating contexts and asking for the block size.
 * From OpenSSL 3.2, as in its default provider, the context parameter
 * `size` (1 to 32) is the digest length of BLAKE2s's parameter block, so a
 * 16-byte BLAKE2s is not a truncated 32-byte one; it holds across inits.
 */
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "algorithms.h"
#include "ctx_common.h"
#include "core_version.h"
#include "report.h"
#include "zinc_err.h"
#include "zinc_params.h"
#include "zinc_prov.h"
#include "zinc/blake2s.h"

/* Phases: IDLE until the first init, then ABSORBING, then DONE after final. */
struct blake2s_md {
	struct zinc_ctx_head head;
	struct blake2s_state state;
	/* `size`, as default reports it: 0 until set or initialised. */
	unsigned int outlen;
};

static void *blake2s_md_new(void *provctx)
{
	return zinc_ctx_new(provctx, sizeof(struct blake2s_md));
}

static void blake2s_md_free(void *vmd)
{
	zinc_ctx_free(vmd, sizeof(struct blake2s_md));
}

static void *blake2s_md_dup(void *vsrc)
{
	return zinc_ctx_dup(vsrc, sizeof(struct blake2s_md));
}

static bool blake2s_md_has_size(void)
{
	return zinc_core_at_least(3, 2);
}

static int blake2s_md_set_ctx_params(void *vmd, const OSSL_PARAM params[])
{
	struct blake2s_md *md = vmd;
	const OSSL_PARAM *p;
	unsigned int size;

	/* OpenSSL 3.0's and 3.1's default has no context parameters: no success. */
	if (!blake2s_md_has_size()) {
		ZINC_RAISE(md->head.provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	p = OSSL_PARAM_locate_const(params, OSSL_DIGEST_PARAM_SIZE);
	if (p == NULL)
		return 1;
	if (!OSSL_PARAM_get_uint(p, &size)) {
		ZINC_RAISE(md->head.provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	if (size < 1 || size > BLAKE2S_HASH_SIZE) {
		ZINC_RAISE(md->head.provctx, ZINC_R_INVALID_OUTPUT_SIZE);
		return 0;
	}
	md->outlen = size;
	return 1;
}

/*
 * OpenSSL 3.0's BLAKE2s-256 takes no parameters at init: neither does zinc
 * there.  libcrypto 3.1+ re-initialises a context in place, so a message
 * abandoned before final is wiped here.
 */
static int blake2s_md_init(void *vmd, const OSSL_PARAM params[])
{
	struct blake2s_md *md = vmd;

	if (md->head.phase == ZINC_PHASE_ABSORBING)
		OPENSSL_cleanse(&md->state, sizeof(md->state));
	if (blake2s_md_has_size() && !blake2s_md_set_ctx_params(md, params))
		return 0;
	if (md->outlen == 0)
		md->outlen = BLAKE2S_HASH_SIZE;
	blake2s_init(&md->state, md->outlen);
	md->head.phase = ZINC_PHASE_ABSORBING;
	zinc_report(ZINC_EV_BLAKE2S256_DIGEST);
	return 1;
}

static int blake2s_md_update(void *vmd, const unsigned char *in, size_t len)
{
	struct blake2s_md *md = vmd;

	if (!ZINC_CTX_READY(&md->head, ZINC_R_NOT_INITIALISED))
		return 0;
	if (len > 0)
		blake2s_update(&md->state, in, len);
	return 1;
}

static int blake2s_md_final(void *vmd, unsigned char *out, size_t *outl, size_t outsize)
{
	struct blake2s_md *md = vmd;

	if (!ZINC_CTX_READY(&md->head, ZINC_R_NOT_INITIALISED))
		return 0;
	if (outsize < md->outlen) {
		ZINC_RAISE(md->head.provctx, ZINC_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	blake2s_final(&md->state, out);
	md->head.phase = ZINC_PHASE_DONE;
	*outl = md->outlen;
	return 1;
}

static const OSSL_PARAM blake2s_md_ctx_params_list[] = {
	OSSL_PARAM_uint(OSSL_DIGEST_PARAM_SIZE, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM *blake2s_md_ctx_params(void *vmd, void *provctx)
{
	(void)vmd;
	(void)provctx;
	return blake2s_md_has_size() ? blake2s_md_ctx_params_list : NULL;
}

static int blake2s_md_get_ctx_params(void *vmd, OSSL_PARAM params[])
{
	struct blake2s_md *md = vmd;
	OSSL_PARAM *p;

	if (!blake2s_md_has_size()) {
		ZINC_RAISE(md->head.provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
		return 0;
	}
	p = zinc_param_locate(params, OSSL_DIGEST_PARAM_SIZE);
	if (p != NULL && !OSSL_PARAM_set_uint(p, md->outlen)) {
		ZINC_RAISE(md->head.provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
		return 0;
	}
	return 1;
}

static const OSSL_PARAM blake2s_md_gettable[] = {
	OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, NULL),
	OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, NULL),
	OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, NULL),
	OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM *blake2s_md_gettable_params(void *provctx)
{
	(void)provctx;
	return blake2s_md_gettable;
}

/* No provider context reaches here, so a failure cannot be raised. */
static int blake2s_md_get_params(OSSL_PARAM params[])
{
	OSSL_PARAM *p;

	p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, BLAKE2S_BLOCK_SIZE))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, BLAKE2S_HASH_SIZE))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_XOF);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	return 1;
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_digest_newctx_fn blake2s_md_new;
static OSSL_FUNC_digest_dupctx_fn blake2s_md_dup;
static OSSL_FUNC_digest_freectx_fn blake2s_md_free;
static OSSL_FUNC_digest_init_fn blake2s_md_init;
static OSSL_FUNC_digest_update_fn blake2s_md_update;
static OSSL_FUNC_digest_final_fn blake2s_md_final;
static OSSL_FUNC_digest_gettable_params_fn blake2s_md_gettable_params;
static OSSL_FUNC_digest_get_params_fn blake2s_md_get_params;
static OSSL_FUNC_digest_set_ctx_params_fn blake2s_md_set_ctx_params;
static OSSL_FUNC_digest_settable_ctx_params_fn blake2s_md_ctx_params;
static OSSL_FUNC_digest_get_ctx_params_fn blake2s_md_get_ctx_params;
static OSSL_FUNC_digest_gettable_ctx_params_fn blake2s_md_ctx_params;

const OSSL_DISPATCH zinc_blake2s256_functions[] = {
	{ OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))blake2s_md_new },
	{ OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))blake2s_md_dup },
	{ OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))blake2s_md_free },
	{ OSSL_FUNC_DIGEST_INIT, (void (*)(void))blake2s_md_init },
	{ OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))blake2s_md_update },
	{ OSSL_FUNC_DIGEST_FINAL, (void (*)(void))blake2s_md_final },
	{ OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))blake2s_md_gettable_params },
	{ OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))blake2s_md_get_params },
	{ OSSL_FUNC_DIGEST_SET_CTX_PARAMS, (void (*)(void))blake2s_md_set_ctx_params },
	{ OSSL_FUNC_DIGEST_SETTABLE_CTX_PARAMS, (void (*)(void))blake2s_md_ctx_params },
	{ OSSL_FUNC_DIGEST_GET_CTX_PARAMS, (void (*)(void))blake2s_md_get_ctx_params },
	{ OSSL_FUNC_DIGEST_GETTABLE_CTX_PARAMS, (void (*)(void))blake2s_md_ctx_params },
	{ 0, NULL }
};
