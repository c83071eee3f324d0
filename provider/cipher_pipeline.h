/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL 3.5's cipher pipelines (EVP_CipherPipeline*) for ChaCha20,
 * ChaCha20-Poly1305 and XChaCha20-Poly1305 (cipher_pipeline.c): up to 32
 * records under one key in each call.  Each cipher's context holds a
 * struct zinc_pipeline, made at its first pipeline init; the cipher's
 * files hand the four pipeline functions and the pipeline parameters here.
 */
#ifndef ZINC_CIPHER_PIPELINE_H
#define ZINC_CIPHER_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <openssl/core.h>
#include "ossl_compat.h"

struct zinc_provctx;
struct zinc_pipeline;

enum zinc_pipeline_cipher {
	ZINC_PIPE_CHACHA20,
	ZINC_PIPE_CHACHA20_POLY1305,
	ZINC_PIPE_XCHACHA20_POLY1305
};

/*
 * A record's result after a decrypting pipeline's final: bit i set if
 * record i's tag did not verify.  zinc's own parameter (unsigned integer).
 */
#define ZINC_CIPHER_PARAM_PIPELINE_FAILED "zinc-pipeline-failed"

/* Makes *pipe at the first call; on failure *pipe is left unable to run. */
int zinc_pipeline_init(const struct zinc_provctx *provctx, struct zinc_pipeline **pipe,
		       enum zinc_pipeline_cipher cipher, bool enc, const unsigned char *key,
		       size_t keylen, size_t numpipes, const unsigned char **iv, size_t ivlen);
int zinc_pipeline_update(const struct zinc_provctx *provctx, struct zinc_pipeline *pipe,
			 size_t numpipes, unsigned char **out, size_t *outl,
			 const size_t *outsize, const unsigned char **in, const size_t *inl);
int zinc_pipeline_final(const struct zinc_provctx *provctx, struct zinc_pipeline *pipe,
			size_t numpipes, unsigned char **out, size_t *outl);
/* A single-record init on the same context: the pipeline, if any, is over. */
void zinc_pipeline_stop(struct zinc_pipeline *pipe);
void zinc_pipeline_free(struct zinc_pipeline *pipe);
/* True, with *dup NULL if pipe is, unless out of memory. */
bool zinc_pipeline_dup(const struct zinc_pipeline *pipe, struct zinc_pipeline **dup);

/*
 * The AEADs' pipeline parameters, on a 3.5+ core: "pipeline-tag" (get
 * after encryption's final, set before decryption's) and
 * ZINC_CIPHER_PARAM_PIPELINE_FAILED (get after decryption's final).
 */
bool zinc_pipeline_is_param(const char *key);
int zinc_pipeline_get_param(const struct zinc_provctx *provctx,
			    const struct zinc_pipeline *pipe, OSSL_PARAM *p);
int zinc_pipeline_set_tags(const struct zinc_provctx *provctx, struct zinc_pipeline *pipe,
			   const OSSL_PARAM *p);

#endif
