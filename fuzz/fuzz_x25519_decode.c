/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zinc's X25519 decoders (built twice: FZ_INPUT "DER" and "PEM") on
 * arbitrary input, zinc alone in its library context against the default
 * provider alone.  No crash; when zinc decodes a key, default decodes the
 * same bytes to the same key (public and private parts); so when default
 * refuses, zinc refuses.  The first byte chooses the selection and the
 * structure asked for.
 */
#include <stdlib.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	EVP_PKEY *z, *d;
	uint8_t zb[32], db[32];
	size_t zl, dl;

	if (size == 0)
		return 0;
	z = decode(fz_zinc_ctx(), data + 1, size - 1, data[0]);
	if (z == NULL)
		return 0;
	d = decode(fz_default_ctx(), data + 1, size - 1, data[0]);
	FZ_CHECK(d != NULL, "zinc decodes an X25519 key (%s, selection %#x, structure %s) that "
		 "default refuses", FZ_INPUT, selections[data[0] & 3],
		 structures[(data[0] >> 2) & 3] != NULL ? structures[(data[0] >> 2) & 3] : "any");
	zl = part(z, OSSL_PKEY_PARAM_PUB_KEY, zb);
	dl = part(d, OSSL_PKEY_PARAM_PUB_KEY, db);
	FZ_CHECK(zl == 32, "zinc's decoded key has no public key");
	fz_check_eq(zb, zl, db, dl, "decoded public key");
	zl = part(z, OSSL_PKEY_PARAM_PRIV_KEY, zb);
	dl = part(d, OSSL_PKEY_PARAM_PRIV_KEY, db);
	fz_check_eq(zb, zl, db, dl, "decoded private key");
	EVP_PKEY_free(z);
	EVP_PKEY_free(d);
	return 0;
}
