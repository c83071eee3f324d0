/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 derive: private key and peer bytes the input chooses (of any
 * length, given raw or as "priv" and "pub" parameters to fromdata, low-order
 * points and non-canonical encodings included).  zinc and the default
 * provider must accept and refuse the same keys and derivations, and agree
 * on the public key and the shared secret.
 */
#include <stdlib.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include "fuzz.h"

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

struct result {
	int verdict;
	uint8_t pub[32], secret[64];
	size_t publen, secretlen;
};

/* A key from bytes of any length: raw, or through fromdata's "pub" or "priv". */
static EVP_PKEY *key_from(OSSL_LIB_CTX *lib, int priv, const uint8_t *k, size_t len, int fromdata)
{
	OSSL_PARAM p[2] = { OSSL_PARAM_octet_string(priv ? OSSL_PKEY_PARAM_PRIV_KEY
							 : OSSL_PKEY_PARAM_PUB_KEY, (void *)k, len),
			    OSSL_PARAM_END };
	EVP_PKEY_CTX *pctx;
	EVP_PKEY *key = NULL;

	if (!fromdata)
		return priv ? EVP_PKEY_new_raw_private_key_ex(lib, "X25519", NULL, k, len)
			    : EVP_PKEY_new_raw_public_key_ex(lib, "X25519", NULL, k, len);
	pctx = EVP_PKEY_CTX_new_from_name(lib, "X25519", NULL);
	if (pctx == NULL || EVP_PKEY_fromdata_init(pctx) <= 0 ||
	    EVP_PKEY_fromdata(pctx, &key, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, p) <= 0)
		key = NULL;
	EVP_PKEY_CTX_free(pctx);
	return key;
}

static void run(OSSL_LIB_CTX *lib, const uint8_t *priv, size_t privlen, const uint8_t *peer,
		size_t len, int fromdata, struct result *r)
{
	EVP_PKEY *key = key_from(lib, 1, priv, privlen, fromdata & 1);
	EVP_PKEY *pkey = key_from(lib, 0, peer, len, fromdata & 2);
	EVP_PKEY_CTX *ctx = NULL;

	r->verdict = 0;
	r->publen = 0;
	if (key == NULL)
		goto done;
	r->verdict |= 8;
	r->publen = sizeof(r->pub);
	if (!EVP_PKEY_get_raw_public_key(key, r->pub, &r->publen))
		fz_fail("%s: no public key", lib == fz_zinc_ctx() ? "zinc" : "default");
	if (pkey == NULL)
		goto done;
	r->verdict |= 1;
	ctx = EVP_PKEY_CTX_new_from_pkey(lib, key, NULL);
	if (ctx == NULL || EVP_PKEY_derive_init(ctx) <= 0)
		fz_fail("X25519 derive init failed");
	if (EVP_PKEY_derive_set_peer(ctx, pkey) <= 0)
		goto done;
	r->verdict |= 2;
	r->secretlen = sizeof(r->secret);
	if (EVP_PKEY_derive(ctx, r->secret, &r->secretlen) <= 0)
		goto done;
	r->verdict |= 4;
done:
	ERR_clear_error();
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	EVP_PKEY_free(key);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	uint8_t flags = fz_u8(&in), priv[40], peer[40];
	size_t len = flags & 1 ? fz_u8(&in) % sizeof(peer) : 32;
	size_t privlen = flags & 4 ? fz_u8(&in) % sizeof(priv) : 32;
	static struct result z, d;

	fz_take(&in, priv, 32);
	fz_take(&in, peer, sizeof(peer));
	fz_take(&in, priv + 32, sizeof(priv) - 32);
	run(fz_zinc_ctx(), priv, privlen, peer, len, flags >> 3, &z);
	run(fz_default_ctx(), priv, privlen, peer, len, flags >> 3, &d);
	FZ_CHECK(z.verdict == d.verdict, "verdicts (8 private key, 1 peer key, 2 set_peer, "
		 "4 derive): zinc %#x, default %#x", z.verdict, d.verdict);
	fz_check_eq(z.pub, z.publen, d.pub, d.publen, "X25519 public key");
	if (z.verdict & 4)
		fz_check_eq(z.secret, z.secretlen, d.secret, d.secretlen, "X25519 shared secret");
	return 0;
}
