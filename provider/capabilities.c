/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Provider capabilities: "TLS-GROUP" for x25519, with the values OpenSSL's
 * default provider reports, so that libssl offers the group from zinc when
 * zinc's X25519 key manager is the one its property query fetches.
 */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>
#include "algorithms.h"
#include "core_version.h"
#include "ossl_compat.h"

static int x25519_group(OSSL_CALLBACK *cb, void *arg)
{
	unsigned int group_id = 29;	/* RFC 8446's x25519 (0x001D) */
	unsigned int secbits = 128;
	int min_tls = TLS1_VERSION, max_tls = 0;	/* 0: no upper bound */
	int min_dtls = DTLS1_VERSION, max_dtls = 0;
	int is_kem = 0;
	OSSL_PARAM params[] = {
		OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME, (char *)"x25519", 0),
		OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL, (char *)"X25519", 0),
		OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG, (char *)"X25519", 0),
		OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_ID, &group_id),
		OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS, &secbits),
		OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, &min_tls),
		OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, &max_tls),
		OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, &min_dtls),
		OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, &max_dtls),
		OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_IS_KEM, &is_kem),
		OSSL_PARAM_END
	};

	/* Default's string sizes count the terminating NUL: so do these. */
	params[0].data_size = sizeof("x25519");
	params[1].data_size = sizeof("X25519");
	params[2].data_size = sizeof("X25519");
	/* Default reports is-kem (0 here: X25519 is a key exchange) from 3.5, with ML-KEM. */
	if (!zinc_core_at_least(3, 5))
		params[9] = (OSSL_PARAM)OSSL_PARAM_END;
	return cb(params, arg);
}

/* As default: an unknown capability is not supported, so 0. */
int zinc_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb, void *arg)
{
	(void)provctx;
	if (OPENSSL_strcasecmp(capability, "TLS-GROUP") == 0)
		return x25519_group(cb, arg);
	return 0;
}
