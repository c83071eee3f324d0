/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ChaCha20 (RFC 8439) as OpenSSL's "ChaCha20" stream cipher: a 32-byte key
 * and a 16-byte IV that is a little-endian block counter then the nonce.
 * Names, parameters and results follow the default provider of the
 * OpenSSL that loads zinc.
 */
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "algorithms.h"
#include "cipher_common.h"
#include "cipher_pipeline.h"
#include "core_version.h"
#include "ossl_compat.h"
#include "report.h"
#include "zinc_err.h"
#include "zinc_params.h"
#include "zinc_prov.h"
#include "zinc_skey.h"
#include "zinc/chacha20.h"

struct chacha20_cipher_ctx {
	const struct zinc_provctx *provctx;
	struct chacha20_ctx chacha;
	/* Kept so that key and IV can be given in separate init calls. */
	uint8_t key[CHACHA20_KEY_SIZE];
	uint8_t iv[CHACHA20_IV_SIZE];
	/* Bytes processed since iv was loaded: a key-only init restarts at this block. */
	uint64_t offset;
	/*
	 * The last update finished a block it had started inside: default then
	 * has not yet advanced its counter past that block.
	 */
	bool counter_lags;
	bool key_set;
	struct zinc_pipeline *pipe;	/* from the first pipeline init (3.5+) */
};

static void *chacha20_cipher_newctx(void *provctx)
{
	struct chacha20_cipher_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

	if (ctx == NULL) {
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		return NULL;
	}
	ctx->provctx = provctx;
	return ctx;
}

static void chacha20_cipher_freectx(void *vctx)
{
	struct chacha20_cipher_ctx *ctx = vctx;

	if (ctx != NULL)
		zinc_pipeline_free(ctx->pipe);
	OPENSSL_clear_free(ctx, sizeof(*ctx));
}

static void *chacha20_cipher_dupctx(void *vctx)
{
	struct chacha20_cipher_ctx *ctx = vctx;
	struct chacha20_cipher_ctx *dup = OPENSSL_memdup(ctx, sizeof(*ctx));

	if (dup != NULL && !zinc_pipeline_dup(ctx->pipe, &dup->pipe)) {
		OPENSSL_clear_free(dup, sizeof(*dup));
		dup = NULL;
	}
	if (dup == NULL)
		ZINC_RAISE(ctx->provctx, ZINC_R_OUT_OF_MEMORY);
	return dup;
}

static uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/*
 * The default provider's block counter, which spans the IV's first two words
 * (see chacha20.h).  Before 3.6 it passes a block when the block is used up
 * (but for a quirk: not when an update ends exactly there, having started
 * inside it); from 3.6 as soon as a block is begun.
 */
static uint64_t chacha20_cipher_default_counter(const struct chacha20_cipher_ctx *ctx)
{
	uint64_t first = (uint64_t)load_le32(ctx->iv + 4) << 32 | load_le32(ctx->iv);

	if (zinc_core_at_least(3, 6))
		return first + (ctx->offset + 63) / 64;
	return first + ctx->offset / 64 - (ctx->counter_lags ? 1 : 0);
}

static void chacha20_cipher_set_counter(uint8_t iv[CHACHA20_IV_SIZE], uint64_t block)
{
	store_le32(iv, (uint32_t)block);
	store_le32(iv + 4, (uint32_t)(block >> 32));
}

static int chacha20_cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int chacha20_cipher_init(struct chacha20_cipher_ctx *ctx,
				const unsigned char *key, size_t keylen,
				const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	if (key != NULL && keylen != CHACHA20_KEY_SIZE) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_KEY_LENGTH);
		return 0;
	}
	if (iv != NULL && ivlen != CHACHA20_IV_SIZE) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_IV_LENGTH);
		return 0;
	}
	zinc_pipeline_stop(ctx->pipe);
	if (key != NULL) {
		/* A new key alone goes on from default's counter. */
		if (iv == NULL)
			chacha20_cipher_set_counter(ctx->iv, chacha20_cipher_default_counter(ctx));
		memcpy(ctx->key, key, CHACHA20_KEY_SIZE);
		ctx->key_set = true;
	}
	if (iv != NULL)
		memcpy(ctx->iv, iv, CHACHA20_IV_SIZE);
	/* With neither, the default provider goes on with the stream as it was. */
	if (key != NULL || iv != NULL) {
		chacha20_init(&ctx->chacha, ctx->key, ctx->iv);
		ctx->offset = 0;
		ctx->counter_lags = false;
	}
	return chacha20_cipher_set_ctx_params(ctx, params);
}

static int chacha20_cipher_einit(void *vctx, const unsigned char *key, size_t keylen,
				 const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	if (!chacha20_cipher_init(vctx, key, keylen, iv, ivlen, params))
		return 0;
	zinc_report(ZINC_EV_CHACHA20_ENCRYPT);
	return 1;
}

static int chacha20_cipher_dinit(void *vctx, const unsigned char *key, size_t keylen,
				 const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	if (!chacha20_cipher_init(vctx, key, keylen, iv, ivlen, params))
		return 0;
	zinc_report(ZINC_EV_CHACHA20_DECRYPT);
	return 1;
}

/* EVP_CipherInit_SKEY (3.5+): a zinc GENERIC-SECRET's bytes, through the same checks. */
static int chacha20_cipher_einit_skey(void *vctx, void *skeydata,
				      const unsigned char *iv, size_t ivlen,
				      const OSSL_PARAM params[])
{
	size_t keylen;
	const unsigned char *key = zinc_skey_bytes(skeydata, &keylen);

	return chacha20_cipher_einit(vctx, key, keylen, iv, ivlen, params);
}

static int chacha20_cipher_dinit_skey(void *vctx, void *skeydata,
				      const unsigned char *iv, size_t ivlen,
				      const OSSL_PARAM params[])
{
	size_t keylen;
	const unsigned char *key = zinc_skey_bytes(skeydata, &keylen);

	return chacha20_cipher_dinit(vctx, key, keylen, iv, ivlen, params);
}

/*
 * A pipeline (cipher_pipeline.c) replaces any single stream: its key goes,
 * so that a single-stream update needs an init of its own.
 */
static int chacha20_cipher_pipeline_init(struct chacha20_cipher_ctx *ctx,
					 const unsigned char *key, size_t keylen,
					 size_t numpipes, const unsigned char **iv, size_t ivlen,
					 const OSSL_PARAM params[], bool enc)
{
	/* Only once: a pipeline's init must stay cheap next to small records. */
	if (ctx->key_set) {
		OPENSSL_cleanse(&ctx->chacha, sizeof(ctx->chacha));
		OPENSSL_cleanse(ctx->key, sizeof(ctx->key));
	}
	ctx->key_set = false;
	if (!zinc_pipeline_init(ctx->provctx, &ctx->pipe, ZINC_PIPE_CHACHA20, enc, key, keylen,
				numpipes, iv, ivlen) ||
	    !chacha20_cipher_set_ctx_params(ctx, params))
		return 0;
	zinc_report(enc ? ZINC_EV_CHACHA20_ENCRYPT : ZINC_EV_CHACHA20_DECRYPT);
	return 1;
}

static int chacha20_cipher_pipeline_einit(void *vctx, const unsigned char *key, size_t keylen,
					  size_t numpipes, const unsigned char **iv,
					  size_t ivlen, const OSSL_PARAM params[])
{
	return chacha20_cipher_pipeline_init(vctx, key, keylen, numpipes, iv, ivlen, params,
					     true);
}

static int chacha20_cipher_pipeline_dinit(void *vctx, const unsigned char *key, size_t keylen,
					  size_t numpipes, const unsigned char **iv,
					  size_t ivlen, const OSSL_PARAM params[])
{
	return chacha20_cipher_pipeline_init(vctx, key, keylen, numpipes, iv, ivlen, params,
					     false);
}

static int chacha20_cipher_pipeline_update(void *vctx, size_t numpipes, unsigned char **out,
					   size_t *outl, const size_t *outsize,
					   const unsigned char **in, const size_t *inl)
{
	struct chacha20_cipher_ctx *ctx = vctx;

	return zinc_pipeline_update(ctx->provctx, ctx->pipe, numpipes, out, outl, outsize, in,
				    inl);
}

static int chacha20_cipher_pipeline_final(void *vctx, size_t numpipes, unsigned char **out,
					  size_t *outl, const size_t *outsize)
{
	struct chacha20_cipher_ctx *ctx = vctx;

	(void)outsize;
	return zinc_pipeline_final(ctx->provctx, ctx->pipe, numpipes, out, outl);
}

static int chacha20_cipher_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
				  const unsigned char *in, size_t inl)
{
	struct chacha20_cipher_ctx *ctx = vctx;

	if (!ctx->key_set) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	if (inl == 0) {
		*outl = 0;
		return 1;
	}
	if (out == NULL || in == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NULL_ARGUMENT);
		return 0;
	}
	if (outsize < inl) {
		ZINC_RAISE(ctx->provctx, ZINC_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	chacha20_crypt(&ctx->chacha, out, in, inl);
	ctx->counter_lags = ctx->offset % 64 != 0 && ctx->offset % 64 + inl == 64;
	ctx->offset += inl;
	*outl = inl;
	return 1;
}

/* A stream cipher has nothing left to write; like default, the stream may go on. */
static int chacha20_cipher_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct chacha20_cipher_ctx *ctx = vctx;

	(void)out;
	(void)outsize;
	if (!ctx->key_set) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	*outl = 0;
	return 1;
}

/* Algorithm parameters (cipher_common.c). */
static int chacha20_cipher_get_params(OSSL_PARAM params[])
{
	return zinc_cipher_get_params(params, CHACHA20_KEY_SIZE, CHACHA20_IV_SIZE, 0);
}

static const OSSL_PARAM chacha20_cipher_ctx_params_list[] = {
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM chacha20_cipher_gettable_ctx_params_3_6[] = {
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *chacha20_cipher_gettable_ctx_params(void *cctx, void *provctx)
{
	(void)cctx;
	(void)provctx;
	return zinc_core_at_least(3, 6) ? chacha20_cipher_gettable_ctx_params_3_6
				      : chacha20_cipher_ctx_params_list;
}

static const OSSL_PARAM *chacha20_cipher_settable_ctx_params(void *cctx, void *provctx)
{
	(void)cctx;
	(void)provctx;
	return chacha20_cipher_ctx_params_list;
}

static int chacha20_cipher_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct chacha20_cipher_ctx *ctx = vctx;
	OSSL_PARAM *p;

	p = zinc_param_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, CHACHA20_KEY_SIZE))
		goto bad;
	p = zinc_param_locate(params, OSSL_CIPHER_PARAM_IVLEN);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, CHACHA20_IV_SIZE))
		goto bad;
	p = zinc_core_at_least(3, 6) ? zinc_param_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV)
				     : NULL;
	if (p != NULL) {
		/* 3.6's "updated-iv": default's counter, then the nonce. */
		uint8_t iv[CHACHA20_IV_SIZE];

		memcpy(iv, ctx->iv, sizeof(iv));
		chacha20_cipher_set_counter(iv, chacha20_cipher_default_counter(ctx));
		if (!OSSL_PARAM_set_octet_string(p, iv, sizeof(iv)))
			goto bad;
	}
	return 1;
bad:
	ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
	return 0;
}

/* Both lengths are fixed: setting them to anything else fails, as in default. */
static int chacha20_cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct chacha20_cipher_ctx *ctx = vctx;
	const OSSL_PARAM *p;
	size_t len;

	if (params == NULL)
		return 1;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN);
	if (p != NULL) {
		if (!OSSL_PARAM_get_size_t(p, &len)) {
			ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
			return 0;
		}
		if (len != CHACHA20_KEY_SIZE) {
			ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_KEY_LENGTH);
			return 0;
		}
	}
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_IVLEN);
	if (p != NULL) {
		if (!OSSL_PARAM_get_size_t(p, &len)) {
			ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
			return 0;
		}
		if (len != CHACHA20_IV_SIZE) {
			ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_IV_LENGTH);
			return 0;
		}
	}
	return 1;
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_cipher_newctx_fn chacha20_cipher_newctx;
static OSSL_FUNC_cipher_freectx_fn chacha20_cipher_freectx;
static OSSL_FUNC_cipher_dupctx_fn chacha20_cipher_dupctx;
static OSSL_FUNC_cipher_encrypt_init_fn chacha20_cipher_einit;
static OSSL_FUNC_cipher_decrypt_init_fn chacha20_cipher_dinit;
static OSSL_FUNC_cipher_encrypt_skey_init_fn chacha20_cipher_einit_skey;
static OSSL_FUNC_cipher_decrypt_skey_init_fn chacha20_cipher_dinit_skey;
static OSSL_FUNC_cipher_update_fn chacha20_cipher_update;
static OSSL_FUNC_cipher_cipher_fn chacha20_cipher_update;
static OSSL_FUNC_cipher_final_fn chacha20_cipher_final;
static OSSL_FUNC_cipher_pipeline_encrypt_init_fn chacha20_cipher_pipeline_einit;
static OSSL_FUNC_cipher_pipeline_decrypt_init_fn chacha20_cipher_pipeline_dinit;
static OSSL_FUNC_cipher_pipeline_update_fn chacha20_cipher_pipeline_update;
static OSSL_FUNC_cipher_pipeline_final_fn chacha20_cipher_pipeline_final;
static OSSL_FUNC_cipher_get_params_fn chacha20_cipher_get_params;
static OSSL_FUNC_cipher_get_ctx_params_fn chacha20_cipher_get_ctx_params;
static OSSL_FUNC_cipher_gettable_ctx_params_fn chacha20_cipher_gettable_ctx_params;
static OSSL_FUNC_cipher_set_ctx_params_fn chacha20_cipher_set_ctx_params;
static OSSL_FUNC_cipher_settable_ctx_params_fn chacha20_cipher_settable_ctx_params;
OSSL_FUNC_cipher_gettable_params_fn zinc_cipher_gettable_params;

#define CHACHA20_CIPHER_FUNCTIONS \
	{ OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))chacha20_cipher_newctx }, \
	{ OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))chacha20_cipher_freectx }, \
	{ OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))chacha20_cipher_dupctx }, \
	{ OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))chacha20_cipher_einit }, \
	{ OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))chacha20_cipher_dinit }, \
	{ OSSL_FUNC_CIPHER_ENCRYPT_SKEY_INIT, (void (*)(void))chacha20_cipher_einit_skey }, \
	{ OSSL_FUNC_CIPHER_DECRYPT_SKEY_INIT, (void (*)(void))chacha20_cipher_dinit_skey }, \
	{ OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))chacha20_cipher_update }, \
	{ OSSL_FUNC_CIPHER_FINAL, (void (*)(void))chacha20_cipher_final }, \
	{ OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))chacha20_cipher_update }, \
	{ OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))chacha20_cipher_get_params }, \
	{ OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))zinc_cipher_gettable_params }, \
	{ OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))chacha20_cipher_get_ctx_params }, \
	{ OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))chacha20_cipher_gettable_ctx_params }, \
	{ OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))chacha20_cipher_set_ctx_params }, \
	{ OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))chacha20_cipher_settable_ctx_params }

const OSSL_DISPATCH zinc_chacha20_functions[] = {
	CHACHA20_CIPHER_FUNCTIONS,
	{ 0, NULL }
};

/* Offered to a 3.5+ core only (zinc_prov.c): EVP_CIPHER_can_pipeline() is true. */
const OSSL_DISPATCH zinc_chacha20_pipeline_functions[] = {
	CHACHA20_CIPHER_FUNCTIONS,
	{ OSSL_FUNC_CIPHER_PIPELINE_ENCRYPT_INIT, (void (*)(void))chacha20_cipher_pipeline_einit },
	{ OSSL_FUNC_CIPHER_PIPELINE_DECRYPT_INIT, (void (*)(void))chacha20_cipher_pipeline_dinit },
	{ OSSL_FUNC_CIPHER_PIPELINE_UPDATE, (void (*)(void))chacha20_cipher_pipeline_update },
	{ OSSL_FUNC_CIPHER_PIPELINE_FINAL, (void (*)(void))chacha20_cipher_pipeline_final },
	{ 0, NULL }
};
