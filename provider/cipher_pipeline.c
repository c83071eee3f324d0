/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL 3.5's cipher pipelines for ChaCha20, ChaCha20-Poly1305 and
 * XChaCha20-Poly1305: the records of each call go side by side through
 * the lanes primitives (chacha20_lanes.h, chacha20poly1305.h).
 *
 * As EVP_CipherPipelineUpdate(3) describes: out == NULL passes AAD, one
 * buffer per record; "pipeline-tag" (an octet pointer to an array of
 * numpipes buffers, each of the parameter's size) gets the tags after
 * encryption's final and sets the expected ones before decryption's.
 * Decryption's final verifies every record: a record that fails does not
 * change the others; final then fails (zinc reason "tag mismatch") and
 * ZINC_CIPHER_PARAM_PIPELINE_FAILED says which records failed.  A failed
 * record's plaintext is wiped when zinc can tell where it is: when the
 * record's updates wrote it as one run and final's out[i] points just past
 * that run, as when final continues where the updates ended.
 *
 * Misuse is refused before anything is written, with a zinc reason.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "cipher_pipeline.h"
#include "core_version.h"
#include "zinc_err.h"
#include "zinc_params.h"
#include "zinc_prov.h"
#include "zinc/chacha20poly1305.h"

enum pipe_state {
	PIPE_IDLE,		/* no pipeline initialised, or a single-record init came after */
	PIPE_RUNNING,
	PIPE_FINISHED
};

struct zinc_pipeline {
	enum zinc_pipeline_cipher cipher;
	enum pipe_state state;
	bool enc;
	bool tags_ready;	/* encryption: tag[] holds the computed tags */
	bool tags_set;		/* decryption: tag[] holds the expected tags */
	bool result_ready;	/* decryption's final ran: failed is its result */
	size_t n;
	size_t tag_len;		/* of the expected tags */
	uint32_t failed;
	/* Decryption: each record's plaintext so far, if one run (else scattered). */
	unsigned char *run_start[CHACHA20_LANES_MAX];
	unsigned char *run_end[CHACHA20_LANES_MAX];
	uint32_t scattered;
	uint8_t tag[CHACHA20_LANES_MAX][CHACHA20POLY1305_TAG_SIZE];
	union {
		struct chacha20_lanes chacha;
		struct chacha20poly1305_lanes aead;
	} lanes;
};

/*
 * The state of the records in use, wiped without touching the rest of the
 * 20 KB (a pipeline of small records cannot afford to clear it all).
 */
static void wipe_lanes(struct zinc_pipeline *pipe)
{
	if (pipe->cipher == ZINC_PIPE_CHACHA20)
		chacha20_lanes_wipe(&pipe->lanes.chacha);
	else
		chacha20poly1305_lanes_wipe(&pipe->lanes.aead);
}

/*
 * No pipeline: the records' state wiped, the tags and results gone (the
 * tags themselves are no secret: they stay until overwritten).
 */
static void pipe_reset(struct zinc_pipeline *pipe)
{
	if (pipe->state == PIPE_RUNNING)
		wipe_lanes(pipe);
	pipe->tags_ready = pipe->tags_set = pipe->result_ready = false;
	pipe->failed = 0;
	pipe->state = PIPE_IDLE;
}

static size_t pipe_iv_len(enum zinc_pipeline_cipher cipher)
{
	switch (cipher) {
	case ZINC_PIPE_CHACHA20:
		return CHACHA20_IV_SIZE;
	case ZINC_PIPE_CHACHA20_POLY1305:
		return CHACHA20POLY1305_NONCE_SIZE;
	case ZINC_PIPE_XCHACHA20_POLY1305:
		return XCHACHA20POLY1305_NONCE_SIZE;
	}
	return 0;
}

static int check_init(const struct zinc_provctx *provctx, enum zinc_pipeline_cipher cipher,
		      const unsigned char *key, size_t keylen, size_t numpipes,
		      const unsigned char **iv, size_t ivlen)
{
	size_t i;

	if (numpipes < 1 || numpipes > CHACHA20_LANES_MAX) {
		ZINC_RAISE(provctx, ZINC_R_INVALID_PIPE_COUNT);
		return 0;
	}
	if (key == NULL) {
		ZINC_RAISE(provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	if (keylen != CHACHA20_KEY_SIZE) {
		ZINC_RAISE(provctx, ZINC_R_INVALID_KEY_LENGTH);
		return 0;
	}
	if (iv == NULL) {
		ZINC_RAISE(provctx, ZINC_R_NO_IV_SET);
		return 0;
	}
	if (ivlen != pipe_iv_len(cipher)) {
		ZINC_RAISE(provctx, ZINC_R_INVALID_IV_LENGTH);
		return 0;
	}
	for (i = 0; i < numpipes; i++) {
		if (iv[i] == NULL) {
			ZINC_RAISE(provctx, ZINC_R_NULL_ARGUMENT);
			return 0;
		}
	}
	return 1;
}

int zinc_pipeline_init(const struct zinc_provctx *provctx, struct zinc_pipeline **pipe,
		       enum zinc_pipeline_cipher cipher, bool enc, const unsigned char *key,
		       size_t keylen, size_t numpipes, const unsigned char **iv, size_t ivlen)
{
	struct zinc_pipeline *p = *pipe;

	if (p != NULL)
		pipe_reset(p);	/* PIPE_IDLE until this init succeeds */
	if (!check_init(provctx, cipher, key, keylen, numpipes, iv, ivlen))
		return 0;
	if (p == NULL) {
		p = OPENSSL_zalloc(sizeof(*p));
		if (p == NULL) {
			ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
			return 0;
		}
		*pipe = p;
	}
	p->cipher = cipher;
	p->enc = enc;
	p->n = numpipes;
	memset(p->run_start, 0, numpipes * sizeof(p->run_start[0]));
	p->scattered = 0;
	switch (cipher) {
	case ZINC_PIPE_CHACHA20:
		chacha20_lanes_init(&p->lanes.chacha, key, iv, numpipes);
		break;
	case ZINC_PIPE_CHACHA20_POLY1305:
		chacha20poly1305_lanes_init(&p->lanes.aead, key, iv, numpipes);
		break;
	case ZINC_PIPE_XCHACHA20_POLY1305:
		xchacha20poly1305_lanes_init(&p->lanes.aead, key, iv, numpipes);
		break;
	}
	p->state = PIPE_RUNNING;
	return 1;
}

/*
 * Whether a pipeline runs and the call is for as many records as it has.
 * numpipes 0 is the init's count: libcrypto 3.5 to 4.0 store the count
 * before an init that names the cipher resets the context, and so pass 0
 * to update and final on a context used before (zinc refuses a pipeline
 * of 0 records at init, so 0 here can only mean that).
 */
static int check_running(const struct zinc_provctx *provctx, const struct zinc_pipeline *pipe,
			 size_t numpipes)
{
	if (pipe == NULL || pipe->state == PIPE_IDLE) {
		ZINC_RAISE(provctx, ZINC_R_NOT_INITIALISED);
		return 0;
	}
	if (pipe->state == PIPE_FINISHED) {
		ZINC_RAISE(provctx, ZINC_R_UPDATE_AFTER_FINAL);
		return 0;
	}
	if (numpipes != pipe->n && numpipes != 0) {
		ZINC_RAISE(provctx, ZINC_R_INVALID_PIPE_COUNT);
		return 0;
	}
	return 1;
}

static int check_buffers(const struct zinc_provctx *provctx, const struct zinc_pipeline *pipe,
			 unsigned char **out, const size_t *outl, const size_t *outsize,
			 const unsigned char **in, const size_t *inl)
{
	size_t i;

	if (outl == NULL || in == NULL || inl == NULL || (out != NULL && outsize == NULL)) {
		ZINC_RAISE(provctx, ZINC_R_NULL_ARGUMENT);
		return 0;
	}
	for (i = 0; i < pipe->n; i++) {
		if (inl[i] == 0)
			continue;
		if (in[i] == NULL || (out != NULL && out[i] == NULL)) {
			ZINC_RAISE(provctx, ZINC_R_NULL_ARGUMENT);
			return 0;
		}
		if (out != NULL && outsize[i] < inl[i]) {
			ZINC_RAISE(provctx, ZINC_R_OUTPUT_BUFFER_TOO_SMALL);
			return 0;
		}
	}
	return 1;
}

/* Where decryption wrote each record: one run so far, or scattered. */
static void track_runs(struct zinc_pipeline *pipe, unsigned char **out, const size_t *inl)
{
	size_t i;

	for (i = 0; i < pipe->n; i++) {
		if (inl[i] == 0)
			continue;
		if (pipe->run_start[i] == NULL)
			pipe->run_start[i] = out[i];
		else if (out[i] != pipe->run_end[i])
			pipe->scattered |= UINT32_C(1) << i;
		pipe->run_end[i] = out[i] + inl[i];
	}
}

int zinc_pipeline_update(const struct zinc_provctx *provctx, struct zinc_pipeline *pipe,
			 size_t numpipes, unsigned char **out, size_t *outl,
			 const size_t *outsize, const unsigned char **in, const size_t *inl)
{
	bool ok = true;

	if (!check_running(provctx, pipe, numpipes) ||
	    !check_buffers(provctx, pipe, out, outl, outsize, in, inl))
		return 0;
	if (pipe->cipher == ZINC_PIPE_CHACHA20) {
		if (out == NULL) {
			ZINC_RAISE(provctx, ZINC_R_INVALID_MODE);	/* no AAD */
			return 0;
		}
		chacha20_lanes_crypt(&pipe->lanes.chacha, out, in, inl);
	} else if (out == NULL) {
		if (!chacha20poly1305_lanes_ad(&pipe->lanes.aead, in, inl)) {
			ZINC_RAISE(provctx, ZINC_R_AAD_AFTER_DATA);
			return 0;
		}
	} else if (pipe->enc) {
		ok = chacha20poly1305_lanes_encrypt_update(&pipe->lanes.aead, out, in, inl);
	} else {
		ok = chacha20poly1305_lanes_decrypt_update(&pipe->lanes.aead, out, in, inl);
		if (ok)
			track_runs(pipe, out, inl);
	}
	if (!ok) {
		ZINC_RAISE(provctx, ZINC_R_DATA_LIMIT_EXCEEDED);
		return 0;
	}
	/* As for one record, the AAD counts in outl too. */
	memcpy(outl, inl, pipe->n * sizeof(*outl));
	return 1;
}

/* Wipes the failed records' plaintext where final's out shows where it is. */
static void wipe_failed(struct zinc_pipeline *pipe, unsigned char **out)
{
	size_t i;

	for (i = 0; i < pipe->n; i++) {
		const uint32_t bit = UINT32_C(1) << i;

		if ((pipe->failed & bit) != 0 && (pipe->scattered & bit) == 0 &&
		    pipe->run_start[i] != NULL && out != NULL && out[i] == pipe->run_end[i])
			OPENSSL_cleanse(pipe->run_start[i],
					(size_t)(pipe->run_end[i] - pipe->run_start[i]));
	}
}

static int decrypt_final(const struct zinc_provctx *provctx, struct zinc_pipeline *pipe,
			 unsigned char **out)
{
	const uint8_t *expected[CHACHA20_LANES_MAX];
	size_t i;

	if (!pipe->tags_set) {
		wipe_lanes(pipe);
		ZINC_RAISE(provctx, ZINC_R_TAG_NOT_SET);
		return 0;
	}
	for (i = 0; i < pipe->n; i++)
		expected[i] = pipe->tag[i];
	pipe->failed = chacha20poly1305_lanes_final_verify(&pipe->lanes.aead, expected,
							   pipe->tag_len);
	pipe->result_ready = true;
	if (pipe->failed == 0)
		return 1;
	wipe_failed(pipe, out);
	ZINC_RAISE(provctx, ZINC_R_TAG_MISMATCH);
	return 0;
}

/* Writes nothing: every record's output came at its updates. */
int zinc_pipeline_final(const struct zinc_provctx *provctx, struct zinc_pipeline *pipe,
			size_t numpipes, unsigned char **out, size_t *outl)
{
	if (!check_running(provctx, pipe, numpipes))
		return 0;
	if (outl == NULL) {
		ZINC_RAISE(provctx, ZINC_R_NULL_ARGUMENT);
		return 0;
	}
	memset(outl, 0, pipe->n * sizeof(*outl));
	pipe->state = PIPE_FINISHED;
	if (pipe->cipher == ZINC_PIPE_CHACHA20) {
		wipe_lanes(pipe);
		return 1;
	}
	if (!pipe->enc)
		return decrypt_final(provctx, pipe, out);
	chacha20poly1305_lanes_final(&pipe->lanes.aead, pipe->tag);
	pipe->tags_ready = true;
	return 1;
}

void zinc_pipeline_stop(struct zinc_pipeline *pipe)
{
	if (pipe != NULL)
		pipe_reset(pipe);
}

void zinc_pipeline_free(struct zinc_pipeline *pipe)
{
	OPENSSL_clear_free(pipe, sizeof(*pipe));
}

bool zinc_pipeline_dup(const struct zinc_pipeline *pipe, struct zinc_pipeline **dup)
{
	*dup = NULL;
	if (pipe == NULL)
		return true;
	*dup = OPENSSL_memdup(pipe, sizeof(*pipe));
	return *dup != NULL;
}

bool zinc_pipeline_is_param(const char *key)
{
	return zinc_core_at_least(3, 5) &&
	       (zinc_name_eq(key, OSSL_CIPHER_PARAM_PIPELINE_AEAD_TAG) ||
		zinc_name_eq(key, ZINC_CIPHER_PARAM_PIPELINE_FAILED));
}

/*
 * The array of numpipes tag buffers and their size that p points to;
 * bad_type is the reason if p is no octet pointer.
 */
static int tag_array(const struct zinc_provctx *provctx, const struct zinc_pipeline *pipe,
		     const OSSL_PARAM *p, int bad_type, unsigned char *const **tags,
		     size_t *tag_len)
{
	const void *array;
	size_t i;

	if (p->data == NULL || !OSSL_PARAM_get_octet_ptr(p, &array, tag_len)) {
		ZINC_RAISE(provctx, bad_type);
		return 0;
	}
	if (*tag_len == 0 || *tag_len > CHACHA20POLY1305_TAG_SIZE) {
		ZINC_RAISE(provctx, ZINC_R_INVALID_TAG_LENGTH);
		return 0;
	}
	*tags = array;
	if (*tags == NULL) {
		ZINC_RAISE(provctx, ZINC_R_NULL_ARGUMENT);
		return 0;
	}
	for (i = 0; i < pipe->n; i++) {
		if ((*tags)[i] == NULL) {
			ZINC_RAISE(provctx, ZINC_R_NULL_ARGUMENT);
			return 0;
		}
	}
	return 1;
}

int zinc_pipeline_get_param(const struct zinc_provctx *provctx,
			    const struct zinc_pipeline *pipe, OSSL_PARAM *p)
{
	unsigned char *const *tags;
	size_t i, tag_len;

	if (zinc_name_eq(p->key, ZINC_CIPHER_PARAM_PIPELINE_FAILED)) {
		if (pipe == NULL || !pipe->result_ready) {
			ZINC_RAISE(provctx, ZINC_R_RESULT_NOT_AVAILABLE);
			return 0;
		}
		if (!OSSL_PARAM_set_uint32(p, pipe->failed)) {
			ZINC_RAISE(provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
			return 0;
		}
		return 1;
	}
	/* The tags exist only after encryption's final, as for one record. */
	if (pipe == NULL || !pipe->enc || !pipe->tags_ready) {
		ZINC_RAISE(provctx, ZINC_R_TAG_NOT_AVAILABLE);
		return 0;
	}
	if (!tag_array(provctx, pipe, p, ZINC_R_FAILED_TO_GET_PARAMETER, &tags, &tag_len))
		return 0;
	for (i = 0; i < pipe->n; i++)
		memcpy(tags[i], pipe->tag[i], tag_len);
	return 1;
}

/*
 * Decryption's expected tags, 1..16 bytes each (a shorter one is compared
 * truncated, as for one record), copied: the buffers need not outlive
 * the call.
 */
int zinc_pipeline_set_tags(const struct zinc_provctx *provctx, struct zinc_pipeline *pipe,
			   const OSSL_PARAM *p)
{
	unsigned char *const *tags;
	size_t i, tag_len;

	if (pipe == NULL || pipe->state != PIPE_RUNNING) {
		ZINC_RAISE(provctx, ZINC_R_NOT_INITIALISED);
		return 0;
	}
	if (pipe->enc || pipe->cipher == ZINC_PIPE_CHACHA20) {
		ZINC_RAISE(provctx, ZINC_R_INVALID_MODE);
		return 0;
	}
	if (!tag_array(provctx, pipe, p, ZINC_R_FAILED_TO_SET_PARAMETER, &tags, &tag_len))
		return 0;
	for (i = 0; i < pipe->n; i++)
		memcpy(pipe->tag[i], tags[i], tag_len);
	pipe->tag_len = tag_len;
	pipe->tags_set = true;
	return 1;
}
