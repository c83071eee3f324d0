/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deterministic test bytes for the constant-time tests, which link the
 * primitives only (no OpenSSL, no testutil): xorshift64* from *state.
 */
#ifndef ZINC_CT_FILL_H
#define ZINC_CT_FILL_H

#include <stddef.h>
#include <stdint.h>

static inline void ct_fill(uint64_t *state, void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		*state ^= *state >> 12;
		*state ^= *state << 25;
		*state ^= *state >> 27;
		p[i] = (uint8_t)((*state * 0x2545f4914f6cdd1du) >> 56);
	}
}

#endif
