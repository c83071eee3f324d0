/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ZINC_REPORT (report.c): the first use in a process of each event below,
 * with the implementations that ran, goes to stderr or to a file.
 */
#ifndef ZINC_REPORT_H
#define ZINC_REPORT_H

#include <stdatomic.h>
#include <stdbool.h>

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

/* For an algorithm's init: one relaxed load unless there is a line to write. */
static inline void zinc_report(enum zinc_event ev)
{
	if (atomic_load_explicit(&zinc_report_pending[ev], memory_order_relaxed))
		zinc_report_first(ev);
}

#endif
