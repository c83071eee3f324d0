/* SPDX-License-Identifier: Apache-2.0 */
/* The release of the libcrypto that loads zinc (core_version.h). */
#include "config.h"
#include <stdio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>
#include "core_version.h"
#include "ossl_compat.h"
#include "zinc_err.h"
#include "zinc_prov.h"

atomic_uint zinc_core_version;

/*
 * Reads the release of the libcrypto that loads zinc.  A zinc linked to
 * another major version (libcrypto.so.3 against .so.4) would run on a second
 * libcrypto beside the core's: it refuses, saying why, before it calls any
 * libcrypto function of its own.
 */
int zinc_core_version_check(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in)
{
	OSSL_FUNC_core_get_params_fn *core_get_params = NULL;
	struct zinc_provctx failing = { .handle = handle };
	const char *version = NULL;
	char text[256];
	unsigned int major = 0, minor = 0;
	OSSL_PARAM params[] = {
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_CORE_VERSION, (char **)&version, 0),
		OSSL_PARAM_END
	};

	for (; in->function_id != 0; in++)
		if (in->function_id == OSSL_FUNC_CORE_GET_PARAMS)
			core_get_params = OSSL_FUNC_core_get_params(in);
	if (core_get_params != NULL && core_get_params(handle, params) && version != NULL &&
	    sscanf(version, "%u.%u", &major, &minor) == 2 && major == OPENSSL_VERSION_MAJOR) {
		atomic_store_explicit(&zinc_core_version, ZINC_OSSL_VERSION(major, minor),
				      memory_order_relaxed);
		return 1;
	}
	snprintf(text, sizeof(text),
		 "zinc: built for OpenSSL %d (libcrypto.so.%d), loaded by OpenSSL %s: "
		 "build zinc against the OpenSSL that loads it",
		 OPENSSL_VERSION_MAJOR, OPENSSL_VERSION_MAJOR,
		 version != NULL ? version : "of unknown version");
	ZINC_RAISE_DATA(&failing, ZINC_R_WRONG_OPENSSL_MAJOR, text);
	return 0;
}
