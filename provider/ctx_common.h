/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the MAC and digest contexts share (ctx_common.c): each begins with a
 * struct zinc_ctx_head, so that one new, free and dup serve them all, and
 * one check guards their update and final.
 */
#ifndef ZINC_CTX_COMMON_H
#define ZINC_CTX_COMMON_H

#include <stddef.h>
#include <openssl/crypto.h>
#include "zinc_err.h"
#include "zinc_prov.h"

enum zinc_phase {
	ZINC_PHASE_IDLE,	/* no key loaded, or never initialised */
	ZINC_PHASE_FRESH,	/* POLY1305: key loaded, nothing absorbed with it */
	ZINC_PHASE_ABSORBING,
	ZINC_PHASE_DONE		/* final ran: the state is wiped */
};

struct zinc_ctx_head {
	struct zinc_provctx *provctx;
	enum zinc_phase phase;
};

/* A zeroed context of size bytes in ZINC_PHASE_IDLE; NULL (error raised) without memory. */
void *zinc_ctx_new(struct zinc_provctx *provctx, size_t size);
/* Wipes and frees a context of size bytes; NULL does nothing. */
void zinc_ctx_free(void *ctx, size_t size);
/* A copy of a context of size bytes; NULL (error raised) without memory. */
void *zinc_ctx_dup(const void *src, size_t size);

/*
 * Whether update or final may run: not before the first init (or key),
 * which fails with idle_reason, nor after final.  Inline for the per-message
 * paths; the error names the caller.
 */
#define ZINC_CTX_READY(head, idle_reason) \
	zinc_ctx_ready((head), (idle_reason), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC)

static inline int zinc_ctx_ready(const struct zinc_ctx_head *head, int idle_reason,
				 const char *file, int line, const char *func)
{
	switch (head->phase) {
	case ZINC_PHASE_IDLE:
		zinc_raise(head->provctx, idle_reason, file, line, func);
		return 0;
	case ZINC_PHASE_DONE:
		zinc_raise(head->provctx, ZINC_R_UPDATE_AFTER_FINAL, file, line, func);
		return 0;
	default:
		return 1;
	}
}

#endif
