/* SPDX-License-Identifier: Apache-2.0 */
/* The algorithm parameters every zinc cipher reports, as the default provider does. */
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "cipher_common.h"
#include "core_version.h"
#include "ossl_compat.h"

static const OSSL_PARAM cipher_gettable_params_list[] = {
	OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
	OSSL_PARAM_END
};

/* 3.6 added encrypt-then-mac to every cipher: 0 for these. */
static const OSSL_PARAM cipher_gettable_params_list_3_6[] = {
	OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_ENCRYPT_THEN_MAC, NULL),
	OSSL_PARAM_END
};

const OSSL_PARAM *zinc_cipher_gettable_params(void *provctx)
{
	(void)provctx;
	return zinc_core_at_least(3, 6) ? cipher_gettable_params_list_3_6
					: cipher_gettable_params_list;
}

/*
 * A stream cipher (mode 0, block size 1) with a custom IV.  No provider
 * context reaches here, so a wrong type can only fail.
 */
int zinc_cipher_get_params(OSSL_PARAM params[], size_t keylen, size_t ivlen, int aead)
{
	OSSL_PARAM *p;

	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE);
	if (p != NULL && !OSSL_PARAM_set_uint(p, 0))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, keylen))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, ivlen))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, 1))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD);
	if (p != NULL && !OSSL_PARAM_set_int(p, aead))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV);
	if (p != NULL && !OSSL_PARAM_set_int(p, 1))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CTS);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_ENCRYPT_THEN_MAC);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	return 1;
}
