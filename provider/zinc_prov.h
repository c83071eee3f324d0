/* SPDX-License-Identifier: Apache-2.0 */
/* What the provider's algorithm files share: the provider context and errors. */
#ifndef ZINC_PROV_H
#define ZINC_PROV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "ossl_compat.h"

#define ZINC_PROPERTIES "provider=zinc"

/*
 * The release of the libcrypto that loaded zinc, from the core's
 * "openssl-version" at load: zinc offers what that release's default
 * provider offers, whichever 3.x headers it was built with.
 */
#define ZINC_OSSL_VERSION(major, minor) ((unsigned int)(major) << 8 | (unsigned int)(minor))
extern atomic_uint zinc_core_version;
static inline bool zinc_core_at_least(unsigned int major, unsigned int minor)
{
	return atomic_load_explicit(&zinc_core_version, memory_order_relaxed) >=
	       ZINC_OSSL_VERSION(major, minor);
}

struct zinc_provctx {
	const OSSL_CORE_HANDLE *handle;
	OSSL_LIB_CTX *libctx;	/* child of the loading context (RAND, core BIOs) */
	/* The core's system entropy, for a context without a random generator. */
	OSSL_FUNC_get_entropy_fn *get_entropy;
	OSSL_FUNC_cleanup_entropy_fn *cleanup_entropy;
};

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
	ZINC_R_DHKEM_DERIVATION_FAILED
};

/*
 * outlen secret bytes from the loading context's generator, else from the
 * core's entropy (zinc_prov.c); 0 on failure, libcrypto's error queued.
 */
int zinc_random_bytes(const struct zinc_provctx *provctx, unsigned char *out, size_t outlen);

/* The reason table handed to the core (zinc_err.c). */
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

/* The four primitives and the implementation each chose (report.c). */
enum { ZINC_PRIMITIVES = 4 };
struct zinc_primitive {
	const char *name;
	const char *(*implementation)(void);
};
extern const struct zinc_primitive zinc_primitives[ZINC_PRIMITIVES];

/*
 * ZINC_REPORT (report.c): the first use in a process of each event below,
 * with the implementations that ran, goes to stderr or to a file.
 */
enum zinc_event {
	ZINC_EV_CHACHA20_ENCRYPT,
	ZINC_EV_CHACHA20_DECRYPT,
	ZINC_EV_CHACHA20_POLY1305_ENCRYPT,
	ZINC_EV_CHACHA20_POLY1305_DECRYPT,
	ZINC_EV_XCHACHA20_POLY1305_ENCRYPT,
	ZINC_EV_XCHACHA20_POLY1305_DECRYPT,
	ZINC_EV_POLY1305_MAC,
	ZINC_EV_BLAKE2SMAC_MAC,
	ZINC_EV_BLAKE2S256_DIGEST,
	ZINC_EV_X25519_KEYGEN,
	ZINC_EV_X25519_DERIVE,
	ZINC_EV_COUNT
};

/* Reads ZINC_REPORT, once per process; from OSSL_provider_init. */
void zinc_report_init(void);
/* Set only while ZINC_REPORT is on and the event has not been reported. */
extern atomic_bool zinc_report_pending[ZINC_EV_COUNT];
void zinc_report_first(enum zinc_event ev);

/*
 * Parameter name comparison for the per-record paths: inline, because a
 * call to strcmp costs more than comparing names of a few letters.
 */
static inline bool zinc_name_eq(const char *key, const char *name)
{
	while (*key != '\0' && *key == *name) {
		key++;
		name++;
	}
	return *key == *name;
}

/* OSSL_PARAM_locate for the per-message paths (a MAC's size at final, an IV length at init). */
static inline OSSL_PARAM *zinc_param_locate(OSSL_PARAM params[], const char *name)
{
	for (; params != NULL && params->key != NULL; params++)
		if (zinc_name_eq(params->key, name))
			return params;
	return NULL;
}

/* For an algorithm's init: one relaxed load unless there is a line to write. */
static inline void zinc_report(enum zinc_event ev)
{
	if (atomic_load_explicit(&zinc_report_pending[ev], memory_order_relaxed))
		zinc_report_first(ev);
}

/*
 * A GENERIC-SECRET opaque key (skeymgmt_generic.c), the keydata of an
 * EVP_SKEY that zinc made: never empty.
 */
struct zinc_skey {
	unsigned char *bytes;
	size_t len;
};

/* For an skey init: the bytes for the algorithm's init, NULL (no new key) for no skey. */
static inline const unsigned char *zinc_skey_bytes(const void *skeydata, size_t *len)
{
	const struct zinc_skey *skey = skeydata;

	*len = skey != NULL ? skey->len : 0;
	return skey != NULL ? skey->bytes : NULL;
}

/* Algorithm parameters shared by the ciphers (cipher_common.c). */
const OSSL_PARAM *zinc_cipher_gettable_params(void *provctx);
int zinc_cipher_get_params(OSSL_PARAM params[], size_t keylen, size_t ivlen, int aead);

/* Algorithm implementations, one file each. */
extern const OSSL_DISPATCH zinc_chacha20_functions[];
extern const OSSL_DISPATCH zinc_chacha20_poly1305_functions[];
extern const OSSL_DISPATCH zinc_xchacha20_poly1305_functions[];
extern const OSSL_DISPATCH zinc_poly1305_mac_functions[];
extern const OSSL_DISPATCH zinc_blake2s_mac_functions[];
extern const OSSL_DISPATCH zinc_blake2s256_functions[];
extern const OSSL_DISPATCH zinc_x25519_keymgmt_functions[];
extern const OSSL_DISPATCH zinc_x25519_keyexch_functions[];
extern const OSSL_DISPATCH zinc_generic_skeymgmt_functions[];
/* Encoders and decoders come as whole tables: one entry per output or input. */
extern const OSSL_ALGORITHM zinc_x25519_encoders[];
extern const OSSL_ALGORITHM zinc_x25519_decoders[];

/* OSSL_FUNC_PROVIDER_GET_CAPABILITIES: "TLS-GROUP" (capabilities.c). */
int zinc_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb, void *arg);

#endif
