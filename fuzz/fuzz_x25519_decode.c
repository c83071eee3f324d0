/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zinc's X25519 decoders (built twice: FZ_INPUT "DER" and "PEM") on
 * arbitrary input, zinc alone in its library context against the default
 * provider alone.  The first byte chooses the selection and the structure
 * asked for.  No crash, and both directions agree:
 *
 *  - zinc decodes a key: default decodes the same bytes to the same key
 *    (public and private parts), and zinc's encoders write it out (as
 *    SubjectPublicKeyInfo, and as PrivateKeyInfo when it has the private
 *    key) byte for byte as default's write default's key;
 *  - default decodes a key: zinc, which takes DER only in its one DER
 *    encoding (decode_x25519.c), must take it too when the input begins
 *    with that encoding, which is what default's encoder writes for the
 *    key, and the first byte asks for what it is (or for anything).  BER
 *    that default alone reads is left to default, and so is a structure or
 *    selection that does not fit: default's chain passes an input through
 *    its generic SubjectPublicKeyInfo decoder whatever was asked, a
 *    decoder that zinc alone does not have.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include "fuzz.h"

#ifndef FZ_INPUT
#error "FZ_INPUT must be \"DER\" or \"PEM\""
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_zinc_ctx();
	fz_default_ctx();
	return 0;
}

static const int selections[] = {
	0, OSSL_KEYMGMT_SELECT_KEYPAIR, OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
	OSSL_KEYMGMT_SELECT_PRIVATE_KEY,
};

static const char *const structures[] = {
	NULL, "SubjectPublicKeyInfo", "PrivateKeyInfo", "type-specific",
};

static EVP_PKEY *decode(OSSL_LIB_CTX *lib, const uint8_t *der, size_t len, int how)
{
	OSSL_DECODER_CTX *dctx;
	EVP_PKEY *key = NULL;

	dctx = OSSL_DECODER_CTX_new_for_pkey(&key, FZ_INPUT, structures[(how >> 2) & 3], "X25519",
					     selections[how & 3], lib, NULL);
	if (dctx == NULL)
		fz_fail("no %s decoder for X25519", FZ_INPUT);
	if (!OSSL_DECODER_from_data(dctx, &der, &len)) {
		EVP_PKEY_free(key);
		key = NULL;
	}
	OSSL_DECODER_CTX_free(dctx);
	ERR_clear_error();
	return key;
}

/* The raw key part, or 0 bytes when the key has none. */
static size_t part(EVP_PKEY *key, const char *name, uint8_t buf[32])
{
	size_t len = 0;

	if (!EVP_PKEY_get_octet_string_param(key, name, buf, 32, &len))
		len = 0;
	ERR_clear_error();
	return len;
}

/*
 * key in the input's format as the structure its parts call for: whole
 * (PrivateKeyInfo) when it has the private key and private is set, else
 * its public key (SubjectPublicKeyInfo); *len 0 when there is no such
 * encoding.  The caller frees the result.
 */
static uint8_t *encode(EVP_PKEY *key, int private, size_t *len)
{
	uint8_t pub[32], *out = NULL;
	int whole = private && part(key, OSSL_PKEY_PARAM_PRIV_KEY, pub) > 0;
	OSSL_ENCODER_CTX *ectx;

	*len = 0;
	ectx = OSSL_ENCODER_CTX_new_for_pkey(key, whole ? OSSL_KEYMGMT_SELECT_KEYPAIR
						      : OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
					     FZ_INPUT, whole ? "PrivateKeyInfo" : "SubjectPublicKeyInfo",
					     NULL);
	if (ectx == NULL || !OSSL_ENCODER_to_data(ectx, &out, len)) {
		out = NULL;
		*len = 0;
	}
	OSSL_ENCODER_CTX_free(ectx);
	ERR_clear_error();
	return out;
}

/* Whether how asks for a PrivateKeyInfo (private) or a SubjectPublicKeyInfo, or for anything. */
static int asks_for(uint8_t how, int private)
{
	const char *structure = structures[(how >> 2) & 3];
	int selection = selections[how & 3];

	if (structure != NULL &&
	    strcmp(structure, private ? "PrivateKeyInfo" : "SubjectPublicKeyInfo") != 0)
		return 0;
	return selection == 0 || (private ? (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0
					  : selection == OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

static const char *structure_name(uint8_t how)
{
	return structures[(how >> 2) & 3] != NULL ? structures[(how >> 2) & 3] : "any";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	EVP_PKEY *z, *d;
	uint8_t zb[32], db[32], *ze, *de;
	size_t zl, dl;

	if (size == 0)
		return 0;
	z = decode(fz_zinc_ctx(), data + 1, size - 1, data[0]);
	d = decode(fz_default_ctx(), data + 1, size - 1, data[0]);
	if (z == NULL) {
		/* Default's encoding of its key, or what the input begins with instead. */
		de = d != NULL && asks_for(data[0], part(d, OSSL_PKEY_PARAM_PRIV_KEY, db) > 0)
			     ? encode(d, 1, &dl) : NULL;
		FZ_CHECK(de == NULL || dl > size - 1 || memcmp(de, data + 1, dl) != 0,
			 "default decodes an X25519 key that zinc refuses (%s, selection %#x, "
			 "structure %s), in the one encoding default writes for it", FZ_INPUT,
			 selections[data[0] & 3], structure_name(data[0]));
		OPENSSL_free(de);
		EVP_PKEY_free(d);
		return 0;
	}
	FZ_CHECK(d != NULL, "zinc decodes an X25519 key (%s, selection %#x, structure %s) that "
		 "default refuses", FZ_INPUT, selections[data[0] & 3], structure_name(data[0]));
	zl = part(z, OSSL_PKEY_PARAM_PUB_KEY, zb);
	dl = part(d, OSSL_PKEY_PARAM_PUB_KEY, db);
	FZ_CHECK(zl == 32, "zinc's decoded key has no public key");
	fz_check_eq(zb, zl, db, dl, "decoded public key");
	zl = part(z, OSSL_PKEY_PARAM_PRIV_KEY, zb);
	dl = part(d, OSSL_PKEY_PARAM_PRIV_KEY, db);
	fz_check_eq(zb, zl, db, dl, "decoded private key");
	/* Written out again, the public key alone, then the whole key. */
	for (int private = 0; private < 2; private++) {
		ze = encode(z, private, &zl);
		de = encode(d, private, &dl);
		FZ_CHECK(zl > 0 && dl > 0, "cannot encode the decoded key (zinc %zu bytes, default "
			 "%zu)", zl, dl);
		fz_check_eq(ze, zl, de, dl, private ? "the key encoded again" :
			    "the public key encoded again");
		OPENSSL_free(ze);
		OPENSSL_free(de);
	}
	EVP_PKEY_free(z);
	EVP_PKEY_free(d);
	return 0;
}
