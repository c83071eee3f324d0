/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x25519-agree: an X25519 key agreement between two parties, Alice and
 * Bob, with zinc through OpenSSL's EVP interface.
 *
 * Each generates a key pair and sends the other its 32-byte public key as
 * raw bytes; each combines its private key with the other's public key,
 * and both arrive at the same 32-byte shared secret.  (Feed that secret to
 * a KDF such as HKDF before using it as a key.)
 *
 * zinc is loaded into a library context of this program's own, beside the
 * default provider (which supplies the random generator), and every fetch
 * asks for "provider=zinc".  The directory zinc.so is loaded from is
 * $ZINC_MODULE_DIR if set, else OpenSSL's module directory.
 *
 *   cc x25519-agree.c -o x25519-agree $(pkg-config --cflags --libs libcrypto)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#define X25519_LEN 32

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *default_prov, *zinc_prov;

static void print_hex(const char *label, const unsigned char *p, size_t len)
{
	printf("  %-24s", label);
	for (size_t i = 0; i < len; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* Loads default (for random numbers), then zinc, into libctx. */
static int load_providers(void)
{
	const char *dir = getenv("ZINC_MODULE_DIR");

	libctx = OSSL_LIB_CTX_new();
	if (libctx == NULL)
		return 0;
	if (dir != NULL && !OSSL_PROVIDER_set_default_search_path(libctx, dir))
		return 0;
	default_prov = OSSL_PROVIDER_load(libctx, "default");
	zinc_prov = OSSL_PROVIDER_load(libctx, "zinc");
	if (default_prov == NULL || zinc_prov == NULL) {
		fprintf(stderr, "cannot load the providers (is ZINC_MODULE_DIR right?)\n");
		return 0;
	}
	return 1;
}

static int from_zinc(const OSSL_PROVIDER *prov, const char *what)
{
	if (prov != NULL && strcmp(OSSL_PROVIDER_get0_name(prov), "zinc") == 0)
		return 1;
	fprintf(stderr, "%s was not served by zinc\n", what);
	return 0;
}

/* A new key pair, and its public key as the 32 bytes sent to the peer. */
static EVP_PKEY *generate(const char *who, unsigned char pub[X25519_LEN])
{
	EVP_PKEY *key = EVP_PKEY_Q_keygen(libctx, "provider=zinc", "X25519");
	size_t len = X25519_LEN;

	if (key == NULL || !from_zinc(EVP_PKEY_get0_provider(key), "key generation") ||
	    !EVP_PKEY_get_raw_public_key(key, pub, &len) || len != X25519_LEN) {
		fprintf(stderr, "%s: key generation failed\n", who);
		EVP_PKEY_free(key);
		return NULL;
	}
	printf("%s generates a key pair with %s\n", who,
	       OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(key)));
	print_hex("public key (sent):", pub, X25519_LEN);
	return key;
}

/* own private key + the peer's 32 public bytes -> the 32-byte shared secret */
static int derive(const char *who, EVP_PKEY *own, const unsigned char peer_pub[X25519_LEN],
		  unsigned char secret[X25519_LEN])
{
	EVP_PKEY *peer = EVP_PKEY_new_raw_public_key_ex(libctx, "X25519", "provider=zinc",
							peer_pub, X25519_LEN);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, own, "provider=zinc");
	size_t len = X25519_LEN;
	int ok = 0;

	/* derive fails for a low-order peer key, whose secret would be all zero. */
	if (peer != NULL && ctx != NULL &&
	    EVP_PKEY_derive_init(ctx) > 0 &&
	    from_zinc(EVP_PKEY_CTX_get0_provider(ctx), "the key exchange") &&
	    EVP_PKEY_derive_set_peer(ctx, peer) > 0 &&
	    EVP_PKEY_derive(ctx, secret, &len) > 0 && len == X25519_LEN)
		ok = 1;
	else
		fprintf(stderr, "%s: derivation failed\n", who);
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(peer);
	return ok;
}

static int agree(void)
{
	unsigned char alice_pub[X25519_LEN], bob_pub[X25519_LEN];
	unsigned char alice_secret[X25519_LEN], bob_secret[X25519_LEN];
	EVP_PKEY *alice = generate("Alice", alice_pub);
	EVP_PKEY *bob = generate("Bob", bob_pub);
	int ok = 0;

	if (alice == NULL || bob == NULL)
		goto out;
	/* Each side has only its own key pair and the other's public bytes. */
	if (!derive("Alice", alice, bob_pub, alice_secret) ||
	    !derive("Bob", bob, alice_pub, bob_secret))
		goto out;
	/* Printed here to show that they agree; never print a real one. */
	print_hex("Alice's shared secret:", alice_secret, X25519_LEN);
	print_hex("Bob's shared secret:", bob_secret, X25519_LEN);
	if (CRYPTO_memcmp(alice_secret, bob_secret, X25519_LEN) != 0) {
		fprintf(stderr, "the shared secrets differ\n");
		goto out;
	}
	printf("Alice and Bob share the same secret\n");
	ok = 1;
out:
	OPENSSL_cleanse(alice_secret, sizeof(alice_secret));
	OPENSSL_cleanse(bob_secret, sizeof(bob_secret));
	EVP_PKEY_free(alice);
	EVP_PKEY_free(bob);
	return ok;
}

int main(void)
{
	int ok = load_providers() && agree();

	if (!ok)
		ERR_print_errors_fp(stderr);
	if (zinc_prov != NULL)
		OSSL_PROVIDER_unload(zinc_prov);
	if (default_prov != NULL)
		OSSL_PROVIDER_unload(default_prov);
	OSSL_LIB_CTX_free(libctx);
	return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
