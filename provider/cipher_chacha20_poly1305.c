/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ChaCha20-Poly1305 (RFC 8439) and XChaCha20-Poly1305 as OpenSSL AEAD
 * ciphers: one implementation, two dispatch tables that differ in the
 * nonce length (12 or 24 bytes) and the primitive's init.  Names,
 * parameters and results follow the default provider's ChaCha20-Poly1305,
 * including its TLS 1.2 record mode, except where zinc refuses misuse
 * that default lets through (marked "stricter than default").
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
#include "zinc/chacha20poly1305.h"

#define TLS_AAD_LEN 13		/* seq(8) type(1) version(2) length(2) */
#define TLS_SEQ_LEN 8

struct aead_variant {
	size_t nonce_len;
	void (*init)(struct chacha20poly1305_ctx *ctx, const uint8_t *key, const uint8_t *nonce);
	enum zinc_event encrypt_event, decrypt_event;	/* for ZINC_REPORT */
	enum zinc_pipeline_cipher pipeline;
};

static const struct aead_variant chacha20_poly1305_variant = {
	CHACHA20POLY1305_NONCE_SIZE, chacha20poly1305_init,
	ZINC_EV_CHACHA20_POLY1305_ENCRYPT, ZINC_EV_CHACHA20_POLY1305_DECRYPT,
	ZINC_PIPE_CHACHA20_POLY1305
};

static const struct aead_variant xchacha20_poly1305_variant = {
	XCHACHA20POLY1305_NONCE_SIZE, xchacha20poly1305_init,
	ZINC_EV_XCHACHA20_POLY1305_ENCRYPT, ZINC_EV_XCHACHA20_POLY1305_DECRYPT,
	ZINC_PIPE_XCHACHA20_POLY1305
};

enum aead_state {
	AEAD_IDLE,		/* key or nonce given: the stream starts at the first use */
	AEAD_STREAM,		/* AAD, then data, then final */
	AEAD_TLS_RECORD,	/* tlsaad given: the next update is one whole record */
	AEAD_FINISHED		/* after final or a record: needs an init or a tlsaad */
};

struct aead_ctx {
	const struct zinc_provctx *provctx;
	const struct aead_variant *variant;
	struct chacha20poly1305_ctx aead;
	uint8_t key[CHACHA20POLY1305_KEY_SIZE];
	/* The last IV given, by init or tlsivfixed; TLS records XOR their sequence into it. */
	uint8_t nonce[XCHACHA20POLY1305_NONCE_SIZE];
	uint8_t record_nonce[XCHACHA20POLY1305_NONCE_SIZE];
	uint8_t tls_aad[TLS_AAD_LEN];
	/* Encryption: the computed tag (tag_ready); decryption: the expected one (tag_set). */
	uint8_t tag[CHACHA20POLY1305_TAG_SIZE];
	size_t tag_len;		/* "taglen": as in default, only setting "tag" changes it */
	size_t tls_payload_len;
	size_t tls_aad_pad;	/* "tlsaadpad": 0 until the first tlsaad, then 16 */
	enum aead_state state;
	bool enc, key_set, nonce_set, tag_set, tag_ready;
	struct zinc_pipeline *pipe;	/* from the first pipeline init (3.5+) */
};

static void *aead_newctx(void *provctx, const struct aead_variant *variant)
{
	struct aead_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

	if (ctx == NULL) {
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		return NULL;
	}
	ctx->provctx = provctx;
	ctx->variant = variant;
	return ctx;
}

static void *chacha20_poly1305_newctx(void *provctx)
{
	return aead_newctx(provctx, &chacha20_poly1305_variant);
}

static void *xchacha20_poly1305_newctx(void *provctx)
{
	return aead_newctx(provctx, &xchacha20_poly1305_variant);
}

static void aead_freectx(void *vctx)
{
	struct aead_ctx *ctx = vctx;

	if (ctx != NULL)
		zinc_pipeline_free(ctx->pipe);
	OPENSSL_clear_free(ctx, sizeof(*ctx));
}

static void *aead_dupctx(void *vctx)
{
	struct aead_ctx *ctx = vctx;
	struct aead_ctx *dup = OPENSSL_memdup(ctx, sizeof(*ctx));

	if (dup != NULL && !zinc_pipeline_dup(ctx->pipe, &dup->pipe)) {
		OPENSSL_clear_free(dup, sizeof(*dup));
		dup = NULL;
	}
	if (dup == NULL)
		ZINC_RAISE(ctx->provctx, ZINC_R_OUT_OF_MEMORY);
	return dup;
}

static int aead_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

/*
 * Key and IV may come in separate calls; either restarts the stream.  As in
 * default, an expected tag set before stays (callers may set it first), but
 * a computed one is gone.  A call with neither leaves the stream alone, as
 * default does.
 */
static int aead_init(struct aead_ctx *ctx, const unsigned char *key, size_t keylen,
		     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[], bool enc)
{
	if (key != NULL && keylen != CHACHA20POLY1305_KEY_SIZE) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_KEY_LENGTH);
		return 0;
	}
	if (iv != NULL && ivlen != ctx->variant->nonce_len) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_IV_LENGTH);
		return 0;
	}
	ctx->enc = enc;
	zinc_pipeline_stop(ctx->pipe);
	if (key != NULL) {
		/* The old key's stream is abandoned: its state goes now, not at free. */
		OPENSSL_cleanse(&ctx->aead, sizeof(ctx->aead));
		memcpy(ctx->key, key, CHACHA20POLY1305_KEY_SIZE);
		ctx->key_set = true;
	}
	if (iv != NULL) {
		memcpy(ctx->nonce, iv, ctx->variant->nonce_len);
		ctx->nonce_set = true;
	}
	if (key != NULL || iv != NULL) {
		ctx->state = AEAD_IDLE;
		ctx->tag_ready = false;
	}
	if (!aead_set_ctx_params(ctx, params))
		return 0;
	zinc_report(enc ? ctx->variant->encrypt_event : ctx->variant->decrypt_event);
	return 1;
}

static int aead_einit(void *vctx, const unsigned char *key, size_t keylen,
		      const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	return aead_init(vctx, key, keylen, iv, ivlen, params, true);
}

static int aead_dinit(void *vctx, const unsigned char *key, size_t keylen,
		      const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	return aead_init(vctx, key, keylen, iv, ivlen, params, false);
}

/* EVP_CipherInit_SKEY (3.5+): a zinc GENERIC-SECRET's bytes, through the same checks. */
static int aead_einit_skey(void *vctx, void *skeydata, const unsigned char *iv, size_t ivlen,
			   const OSSL_PARAM params[])
{
	size_t keylen;
	const unsigned char *key = zinc_skey_bytes(skeydata, &keylen);

	return aead_init(vctx, key, keylen, iv, ivlen, params, true);
}

static int aead_dinit_skey(void *vctx, void *skeydata, const unsigned char *iv, size_t ivlen,
			   const OSSL_PARAM params[])
{
	size_t keylen;
	const unsigned char *key = zinc_skey_bytes(skeydata, &keylen);

	return aead_init(vctx, key, keylen, iv, ivlen, params, false);
}

/*
 * A pipeline (cipher_pipeline.c) replaces any single-record stream: its
 * key and nonce go, so that a single-record update needs an init of its own.
 */
static int aead_pipeline_init(struct aead_ctx *ctx, const unsigned char *key, size_t keylen,
			      size_t numpipes, const unsigned char **iv, size_t ivlen,
			      const OSSL_PARAM params[], bool enc)
{
	/* Only once: a pipeline's init must stay cheap next to small records. */
	if (ctx->key_set) {
		OPENSSL_cleanse(&ctx->aead, sizeof(ctx->aead));
		OPENSSL_cleanse(ctx->key, sizeof(ctx->key));
	}
	ctx->key_set = ctx->nonce_set = ctx->tag_set = ctx->tag_ready = false;
	ctx->state = AEAD_IDLE;
	ctx->enc = enc;
	if (!zinc_pipeline_init(ctx->provctx, &ctx->pipe, ctx->variant->pipeline, enc, key,
				keylen, numpipes, iv, ivlen) ||
	    !aead_set_ctx_params(ctx, params))
		return 0;
	zinc_report(enc ? ctx->variant->encrypt_event : ctx->variant->decrypt_event);
	return 1;
}

static int aead_pipeline_einit(void *vctx, const unsigned char *key, size_t keylen,
			       size_t numpipes, const unsigned char **iv, size_t ivlen,
			       const OSSL_PARAM params[])
{
	return aead_pipeline_init(vctx, key, keylen, numpipes, iv, ivlen, params, true);
}

static int aead_pipeline_dinit(void *vctx, const unsigned char *key, size_t keylen,
			       size_t numpipes, const unsigned char **iv, size_t ivlen,
			       const OSSL_PARAM params[])
{
	return aead_pipeline_init(vctx, key, keylen, numpipes, iv, ivlen, params, false);
}

static int aead_pipeline_update(void *vctx, size_t numpipes, unsigned char **out,
				size_t *outl, const size_t *outsize, const unsigned char **in,
				const size_t *inl)
{
	struct aead_ctx *ctx = vctx;

	return zinc_pipeline_update(ctx->provctx, ctx->pipe, numpipes, out, outl, outsize, in,
				    inl);
}

static int aead_pipeline_final(void *vctx, size_t numpipes, unsigned char **out,
			       size_t *outl, const size_t *outsize)
{
	struct aead_ctx *ctx = vctx;

	(void)outsize;
	return zinc_pipeline_final(ctx->provctx, ctx->pipe, numpipes, out, outl);
}

/*
 * Default would run with a zero key or nonce; zinc refuses (stricter than
 * default).
 */
static int aead_start(struct aead_ctx *ctx)
{
	if (!ctx->key_set) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	if (!ctx->nonce_set) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_IV_SET);
		return 0;
	}
	ctx->variant->init(&ctx->aead, ctx->key, ctx->nonce);
	ctx->state = AEAD_STREAM;
	return 1;
}

/*
 * TLS 1.2 record, as libssl 3.0 drives default's cipher: in is payload ||
 * tag space (the length tlsaad announced, plus 16).  Encryption writes
 * ciphertext || tag and reports all of it; decryption writes the payload,
 * reports its length, and on a wrong tag wipes it and fails.
 */
static int aead_tls_record(struct aead_ctx *ctx, unsigned char *out, size_t *outl,
			   size_t outsize, const unsigned char *in, size_t inl)
{
	size_t plen = ctx->tls_payload_len;
	uint8_t tag[CHACHA20POLY1305_TAG_SIZE];
	bool ok;

	if (out == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_MODE);
		return 0;
	}
	/* A wrong length leaves the record pending, as in default. */
	if (inl != plen + CHACHA20POLY1305_TAG_SIZE) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_INPUT_LENGTH);
		return 0;
	}
	if (outsize < inl) {
		ZINC_RAISE(ctx->provctx, ZINC_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	if (!ctx->key_set) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	ctx->variant->init(&ctx->aead, ctx->key, ctx->record_nonce);
	/* Cannot fail: nothing has been processed and a record is < 64 KB. */
	chacha20poly1305_ad(&ctx->aead, ctx->tls_aad, TLS_AAD_LEN);
	/* Default goes on with a fresh stream under the same nonce; zinc refuses that. */
	ctx->state = AEAD_FINISHED;
	if (ctx->enc) {
		chacha20poly1305_encrypt_update(&ctx->aead, out, in, plen);
		chacha20poly1305_final(&ctx->aead, ctx->tag);
		memcpy(out + plen, ctx->tag, CHACHA20POLY1305_TAG_SIZE);
		ctx->tag_ready = true;
		*outl = inl;
		return 1;
	}
	/* Copied first: decrypting in place must not touch it, but be sure. */
	memcpy(tag, in + plen, CHACHA20POLY1305_TAG_SIZE);
	chacha20poly1305_decrypt_update(&ctx->aead, out, in, plen);
	ok = chacha20poly1305_final_verify(&ctx->aead, tag, CHACHA20POLY1305_TAG_SIZE);
	if (!ok) {
		OPENSSL_cleanse(out, plen);
		ZINC_RAISE(ctx->provctx, ZINC_R_TAG_MISMATCH);
		return 0;
	}
	*outl = plen;
	return 1;
}

/*
 * out == NULL: additional data.  As default, a zero-length update does
 * nothing, and outl counts the AAD too.  Unlike default, AAD after data
 * and any use after final fail (stricter than default).
 */
static int aead_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		       const unsigned char *in, size_t inl)
{
	struct aead_ctx *ctx = vctx;
	bool ok;

	if (inl == 0) {
		*outl = 0;
		return 1;
	}
	if (in == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NULL_ARGUMENT);
		return 0;
	}
	switch (ctx->state) {
	case AEAD_TLS_RECORD:
		return aead_tls_record(ctx, out, outl, outsize, in, inl);
	case AEAD_FINISHED:
		ZINC_RAISE(ctx->provctx, ZINC_R_UPDATE_AFTER_FINAL);
		return 0;
	case AEAD_IDLE:
		if (!aead_start(ctx))
			return 0;
		break;
	case AEAD_STREAM:
		break;
	}
	if (out == NULL) {
		if (!chacha20poly1305_ad(&ctx->aead, in, inl)) {
			ZINC_RAISE(ctx->provctx, ZINC_R_AAD_AFTER_DATA);
			return 0;
		}
		*outl = inl;
		return 1;
	}
	if (outsize < inl) {
		ZINC_RAISE(ctx->provctx, ZINC_R_OUTPUT_BUFFER_TOO_SMALL);
		return 0;
	}
	if (ctx->enc)
		ok = chacha20poly1305_encrypt_update(&ctx->aead, out, in, inl);
	else
		ok = chacha20poly1305_decrypt_update(&ctx->aead, out, in, inl);
	if (!ok) {
		ZINC_RAISE(ctx->provctx, ZINC_R_DATA_LIMIT_EXCEEDED);
		return 0;
	}
	*outl = inl;
	return 1;
}

/*
 * Writes nothing.  Decryption fails without a tag (default would accept
 * the message unauthenticated: stricter than default).
 */
static int aead_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct aead_ctx *ctx = vctx;

	(void)out;
	(void)outsize;
	switch (ctx->state) {
	case AEAD_TLS_RECORD:
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_MODE);
		return 0;
	case AEAD_FINISHED:
		ZINC_RAISE(ctx->provctx, ZINC_R_UPDATE_AFTER_FINAL);
		return 0;
	case AEAD_IDLE:
		if (!aead_start(ctx))
			return 0;
		break;
	case AEAD_STREAM:
		break;
	}
	ctx->state = AEAD_FINISHED;
	*outl = 0;
	if (ctx->enc) {
		chacha20poly1305_final(&ctx->aead, ctx->tag);
		ctx->tag_ready = true;
		return 1;
	}
	if (!ctx->tag_set) {
		OPENSSL_cleanse(&ctx->aead, sizeof(ctx->aead));
		ZINC_RAISE(ctx->provctx, ZINC_R_TAG_NOT_SET);
		return 0;
	}
	if (!chacha20poly1305_final_verify(&ctx->aead, ctx->tag, ctx->tag_len)) {
		ZINC_RAISE(ctx->provctx, ZINC_R_TAG_MISMATCH);
		return 0;
	}
	return 1;
}


static int chacha20_poly1305_get_params(OSSL_PARAM params[])
{
	return zinc_cipher_get_params(params, CHACHA20POLY1305_KEY_SIZE,
				      CHACHA20POLY1305_NONCE_SIZE, 1);
}

static int xchacha20_poly1305_get_params(OSSL_PARAM params[])
{
	return zinc_cipher_get_params(params, CHACHA20POLY1305_KEY_SIZE,
				      XCHACHA20POLY1305_NONCE_SIZE, 1);
}

/*
 * As default's lists: the pipeline's parameters (cipher_pipeline.h) are
 * not among them, as default has no pipelines.
 */
static const OSSL_PARAM aead_gettable_ctx_params_list[] = {
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM aead_settable_ctx_params_list[] = {
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *aead_gettable_ctx_params(void *cctx, void *provctx)
{
	(void)cctx;
	(void)provctx;
	return aead_gettable_ctx_params_list;
}

static const OSSL_PARAM *aead_settable_ctx_params(void *cctx, void *provctx)
{
	(void)cctx;
	(void)provctx;
	return aead_settable_ctx_params_list;
}

/*
 * The tag exists only after encryption's final or an encrypted record
 * (default hands out zeros or a stale tag otherwise: stricter than default).
 */
static int aead_get_tag(struct aead_ctx *ctx, OSSL_PARAM *p)
{
	if (p->data_type != OSSL_PARAM_OCTET_STRING) {
		ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
		return 0;
	}
	if (p->data_size == 0 || p->data_size > CHACHA20POLY1305_TAG_SIZE) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_TAG_LENGTH);
		return 0;
	}
	if (!ctx->enc || !ctx->tag_ready) {
		ZINC_RAISE(ctx->provctx, ZINC_R_TAG_NOT_AVAILABLE);
		return 0;
	}
	if (!OSSL_PARAM_set_octet_string(p, ctx->tag, p->data_size)) {
		ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
		return 0;
	}
	return 1;
}

/*
 * The size_t a gettable name stands for; false for other names.  libcrypto
 * asks for ivlen at every init and for the tag after every record: one
 * comparison per parameter keeps that cheap.
 */
static bool aead_size_param(const struct aead_ctx *ctx, const char *key, size_t *v)
{
	switch (key[0]) {
	case 'k':
		*v = CHACHA20POLY1305_KEY_SIZE;
		return zinc_name_eq(key, OSSL_CIPHER_PARAM_KEYLEN);
	case 'i':
		*v = ctx->variant->nonce_len;
		return zinc_name_eq(key, OSSL_CIPHER_PARAM_IVLEN);
	case 't':
		if (zinc_name_eq(key, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) {
			*v = ctx->tag_len;
			return true;
		}
		*v = ctx->tls_aad_pad;
		return zinc_name_eq(key, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD);
	default:
		return false;
	}
}

static int aead_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct aead_ctx *ctx = vctx;
	OSSL_PARAM *p;
	size_t v;

	for (p = params; p != NULL && p->key != NULL; p++) {
		if (zinc_name_eq(p->key, OSSL_CIPHER_PARAM_AEAD_TAG)) {
			if (!aead_get_tag(ctx, p))
				return 0;
		} else if (zinc_pipeline_is_param(p->key)) {
			if (!zinc_pipeline_get_param(ctx->provctx, ctx->pipe, p))
				return 0;
		} else if (aead_size_param(ctx, p->key, &v) && !OSSL_PARAM_set_size_t(p, v)) {
			ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
			return 0;
		}
	}
	return 1;
}

static int aead_set_len(struct aead_ctx *ctx, const OSSL_PARAM *p, size_t want, int reason)
{
	size_t len;

	if (!OSSL_PARAM_get_size_t(p, &len)) {
		ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	if (len != want) {
		ZINC_RAISE(ctx->provctx, reason);
		return 0;
	}
	return 1;
}

/*
 * Decryption's expected tag, 1..16 bytes (a shorter one is compared
 * truncated, as in default).  Without data only the length is set, as in
 * default, for both directions.
 */
static int aead_set_tag(struct aead_ctx *ctx, const OSSL_PARAM *p)
{
	if (p->data_type != OSSL_PARAM_OCTET_STRING) {
		ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	if (p->data_size == 0 || p->data_size > CHACHA20POLY1305_TAG_SIZE) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_TAG_LENGTH);
		return 0;
	}
	if (p->data != NULL) {
		if (ctx->enc) {
			ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_MODE);
			return 0;
		}
		memcpy(ctx->tag, p->data, p->data_size);
		ctx->tag_set = true;
	}
	ctx->tag_len = p->data_size;
	return 1;
}

static int aead_set_tls_iv_fixed(struct aead_ctx *ctx, const OSSL_PARAM *p)
{
	if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	if (p->data_size != ctx->variant->nonce_len) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_IV_LENGTH);
		return 0;
	}
	memcpy(ctx->nonce, p->data, ctx->variant->nonce_len);
	ctx->nonce_set = true;
	return 1;
}

/*
 * The 13-byte TLS AAD: the record nonce is the fixed IV XOR the sequence
 * number in its last 8 bytes; decryption's length field loses the tag.
 */
static int aead_set_tls_aad(struct aead_ctx *ctx, const OSSL_PARAM *p)
{
	const uint8_t *aad = p->data;
	size_t i, len, base;

	if (p->data_type != OSSL_PARAM_OCTET_STRING || aad == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	if (p->data_size != TLS_AAD_LEN) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_TLS_AAD);
		return 0;
	}
	len = (size_t)aad[TLS_AAD_LEN - 2] << 8 | aad[TLS_AAD_LEN - 1];
	if (!ctx->enc) {
		if (len < CHACHA20POLY1305_TAG_SIZE) {
			ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_TLS_AAD);
			return 0;
		}
		len -= CHACHA20POLY1305_TAG_SIZE;
	}
	if (!ctx->nonce_set) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_IV_SET);
		return 0;
	}
	memcpy(ctx->tls_aad, aad, TLS_AAD_LEN);
	ctx->tls_aad[TLS_AAD_LEN - 2] = (uint8_t)(len >> 8);
	ctx->tls_aad[TLS_AAD_LEN - 1] = (uint8_t)len;
	ctx->tls_payload_len = len;
	base = ctx->variant->nonce_len - TLS_SEQ_LEN;
	memcpy(ctx->record_nonce, ctx->nonce, ctx->variant->nonce_len);
	for (i = 0; i < TLS_SEQ_LEN; i++)
		ctx->record_nonce[base + i] ^= aad[i];
	ctx->tls_aad_pad = CHACHA20POLY1305_TAG_SIZE;
	ctx->tag_ready = false;
	ctx->state = AEAD_TLS_RECORD;
	return 1;
}

/*
 * Each parameter is located once.  tlsivfixed is taken before tlsaad so
 * that one call may carry both.
 */
static int aead_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct aead_ctx *ctx = vctx;
	const OSSL_PARAM *p;

	if (params == NULL)
		return 1;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN);
	if (p != NULL && !aead_set_len(ctx, p, CHACHA20POLY1305_KEY_SIZE, ZINC_R_INVALID_KEY_LENGTH))
		return 0;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_IVLEN);
	if (p != NULL && !aead_set_len(ctx, p, ctx->variant->nonce_len, ZINC_R_INVALID_IV_LENGTH))
		return 0;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG);
	if (p != NULL && !aead_set_tag(ctx, p))
		return 0;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED);
	if (p != NULL && !aead_set_tls_iv_fixed(ctx, p))
		return 0;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD);
	if (p != NULL && !aead_set_tls_aad(ctx, p))
		return 0;
	p = zinc_core_at_least(3, 5)
		    ? OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_PIPELINE_AEAD_TAG)
		    : NULL;
	if (p != NULL && !zinc_pipeline_set_tags(ctx->provctx, ctx->pipe, p))
		return 0;
	return 1;
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_cipher_newctx_fn chacha20_poly1305_newctx;
static OSSL_FUNC_cipher_newctx_fn xchacha20_poly1305_newctx;
static OSSL_FUNC_cipher_freectx_fn aead_freectx;
static OSSL_FUNC_cipher_dupctx_fn aead_dupctx;
static OSSL_FUNC_cipher_encrypt_init_fn aead_einit;
static OSSL_FUNC_cipher_decrypt_init_fn aead_dinit;
static OSSL_FUNC_cipher_encrypt_skey_init_fn aead_einit_skey;
static OSSL_FUNC_cipher_decrypt_skey_init_fn aead_dinit_skey;
static OSSL_FUNC_cipher_update_fn aead_update;
static OSSL_FUNC_cipher_cipher_fn aead_update;
static OSSL_FUNC_cipher_final_fn aead_final;
static OSSL_FUNC_cipher_pipeline_encrypt_init_fn aead_pipeline_einit;
static OSSL_FUNC_cipher_pipeline_decrypt_init_fn aead_pipeline_dinit;
static OSSL_FUNC_cipher_pipeline_update_fn aead_pipeline_update;
static OSSL_FUNC_cipher_pipeline_final_fn aead_pipeline_final;
static OSSL_FUNC_cipher_get_params_fn chacha20_poly1305_get_params;
static OSSL_FUNC_cipher_get_params_fn xchacha20_poly1305_get_params;
static OSSL_FUNC_cipher_get_ctx_params_fn aead_get_ctx_params;
static OSSL_FUNC_cipher_gettable_ctx_params_fn aead_gettable_ctx_params;
static OSSL_FUNC_cipher_set_ctx_params_fn aead_set_ctx_params;
static OSSL_FUNC_cipher_settable_ctx_params_fn aead_settable_ctx_params;
OSSL_FUNC_cipher_gettable_params_fn zinc_cipher_gettable_params;

#define AEAD_COMMON_FUNCTIONS \
	{ OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))aead_freectx }, \
	{ OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))aead_dupctx }, \
	{ OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))aead_einit }, \
	{ OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))aead_dinit }, \
	{ OSSL_FUNC_CIPHER_ENCRYPT_SKEY_INIT, (void (*)(void))aead_einit_skey }, \
	{ OSSL_FUNC_CIPHER_DECRYPT_SKEY_INIT, (void (*)(void))aead_dinit_skey }, \
	{ OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))aead_update }, \
	{ OSSL_FUNC_CIPHER_FINAL, (void (*)(void))aead_final }, \
	{ OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))aead_update }, \
	{ OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))zinc_cipher_gettable_params }, \
	{ OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))aead_get_ctx_params }, \
	{ OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))aead_gettable_ctx_params }, \
	{ OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))aead_set_ctx_params }, \
	{ OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))aead_settable_ctx_params }

/* Offered to a 3.5+ core only (zinc_prov.c): EVP_CIPHER_can_pipeline() is true. */
#define AEAD_PIPELINE_FUNCTIONS \
	{ OSSL_FUNC_CIPHER_PIPELINE_ENCRYPT_INIT, (void (*)(void))aead_pipeline_einit }, \
	{ OSSL_FUNC_CIPHER_PIPELINE_DECRYPT_INIT, (void (*)(void))aead_pipeline_dinit }, \
	{ OSSL_FUNC_CIPHER_PIPELINE_UPDATE, (void (*)(void))aead_pipeline_update }, \
	{ OSSL_FUNC_CIPHER_PIPELINE_FINAL, (void (*)(void))aead_pipeline_final }

const OSSL_DISPATCH zinc_chacha20_poly1305_functions[] = {
	{ OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))chacha20_poly1305_newctx },
	{ OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))chacha20_poly1305_get_params },
	AEAD_COMMON_FUNCTIONS,
	{ 0, NULL }
};

const OSSL_DISPATCH zinc_xchacha20_poly1305_functions[] = {
	{ OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))xchacha20_poly1305_newctx },
	{ OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))xchacha20_poly1305_get_params },
	AEAD_COMMON_FUNCTIONS,
	{ 0, NULL }
};

const OSSL_DISPATCH zinc_chacha20_poly1305_pipeline_functions[] = {
	{ OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))chacha20_poly1305_newctx },
	{ OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))chacha20_poly1305_get_params },
	AEAD_COMMON_FUNCTIONS,
	AEAD_PIPELINE_FUNCTIONS,
	{ 0, NULL }
};

const OSSL_DISPATCH zinc_xchacha20_poly1305_pipeline_functions[] = {
	{ OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))xchacha20_poly1305_newctx },
	{ OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))xchacha20_poly1305_get_params },
	AEAD_COMMON_FUNCTIONS,
	AEAD_PIPELINE_FUNCTIONS,
	{ 0, NULL }
};
