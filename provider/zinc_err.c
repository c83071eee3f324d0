/* SPDX-License-Identifier: Apache-2.0 */
/* zinc's error reasons, raised through the core so they carry zinc's name. */
#include <stdarg.h>
#include <stdint.h>
#include <openssl/core_dispatch.h>
#include "zinc_err.h"
#include "zinc_prov.h"

const OSSL_ITEM zinc_reason_strings[] = {
	{ ZINC_R_INVALID_KEY_LENGTH, "invalid key length" },
	{ ZINC_R_INVALID_IV_LENGTH, "invalid iv length" },
	{ ZINC_R_INVALID_TAG_LENGTH, "invalid tag length" },
	{ ZINC_R_TAG_MISMATCH, "tag mismatch: the message is not authentic" },
	{ ZINC_R_TAG_NOT_SET, "no tag was set before decryption's final" },
	{ ZINC_R_TAG_NOT_AVAILABLE, "the tag is available only after encryption's final" },
	{ ZINC_R_NO_KEY_SET, "no key set" },
	{ ZINC_R_NO_IV_SET, "no iv set" },
	{ ZINC_R_AAD_AFTER_DATA, "additional data must come before the message" },
	{ ZINC_R_UPDATE_AFTER_FINAL, "update or final after final" },
	{ ZINC_R_DATA_LIMIT_EXCEEDED, "too much data for one nonce" },
	{ ZINC_R_OUTPUT_BUFFER_TOO_SMALL, "output buffer too small" },
	{ ZINC_R_INVALID_INPUT_LENGTH, "invalid input length" },
	{ ZINC_R_INVALID_TLS_AAD, "invalid TLS additional data" },
	{ ZINC_R_INVALID_OUTPUT_SIZE, "invalid output size" },
	{ ZINC_R_INVALID_SALT_LENGTH, "invalid salt length" },
	{ ZINC_R_INVALID_CUSTOM_LENGTH, "invalid custom (personalisation) length" },
	{ ZINC_R_FAILED_TO_GET_PARAMETER, "failed to get parameter" },
	{ ZINC_R_FAILED_TO_SET_PARAMETER, "failed to set parameter" },
	{ ZINC_R_NOT_INITIALISED, "operation not initialised" },
	{ ZINC_R_OUT_OF_MEMORY, "out of memory" },
	{ ZINC_R_NULL_ARGUMENT, "null argument" },
	{ ZINC_R_INVALID_MODE, "operation not supported in this mode" },
	{ ZINC_R_SMALL_ORDER_PEER_KEY, "peer key of small order: the shared secret is all zeros" },
	{ ZINC_R_INVALID_GROUP, "invalid group name" },
	{ ZINC_R_SELF_TEST_FAILED,
	  "known-answer self-test failed even for the portable C: zinc refuses to load" },
	{ ZINC_R_WRONG_OPENSSL_MAJOR,
	  "zinc was built for another major version of OpenSSL: it refuses to load" },
	{ ZINC_R_DHKEM_HKDF_UNAVAILABLE, "cannot fetch HKDF-SHA256 for dhkem-ikm" },
	{ ZINC_R_DHKEM_DERIVATION_FAILED, "HKDF-SHA256 failed to derive the key from dhkem-ikm" },
	{ ZINC_R_INVALID_PIPE_COUNT,
	  "a pipeline has 1 to 32 records, the same number in every call" },
	{ ZINC_R_RESULT_NOT_AVAILABLE,
	  "the records' results are available only after a decrypting pipeline's final" },
	{ 0, NULL }
};

static OSSL_FUNC_core_new_error_fn *core_new_error;
static OSSL_FUNC_core_set_error_debug_fn *core_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *core_vset_error;

void zinc_err_init(const OSSL_DISPATCH *in)
{
	for (; in->function_id != 0; in++) {
		switch (in->function_id) {
		case OSSL_FUNC_CORE_NEW_ERROR:
			core_new_error = OSSL_FUNC_core_new_error(in);
			break;
		case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
			core_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
			break;
		case OSSL_FUNC_CORE_VSET_ERROR:
			core_vset_error = OSSL_FUNC_core_vset_error(in);
			break;
		default:
			break;
		}
	}
}

/* vset_error takes a va_list: wrap it so that a reason needs no format. */
static void set_error(const OSSL_CORE_HANDLE *handle, int reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	core_vset_error(handle, (uint32_t)reason, fmt, ap);
	va_end(ap);
}

void zinc_raise(const struct zinc_provctx *provctx, int reason,
		const char *file, int line, const char *func)
{
	zinc_raise_data(provctx, reason, file, line, func, NULL);
}

void zinc_raise_data(const struct zinc_provctx *provctx, int reason,
		     const char *file, int line, const char *func, const char *data)
{
	if (provctx == NULL || core_new_error == NULL || core_set_error_debug == NULL ||
	    core_vset_error == NULL)
		return;
	core_new_error(provctx->handle);
	core_set_error_debug(provctx->handle, file, line, func);
	if (data != NULL)
		set_error(provctx->handle, reason, "%s", data);
	else
		set_error(provctx->handle, reason, NULL);
}
