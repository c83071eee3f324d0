/* SPDX-License-Identifier: Apache-2.0 */
/* Algorithm parameters shared by the ciphers (cipher_common.c). */
#ifndef ZINC_CIPHER_COMMON_H
#define ZINC_CIPHER_COMMON_H

#include <stddef.h>
#include <openssl/core.h>

/* OSSL_FUNC_CIPHER_GETTABLE_PARAMS, with its type where a table takes it. */
const OSSL_PARAM *zinc_cipher_gettable_params(void *provctx);
int zinc_cipher_get_params(OSSL_PARAM params[], size_t keylen, size_t ivlen, int aead);

#endif
