/* SPDX-License-Identifier: Apache-2.0 */
/* The provider context every algorithm's context points back to (zinc_prov.c). */
#ifndef ZINC_PROV_H
#define ZINC_PROV_H

#include <stddef.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>

struct zinc_provctx {
	const OSSL_CORE_HANDLE *handle;
	OSSL_LIB_CTX *libctx;	/* child of the loading context (RAND, core BIOs) */
	/* The core's system entropy, for a context without a random generator. */
	OSSL_FUNC_get_entropy_fn *get_entropy;
	OSSL_FUNC_cleanup_entropy_fn *cleanup_entropy;
};

/*
 * outlen secret bytes from the loading context's generator, else from the
 * core's entropy; 0 on failure, libcrypto's error queued (random.c).
 */
int zinc_random_bytes(const struct zinc_provctx *provctx, unsigned char *out, size_t outlen);

#endif
