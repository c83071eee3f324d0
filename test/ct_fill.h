/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deterministic test bytes for the constant-time tests, which link the
 * primitives only (no OpenSSL, no testutil): xorshift64* from *state; and
 * bytes as words for chacha20_jobs().
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

/*
 * n little-endian words (a key's or IV's, as chacha20_jobs() takes them),
 * with no branch or index on their values.
 */
static inline void ct_le32_words(uint32_t *words, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		words[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
			   (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
}

#endif
