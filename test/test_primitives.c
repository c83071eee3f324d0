/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The primitives through include/zinc directly, without the provider.
 *
 * Known answers typed from the published documents are each also checked
 * against OpenSSL's default provider (a mistyped vector shows up as such);
 * then the shared vector suites, streaming against one-shot for every
 * length 0..300, the 64-bit block counter, Poly1305 edge cases, AEAD
 * misuse, the data limit and wiping.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "zinc/blake2s.h"
#include "zinc/chacha20.h"
#include "zinc/chacha20poly1305.h"
#include "zinc/poly1305.h"
#include "testutil.h"

#define MAXBUF 1024

static void die(const char *what)
{
	printf("Bail out! %s\n", what);
	exit(99);
}

static bool all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t acc = 0;
	size_t i;

	for (i = 0; i < len; i++)
		acc |= b[i];
	return acc == 0;
}

/* A chunk length for a random split: often tiny (0 included), sometimes large. */
static size_t chunk(size_t left)
{
	switch (zt_rand_below(4)) {
	case 0:
		return zt_rand_below(left < 2 ? left + 1 : 2);
	case 1:
		return zt_rand_below((left < 17 ? left : 16) + 1);
	case 2:
		return zt_rand_below((left < 129 ? left : 128) + 1);
	default:
		return zt_rand_below(left + 1);
	}
}

/* --- OpenSSL's default provider, the oracle ------------------------------ */

static void ossl_chacha20(uint8_t *out, const uint8_t *in, size_t len,
			  const uint8_t key[32], const uint8_t iv[16])
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(zt_default_ctx(), "ChaCha20", NULL);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n;

	if (c == NULL || ctx == NULL || !EVP_EncryptInit_ex2(ctx, c, key, iv, NULL) ||
	    (len > 0 && !EVP_EncryptUpdate(ctx, out, &n, in, (int)len)))
		die("OpenSSL ChaCha20 failed");
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}

/* ChaCha20-Poly1305 encryption: out = ciphertext || tag. */
static void ossl_aead(uint8_t *out, const uint8_t *in, size_t len, const uint8_t *ad,
		      size_t ad_len, const uint8_t nonce[12], const uint8_t key[32])
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(zt_default_ctx(), "ChaCha20-Poly1305", NULL);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n;

	if (c == NULL || ctx == NULL || !EVP_EncryptInit_ex2(ctx, c, key, nonce, NULL) ||
	    (ad_len > 0 && !EVP_EncryptUpdate(ctx, NULL, &n, ad, (int)ad_len)) ||
	    (len > 0 && !EVP_EncryptUpdate(ctx, out, &n, in, (int)len)) ||
	    !EVP_EncryptFinal_ex(ctx, out + len, &n) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out + len))
		die("OpenSSL ChaCha20-Poly1305 failed");
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}

/*
 * HChaCha20 from OpenSSL's ChaCha20: a block is the permuted state plus the
 * input state, so subtracting the input from words 0..3 and 12..15 of the
 * keystream of IV = nonce (counter || 12 bytes) leaves HChaCha20's output.
 */
static void ossl_hchacha20(uint8_t out[32], const uint8_t nonce[16], const uint8_t key[32])
{
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	uint8_t zero[64] = { 0 }, block[64];
	size_t i;

	ossl_chacha20(block, zero, 64, key, nonce);
	for (i = 0; i < 4; i++) {
		uint32_t w0 = (uint32_t)block[4 * i] | (uint32_t)block[4 * i + 1] << 8 |
			      (uint32_t)block[4 * i + 2] << 16 | (uint32_t)block[4 * i + 3] << 24;
		uint32_t w12 = (uint32_t)block[48 + 4 * i] | (uint32_t)block[49 + 4 * i] << 8 |
			       (uint32_t)block[50 + 4 * i] << 16 | (uint32_t)block[51 + 4 * i] << 24;
		uint32_t n = (uint32_t)nonce[4 * i] | (uint32_t)nonce[4 * i + 1] << 8 |
			     (uint32_t)nonce[4 * i + 2] << 16 | (uint32_t)nonce[4 * i + 3] << 24;
		uint32_t a = w0 - sigma[i], b = w12 - n;
		int j;

		for (j = 0; j < 4; j++) {
			out[4 * i + j] = (uint8_t)(a >> (8 * j));
			out[16 + 4 * i + j] = (uint8_t)(b >> (8 * j));
		}
	}
}

static void ossl_xaead(uint8_t *out, const uint8_t *in, size_t len, const uint8_t *ad,
		       size_t ad_len, const uint8_t nonce[24], const uint8_t key[32])
{
	uint8_t subkey[32], inner[12] = { 0 };

	ossl_hchacha20(subkey, nonce, key);
	memcpy(inner + 4, nonce + 16, 8);
	ossl_aead(out, in, len, ad, ad_len, inner, subkey);
}

/* POLY1305 (outlen 16) or BLAKE2SMAC (size outlen, optional salt and personalisation). */
static void ossl_mac(const char *name, uint8_t *out, size_t outlen, const uint8_t *in,
		     size_t len, const uint8_t *key, size_t keylen, const uint8_t *salt,
		     const uint8_t *personal)
{
	EVP_MAC *mac = EVP_MAC_fetch(zt_default_ctx(), name, NULL);
	EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[4], *p = params;
	size_t got = 0;

	if (strcmp(name, "BLAKE2SMAC") == 0) {
		*p++ = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &outlen);
		if (salt != NULL)
			*p++ = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT,
								 (void *)salt, 8);
		if (personal != NULL)
			*p++ = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM,
								 (void *)personal, 8);
	}
	*p = OSSL_PARAM_construct_end();
	if (ctx == NULL || !EVP_MAC_init(ctx, key, keylen, params) ||
	    (len > 0 && !EVP_MAC_update(ctx, in, len)) ||
	    !EVP_MAC_final(ctx, out, &got, outlen) || got != outlen)
		die("OpenSSL MAC failed");
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
}

static void ossl_blake2s256(uint8_t out[32], const uint8_t *in, size_t len)
{
	EVP_MD *md = EVP_MD_fetch(zt_default_ctx(), "BLAKE2S-256", NULL);
	static const uint8_t empty[1];

	if (md == NULL || !EVP_Digest(len ? in : empty, len, out, NULL, md, NULL))
		die("OpenSSL BLAKE2S-256 failed");
	EVP_MD_free(md);
}

/* --- published texts -------------------------------------------------------- */

static const char sunscreen[] =
	"Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
	"for the future, sunscreen would be it.";
static const char ietf[] =
	"Any submission to the IETF intended by the Contributor for publication as all "
	"or part of an IETF Internet-Draft or RFC and any statement made within the "
	"context of an IETF activity is considered an \"IETF Contribution\". Such "
	"statements include oral statements in IETF sessions, as well as written and "
	"electronic communications made at any time or place, which are addressed to";
static const char jabberwocky[] =
	"'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\n"
	"All mimsy were the borogoves,\nAnd the mome raths outgrabe.";
static const char drafts[] =
	"Internet-Drafts are draft documents valid for a maximum of six months and may "
	"be updated, replaced, or obsoleted by other documents at any time. It is "
	"inappropriate to use Internet-Drafts as reference material or to cite them "
	"other than as /\xe2\x80\x9cwork in progress./\xe2\x80\x9d";

#define KEY_00_1F "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define KEY_80_9F "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
#define KEY_ZERO "0000000000000000000000000000000000000000000000000000000000000000"
#define KEY_ONE "0000000000000000000000000000000000000000000000000000000000000001"
#define KEY_1C92 "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"

/* Text if given, else hex if given, else len zeros. */
static size_t input(uint8_t *out, size_t max, const char *text, const char *hex, size_t len)
{
	if (text != NULL) {
		len = strlen(text);
		if (len > max)
			die("a text is longer than its buffer");
		memcpy(out, text, len);
		return len;
	}
	if (hex != NULL)
		return zt_unhex_into(out, max, hex);
	memset(out, 0, len);
	return len;
}

/* --- ChaCha20 ---------------------------------------------------------------- */

struct chacha_kat {
	const char *name, *key, *iv;	/* iv: 32-bit LE counter || nonce */
	const char *text;		/* plaintext, or NULL for zeros */
	const char *ct;
};

static const struct chacha_kat chacha_kats[] = {
	{ "RFC 8439 2.3.2 (block function)", KEY_00_1F,
	  "01000000" "000000090000004a00000000", NULL,
	  "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
	  "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e" },
	{ "RFC 8439 2.4.2 (encryption)", KEY_00_1F,
	  "01000000" "000000000000004a00000000", sunscreen,
	  "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
	  "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
	  "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
	  "5af90bbf74a35be6b40b8eedf2785e42874d" },
	{ "RFC 8439 A.1 #1", KEY_ZERO, "00000000" "000000000000000000000000", NULL,
	  "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
	  "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586" },
	{ "RFC 8439 A.1 #2", KEY_ZERO, "01000000" "000000000000000000000000", NULL,
	  "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
	  "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f" },
	{ "RFC 8439 A.1 #3", KEY_ONE, "01000000" "000000000000000000000000", NULL,
	  "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
	  "8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0" },
	{ "RFC 8439 A.1 #4",
	  "00ff000000000000000000000000000000000000000000000000000000000000",
	  "02000000" "000000000000000000000000", NULL,
	  "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca"
	  "13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096" },
	{ "RFC 8439 A.1 #5", KEY_ZERO, "00000000" "000000000000000000000002", NULL,
	  "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7"
	  "8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d" },
	{ "RFC 8439 A.2 #1", KEY_ZERO, "00000000" "000000000000000000000000", NULL,
	  "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
	  "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586" },
	{ "RFC 8439 A.2 #2", KEY_ONE, "01000000" "000000000000000000000002", ietf,
	  "a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec"
	  "2a97948bd3722915c8f3d337f7d370050e9e96d647b7c39f56e031ca5eb6250d"
	  "4042e02785ececfa4b4bb5e8ead0440e20b6e8db09d881a7c6132f420e527950"
	  "42bdfa7773d8a9051447b3291ce1411c680465552aa6c405b7764d5e87bea85a"
	  "d00f8449ed8f72d0d662ab052691ca66424bc86d2df80ea41f43abf937d3259d"
	  "c4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b"
	  "0871cdac638939e25e8a1e0ef9d5280fa8ca328b351c3c765989cbcf3daa8b6c"
	  "cc3aaf9f3979c92b3720fc88dc95ed84a1be059c6499b9fda236e7e818b04b0b"
	  "c39c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80ef2554d7189c411f"
	  "5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5bce0911934fda79a86f6e6"
	  "98ced759c3ff9b6477338f3da4f9cd8514ea9982ccafb341b2384dd902f3d1ab"
	  "7ac61dd29c6f21ba5b862f3730e37cfdc4fd806c22f221" },
	{ "RFC 8439 A.2 #3", KEY_1C92, "2a000000" "000000000000000000000002", jabberwocky,
	  "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf"
	  "166d3df2d721caf9b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553eb"
	  "f39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f77"
	  "04c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1" },
	/* Poly1305 key generation: the first 32 bytes of block 0. */
	{ "RFC 8439 2.6.2 (Poly1305 key generation)", KEY_80_9F,
	  "00000000" "000000000001020304050607", NULL,
	  "8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646" },
	{ "RFC 8439 A.4 #1", KEY_ZERO, "00000000" "000000000000000000000000", NULL,
	  "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7" },
	{ "RFC 8439 A.4 #2", KEY_ONE, "00000000" "000000000000000000000002", NULL,
	  "ecfa254f845f647473d3cb140da9e87606cb33066c447b87bc2666dde3fbb739" },
	{ "RFC 8439 A.4 #3", KEY_1C92, "00000000" "000000000000000000000002", NULL,
	  "965e3bc6f9ec7ed9560808f4d229f94b137ff275ca9b3fcbdd59deaad23310ae" },
};

static void test_chacha20_kats(void)
{
	uint8_t key[32], iv[16], pt[MAXBUF], ct[MAXBUF], got[MAXBUF];
	struct chacha20_ctx ctx;
	size_t i, j;

	for (i = 0; i < sizeof(chacha_kats) / sizeof(chacha_kats[0]); i++) {
		const struct chacha_kat *v = &chacha_kats[i];
		size_t len;

		zt_unhex_exact(key, 32, v->key);
		zt_unhex_exact(iv, 16, v->iv);
		len = zt_unhex_into(ct, sizeof(ct), v->ct);
		if (input(pt, sizeof(pt), v->text, NULL, len) != len)
			die("plaintext and ciphertext lengths differ");

		ossl_chacha20(got, pt, len, key, iv);
		zt_mem_eq(got, len, ct, len, "ChaCha20 %s: the typed vector agrees with OpenSSL",
			  v->name);
		chacha20_init(&ctx, key, iv);
		chacha20_crypt(&ctx, got, pt, len);
		zt_mem_eq(got, len, ct, len, "ChaCha20 %s", v->name);
		memcpy(got, pt, len);
		chacha20_init(&ctx, key, iv);
		for (j = 0; j < len; j++)
			chacha20_crypt(&ctx, got + j, got + j, 1);
		zt_mem_eq(got, len, ct, len, "ChaCha20 %s, in place, a byte at a time", v->name);
	}
}

/*
 * The block counter is words 12 and 13 as one 64-bit number (OpenSSL's
 * behaviour): started at 0xffffffff with nonce words (5, 6, 7), block 1 is
 * block 0 of counter 0 with (6, 6, 7), block 2 is its block 1.
 */
static void test_chacha20_counter_carry(void)
{
	static const uint8_t iv_a[16] = { 0xff, 0xff, 0xff, 0xff, 5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0 };
	static const uint8_t iv_b[16] = { 0, 0, 0, 0, 6, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0 };
	uint8_t key[32], zero[640] = { 0 }, a[640], b[640], ref[640], iv[16];
	struct chacha20_ctx ctx;
	size_t i;

	zt_rand(key, sizeof(key));
	chacha20_init(&ctx, key, iv_a);
	chacha20_crypt(&ctx, a, zero, 192);	/* blocks 0..2 */
	chacha20_init(&ctx, key, iv_b);
	chacha20_crypt(&ctx, b, zero, 128);
	zt_mem_eq(a + 64, 64, b, 64, "ChaCha20 counter carry: block 1 from 0xffffffff/(5,6,7) "
		  "is block 0 from 0/(6,6,7)");
	zt_mem_eq(a + 128, 64, b + 64, 64, "ChaCha20 counter carry: block 2 is block 1 of "
		  "counter 0, nonce (6,6,7)");
	ossl_chacha20(ref, zero, 192, key, iv_a);
	zt_mem_eq(a, 192, ref, 192, "ChaCha20 counter carry agrees with OpenSSL");

	/* Many blocks in one call across the boundary, and odd pieces across it. */
	memcpy(iv, iv_a, 16);
	iv[0] = 0xfb;
	ossl_chacha20(ref, zero, sizeof(zero), key, iv);
	chacha20_init(&ctx, key, iv);
	chacha20_crypt(&ctx, a, zero, sizeof(zero));
	zt_mem_eq(a, sizeof(a), ref, sizeof(ref), "ChaCha20: 10 blocks in one call across "
		  "the 2^32 boundary of word 12");
	chacha20_init(&ctx, key, iv);
	for (i = 0; i < sizeof(zero); i += 7)
		chacha20_crypt(&ctx, a + i, zero + i, sizeof(zero) - i < 7 ? sizeof(zero) - i : 7);
	zt_mem_eq(a, sizeof(a), ref, sizeof(ref), "ChaCha20: 7-byte pieces across the boundary");
}

static void test_chacha20_set_iv(void)
{
	uint8_t key[32], iv[16], zero[100] = { 0 }, a[100], b[100];
	struct chacha20_ctx ctx;

	zt_rand(key, sizeof(key));
	zt_rand(iv, sizeof(iv));
	chacha20_init(&ctx, key, iv);
	chacha20_crypt(&ctx, a, zero, 100);
	chacha20_init(&ctx, key, iv);
	chacha20_crypt(&ctx, b, zero, 10);
	chacha20_set_iv(&ctx, iv);
	chacha20_crypt(&ctx, b, zero, 100);
	zt_mem_eq(b, 100, a, 100, "ChaCha20: set_iv discards buffered keystream and restarts");
	chacha20_set_key(&ctx, key);
	chacha20_set_iv(&ctx, iv);
	chacha20_crypt(&ctx, b, zero, 100);
	zt_mem_eq(b, 100, a, 100, "ChaCha20: set_key then set_iv equals init");
}

/* --- HChaCha20 --------------------------------------------------------------- */

struct counts {
	unsigned int total, bad, skipped;
};

static void hchacha_json_one(const struct zt_json *v, struct counts *c)
{
	size_t kl, nl, ol;
	uint8_t *key = zt_json_hex(v, "key", &kl);
	uint8_t *nonce = zt_json_hex(v, "input", &nl);
	uint8_t *want = zt_json_hex(v, "output", &ol);
	uint8_t got[32];

	if (key == NULL || nonce == NULL || want == NULL || kl != 32 || nl != 16 || ol != 32)
		die("malformed hchacha20_tv.json entry");
	/* libsodium's variant with its own constant is not HChaCha20. */
	if (zt_json_get(v, "constant") != NULL) {
		c->skipped++;
		goto out;
	}
	hchacha20(got, nonce, key);
	c->total++;
	if (memcmp(got, want, 32) != 0) {
		if (c->bad++ == 0)
			zt_mem_eq(got, 32, want, 32, "first HChaCha20 mismatch");
	}
out:
	free(key);
	free(nonce);
	free(want);
}

static void test_hchacha20(void)
{
	uint8_t key[32], nonce[16], got[32], want[32], ref[32];
	struct counts c = { 0, 0, 0 };
	const struct zt_json *vectors, *v;
	struct zt_json *json;
	char *path;
	int i, bad = 0;

	/* draft-irtf-cfrg-xchacha 2.2.1 */
	zt_unhex_exact(key, 32, KEY_00_1F);
	zt_unhex_exact(nonce, 16, "000000090000004a0000000031415927");
	zt_unhex_exact(want, 32, "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
	ossl_hchacha20(ref, nonce, key);
	zt_mem_eq(ref, 32, want, 32, "HChaCha20 draft-irtf-cfrg-xchacha 2.2.1: the typed "
		  "vector agrees with OpenSSL's ChaCha20");
	hchacha20(got, nonce, key);
	zt_mem_eq(got, 32, want, 32, "HChaCha20 draft-irtf-cfrg-xchacha 2.2.1");

	for (i = 0; i < 200; i++) {
		zt_rand(key, sizeof(key));
		zt_rand(nonce, sizeof(nonce));
		hchacha20(got, nonce, key);
		ossl_hchacha20(ref, nonce, key);
		bad += memcmp(got, ref, 32) != 0;
	}
	zt_ok(bad == 0, "HChaCha20 equals OpenSSL-derived HChaCha20 for 200 random inputs "
	      "(%d differ)", bad);

	path = zt_vector_path("libsodium/hchacha20_tv.json");
	if (path == NULL)
		return;
	json = zt_json_load(path);
	vectors = zt_json_get(json, "vectors");
	if (json == NULL || vectors == NULL || vectors->type != ZT_JSON_ARRAY)
		die("cannot read hchacha20_tv.json");
	for (v = vectors->child; v != NULL; v = v->next)
		hchacha_json_one(v, &c);
	if ((v = zt_json_get(json, "custom_constant_vector")) != NULL)
		hchacha_json_one(v, &c);
	zt_ok(c.total > 0 && c.bad == 0, "HChaCha20: libsodium hchacha20_tv.json, %u of %u "
	      "agree (%u with a custom constant not applicable)", c.total - c.bad, c.total,
	      c.skipped);
	zt_json_free(json);
	free(path);
}

/* --- Poly1305 ---------------------------------------------------------------- */

struct poly_kat {
	const char *name, *key;
	const char *text, *hex;	/* the message: text, hex, or NULL for len zeros */
	size_t zeros;
	const char *tag;
};

#define FF16 "ffffffffffffffffffffffffffffffff"
#define Z16 "00000000000000000000000000000000"

static const struct poly_kat poly_kats[] = {
	{ "RFC 8439 2.5.2",
	  "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
	  "Cryptographic Forum Research Group", NULL, 0, "a8061dc1305136c6c22b8baf0c0127a9" },
	{ "RFC 8439 A.3 #1", Z16 Z16, NULL, NULL, 64, Z16 },
	{ "RFC 8439 A.3 #2", Z16 "36e5f6b5c5e06070f0efca96227a863e", ietf, NULL, 0,
	  "36e5f6b5c5e06070f0efca96227a863e" },
	{ "RFC 8439 A.3 #3", "36e5f6b5c5e06070f0efca96227a863e" Z16, ietf, NULL, 0,
	  "f3477e7cd95417af89a6b8794c310cf0" },
	{ "RFC 8439 A.3 #4", KEY_1C92, jabberwocky, NULL, 0,
	  "4541669a7eaaee61e708dc7cbcc5eb62" },
	{ "RFC 8439 A.3 #5", "02000000000000000000000000000000" Z16, NULL, FF16, 0,
	  "03000000000000000000000000000000" },
	{ "RFC 8439 A.3 #6", "02000000000000000000000000000000" FF16, NULL,
	  "02000000000000000000000000000000", 0, "03000000000000000000000000000000" },
	{ "RFC 8439 A.3 #7", "01000000000000000000000000000000" Z16, NULL,
	  FF16 "f0ffffffffffffffffffffffffffffff" "11000000000000000000000000000000", 0,
	  "05000000000000000000000000000000" },
	{ "RFC 8439 A.3 #8", "01000000000000000000000000000000" Z16, NULL,
	  FF16 "fbfefefefefefefefefefefefefefefe" "01010101010101010101010101010101", 0, Z16 },
	{ "RFC 8439 A.3 #9", "02000000000000000000000000000000" Z16, NULL,
	  "fdffffffffffffffffffffffffffffff", 0, "faffffffffffffffffffffffffffffff" },
	{ "RFC 8439 A.3 #10", "01000000000000000400000000000000" Z16, NULL,
	  "e33594d7505e43b90000000000000000" "3394d7505e4379cd0100000000000000"
	  "00000000000000000000000000000000" "01000000000000000000000000000000", 0,
	  "14000000000000005500000000000000" },
	{ "RFC 8439 A.3 #11", "01000000000000000400000000000000" Z16, NULL,
	  "e33594d7505e43b90000000000000000" "3394d7505e4379cd0100000000000000"
	  "00000000000000000000000000000000", 0, "13000000000000000000000000000000" },
	/*
	 * The accumulator exactly at p = 2^130 - 5 (r = 1, s = 0):
	 * (2^128 - 1 + 2^128) + (2^128 - 4 + 2^128) = p, so the tag is 0;
	 * one less gives p - 1 (tag 2^128 - 6), one more p + 1 (tag 1).
	 */
	{ "h = p exactly", "01000000000000000000000000000000" Z16, NULL,
	  FF16 "fcffffffffffffffffffffffffffffff", 0, Z16 },
	{ "h = p - 1", "01000000000000000000000000000000" Z16, NULL,
	  FF16 "fbffffffffffffffffffffffffffffff", 0, "faffffffffffffffffffffffffffffff" },
	{ "h = p + 1", "01000000000000000000000000000000" Z16, NULL,
	  FF16 "fdffffffffffffffffffffffffffffff", 0, "01000000000000000000000000000000" },
	{ "h = p exactly, s all ones", "01000000000000000000000000000000" FF16, NULL,
	  FF16 "fcffffffffffffffffffffffffffffff", 0, FF16 },
};

static void test_poly1305_kats(void)
{
	uint8_t key[32], msg[MAXBUF], tag[16], got[16];
	struct poly1305_ctx ctx;
	size_t i, j;

	for (i = 0; i < sizeof(poly_kats) / sizeof(poly_kats[0]); i++) {
		const struct poly_kat *v = &poly_kats[i];
		size_t len;

		zt_unhex_exact(key, 32, v->key);
		zt_unhex_exact(tag, 16, v->tag);
		len = input(msg, sizeof(msg), v->text, v->hex, v->zeros);

		ossl_mac("POLY1305", got, 16, msg, len, key, 32, NULL, NULL);
		zt_mem_eq(got, 16, tag, 16, "Poly1305 %s: the vector agrees with OpenSSL", v->name);
		poly1305(got, msg, len, key);
		zt_mem_eq(got, 16, tag, 16, "Poly1305 %s", v->name);
		poly1305_init(&ctx, key);
		for (j = 0; j < len; j++)
			poly1305_update(&ctx, msg + j, 1);
		poly1305_final(&ctx, got);
		zt_mem_eq(got, 16, tag, 16, "Poly1305 %s, a byte at a time", v->name);
	}
}

/* Edge cases without a published answer: OpenSSL is the oracle. */
static void test_poly1305_edges(void)
{
	/* r with every bit the clamp allows, then all-ones keys and messages. */
	static const char *const keys[] = {
		"ffffff0ffcffff0ffcffff0ffcffff0f" FF16,
		"ffffff0ffcffff0ffcffff0ffcffff0f" Z16,
		FF16 FF16,
		FF16 Z16,
	};
	static const size_t lens[] = { 0, 1, 15, 16, 17, 32, 63, 64, 65, 256, 1000 };
	uint8_t key[32], msg[MAXBUF], got[16], ref[16], mac[16];
	struct poly1305_ctx total;
	size_t i, j;
	int bad = 0;

	memset(msg, 0xff, sizeof(msg));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		zt_unhex_exact(key, 32, keys[i]);
		for (j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			poly1305(got, msg, lens[j], key);
			ossl_mac("POLY1305", ref, 16, msg, lens[j], key, 32, NULL, NULL);
			bad += memcmp(got, ref, 16) != 0;
		}
	}
	zt_ok(bad == 0, "Poly1305: maximal r and all-ones keys over all-ones messages agree "
	      "with OpenSSL (%d differ)", bad);

	/* A MAC of MACs: message i has i bytes of i, under a key of i, i+1, ... */
	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)(i + 1);
	poly1305_init(&total, key);
	bad = 0;
	for (i = 0; i < 256; i++) {
		for (j = 0; j < 32; j++)
			key[j] = (uint8_t)(i + j);
		memset(msg, (int)i, i);
		poly1305(mac, msg, i, key);
		ossl_mac("POLY1305", ref, 16, msg, i, key, 32, NULL, NULL);
		bad += memcmp(mac, ref, 16) != 0;
		poly1305_update(&total, mac, 16);
	}
	poly1305_final(&total, got);
	zt_ok(bad == 0, "Poly1305: 256 MACs of i bytes of i agree with OpenSSL (%d differ)", bad);
	{
		EVP_MAC *m = EVP_MAC_fetch(zt_default_ctx(), "POLY1305", NULL);
		EVP_MAC_CTX *c = m ? EVP_MAC_CTX_new(m) : NULL;
		size_t outl = 0;

		for (i = 0; i < 32; i++)
			key[i] = (uint8_t)(i + 1);
		if (c == NULL || !EVP_MAC_init(c, key, 32, NULL))
			die("OpenSSL POLY1305 failed");
		for (i = 0; i < 256; i++) {
			for (j = 0; j < 32; j++)
				key[j] = (uint8_t)(i + j);
			memset(msg, (int)i, i);
			ossl_mac("POLY1305", mac, 16, msg, i, key, 32, NULL, NULL);
			EVP_MAC_update(c, mac, 16);
		}
		if (!EVP_MAC_final(c, ref, &outl, 16))
			die("OpenSSL POLY1305 failed");
		EVP_MAC_CTX_free(c);
		EVP_MAC_free(m);
	}
	zt_mem_eq(got, 16, ref, 16, "Poly1305: the MAC of those MACs agrees with OpenSSL");

	/* final wipes the context */
	zt_rand(key, 32);
	poly1305_init(&total, key);
	poly1305_update(&total, msg, 23);
	poly1305_final(&total, got);
	zt_ok(all_zero(&total, sizeof(total)), "Poly1305: final leaves the context all zeros");
}

/* --- BLAKE2s ----------------------------------------------------------------- */

/* RFC 7693 Appendix E: deterministic input from a Fibonacci-like sequence. */
static void selftest_seq(uint8_t *out, size_t len, uint32_t seed)
{
	uint32_t a = 0xdead4bad * seed, b = 1;
	size_t i;

	for (i = 0; i < len; i++) {
		const uint32_t t = a + b;

		a = b;
		b = t;
		out[i] = (uint8_t)(t >> 24);
	}
}

/*
 * The Appendix E grand hash: BLAKE2s-256 of the concatenated hashes of
 * seq(inlen) for 6 input lengths and 4 output sizes, unkeyed and keyed
 * with seq(outlen).  ossl: OpenSSL computes every hash it can (the keyed
 * ones, the 32-byte ones and the grand hash); the unkeyed hashes shorter
 * than 32 bytes are beyond OpenSSL 3.0's BLAKE2S-256 and stay zinc's.
 */
static void blake2s_selftest(uint8_t grand[32], bool ossl)
{
	static const size_t md_len[4] = { 16, 20, 28, 32 };
	static const size_t in_len[6] = { 0, 3, 64, 65, 255, 1024 };
	uint8_t in[1024], key[32], all[2 * 6 * (16 + 20 + 28 + 32)];
	size_t i, j, n = 0;

	for (i = 0; i < 4; i++) {
		const size_t outlen = md_len[i];

		for (j = 0; j < 6; j++) {
			const size_t inlen = in_len[j];

			selftest_seq(in, inlen, (uint32_t)inlen);
			if (ossl && outlen == 32)
				ossl_blake2s256(all + n, in, inlen);
			else
				blake2s(all + n, in, NULL, outlen, inlen, 0);
			n += outlen;
			selftest_seq(key, outlen, (uint32_t)outlen);
			if (ossl)
				ossl_mac("BLAKE2SMAC", all + n, outlen, in, inlen, key, outlen,
					 NULL, NULL);
			else
				blake2s(all + n, in, key, outlen, inlen, outlen);
			n += outlen;
		}
	}
	if (ossl) {
		ossl_blake2s256(grand, all, n);
	} else {
		struct blake2s_state st;

		/* Streamed as Appendix E does, one hash at a time. */
		blake2s_init(&st, 32);
		for (n = 0, i = 0; i < 4; i++) {
			for (j = 0; j < 12; j++) {
				blake2s_update(&st, all + n, md_len[i]);
				n += md_len[i];
			}
		}
		blake2s_final(&st, grand);
	}
}

static void blake2_json_one(const struct zt_json *v, struct counts *c)
{
	size_t il, kl, ol;
	uint8_t *in = zt_json_hex(v, "in", &il);
	uint8_t *key = zt_json_hex(v, "key", &kl);
	uint8_t *want = zt_json_hex(v, "out", &ol);
	const char *hash = zt_json_str(v, "hash");

	if (in == NULL || key == NULL || want == NULL || hash == NULL || ol != 32 || kl > 32)
		die("malformed blake2 KAT entry");
	if (strcmp(hash, "blake2s") == 0) {
		uint8_t got[32];

		blake2s(got, in, key, 32, il, kl);
		c->total++;
		if (memcmp(got, want, 32) != 0 && c->bad++ == 0)
			zt_mem_eq(got, 32, want, 32, "first BLAKE2s KAT mismatch (in %zu, key %zu)",
				  il, kl);
	}
	free(in);
	free(key);
	free(want);
}

static void test_blake2s(void)
{
	uint8_t want[32], got[32], ref[32], key[32], salt[8], personal[8], msg[300];
	struct blake2s_state st;
	struct counts c = { 0, 0, 0 };
	const struct zt_json *v;
	struct zt_json *json;
	char *path;
	int i, bad = 0;

	/* RFC 7693 Appendix B */
	zt_unhex_exact(want, 32, "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982");
	ossl_blake2s256(ref, (const uint8_t *)"abc", 3);
	zt_mem_eq(ref, 32, want, 32, "BLAKE2s-256(\"abc\") RFC 7693 B: the vector agrees with OpenSSL");
	blake2s(got, (const uint8_t *)"abc", NULL, 32, 3, 0);
	zt_mem_eq(got, 32, want, 32, "BLAKE2s-256(\"abc\") RFC 7693 Appendix B");

	/* RFC 7693 Appendix E */
	zt_unhex_exact(want, 32, "6a411f08ce25adcdfb02aba641451cec53c598b24f4fc787fbdc88797f4c1dfe");
	blake2s_selftest(ref, true);
	zt_mem_eq(ref, 32, want, 32, "BLAKE2s RFC 7693 Appendix E: the grand hash agrees with "
		  "OpenSSL computing what it can");
	blake2s_selftest(got, false);
	zt_mem_eq(got, 32, want, 32, "BLAKE2s RFC 7693 Appendix E self-test grand hash");

	/* Keyed, salted, personalised, every output size: OpenSSL's BLAKE2SMAC. */
	for (i = 0; i < 300; i++) {
		size_t kl = 1 + zt_rand_below(32), ol = 1 + zt_rand_below(32);
		size_t len = zt_rand_below(sizeof(msg) + 1);
		int with_salt = (int)zt_rand_below(2), with_personal = (int)zt_rand_below(2);

		zt_rand(key, kl);
		zt_rand(salt, 8);
		zt_rand(personal, 8);
		zt_rand(msg, len);
		blake2s_init_param(&st, ol, key, kl, with_salt ? salt : NULL,
				   with_personal ? personal : NULL);
		blake2s_update(&st, msg, len);
		blake2s_final(&st, got);
		ossl_mac("BLAKE2SMAC", ref, ol, msg, len, key, kl, with_salt ? salt : NULL,
			 with_personal ? personal : NULL);
		bad += memcmp(got, ref, ol) != 0;
	}
	zt_ok(bad == 0, "BLAKE2s with key, salt, personalisation and sizes 1..32 agrees with "
	      "OpenSSL's BLAKE2SMAC in 300 random cases (%d differ)", bad);

	/* Zero salt and personalisation equal NULL ones. */
	memset(salt, 0, 8);
	memset(personal, 0, 8);
	blake2s_init_param(&st, 32, NULL, 0, salt, personal);
	blake2s_update(&st, msg, 100);
	blake2s_final(&st, got);
	blake2s(ref, msg, NULL, 32, 100, 0);
	zt_mem_eq(got, 32, ref, 32, "BLAKE2s: zero salt and personalisation equal none");

	/* final wipes the state */
	blake2s_init_key(&st, 32, key, 32);
	blake2s_update(&st, msg, 65);
	blake2s_final(&st, got);
	zt_ok(all_zero(&st, sizeof(st)), "BLAKE2s: final leaves the state all zeros");

	path = zt_vector_path("blake2/testvectors/blake2-kat.blake2s-only.json");
	if (path == NULL)
		return;
	json = zt_json_load(path);
	if (json == NULL || json->type != ZT_JSON_ARRAY)
		die("cannot read blake2-kat.blake2s-only.json");
	for (v = json->child; v != NULL; v = v->next)
		blake2_json_one(v, &c);
	zt_ok(c.total == 512 && c.bad == 0, "BLAKE2s: BLAKE2 KAT (256 unkeyed, 256 keyed), "
	      "%u of %u agree", c.total - c.bad, c.total);
	zt_json_free(json);
	free(path);
}

/* --- ChaCha20-Poly1305 and XChaCha20-Poly1305 -------------------------------- */

struct aead_kat {
	const char *name;
	bool x;			/* XChaCha20-Poly1305 */
	const char *key, *nonce, *ad;
	const char *text;	/* plaintext */
	const char *ct, *tag;
};

static const struct aead_kat aead_kats[] = {
	{ "RFC 8439 2.8.2", false, KEY_80_9F, "070000004041424344454647",
	  "50515253c0c1c2c3c4c5c6c7", sunscreen,
	  "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
	  "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
	  "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
	  "3ff4def08e4b7a9de576d26586cec64b6116",
	  "1ae10b594f09e26a7e902ecbd0600691" },
	{ "RFC 8439 A.5", false, KEY_1C92, "000000000102030405060708",
	  "f33388860000000000004e91", drafts,
	  "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb2"
	  "4c6cfc18755d43eea09ee94e382d26b0bdb7b73c321b0100d4f03b7f355894cf"
	  "332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855"
	  "9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4"
	  "b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523e"
	  "af4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a"
	  "0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a10"
	  "49e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29"
	  "a6ad5cb4022b02709b",
	  "eead9d67890cbb22392336fea1851f38" },
	{ "draft-irtf-cfrg-xchacha A.3.1", true, KEY_80_9F,
	  "404142434445464748494a4b4c4d4e4f5051525354555657",
	  "50515253c0c1c2c3c4c5c6c7", sunscreen,
	  "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
	  "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
	  "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
	  "21f9664c97637da9768812f615c68b13b52e",
	  "c0875924c1c7987947deafd8780acf49" },
};

static void aead_encrypt(bool x, uint8_t *dst, const uint8_t *src, size_t len,
			 const uint8_t *ad, size_t ad_len, const uint8_t *nonce, const uint8_t *key)
{
	if (x)
		xchacha20poly1305_encrypt(dst, src, len, ad, ad_len, nonce, key);
	else
		chacha20poly1305_encrypt(dst, src, len, ad, ad_len, nonce, key);
}

static bool aead_decrypt(bool x, uint8_t *dst, const uint8_t *src, size_t len,
			 const uint8_t *ad, size_t ad_len, const uint8_t *nonce, const uint8_t *key)
{
	if (x)
		return xchacha20poly1305_decrypt(dst, src, len, ad, ad_len, nonce, key);
	return chacha20poly1305_decrypt(dst, src, len, ad, ad_len, nonce, key);
}

static void aead_init(bool x, struct chacha20poly1305_ctx *ctx, const uint8_t *key,
		      const uint8_t *nonce)
{
	if (x)
		xchacha20poly1305_init(ctx, key, nonce);
	else
		chacha20poly1305_init(ctx, key, nonce);
}

static void test_aead_kats(void)
{
	uint8_t key[32], nonce[24], ad[64], pt[MAXBUF], want[MAXBUF + 16], got[MAXBUF + 16];
	size_t i;

	for (i = 0; i < sizeof(aead_kats) / sizeof(aead_kats[0]); i++) {
		const struct aead_kat *v = &aead_kats[i];
		const char *alg = v->x ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305";
		size_t len, ad_len, nlen;

		zt_unhex_exact(key, 32, v->key);
		nlen = zt_unhex_into(nonce, sizeof(nonce), v->nonce);
		if (nlen != (v->x ? 24u : 12u))
			die("bad nonce length in an AEAD vector");
		ad_len = zt_unhex_into(ad, sizeof(ad), v->ad);
		len = input(pt, sizeof(pt), v->text, NULL, 0);
		if (zt_unhex_into(want, MAXBUF, v->ct) != len)
			die("plaintext and ciphertext lengths differ");
		zt_unhex_exact(want + len, 16, v->tag);

		if (v->x)
			ossl_xaead(got, pt, len, ad, ad_len, nonce, key);
		else
			ossl_aead(got, pt, len, ad, ad_len, nonce, key);
		zt_mem_eq(got, len + 16, want, len + 16, "%s %s: the vector agrees with OpenSSL",
			  alg, v->name);
		aead_encrypt(v->x, got, pt, len, ad, ad_len, nonce, key);
		zt_mem_eq(got, len + 16, want, len + 16, "%s %s encryption", alg, v->name);
		memset(got, 0xa5, len);
		zt_ok(aead_decrypt(v->x, got, want, len + 16, ad, ad_len, nonce, key) &&
		      memcmp(got, pt, len) == 0, "%s %s decryption", alg, v->name);
		/* In place: the ciphertext is authenticated before it is overwritten. */
		memcpy(got, want, len + 16);
		zt_ok(aead_decrypt(v->x, got, got, len + 16, ad, ad_len, nonce, key) &&
		      memcmp(got, pt, len) == 0, "%s %s decryption in place", alg, v->name);
		memcpy(got, pt, len);
		aead_encrypt(v->x, got, got, len, ad, ad_len, nonce, key);
		zt_mem_eq(got, len + 16, want, len + 16, "%s %s encryption in place", alg, v->name);
	}
}

struct wycheproof_arg {
	bool x;
	struct counts c;
	unsigned int invalid_rejected;
};

static void wycheproof_one(const struct zt_json *t, struct wycheproof_arg *w)
{
	size_t kl, nl, al, ml, cl, tl;
	uint8_t *key = zt_json_hex(t, "key", &kl);
	uint8_t *iv = zt_json_hex(t, "iv", &nl);
	uint8_t *ad = zt_json_hex(t, "aad", &al);
	uint8_t *msg = zt_json_hex(t, "msg", &ml);
	uint8_t *ct = zt_json_hex(t, "ct", &cl);
	uint8_t *tag = zt_json_hex(t, "tag", &tl);
	const char *result = zt_json_str(t, "result");
	long id = zt_json_long(t, "tcId");
	uint8_t *buf, *out;
	bool valid, ok;

	if (key == NULL || iv == NULL || ad == NULL || msg == NULL || ct == NULL ||
	    tag == NULL || result == NULL || id < 0)
		die("malformed Wycheproof test");
	/* Other nonce sizes cannot reach the primitive: the provider rejects them. */
	if (kl != 32 || nl != (w->x ? 24u : 12u) || tl != 16 || cl != ml) {
		w->c.skipped++;
		goto out;
	}
	valid = strcmp(result, "invalid") != 0;
	buf = malloc(cl + 16);
	out = malloc(ml + 16);
	if (buf == NULL || out == NULL)
		die("out of memory");
	w->c.total++;
	memcpy(buf, ct, cl);
	memcpy(buf + cl, tag, 16);
	memset(out, 0xa5, ml + 16);
	ok = aead_decrypt(w->x, out, buf, cl + 16, ad, al, iv, key);
	if (valid) {
		ok = ok && memcmp(out, msg, ml) == 0;
		aead_encrypt(w->x, out, msg, ml, ad, al, iv, key);
		ok = ok && memcmp(out, buf, cl + 16) == 0;
	} else {
		ok = !ok && all_zero(out, ml);
		w->invalid_rejected += ok;
	}
	if (!ok && w->c.bad++ == 0)
		zt_diag("first failing Wycheproof test: tcId %ld", id);
	free(buf);
	free(out);
out:
	free(key);
	free(iv);
	free(ad);
	free(msg);
	free(ct);
	free(tag);
}

static void test_wycheproof(const char *file, bool x)
{
	struct wycheproof_arg w = { x, { 0, 0, 0 }, 0 };
	char *path = zt_vector_path(file);
	struct zt_wycheproof it = { 0 };
	const struct zt_json *t;
	struct zt_json *json;

	if (path == NULL)
		return;
	json = zt_json_load(path);
	if (json == NULL)
		die("cannot read a Wycheproof file");
	while ((t = zt_wycheproof_next(json, &it)) != NULL)
		wycheproof_one(t, &w);
	zt_ok(w.c.total > 0 && w.c.bad == 0, "%s: %u of %u tests pass (%u invalid rejected with "
	      "dst wiped; %u with other nonce sizes not applicable)", file,
	      w.c.total - w.c.bad, w.c.total, w.invalid_rejected, w.c.skipped);
	zt_json_free(json);
	free(path);
}

static void test_aead_misuse(bool x)
{
	const char *alg = x ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305";
	uint8_t key[32], nonce[24], ad[40], pt[100], ct[116], out[116], ref[116], tag[16];
	struct chacha20poly1305_ctx ctx, snap;
	size_t i;
	bool ok;

	zt_rand(key, sizeof(key));
	zt_rand(nonce, sizeof(nonce));
	zt_rand(ad, sizeof(ad));
	zt_rand(pt, sizeof(pt));
	aead_encrypt(x, ct, pt, sizeof(pt), ad, sizeof(ad), nonce, key);

	/* Tampering anywhere fails and wipes dst. */
	for (i = 0; i < 3; i++) {
		uint8_t bad_ct[116], bad_ad[40];
		static const char *const what[3] = { "tag", "ciphertext", "AD" };

		memcpy(bad_ct, ct, sizeof(ct));
		memcpy(bad_ad, ad, sizeof(ad));
		if (i == 0)
			bad_ct[100 + zt_rand_below(16)] ^= (uint8_t)(1u << zt_rand_below(8));
		else if (i == 1)
			bad_ct[zt_rand_below(100)] ^= (uint8_t)(1u << zt_rand_below(8));
		else
			bad_ad[zt_rand_below(40)] ^= (uint8_t)(1u << zt_rand_below(8));
		memset(out, 0xa5, sizeof(out));
		ok = aead_decrypt(x, out, bad_ct, sizeof(bad_ct), bad_ad, sizeof(bad_ad), nonce, key);
		zt_ok(!ok && all_zero(out, 100), "%s: a flipped bit in the %s fails and wipes dst",
		      alg, what[i]);
	}
	memset(out, 0xa5, sizeof(out));
	ok = aead_decrypt(x, out, ct, 15, ad, sizeof(ad), nonce, key);
	zt_ok(!ok && out[0] == 0xa5, "%s: input shorter than a tag fails, writing nothing", alg);

	/* AD after data is refused and changes nothing; zero-length data is not data. */
	memset(&ctx, 0, sizeof(ctx));	/* defined bytes throughout, for the snapshot */
	aead_init(x, &ctx, key, nonce);
	ok = chacha20poly1305_ad(&ctx, ad, 13);
	ok = ok && chacha20poly1305_encrypt_update(&ctx, out, pt, 0);
	ok = ok && chacha20poly1305_ad(&ctx, ad + 13, sizeof(ad) - 13);
	ok = ok && chacha20poly1305_encrypt_update(&ctx, out, pt, 1);
	zt_ok(ok, "%s: AD after a zero-length update is still AD", alg);
	memcpy(&snap, &ctx, sizeof(ctx));
	zt_ok(!chacha20poly1305_ad(&ctx, ad, 1) && memcmp(&snap, &ctx, sizeof(ctx)) == 0,
	      "%s: AD after data is refused, changing nothing", alg);
	zt_ok(!chacha20poly1305_ad(&ctx, ad, 0), "%s: even empty AD after data is refused", alg);
	chacha20poly1305_encrypt_update(&ctx, out + 1, pt + 1, sizeof(pt) - 1);
	chacha20poly1305_final(&ctx, out + sizeof(pt));
	zt_mem_eq(out, sizeof(ct), ct, sizeof(ct), "%s: the tag is that of the one-shot", alg);
	zt_ok(all_zero(&ctx, sizeof(ctx)), "%s: final leaves the context all zeros", alg);

	/* final_verify: truncated tags, wrong tags, wiping. */
	aead_init(x, &ctx, key, nonce);
	chacha20poly1305_ad(&ctx, ad, sizeof(ad));
	chacha20poly1305_decrypt_update(&ctx, out, ct, sizeof(pt));
	memcpy(tag, ct + sizeof(pt), 16);
	tag[15] ^= 1;
	zt_ok(chacha20poly1305_final_verify(&ctx, tag, 8) && all_zero(&ctx, sizeof(ctx)),
	      "%s: final_verify of the first 8 bytes ignores the rest, and wipes", alg);
	aead_init(x, &ctx, key, nonce);
	chacha20poly1305_ad(&ctx, ad, sizeof(ad));
	chacha20poly1305_decrypt_update(&ctx, out, ct, sizeof(pt));
	zt_ok(!chacha20poly1305_final_verify(&ctx, tag, 16) && all_zero(&ctx, sizeof(ctx)),
	      "%s: final_verify of a wrong last byte fails, and wipes", alg);
	aead_init(x, &ctx, key, nonce);
	chacha20poly1305_ad(&ctx, ad, sizeof(ad));
	chacha20poly1305_decrypt_update(&ctx, out, ct, sizeof(pt));
	zt_ok(chacha20poly1305_final_verify(&ctx, ct + sizeof(pt), 16) &&
	      memcmp(out, pt, sizeof(pt)) == 0, "%s: streaming decryption verifies", alg);
	aead_init(x, &ctx, key, nonce);
	zt_ok(!chacha20poly1305_final_verify(&ctx, tag, 0), "%s: an empty tag never verifies", alg);

	/* The data limit: updates past CHACHA20POLY1305_MAX_DATA write nothing. */
	memset(&ctx, 0, sizeof(ctx));
	aead_init(x, &ctx, key, nonce);
	ctx.data_len = CHACHA20POLY1305_MAX_DATA - 10;
	memcpy(&snap, &ctx, sizeof(ctx));
	memset(out, 0xa5, sizeof(out));
	memset(ref, 0xa5, sizeof(ref));
	zt_ok(!chacha20poly1305_encrypt_update(&ctx, out, pt, 11) &&
	      memcmp(out, ref, sizeof(out)) == 0 && memcmp(&snap, &ctx, sizeof(ctx)) == 0,
	      "%s: encrypt_update past the data limit is refused, writing nothing", alg);
	zt_ok(!chacha20poly1305_decrypt_update(&ctx, out, ct, 11) &&
	      memcmp(out, ref, sizeof(out)) == 0 && memcmp(&snap, &ctx, sizeof(ctx)) == 0,
	      "%s: decrypt_update past the data limit is refused, writing nothing", alg);
	zt_ok(!chacha20poly1305_encrypt_update(&ctx, out, pt, SIZE_MAX) &&
	      memcmp(out, ref, sizeof(out)) == 0,
	      "%s: a SIZE_MAX update is refused, writing nothing", alg);
	zt_ok(chacha20poly1305_encrypt_update(&ctx, out, pt, 10) &&
	      ctx.data_len == CHACHA20POLY1305_MAX_DATA,
	      "%s: data up to the limit exactly is accepted", alg);
	memcpy(ref, out, sizeof(out));
	zt_ok(!chacha20poly1305_encrypt_update(&ctx, out + 10, pt, 1) &&
	      memcmp(out, ref, sizeof(out)) == 0,
	      "%s: one byte more is refused, writing nothing", alg);
	zinc_memzero(&ctx, sizeof(ctx));
}

/* --- streaming against one-shot, and against OpenSSL, lengths 0..300 ---------- */

static void test_streaming(void)
{
	enum { MAXLEN = 300 };
	static uint8_t msg[MAXLEN], ad[64], a[MAXLEN + 16], b[MAXLEN + 16], r[MAXLEN + 16];
	uint8_t key[32], iv[24], salt[8], personal[8];
	int bad_cc = 0, bad_cc_ossl = 0, bad_poly = 0, bad_poly_ossl = 0, bad_b2 = 0;
	int bad_b2_ossl = 0, bad_aead[2] = { 0, 0 }, bad_aead_ossl[2] = { 0, 0 };
	size_t len, off, n, ad_len;
	int x;

	for (len = 0; len <= MAXLEN; len++) {
		struct chacha20_ctx cc;
		struct poly1305_ctx pc;
		struct blake2s_state bs;
		size_t kl, ol;

		zt_rand(msg, len);
		zt_rand(key, sizeof(key));
		zt_rand(iv, sizeof(iv));
		/* Counters near the word-12 boundary now and then. */
		if (len % 3 == 0)
			memset(iv, 0xff, 3);

		chacha20_init(&cc, key, iv);
		chacha20_crypt(&cc, a, msg, len);
		chacha20_init(&cc, key, iv);
		for (off = 0; off < len; off += n) {
			n = chunk(len - off);
			chacha20_crypt(&cc, b + off, msg + off, n);
		}
		bad_cc += memcmp(a, b, len) != 0;
		ossl_chacha20(r, msg, len, key, iv);
		bad_cc_ossl += memcmp(a, r, len) != 0;

		poly1305(a, msg, len, key);
		poly1305_init(&pc, key);
		for (off = 0; off < len; off += n) {
			n = chunk(len - off);
			poly1305_update(&pc, msg + off, n);
		}
		poly1305_final(&pc, b);
		bad_poly += memcmp(a, b, 16) != 0;
		ossl_mac("POLY1305", r, 16, msg, len, key, 32, NULL, NULL);
		bad_poly_ossl += memcmp(a, r, 16) != 0;

		kl = zt_rand_below(33);
		ol = 1 + zt_rand_below(32);
		zt_rand(salt, 8);
		zt_rand(personal, 8);
		blake2s_init_param(&bs, ol, key, kl, salt, personal);
		blake2s_update(&bs, msg, len);
		blake2s_final(&bs, a);
		blake2s_init_param(&bs, ol, key, kl, salt, personal);
		for (off = 0; off < len; off += n) {
			n = chunk(len - off);
			blake2s_update(&bs, msg + off, n);
		}
		blake2s_final(&bs, b);
		bad_b2 += memcmp(a, b, ol) != 0;
		if (kl > 0) {
			ossl_mac("BLAKE2SMAC", r, ol, msg, len, key, kl, salt, personal);
			bad_b2_ossl += memcmp(a, r, ol) != 0;
		}
		blake2s(a, msg, NULL, 32, len, 0);
		ossl_blake2s256(r, msg, len);
		bad_b2_ossl += memcmp(a, r, 32) != 0;

		for (x = 0; x < 2; x++) {
			struct chacha20poly1305_ctx ac;

			ad_len = zt_rand_below(sizeof(ad) + 1);
			zt_rand(ad, ad_len);
			aead_encrypt(x, a, msg, len, ad, ad_len, iv, key);
			if (x)
				ossl_xaead(r, msg, len, ad, ad_len, iv, key);
			else
				ossl_aead(r, msg, len, ad, ad_len, iv, key);
			bad_aead_ossl[x] += memcmp(a, r, len + 16) != 0;

			aead_init(x, &ac, key, iv);
			for (off = 0; off < ad_len; off += n) {
				n = chunk(ad_len - off);
				chacha20poly1305_ad(&ac, ad + off, n);
			}
			for (off = 0; off < len; off += n) {
				n = chunk(len - off);
				chacha20poly1305_encrypt_update(&ac, b + off, msg + off, n);
			}
			chacha20poly1305_final(&ac, b + len);
			bad_aead[x] += memcmp(a, b, len + 16) != 0;

			aead_init(x, &ac, key, iv);
			chacha20poly1305_ad(&ac, ad, ad_len);
			for (off = 0; off < len; off += n) {
				n = chunk(len - off);
				chacha20poly1305_decrypt_update(&ac, b + off, a + off, n);
			}
			bad_aead[x] += !chacha20poly1305_final_verify(&ac, a + len, 16) ||
				       memcmp(b, msg, len) != 0;
		}
	}
	zt_ok(bad_cc == 0, "ChaCha20: random splits equal one-shot, lengths 0..300 (%d differ)",
	      bad_cc);
	zt_ok(bad_cc_ossl == 0, "ChaCha20 agrees with OpenSSL, lengths 0..300 (%d differ)",
	      bad_cc_ossl);
	zt_ok(bad_poly == 0, "Poly1305: random splits equal one-shot, lengths 0..300 (%d differ)",
	      bad_poly);
	zt_ok(bad_poly_ossl == 0, "Poly1305 agrees with OpenSSL, lengths 0..300 (%d differ)",
	      bad_poly_ossl);
	zt_ok(bad_b2 == 0, "BLAKE2s: random splits equal one-shot, lengths 0..300 (%d differ)",
	      bad_b2);
	zt_ok(bad_b2_ossl == 0, "BLAKE2s-256 and BLAKE2SMAC agree with OpenSSL, lengths 0..300 "
	      "(%d differ)", bad_b2_ossl);
	for (x = 0; x < 2; x++) {
		const char *alg = x ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305";

		zt_ok(bad_aead[x] == 0, "%s: random splits of AD and data equal one-shot, "
		      "lengths 0..300 (%d differ)", alg, bad_aead[x]);
		zt_ok(bad_aead_ossl[x] == 0, "%s agrees with OpenSSL, lengths 0..300 (%d differ)",
		      alg, bad_aead_ossl[x]);
	}
}

/* --- Poly1305 for the assembly: block and batch boundaries, path switches ---- */

#define POLY_LONG 8448	/* 33 batches of 256 bytes */

/* Splits that mix short updates (the scalar code) with long ones (vector). */
static size_t poly_chunk(size_t left)
{
	size_t n;

	switch (zt_rand_below(3)) {
	case 0:
		n = zt_rand_below(33);
		break;
	case 1:
		n = 16 * zt_rand_below(40) + zt_rand_below(3);
		break;
	default:
		n = zt_rand_below(POLY_LONG);
		break;
	}
	return n < left ? n : left;
}

/* One-shot and a random split of in[0..len) against OpenSSL; 0 when all agree. */
static int poly_check(const uint8_t *in, size_t len, const uint8_t key[32])
{
	uint8_t ref[16], got[16];
	struct poly1305_ctx ctx;
	size_t off, n;
	int bad = 0;

	ossl_mac("POLY1305", ref, 16, in, len, key, 32, NULL, NULL);
	poly1305(got, in, len, key);
	bad += memcmp(got, ref, 16) != 0;
	poly1305_init(&ctx, key);
	for (off = 0; off < len; off += n) {
		n = poly_chunk(len - off);
		poly1305_update(&ctx, in + off, n);
	}
	poly1305_final(&ctx, got);
	bad += memcmp(got, ref, 16) != 0;
	return bad;
}

/*
 * Every length up to 600, then both sides of every multiple of 64 bytes (the
 * vector batches are 128 and 256 bytes, the thresholds multiples of 128).
 */
static size_t poly_length(size_t i)
{
	static const int around[] = { -17, -16, -15, -1, 0, 1, 15, 16, 17 };
	const size_t n = sizeof(around) / sizeof(around[0]);

	if (i <= 600)
		return i;
	i -= 601;
	return 64 * (10 + i / n) + (size_t)(ptrdiff_t)around[i % n];
}
#define POLY_LENGTHS (601 + 9 * (POLY_LONG / 64 - 10))

/* Keys that push the carries to their largest. */
static const char *const poly_extreme_keys[] = {
	"ffffff0ffcffff0ffcffff0ffcffff0f" FF16,	/* r at the clamp's maximum, s = 2^128 - 1 */
	FF16 FF16,
	"ffffff0ffcffff0ffcffff0ffcffff0f" Z16,
	/* r = 1: h1 all ones when 5 (h >> 130) folds back in */
	"01000000000000000000000000000000" FF16,
	"00000000000000000400000000000000" Z16,	/* r = 2^66 */
};
#define POLY_EXTREME_KEYS (sizeof(poly_extreme_keys) / sizeof(poly_extreme_keys[0]))

static void test_poly1305_asm(void)
{
	static const char *const *const keys = poly_extreme_keys;
	static uint8_t msg[POLY_LONG];
	uint8_t key[32], got[16], ref[16];
	struct poly1305_ctx ctx;
	size_t i, j, len, off, n;
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *map;
	int bad;

	zt_rand(key, 32);
	zt_rand(msg, sizeof(msg));
	for (i = 0, bad = 0; i < POLY_LENGTHS; i++)
		bad += poly_check(msg, poly_length(i), key);
	zt_ok(bad == 0, "Poly1305: lengths 0..600 and around every 64-byte batch up to %d, "
	      "one-shot and random splits, agree with OpenSSL (%d differ)", POLY_LONG, bad);

	/* Carries at their largest: extreme r and s over all-ones messages. */
	memset(msg, 0xff, sizeof(msg));
	for (j = 0, bad = 0; j < POLY_EXTREME_KEYS; j++) {
		zt_unhex_exact(key, 32, keys[j]);
		for (i = 0; i < POLY_LENGTHS; i++)
			bad += poly_check(msg, poly_length(i), key);
	}
	zt_ok(bad == 0, "Poly1305: extreme keys over all-ones messages at those lengths agree "
	      "with OpenSSL (%d differ)", bad);

	/* One context through short, long, short... updates, at every offset mod 16. */
	zt_rand(msg, sizeof(msg));
	for (i = 0, bad = 0; i < 200; i++) {
		static const size_t steps[] = { 1, 15, 16, 17, 255, 256, 257, 1024, 4111 };

		zt_rand(key, 32);
		poly1305_init(&ctx, key);
		for (off = 0, len = zt_rand_below(sizeof(msg) + 1); off < len; off += n) {
			n = steps[zt_rand_below(sizeof(steps) / sizeof(steps[0]))];
			n = n < len - off ? n : len - off;
			poly1305_update(&ctx, msg + off, n);
		}
		poly1305_final(&ctx, got);
		ossl_mac("POLY1305", ref, 16, msg, len, key, 32, NULL, NULL);
		bad += memcmp(got, ref, 16) != 0;
	}
	zt_ok(bad == 0, "Poly1305: 200 contexts alternating short and long updates agree with "
	      "OpenSSL (%d differ)", bad);

	/* Input ending right before an unmapped page: no read past the end. */
	map = mmap(NULL, 3 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (map == MAP_FAILED || mprotect(map + 2 * page, (size_t)page, PROT_NONE) != 0) {
		zt_skip("Poly1305 guard page: mmap or mprotect failed");
		return;
	}
	zt_rand(map, 2 * (size_t)page);
	zt_rand(key, 32);
	for (i = 0, bad = 0; i < POLY_LENGTHS; i++) {
		len = poly_length(i);
		if (len <= 2 * (size_t)page)
			bad += poly_check(map + 2 * page - len, len, key);
	}
	zt_ok(bad == 0, "Poly1305: input ending at an unmapped page, every length above, agrees "
	      "with OpenSSL (%d differ)", bad);
	munmap(map, 3 * (size_t)page);
}

/* --- Poly1305 over many records at once: poly1305_update_many --------------- */

#define MANY_MAX 33		/* one past a full pipeline, two batches of 16 and one */
#define MANY_MOST 70		/* past the 64 records poly1305.c sorts at a time */
#define MANY_MSG (16384 + 16 + 64)

/* Mostly 0..1999 bytes, residue i mod 16; sometimes 16 KB and a bit. */
static size_t many_length(size_t i)
{
	if (zt_rand_below(12) == 0)
		return 16384 + i % 16;
	return 16 * zt_rand_below(125) + i % 16;
}

/*
 * n records, each under its own key (extreme ones when asked) with 0..39
 * bytes of it taken before (some left buffered), through three
 * poly1305_update_many calls and, alike, poly1305_update one record at a
 * time; returns how many of the n tags differ.
 */
static int many_round(size_t n, const uint8_t *msg, bool extreme)
{
	struct poly1305_ctx many[MANY_MOST], one[MANY_MOST], *ctx[MANY_MOST];
	const uint8_t *in[MANY_MOST];
	size_t len[MANY_MOST], i, call;
	uint8_t key[32], a[16], b[16];
	int bad = 0;

	for (i = 0; i < n; i++) {
		const size_t pre = zt_rand_below(40);

		if (extreme)
			zt_unhex_exact(key, 32, poly_extreme_keys[zt_rand_below(POLY_EXTREME_KEYS)]);
		else
			zt_rand(key, 32);
		poly1305_init(&many[i], key);
		poly1305_init(&one[i], key);
		poly1305_update(&many[i], msg, pre);
		poly1305_update(&one[i], msg, pre);
		ctx[i] = &many[i];
	}
	for (call = 0; call < 3; call++) {
		for (i = 0; i < n; i++) {
			len[i] = many_length(i + call);
			in[i] = msg + zt_rand_below(MANY_MSG - len[i] + 1);
			if (len[i] == 0 && zt_rand_below(2))
				in[i] = NULL;
			poly1305_update(&one[i], in[i], len[i]);
		}
		poly1305_update_many(ctx, in, len, n);
	}
	for (i = 0; i < n; i++) {
		poly1305_final(&many[i], a);
		poly1305_final(&one[i], b);
		bad += memcmp(a, b, 16) != 0;
	}
	return bad;
}

/*
 * Known answers as many records: the typed ones (RFC 8439, h at p) and
 * OpenSSL's evpmac_poly1305.txt, read now, all in one call, then split in
 * two calls at a random point of each record.
 */
static void test_poly1305_many_vectors(void)
{
	struct poly_vec {
		uint8_t key[32], tag[16];
		unsigned char *msg;
		size_t len;
	} v[128];
	struct poly1305_ctx c[128], *ctx[128];
	const uint8_t *in[128];
	size_t len[128], n = 0, typed, i, split;
	struct zt_stanza st = { 0 };
	char *path;
	FILE *f;
	bool have_file;
	int bad;

	for (i = 0; i < sizeof(poly_kats) / sizeof(poly_kats[0]); i++, n++) {
		zt_unhex_exact(v[n].key, 32, poly_kats[i].key);
		zt_unhex_exact(v[n].tag, 16, poly_kats[i].tag);
		v[n].msg = malloc(MAXBUF);
		if (v[n].msg == NULL)
			die("out of memory");
		v[n].len = input(v[n].msg, MAXBUF, poly_kats[i].text, poly_kats[i].hex,
				 poly_kats[i].zeros);
	}
	typed = n;
	path = zt_vector_path("openssl/30-test_evp_data/evpmac_poly1305.txt");
	have_file = path != NULL;
	f = have_file ? fopen(path, "r") : NULL;
	if (have_file)
		zt_ok(f != NULL, "open %s", path);
	while (f != NULL && zt_stanza_next(f, &st)) {
		const char *alg = zt_stanza_get(&st, "MAC");
		unsigned char *key, *tag;
		size_t key_len = 0, tag_len = 0;

		if (alg == NULL || strcmp(alg, "Poly1305") != 0)
			continue;
		key = zt_stanza_bytes(&st, "Key", &key_len);
		tag = zt_stanza_bytes(&st, "Output", &tag_len);
		if (n == sizeof(v) / sizeof(v[0]) || key_len != 32 || tag_len != 16)
			die("evpmac_poly1305.txt: an unexpected stanza");
		memcpy(v[n].key, key, 32);
		memcpy(v[n].tag, tag, 16);
		v[n].len = 0;
		v[n].msg = zt_stanza_bytes(&st, "Input", &v[n].len);
		free(key);
		free(tag);
		n++;
	}
	if (f != NULL) {
		zt_stanza_free(&st);
		fclose(f);
	}
	free(path);

	for (split = 0; split < 2; split++) {
		uint8_t got[16];

		for (i = 0; i < n; i++) {
			poly1305_init(&c[i], v[i].key);
			ctx[i] = &c[i];
			in[i] = v[i].msg;
			len[i] = split ? zt_rand_below(v[i].len + 1) : v[i].len;
		}
		poly1305_update_many(ctx, in, len, n);
		for (i = 0; split && i < n; i++) {
			in[i] = v[i].msg + len[i];
			len[i] = v[i].len - len[i];
		}
		if (split)
			poly1305_update_many(ctx, in, len, n);
		for (i = 0, bad = 0; i < n; i++) {
			poly1305_final(&c[i], got);
			bad += memcmp(got, v[i].tag, 16) != 0;
		}
		/* a missing file has failed already under CI (zt_vector_path) */
		zt_ok((!have_file || n - typed >= 40) && bad == 0,
		      "Poly1305 update_many: %zu typed vectors and %zu of evpmac_poly1305.txt as "
		      "records of one call%s (%d wrong)", typed, n - typed,
		      split ? ", then split in two calls" : "", bad);
	}
	for (i = 0; i < n; i++)
		free(v[i].msg);
}

static void test_poly1305_many(void)
{
	uint8_t *msg = malloc(MANY_MSG), *map;
	const size_t page = (size_t)sysconf(_SC_PAGESIZE), map_size = page * 2 * 17;
	size_t n, i, round;
	int bad;

	if (msg == NULL)
		die("out of memory");
	poly1305_update_many(NULL, NULL, NULL, 0);
	zt_rand(msg, MANY_MSG);
	for (n = 0, bad = 0; n <= MANY_MAX; n++)
		for (round = 0; round < 3; round++)
			bad += many_round(n, msg, false);
	bad += many_round(MANY_MOST, msg, false);
	zt_ok(bad == 0, "Poly1305 update_many: 0..%d and %d records, lengths 0..1999 (every "
	      "residue mod 16) and 16 KB, bytes buffered before, three calls, equal update one "
	      "record at a time (%d differ)", MANY_MAX, MANY_MOST, bad);

	memset(msg, 0xff, MANY_MSG);
	for (n = 1, bad = 0; n <= MANY_MAX; n++)
		bad += many_round(n, msg, true);
	zt_ok(bad == 0, "Poly1305 update_many: extreme keys (r at the clamp's maximum, s = "
	      "2^128 - 1) over all-ones messages, 1..%d records (%d differ)", MANY_MAX, bad);
	free(msg);

	test_poly1305_many_vectors();

	/* Each of 17 records ending right before an unmapped page. */
	map = mmap(NULL, map_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		zt_skip("Poly1305 update_many guard pages: mmap failed");
		return;
	}
	for (i = 0; i < 17; i++)
		if (mprotect(map + (2 * i + 1) * page, page, PROT_NONE) != 0) {
			zt_skip("Poly1305 update_many guard pages: mprotect failed");
			munmap(map, map_size);
			return;
		}
	for (i = 0; i < 17; i++)
		zt_rand(map + 2 * i * page, page);
	for (round = 0, bad = 0; round < 200; round++) {
		struct poly1305_ctx many[17], one[17], *ctx[17];
		const uint8_t *in[17];
		size_t len[17];
		uint8_t key[32], a[16], b[16];

		for (i = 0; i < 17; i++) {
			len[i] = zt_rand_below(page + 1);
			in[i] = map + 2 * i * page + page - len[i];
			zt_rand(key, 32);
			poly1305_init(&many[i], key);
			poly1305_init(&one[i], key);
			poly1305_update(&one[i], in[i], len[i]);
			ctx[i] = &many[i];
		}
		poly1305_update_many(ctx, in, len, 1 + round % 17);
		for (i = 0; i < 1 + round % 17; i++) {
			poly1305_final(&many[i], a);
			poly1305_final(&one[i], b);
			bad += memcmp(a, b, 16) != 0;
		}
	}
	zt_ok(bad == 0, "Poly1305 update_many: records of 0..%zu bytes each ending at an "
	      "unmapped page agree (%d differ)", page, bad);
	munmap(map, map_size);
}

/* --- ChaCha20 for the assembly: block, lane and path boundaries ------------ */

#define CHACHA_MAX_BLOCKS 70	/* past two 32-block passes, plus a tail */

/* 1..70 blocks, each -1, +0 and +1 byte (i < 3 * 70), then 0..63 bytes. */
static size_t chacha_length(size_t i)
{
	if (i < (size_t)3 * CHACHA_MAX_BLOCKS)
		return 64 * (i / 3 + 1) + i % 3 - 1;
	return i - (size_t)3 * CHACHA_MAX_BLOCKS;
}

#define CHACHA_LENGTHS (3 * CHACHA_MAX_BLOCKS + 64)

/* dst = src ^ keystream of (key, iv), one-shot; 0 when it matches OpenSSL. */
static int chacha_check(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t key[32],
			const uint8_t iv[16])
{
	static uint8_t ref[64 * CHACHA_MAX_BLOCKS + 64];
	struct chacha20_ctx ctx;

	ossl_chacha20(ref, src, len, key, iv);
	chacha20_init(&ctx, key, iv);
	chacha20_crypt(&ctx, dst, src, len);
	return memcmp(dst, ref, len) != 0;
}

static void test_chacha20_asm(void)
{
	static uint8_t in[64 * CHACHA_MAX_BLOCKS + 128], out[sizeof(in)];
	uint8_t key[32], iv[16];
	long page = sysconf(_SC_PAGESIZE);
	size_t i;
	uint8_t *smap, *dmap;
	int bad, bad_wrap, bad_place;

	zt_rand(key, 32);
	zt_rand(iv, 16);
	zt_rand(in, sizeof(in));
	for (i = 0, bad = 0, bad_wrap = 0, bad_place = 0; i < CHACHA_LENGTHS; i++) {
		const size_t len = chacha_length(i), off = zt_rand_below(64);

		iv[0] = iv[1] = iv[2] = iv[3] = 0;
		bad += chacha_check(out + off, in + zt_rand_below(64), len, key, iv);
		/* the counter passes 2^32 inside the call: split and carried */
		iv[0] = (uint8_t)(0x100 - len / 64 / 2 - 1);
		iv[1] = iv[2] = iv[3] = 0xff;
		bad_wrap += chacha_check(out, in, len, key, iv);
		memcpy(out + off, in, len);
		bad_place += chacha_check(out + off, out + off, len, key, iv);
	}
	zt_ok(bad == 0, "ChaCha20: 1..%d blocks -1/+0/+1 byte and 0..63 bytes, misaligned, agree "
	      "with OpenSSL (%d differ)", CHACHA_MAX_BLOCKS, bad);
	zt_ok(bad_wrap == 0, "ChaCha20: those lengths with the 32-bit counter wrapping midway "
	      "agree with OpenSSL (%d differ)", bad_wrap);
	zt_ok(bad_place == 0, "ChaCha20: those lengths in place agree with OpenSSL (%d differ)",
	      bad_place);

	/* Input and output ending right before unmapped pages: no access past the end. */
	smap = mmap(NULL, 3 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	dmap = mmap(NULL, 3 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (smap == MAP_FAILED || dmap == MAP_FAILED ||
	    mprotect(smap + 2 * page, (size_t)page, PROT_NONE) != 0 ||
	    mprotect(dmap + 2 * page, (size_t)page, PROT_NONE) != 0) {
		zt_skip("ChaCha20 guard page: mmap or mprotect failed");
		return;
	}
	zt_rand(smap, 2 * (size_t)page);
	memset(iv, 0, 4);
	for (i = 0, bad = 0; i < CHACHA_LENGTHS; i++) {
		const size_t len = chacha_length(i);

		if (len <= 2 * (size_t)page)
			bad += chacha_check(dmap + 2 * page - len, smap + 2 * page - len, len, key, iv);
	}
	zt_ok(bad == 0, "ChaCha20: input and output ending at unmapped pages, every length above, "
	      "agree with OpenSSL (%d differ)", bad);
	munmap(smap, 3 * (size_t)page);
	munmap(dmap, 3 * (size_t)page);
}

/* --- chacha20_jobs(): many streams' blocks, a lane each -------------------- */

enum { JOB_STREAMS = 9, JOB_BLOCKS = 6, JOB_MAX = 72, JOB_GUARD = 16, JOB_SLOT = 96 };

/*
 * Streams for jobs: keys (as the words chacha20_jobs() takes) and the
 * keystream of JOB_BLOCKS blocks from chacha20_crypt(), from 64-bit
 * counters that cross 2^32 inside the stream for some (words 12 and 13 of
 * each block given directly to its job).
 */
struct job_stream {
	uint32_t key[8];
	uint64_t counter;
	uint32_t nonce[2];
	uint8_t ks[64 * JOB_BLOCKS];
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void job_streams(struct job_stream *st)
{
	static const uint64_t counters[] = { 0, 1, 0xfffffffd, 0xfffffffe, 0xffffffff,
					     0x1fffffffc, 0xfffffffffffffffe };
	static const uint8_t zero[64 * JOB_BLOCKS];
	uint8_t key[32], iv[16];
	struct chacha20_ctx ctx;
	size_t s, i;

	for (s = 0; s < JOB_STREAMS; s++) {
		zt_rand(key, 32);
		zt_rand(iv, 16);
		st[s].counter = s < sizeof(counters) / sizeof(counters[0]) ? counters[s] :
				zt_rand_u64();
		for (i = 0; i < 8; i++)
			st[s].key[i] = le32(key + 4 * i);
		for (i = 0; i < 8; i++)
			iv[i] = (uint8_t)(st[s].counter >> 8 * i);
		st[s].nonce[0] = le32(iv + 8);
		st[s].nonce[1] = le32(iv + 12);
		chacha20_init(&ctx, key, iv);
		chacha20_crypt(&ctx, st[s].ks, zero, sizeof(zero));
	}
}

/* Job j: block b of stream s, in its own slot of dst (and of src, unless in place). */
static void job_make(struct chacha20_job *job, const struct job_stream *st, size_t b,
		     const uint8_t *src, uint8_t *dst, size_t len)
{
	uint64_t c = st->counter + b;

	job->key = st->key;
	job->src = src;
	job->dst = dst;
	job->iv[0] = (uint32_t)c;
	job->iv[1] = (uint32_t)(c >> 32);
	job->iv[2] = st->nonce[0];
	job->iv[3] = st->nonce[1];
	job->len = len;
}

#define JOB_RANDOM_LEN SIZE_MAX

/*
 * n jobs of random streams and blocks, lengths len_of (JOB_RANDOM_LEN:
 * random, half of them 64), some in place, at random misalignments, each
 * dst slot with guard bytes around; 0 when every dst is src ^ its
 * keystream for len bytes (at most the block's 64) and nothing else
 * changed.
 */
static int jobs_check(const struct job_stream *st, size_t n, size_t len_of)
{
	static uint8_t src[JOB_MAX * JOB_SLOT], dst[JOB_MAX * JOB_SLOT], before[JOB_MAX * JOB_SLOT];
	struct chacha20_job jobs[JOB_MAX];
	size_t j, k, s[JOB_MAX], b[JOB_MAX], off[JOB_MAX];
	bool inplace[JOB_MAX];
	int bad = 0;

	zt_rand(src, sizeof(src));
	zt_rand(dst, sizeof(dst));
	for (j = 0; j < n; j++) {
		size_t len = len_of != JOB_RANDOM_LEN ? len_of :
			     zt_rand_below(2) ? 64 : 1 + zt_rand_below(64);

		s[j] = zt_rand_below(JOB_STREAMS);
		b[j] = zt_rand_below(JOB_BLOCKS);
		off[j] = JOB_SLOT * j + JOB_GUARD + zt_rand_below(JOB_SLOT - 2 * JOB_GUARD - 64 + 1);
		inplace[j] = zt_rand_below(4) == 0;
		job_make(&jobs[j], &st[s[j]], b[j], inplace[j] ? dst + off[j] : src + off[j],
			 dst + off[j], len);
	}
	memcpy(before, dst, sizeof(dst));
	chacha20_jobs(jobs, n);
	for (j = 0; j < n; j++) {
		const uint8_t *in = inplace[j] ? before : src;
		const uint8_t *ks = st[s[j]].ks + 64 * b[j];
		size_t used = jobs[j].len;

		if (used > 64)
			used = 64;
		for (k = 0; k < used; k++)
			bad |= dst[off[j] + k] != (in[off[j] + k] ^ ks[k]);
		/* untouched: the slot's bytes before dst and past what was used */
		bad |= memcmp(dst + JOB_SLOT * j, before + JOB_SLOT * j, off[j] - JOB_SLOT * j) != 0;
		bad |= memcmp(dst + off[j] + used, before + off[j] + used,
			      JOB_SLOT * (j + 1) - off[j] - used) != 0;
	}
	/* and every slot past the last job's */
	bad |= memcmp(dst + JOB_SLOT * n, before + JOB_SLOT * n, sizeof(dst) - JOB_SLOT * n) != 0;
	return bad;
}

static void test_chacha20_jobs(void)
{
	static struct job_stream st[JOB_STREAMS];
	long page = sysconf(_SC_PAGESIZE);
	struct chacha20_job *jobs;
	uint8_t *map, *src, *dst;
	size_t n, len, i;
	int bad, bad_len, bad_odd, bad_edge;

	job_streams(st);
	for (bad = 0, n = 0; n <= JOB_MAX; n++)
		for (i = 0; i < 8; i++)
			bad += jobs_check(st, n, JOB_RANDOM_LEN);
	zt_ok(bad == 0, "chacha20_jobs: 0..%d jobs of %d streams (counters across 2^32 and "
	      "2^64), random lengths, some in place, misaligned, agree with chacha20_crypt and "
	      "write nothing else (%d of %d calls differ)", JOB_MAX, JOB_STREAMS, bad,
	      8 * (JOB_MAX + 1));
	for (bad_len = 0, len = 1; len <= 64; len++)
		for (n = 1; n <= JOB_MAX; n += 1 + (len % 5))
			bad_len += jobs_check(st, n, len);
	zt_ok(bad_len == 0, "chacha20_jobs: every length 1..64 in calls of every job count "
	      "agrees with chacha20_crypt and writes nothing past it (%d calls differ)", bad_len);
	for (bad_odd = 0, n = 1; n <= JOB_MAX; n++)
		bad_odd += jobs_check(st, n, 0) + jobs_check(st, n, 100);
	zt_ok(bad_odd == 0, "chacha20_jobs, outside the contract: len 0 writes nothing, len 100 "
	      "the block's 64 bytes and nothing past them (%d calls differ)", bad_odd);

	/*
	 * The job array, and the last job's src and dst of each length, ending
	 * right before unmapped pages: no access past jobs[n - 1] or past len.
	 */
	map = mmap(NULL, 6 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (map == MAP_FAILED || mprotect(map + page, (size_t)page, PROT_NONE) != 0 ||
	    mprotect(map + 3 * page, (size_t)page, PROT_NONE) != 0 ||
	    mprotect(map + 5 * page, (size_t)page, PROT_NONE) != 0) {
		zt_skip("chacha20_jobs guard pages: mmap or mprotect failed");
		return;
	}
	src = map + page;
	dst = map + 3 * page;
	zt_rand(map, (size_t)page);
	for (bad_edge = 0, len = 1; len <= 64; len++) {
		const struct job_stream *last = &st[len % JOB_STREAMS];

		n = 1 + len % 48;	/* the others' dst below the last one's, in the page */
		jobs = (struct chacha20_job *)(map + 5 * page) - n;
		for (i = 0; i + 1 < n; i++)
			job_make(&jobs[i], &st[i % JOB_STREAMS], i % JOB_BLOCKS, map + 64 * i,
				 map + 2 * page + 64 * i, 64);
		job_make(&jobs[n - 1], last, 0, src - len, dst - len, len);
		chacha20_jobs(jobs, n);
		for (i = 0; i < len; i++)
			bad_edge |= dst[i - len] != (src[i - len] ^ last->ks[i]);
	}
	zt_ok(bad_edge == 0, "chacha20_jobs: the job array (1..48 jobs) and the last job's src "
	      "and dst (every length 1..64) ending at unmapped pages: no access past their ends, "
	      "right keystream");
	munmap(map, 6 * (size_t)page);
}

/*
 * ChaCha20-Poly1305 one-shot, whose key block and data share one ChaCha20
 * pass on the AVX-512 path: every length through 2200 (1..35 blocks after
 * the key block), and around 4096 and 8192 (data filling 32-block passes),
 * with input and output ending right before unmapped pages, and in place.
 */
static void test_aead_first_asm(void)
{
	enum { MAXLEN = 8193 };
	long page = sysconf(_SC_PAGESIZE);
	size_t len, span = 3 * (size_t)page;
	uint8_t key[32], nonce[12], ad[13], *smap, *dmap, *ref, *msg;
	int bad_enc = 0, bad_dec = 0, bad_place = 0, n = 0;

	smap = mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	dmap = mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	ref = malloc(MAXLEN + 16);
	msg = malloc(MAXLEN);
	if (ref == NULL || msg == NULL || smap == MAP_FAILED || dmap == MAP_FAILED || span < MAXLEN + 16 ||
	    mprotect(smap + span, (size_t)page, PROT_NONE) != 0 ||
	    mprotect(dmap + span, (size_t)page, PROT_NONE) != 0) {
		zt_skip("ChaCha20-Poly1305 guard page: mmap, mprotect or malloc failed");
		free(ref);
		free(msg);
		return;
	}
	for (len = 0; len <= MAXLEN; len++) {
		uint8_t *src, *dst;

		if (len > 2200 && (len < 4095 || len > 4097) && len < 8191)
			continue;
		n++;
		zt_rand(key, sizeof(key));
		zt_rand(nonce, sizeof(nonce));
		zt_rand(ad, sizeof(ad));
		zt_rand(msg, len);
		src = smap + span - len;
		memcpy(src, msg, len);
		ossl_aead(ref, src, len, ad, sizeof(ad), nonce, key);
		dst = dmap + span - len - 16;
		chacha20poly1305_encrypt(dst, src, len, ad, sizeof(ad), nonce, key);
		bad_enc += memcmp(dst, ref, len + 16) != 0;
		/* decrypt: ciphertext || tag and plaintext each end at a guard page */
		src = smap + span - len - 16;
		memcpy(src, ref, len + 16);
		dst = dmap + span - len;
		bad_dec += !chacha20poly1305_decrypt(dst, src, len + 16, ad, sizeof(ad), nonce,
						     key) ||
			   memcmp(dst, msg, len) != 0;
		/* in place: ciphertext || tag back to the plaintext */
		bad_place += !chacha20poly1305_decrypt(src, src, len + 16, ad, sizeof(ad), nonce,
						       key) ||
			     memcmp(src, msg, len) != 0;
	}
	zt_ok(bad_enc == 0, "ChaCha20-Poly1305: %d lengths (0..2200, 4095..4097, 8191..8193) "
	      "ending at unmapped pages agree with OpenSSL (%d differ)", n, bad_enc);
	zt_ok(bad_dec == 0, "ChaCha20-Poly1305: those decrypt at unmapped pages (%d fail)", bad_dec);
	zt_ok(bad_place == 0, "ChaCha20-Poly1305: those decrypt in place to the same plaintext "
	      "(%d fail)", bad_place);
	free(ref);
	free(msg);
	munmap(smap, span + (size_t)page);
	munmap(dmap, span + (size_t)page);
}

/* --- BLAKE2s for the assembly: input at a guard page, the counter carry ------- */

/* One compression as RFC 7693 section 3.2 writes it, for the counter test. */
static void b2_ref_compress(uint32_t h[8], const uint8_t blk[64], uint64_t t, bool last)
{
	static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	static const uint8_t sg[10][16] = {
		{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
		{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
		{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
		{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
		{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
		{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
		{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
		{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
		{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
		{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
	};
	static const uint8_t abcd[8][4] = { { 0, 4, 8, 12 }, { 1, 5, 9, 13 }, { 2, 6, 10, 14 },
					    { 3, 7, 11, 15 }, { 0, 5, 10, 15 }, { 1, 6, 11, 12 },
					    { 2, 7, 8, 13 }, { 3, 4, 9, 14 } };
	static const int rot[4] = { 16, 12, 8, 7 };
	uint32_t v[16], m[16];
	size_t i, r, g, k;

	for (i = 0; i < 16; i++)
		m[i] = (uint32_t)blk[4 * i] | (uint32_t)blk[4 * i + 1] << 8 |
		       (uint32_t)blk[4 * i + 2] << 16 | (uint32_t)blk[4 * i + 3] << 24;
	for (i = 0; i < 8; i++) {
		v[i] = h[i];
		v[i + 8] = iv[i];
	}
	v[12] ^= (uint32_t)t;
	v[13] ^= (uint32_t)(t >> 32);
	if (last)
		v[14] = ~v[14];
	for (r = 0; r < 10; r++) {
		for (g = 0; g < 8; g++) {
			uint32_t *a = &v[abcd[g][0]], *b = &v[abcd[g][1]];
			uint32_t *c = &v[abcd[g][2]], *d = &v[abcd[g][3]];

			for (k = 0; k < 2; k++) {
				*a += *b + m[sg[r][2 * g + k]];
				*d ^= *a;
				*d = *d >> rot[2 * k] | *d << (32 - rot[2 * k]);
				*c += *d;
				*b ^= *c;
				*b = *b >> rot[2 * k + 1] | *b << (32 - rot[2 * k + 1]);
			}
		}
	}
	for (i = 0; i < 8; i++)
		h[i] ^= v[i] ^ v[i + 8];
}

/* zinc, in random splits, from a counter of t bytes (as if that much came before). */
static int b2_counter_check(const uint8_t *msg, size_t len, uint64_t t)
{
	struct blake2s_state st;
	uint8_t got[32], want[32], last[64];
	uint32_t h[8];
	size_t off, n, i;

	blake2s_init(&st, 32);
	memcpy(h, st.h, sizeof(h));
	st.t[0] = (uint32_t)t;
	st.t[1] = (uint32_t)(t >> 32);
	for (off = 0; off < len; off += n) {
		n = chunk(len - off);
		blake2s_update(&st, msg + off, n);
	}
	blake2s_final(&st, got);
	for (off = 0; len - off > 64; off += 64) {
		t += 64;
		b2_ref_compress(h, msg + off, t, false);
	}
	memset(last, 0, sizeof(last));
	memcpy(last, msg + off, len - off);
	b2_ref_compress(h, last, t + (len - off), true);
	for (i = 0; i < 8; i++) {
		want[4 * i] = (uint8_t)h[i];
		want[4 * i + 1] = (uint8_t)(h[i] >> 8);
		want[4 * i + 2] = (uint8_t)(h[i] >> 16);
		want[4 * i + 3] = (uint8_t)(h[i] >> 24);
	}
	return memcmp(got, want, 32) != 0;
}

/* 0..200 bytes, then 3..20 blocks -1, +0 and +1 byte. */
static size_t b2_length(size_t i)
{
	if (i <= 200)
		return i;
	i -= 201;
	return 64 * (i / 3 + 3) + i % 3 - 1;
}

#define B2_LENGTHS (201 + 3 * 18)

static void test_blake2s_asm(void)
{
	static const uint64_t counters[] = {
		0xffffffc0, 0xffffff80, 0xffffff01, 0xfffffffe, 0x1ffffffc0, 0xffffffffffffff00u,
	};
	long page = sysconf(_SC_PAGESIZE);
	size_t i, j, len;
	uint8_t *map, *in;
	int bad = 0;

	/* Input ending right before an unmapped page: no read past the end. */
	map = mmap(NULL, 3 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (map == MAP_FAILED || mprotect(map + 2 * page, (size_t)page, PROT_NONE) != 0) {
		zt_skip("BLAKE2s guard page: mmap or mprotect failed");
	} else {
		int bad_mac = 0;

		zt_rand(map, 2 * (size_t)page);
		for (i = 0; i < B2_LENGTHS; i++) {
			uint8_t key[32], salt[8], personal[8], got[32], ref[32];
			struct blake2s_state st;
			size_t off, n, kl, ol;

			len = b2_length(i);
			in = map + 2 * page - len;
			blake2s(got, in, NULL, 32, len, 0);
			ossl_blake2s256(ref, in, len);
			bad += memcmp(got, ref, 32) != 0;

			kl = 1 + zt_rand_below(32);
			ol = 1 + zt_rand_below(32);
			zt_rand(key, kl);
			zt_rand(salt, 8);
			zt_rand(personal, 8);
			blake2s_init_param(&st, ol, key, kl, salt, personal);
			for (off = 0; off < len; off += n) {
				n = chunk(len - off);
				blake2s_update(&st, in + off, n);
			}
			blake2s_final(&st, got);
			ossl_mac("BLAKE2SMAC", ref, ol, in, len, key, kl, salt, personal);
			bad_mac += memcmp(got, ref, ol) != 0;
		}
		zt_ok(bad == 0 && bad_mac == 0, "BLAKE2s: input ending at an unmapped page, "
		      "lengths 0..200 and 3..20 blocks +-1, BLAKE2S-256 one-shot and keyed, salted "
		      "and personalised in random splits agree with OpenSSL (%d, %d differ)",
		      bad, bad_mac);
		munmap(map, 3 * (size_t)page);
	}

	/* The 64-bit counter t across 2^32 and 2^64 within one call. */
	in = malloc((size_t)64 * 11);	/* the longest case: 10 blocks and a byte */
	if (in == NULL)
		die("out of memory");
	zt_rand(in, (size_t)64 * 11);
	for (bad = 0, i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		for (j = 0; j < 40; j++) {
			len = j < 20 ? 64 * (j / 2 + 1) + j % 2 : 1 + zt_rand_below((size_t)64 * 9);
			bad += b2_counter_check(in, len, counters[i]);
		}
	zt_ok(bad == 0, "BLAKE2s: counters carried across 2^32 and 2^64 in a call agree with an "
	      "RFC 7693 reference compression, 240 cases (%d differ)", bad);
	free(in);
}

/*
 * The vector paths' tables of powers of r, computed on a context's first
 * long input: many keys, each word of r now and then at the most the clamp
 * allows, at the lengths where each path starts on a fresh context and one
 * long enough for its main loop.
 */
static void test_poly1305_powers(void)
{
	static const size_t lens[] = { 256, 512, 2048 };
	static const uint8_t rmax[16] = { 0xff, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
					  0xfc, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f };
	static uint8_t msg[2048];
	uint8_t key[32], got[16], ref[16];
	size_t i, j, w;
	int bad = 0;

	zt_rand(msg, sizeof(msg));
	for (i = 0; i < 1000; i++) {
		zt_rand(key, 32);
		for (w = 0; w < 4; w++)
			if (i & (1u << w))
				memcpy(key + 4 * w, rmax + 4 * w, 4);
		for (j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			poly1305(got, msg, lens[j], key);
			ossl_mac("POLY1305", ref, 16, msg, lens[j], key, 32, NULL, NULL);
			bad += memcmp(got, ref, 16) != 0;
		}
	}
	zt_ok(bad == 0, "Poly1305: 1000 keys (words of r at the clamp's maximum now and then) "
	      "at 256, 512 and 2048 bytes agree with OpenSSL (%d differ)", bad);
}

int main(void)
{
	zinc_init();
	zt_diag("implementations: chacha20 %s, poly1305 %s, blake2s %s; cpu: %s",
		chacha20_implementation(), poly1305_implementation(),
		blake2s_implementation(), zinc_cpu_features_string());
	zt_ok(*chacha20_implementation() && *poly1305_implementation() &&
	      *blake2s_implementation(), "every primitive names its implementation");

	test_chacha20_kats();
	test_chacha20_counter_carry();
	test_chacha20_set_iv();
	test_hchacha20();
	test_poly1305_kats();
	test_poly1305_edges();
	test_blake2s();
	test_aead_kats();
	test_wycheproof("wycheproof/testvectors_v1/chacha20_poly1305_test.json", false);
	test_wycheproof("wycheproof/testvectors_v1/xchacha20_poly1305_test.json", true);
	test_aead_misuse(false);
	test_aead_misuse(true);
	test_streaming();
	test_poly1305_asm();
	test_poly1305_many();
	test_chacha20_asm();
	test_chacha20_jobs();
	test_aead_first_asm();
	test_blake2s_asm();
	test_poly1305_powers();
	return zt_done();
}
