/* SPDX-License-Identifier: Apache-2.0 */
/*
 * blake2s-mac: BLAKE2s from zinc through OpenSSL's EVP interface, as a
 * keyed MAC (EVP_MAC "BLAKE2SMAC") and as a digest (EVP_MD "BLAKE2S-256"),
 * each checked against a published answer, then a MAC tag made and
 * verified the way a program would.
 *
 * zinc is loaded into a library context of this program's own, and every
 * fetch asks for "provider=zinc".  The directory zinc.so is loaded from is
 * $ZINC_MODULE_DIR if set, else OpenSSL's module directory.
 *
 *   cc blake2s-mac.c -o blake2s-mac $(pkg-config --cflags --libs libcrypto)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *zinc_prov;

static void print_hex(const char *label, const unsigned char *p, size_t len)
{
	printf("  %-14s", label);
	for (size_t i = 0; i < len; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* Only zinc: nothing here needs random numbers. */
static int load_zinc(void)
{
	const char *dir = getenv("ZINC_MODULE_DIR");

	libctx = OSSL_LIB_CTX_new();
	if (libctx == NULL)
		return 0;
	if (dir != NULL && !OSSL_PROVIDER_set_default_search_path(libctx, dir))
		return 0;
	zinc_prov = OSSL_PROVIDER_load(libctx, "zinc");
	if (zinc_prov == NULL) {
		fprintf(stderr, "cannot load zinc (is ZINC_MODULE_DIR right?)\n");
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

/*
 * BLAKE2s keyed with key (1 to 32 bytes), a tag of size bytes (1 to 32).
 * Other parameters: "salt" and "custom" (personalisation), up to 8 bytes.
 */
static int blake2s_mac(const unsigned char *key, size_t keylen, size_t size,
		       const unsigned char *msg, size_t len, unsigned char *tag)
{
	EVP_MAC *mac = EVP_MAC_fetch(libctx, "BLAKE2SMAC", "provider=zinc");
	EVP_MAC_CTX *ctx = NULL;
	OSSL_PARAM params[] = {
		OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, &size),
		OSSL_PARAM_END
	};
	size_t outl;
	int ok = 0;

	if (mac != NULL && from_zinc(EVP_MAC_get0_provider(mac), "BLAKE2SMAC") &&
	    (ctx = EVP_MAC_CTX_new(mac)) != NULL &&
	    EVP_MAC_init(ctx, key, keylen, params) &&
	    EVP_MAC_update(ctx, msg, len) &&
	    EVP_MAC_final(ctx, tag, &outl, size) && outl == size)
		ok = 1;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok;
}

static int blake2s_256(const unsigned char *msg, size_t len, unsigned char hash[32])
{
	EVP_MD *md = EVP_MD_fetch(libctx, "BLAKE2S-256", "provider=zinc");
	unsigned int outl = 0;
	int ok = md != NULL && from_zinc(EVP_MD_get0_provider(md), "BLAKE2S-256") &&
		 EVP_Digest(msg, len, hash, &outl, md, NULL) && outl == 32;

	EVP_MD_free(md);
	return ok;
}

/* Published answers: RFC 7693 appendix B, and BLAKE2's blake2s-kat.txt. */
static int known_answers(void)
{
	static const unsigned char abc_hash[32] = {
		0x50, 0x8c, 0x5e, 0x8c, 0x32, 0x7c, 0x14, 0xe2, 0xe1, 0xa7, 0x2b, 0xa3,
		0x4e, 0xeb, 0x45, 0x2f, 0x37, 0x45, 0x8b, 0x20, 0x9e, 0xd6, 0x3a, 0x29,
		0x4d, 0x99, 0x9b, 0x4c, 0x86, 0x67, 0x59, 0x82
	};
	static const unsigned char kat_msg[3] = { 0x00, 0x01, 0x02 };
	static const unsigned char kat_tag[32] = {
		0x1d, 0x22, 0x0d, 0xbe, 0x2e, 0xe1, 0x34, 0x66, 0x1f, 0xdf, 0x6d, 0x9e,
		0x74, 0xb4, 0x17, 0x04, 0x71, 0x05, 0x56, 0xf2, 0xf6, 0xe5, 0xa0, 0x91,
		0xb2, 0x27, 0x69, 0x74, 0x45, 0xdb, 0xea, 0x6b
	};
	unsigned char key[32], out[32];

	if (!blake2s_256((const unsigned char *)"abc", 3, out))
		return 0;
	printf("BLAKE2S-256(\"abc\") from zinc\n");
	print_hex("digest:", out, sizeof(out));
	if (memcmp(out, abc_hash, sizeof(out)) != 0) {
		fprintf(stderr, "BLAKE2S-256 differs from RFC 7693\n");
		return 0;
	}
	printf("  matches RFC 7693\n");

	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (unsigned char)i;
	if (!blake2s_mac(key, sizeof(key), 32, kat_msg, sizeof(kat_msg), out))
		return 0;
	printf("BLAKE2SMAC, key 00 01 .. 1f, message 00 01 02, from zinc\n");
	print_hex("tag:", out, sizeof(out));
	if (memcmp(out, kat_tag, sizeof(out)) != 0) {
		fprintf(stderr, "BLAKE2SMAC differs from blake2s-kat.txt\n");
		return 0;
	}
	printf("  matches BLAKE2's keyed known answer\n");
	return 1;
}

/* A 16-byte tag for a message, then its verification by the receiver. */
static int tag_and_verify(void)
{
	/* In practice 32 random bytes, shared beforehand. */
	static const unsigned char key[] = "shared secret key, 32 bytes long";
	static const unsigned char msg[] = "transfer 100 coins to Bob";
	unsigned char tag[16], expect[16];

	if (!blake2s_mac(key, sizeof(key) - 1, sizeof(tag), msg, sizeof(msg) - 1, tag))
		return 0;
	printf("BLAKE2SMAC with a 16-byte tag\n");
	printf("  %-14s%s\n", "message:", (const char *)msg);
	print_hex("tag:", tag, sizeof(tag));

	/* The receiver recomputes and compares in constant time. */
	if (!blake2s_mac(key, sizeof(key) - 1, sizeof(expect), msg, sizeof(msg) - 1, expect))
		return 0;
	if (CRYPTO_memcmp(tag, expect, sizeof(tag)) != 0) {
		fprintf(stderr, "the tag does not verify\n");
		return 0;
	}
	printf("  verified\n");
	return 1;
}

int main(void)
{
	int ok = load_zinc() && known_answers() && tag_and_verify();

	if (!ok)
		ERR_print_errors_fp(stderr);
	if (zinc_prov != NULL)
		OSSL_PROVIDER_unload(zinc_prov);
	OSSL_LIB_CTX_free(libctx);
	return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
