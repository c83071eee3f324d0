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

/*
 * The state for secret set number set, from a file's own base: the first
 * bytes skipped, so that neighbouring sets differ from their first byte.
 */
static inline uint64_t ct_seed(uint64_t base, unsigned set)
{
	uint64_t state = base ^ ((uint64_t)set * 0xd1b54a32d192ed03u + 1);
	uint8_t skip[8];

	ct_fill(&state, skip, sizeof(skip));
	return state;
}

#endif
