/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Names and dispatch numbers of newer OpenSSL releases, for a zinc built
 * against older headers.  They are ABI: a zinc.so built against 3.0 offers
 * them when a newer 3.x loads it (zinc_core_at_least decides at run time).
 * Each is defined only where the installed headers lack it; the function
 * types as OSSL_CORE_MAKE_FUNC would make them, for the static
 * declarations of the dispatch functions.
 */
#ifndef ZINC_OSSL_COMPAT_H
#define ZINC_OSSL_COMPAT_H

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>

/* 3.2 */
#ifndef OSSL_PKEY_PARAM_DHKEM_IKM
#define OSSL_PKEY_PARAM_DHKEM_IKM "dhkem-ikm"
#endif
#ifndef OSSL_CAPABILITY_TLS_GROUP_IS_KEM
#define OSSL_CAPABILITY_TLS_GROUP_IS_KEM "tls-group-is-kem"
#endif

/* 3.5: opaque symmetric keys (EVP_SKEY) and their key managers. */
#ifndef OSSL_OP_SKEYMGMT
#define OSSL_OP_SKEYMGMT 15
#endif
#ifndef OSSL_SKEYMGMT_SELECT_SECRET_KEY
#define OSSL_SKEYMGMT_SELECT_PARAMETERS 0x01
#define OSSL_SKEYMGMT_SELECT_SECRET_KEY 0x02
#define OSSL_SKEYMGMT_SELECT_ALL \
	(OSSL_SKEYMGMT_SELECT_PARAMETERS | OSSL_SKEYMGMT_SELECT_SECRET_KEY)
#endif
#ifndef OSSL_SKEY_PARAM_RAW_BYTES
#define OSSL_SKEY_PARAM_RAW_BYTES "raw-bytes"
#endif
#ifndef OSSL_SKEY_PARAM_KEY_LENGTH
#define OSSL_SKEY_PARAM_KEY_LENGTH "key-length"
#endif
#ifndef OSSL_FUNC_SKEYMGMT_FREE
#define OSSL_FUNC_SKEYMGMT_FREE 1
#define OSSL_FUNC_SKEYMGMT_IMPORT 2
#define OSSL_FUNC_SKEYMGMT_EXPORT 3
#define OSSL_FUNC_SKEYMGMT_GENERATE 4
#define OSSL_FUNC_SKEYMGMT_GET_KEY_ID 5
#define OSSL_FUNC_SKEYMGMT_IMP_SETTABLE_PARAMS 6
#define OSSL_FUNC_SKEYMGMT_GEN_SETTABLE_PARAMS 7
typedef void(OSSL_FUNC_skeymgmt_free_fn)(void *keydata);
typedef const OSSL_PARAM *(OSSL_FUNC_skeymgmt_imp_settable_params_fn)(void *provctx);
typedef void *(OSSL_FUNC_skeymgmt_import_fn)(void *provctx, int selection,
					     const OSSL_PARAM params[]);
typedef int(OSSL_FUNC_skeymgmt_export_fn)(void *keydata, int selection,
					  OSSL_CALLBACK *param_cb, void *cbarg);
typedef const OSSL_PARAM *(OSSL_FUNC_skeymgmt_gen_settable_params_fn)(void *provctx);
typedef void *(OSSL_FUNC_skeymgmt_generate_fn)(void *provctx, const OSSL_PARAM params[]);
#endif
#ifndef OSSL_FUNC_CIPHER_ENCRYPT_SKEY_INIT
#define OSSL_FUNC_CIPHER_ENCRYPT_SKEY_INIT 19
#define OSSL_FUNC_CIPHER_DECRYPT_SKEY_INIT 20
typedef int(OSSL_FUNC_cipher_encrypt_skey_init_fn)(void *cctx, void *skeydata,
						   const unsigned char *iv, size_t ivlen,
						   const OSSL_PARAM params[]);
typedef int(OSSL_FUNC_cipher_decrypt_skey_init_fn)(void *cctx, void *skeydata,
						   const unsigned char *iv, size_t ivlen,
						   const OSSL_PARAM params[]);
#endif
#ifndef OSSL_FUNC_MAC_INIT_SKEY
#define OSSL_FUNC_MAC_INIT_SKEY 13
typedef int(OSSL_FUNC_mac_init_skey_fn)(void *mctx, void *key, const OSSL_PARAM params[]);
#endif

#ifndef OSSL_FUNC_CIPHER_PIPELINE_ENCRYPT_INIT
#define OSSL_FUNC_CIPHER_PIPELINE_ENCRYPT_INIT 15
#define OSSL_FUNC_CIPHER_PIPELINE_DECRYPT_INIT 16
#define OSSL_FUNC_CIPHER_PIPELINE_UPDATE 17
#define OSSL_FUNC_CIPHER_PIPELINE_FINAL 18
typedef int(OSSL_FUNC_cipher_pipeline_encrypt_init_fn)(void *cctx, const unsigned char *key,
							size_t keylen, size_t numpipes,
							const unsigned char **iv, size_t ivlen,
							const OSSL_PARAM params[]);
typedef int(OSSL_FUNC_cipher_pipeline_decrypt_init_fn)(void *cctx, const unsigned char *key,
							size_t keylen, size_t numpipes,
							const unsigned char **iv, size_t ivlen,
							const OSSL_PARAM params[]);
typedef int(OSSL_FUNC_cipher_pipeline_update_fn)(void *cctx, size_t numpipes,
						  unsigned char **out, size_t *outl,
						  const size_t *outsize, const unsigned char **in,
						  const size_t *inl);
typedef int(OSSL_FUNC_cipher_pipeline_final_fn)(void *cctx, size_t numpipes,
						 unsigned char **out, size_t *outl,
						 const size_t *outsize);
#endif
#ifndef OSSL_CIPHER_PARAM_PIPELINE_AEAD_TAG
#define OSSL_CIPHER_PARAM_PIPELINE_AEAD_TAG "pipeline-tag"
#endif

/* 3.6 */
#ifndef OSSL_CIPHER_PARAM_ENCRYPT_THEN_MAC
#define OSSL_CIPHER_PARAM_ENCRYPT_THEN_MAC "encrypt-then-mac"
#endif
#ifndef OSSL_PKEY_PARAM_SECURITY_CATEGORY
#define OSSL_PKEY_PARAM_SECURITY_CATEGORY "security-category"
#endif
#ifndef OSSL_ENCODER_PARAM_SAVE_PARAMETERS
#define OSSL_ENCODER_PARAM_SAVE_PARAMETERS "save-parameters"
#endif
#ifndef OSSL_PKEY_PARAM_OUTPUT_FORMATS
#define OSSL_PKEY_PARAM_OUTPUT_FORMATS "output_formats"
#endif

#endif
