/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation of the MAC and digest contexts (ctx_common.h). */
#include <openssl/crypto.h>
#include "ctx_common.h"
#include "zinc_err.h"
#include "zinc_prov.h"

void *zinc_ctx_new(struct zinc_provctx *provctx, size_t size)
{
	struct zinc_ctx_head *head = OPENSSL_zalloc(size);

	if (head == NULL) {
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		return NULL;
	}
	head->provctx = provctx;
	head->phase = ZINC_PHASE_IDLE;
	return head;
}

void zinc_ctx_free(void *ctx, size_t size)
{
	OPENSSL_clear_free(ctx, size);
}

void *zinc_ctx_dup(const void *src, size_t size)
{
	const struct zinc_ctx_head *head = src;
	void *dst = OPENSSL_memdup(src, size);

	if (dst == NULL)
		ZINC_RAISE(head->provctx, ZINC_R_OUT_OF_MEMORY);
	return dst;
}
