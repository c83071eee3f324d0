/* SPDX-License-Identifier: Apache-2.0 */
/* zinc's error reasons and how the provider raises them (zinc_err.c). */
#ifndef ZINC_ERR_H
#define ZINC_ERR_H

#include <openssl/core.h>
#include <openssl/crypto.h>

struct zinc_provctx;

/*
 * Reason codes: each has its string in zinc_err.c, which the core shows
 * under the library name "zinc".  Append new ones; never renumber.
 */
enum zinc_reason {
	ZINC_R_INVALID_KEY_LENGTH = 1,
	ZINC_R_INVALID_IV_LENGTH,
	ZINC_R_INVALID_TAG_LENGTH,
	ZINC_R_TAG_MISMATCH,
	ZINC_R_TAG_NOT_SET,
	ZINC_R_TAG_NOT_AVAILABLE,
	ZINC_R_NO_KEY_SET,
	ZINC_R_NO_IV_SET,
	ZINC_R_AAD_AFTER_DATA,
	ZINC_R_UPDATE_AFTER_FINAL,
	ZINC_R_DATA_LIMIT_EXCEEDED,
	ZINC_R_OUTPUT_BUFFER_TOO_SMALL,
	ZINC_R_INVALID_INPUT_LENGTH,
	ZINC_R_INVALID_TLS_AAD,
	ZINC_R_INVALID_OUTPUT_SIZE,
	ZINC_R_INVALID_SALT_LENGTH,
	ZINC_R_INVALID_CUSTOM_LENGTH,
	ZINC_R_FAILED_TO_GET_PARAMETER,
	ZINC_R_FAILED_TO_SET_PARAMETER,
	ZINC_R_NOT_INITIALISED,
	ZINC_R_OUT_OF_MEMORY,
	ZINC_R_NULL_ARGUMENT,
	ZINC_R_INVALID_MODE,
	ZINC_R_SMALL_ORDER_PEER_KEY,
	ZINC_R_INVALID_GROUP,
	ZINC_R_SELF_TEST_FAILED,
	ZINC_R_WRONG_OPENSSL_MAJOR,
	ZINC_R_DHKEM_HKDF_UNAVAILABLE,
	ZINC_R_DHKEM_DERIVATION_FAILED,
	ZINC_R_INVALID_PIPE_COUNT,
	ZINC_R_RESULT_NOT_AVAILABLE
};

/* The reason table handed to the core. */
extern const OSSL_ITEM zinc_reason_strings[];

/* Takes the core's error functions from its dispatch table. */
void zinc_err_init(const OSSL_DISPATCH *in);
void zinc_raise(const struct zinc_provctx *provctx, int reason,
		const char *file, int line, const char *func);
#define ZINC_RAISE(provctx, reason) \
	zinc_raise((provctx), (reason), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC)
/*
 * With text after the reason: for OSSL_provider_init's refusal, as the core
 * takes zinc's reason strings only from a provider that loaded.
 */
void zinc_raise_data(const struct zinc_provctx *provctx, int reason,
		     const char *file, int line, const char *func, const char *data);
#define ZINC_RAISE_DATA(provctx, reason, data) \
	zinc_raise_data((provctx), (reason), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, (data))

#endif
