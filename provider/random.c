/* SPDX-License-Identifier: Apache-2.0 */
/* Secret bytes for key generation (zinc_prov.h). */
#include "config.h"
#include <string.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include "zinc_prov.h"

/*
 * Secret bytes from the loading context's generator.  A context holding
 * zinc alone has none (no provider there offers a DRBG): then they come
 * from the core's system entropy, the source DRBGs seed from.
 */
int zinc_random_bytes(const struct zinc_provctx *provctx, unsigned char *out, size_t outlen)
{
	unsigned char *buf = NULL;
	size_t len;

	ERR_set_mark();
	if (RAND_priv_bytes_ex(provctx->libctx, out, outlen, 0) > 0) {
		ERR_pop_to_mark();
		return 1;
	}
	if (provctx->get_entropy == NULL || provctx->cleanup_entropy == NULL) {
		ERR_clear_last_mark();
		return 0;
	}
	len = provctx->get_entropy(provctx->handle, &buf, 8 * (int)outlen, outlen, outlen);
	if (len != outlen || buf == NULL) {
		if (buf != NULL)
			provctx->cleanup_entropy(provctx->handle, buf, len);
		ERR_clear_last_mark();
		return 0;
	}
	ERR_pop_to_mark();
	memcpy(out, buf, outlen);
	provctx->cleanup_entropy(provctx->handle, buf, len);
	return 1;
}
