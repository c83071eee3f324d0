/* SPDX-License-Identifier: Apache-2.0 */
/* X25519 (RFC 7748). */
#ifndef ZINC_CURVE25519_H
#define ZINC_CURVE25519_H

#include "zinc/zinc.h"

enum { CURVE25519_KEY_SIZE = 32 };

/*
 * shared = X25519(scalar, u): the scalar is clamped and the top bit of u
 * ignored, as RFC 7748 says.  Returns false if the result is all zeros (u of
 * small order); shared is written either way.
 */
bool curve25519(uint8_t shared[CURVE25519_KEY_SIZE], const uint8_t scalar[CURVE25519_KEY_SIZE],
		const uint8_t u[CURVE25519_KEY_SIZE]);

/* pub = X25519(secret, 9). */
void curve25519_generate_public(uint8_t pub[CURVE25519_KEY_SIZE],
				const uint8_t secret[CURVE25519_KEY_SIZE]);

/* Clamps a random 32-byte string into a private key, in place. */
void curve25519_clamp_secret(uint8_t secret[CURVE25519_KEY_SIZE]);

const char *curve25519_implementation(void);

#endif
