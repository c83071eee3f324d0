/* SPDX-License-Identifier: Apache-2.0 */
/* An X25519 key as zinc's key manager, exchange, encoders and decoders share it. */
#ifndef ZINC_X25519_KEY_H
#define ZINC_X25519_KEY_H

#include <stdbool.h>
#include <stdint.h>
#include "zinc_prov.h"
#include "zinc/curve25519.h"

/*
 * As OpenSSL's default provider keeps it: priv holds the private key's 32
 * bytes as given (clamping happens inside X25519; generated keys are stored
 * clamped), and a key with a private part always has its public part.
 */
struct zinc_x25519_key {
	struct zinc_provctx *provctx;
	uint8_t pub[CURVE25519_KEY_SIZE];
	uint8_t priv[CURVE25519_KEY_SIZE];
	bool has_pub;
	bool has_priv;
};

/* keymgmt_x25519.c: allocation and wiping, for the decoders too. */
struct zinc_x25519_key *zinc_x25519_key_new(struct zinc_provctx *provctx);
void zinc_x25519_key_free(struct zinc_x25519_key *key);

/*
 * OSSL_FUNC_KEYMGMT_LOAD's reference, as a decoder passes it in
 * OSSL_OBJECT_PARAM_REFERENCE: the bytes of this struct, which the core
 * hands to load in place.  load takes the key and sets ref.key to NULL, so
 * the decoder frees ref.key afterwards in every case.
 */
struct zinc_x25519_key_ref {
	struct zinc_x25519_key *key;
};

/*
 * encode_x25519.c: the DER of RFC 8410's SubjectPublicKeyInfo and (v1)
 * PrivateKeyInfo, fixed but for the 32 key bytes that follow these
 * prefixes.  The decoders accept these encodings (and version v2 without
 * the optional public key) and nothing else.
 */
enum {
	ZINC_X25519_SPKI_PREFIX_LEN = 12,
	ZINC_X25519_PKCS8_PREFIX_LEN = 16
};
extern const uint8_t zinc_x25519_spki_prefix[ZINC_X25519_SPKI_PREFIX_LEN];
extern const uint8_t zinc_x25519_pkcs8_prefix[ZINC_X25519_PKCS8_PREFIX_LEN];

#endif
