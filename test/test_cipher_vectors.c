/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Published vectors for zinc's ChaCha20, ChaCha20-Poly1305 and
 * XChaCha20-Poly1305: RFC 8439, the XChaCha draft, and at run time the
 * shared suites (Wycheproof, OpenSSL's evpciph_chacha.txt, libsodium).
 * The vectors typed here are also run through OpenSSL's default provider
 * (XChaCha through an HChaCha20 computed with default's ChaCha20), so that
 * a transcription error shows up as a disagreement with the oracle.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include "testutil.h"

static EVP_CIPHER *zinc_chacha20, *zinc_aead, *zinc_xaead;
static EVP_CIPHER *default_chacha20, *default_aead;

static EVP_CIPHER *fetch(OSSL_LIB_CTX *libctx, const char *name)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, NULL);

	if (c == NULL) {
		printf("Bail out! cannot fetch %s\n", name);
		ERR_print_errors_fp(stdout);
		exit(99);
	}
	return c;
}

/*
 * One whole AEAD operation.  Encryption: out = ciphertext, tag written.
 * Decryption: tag is the expected one.  Updates are one-shot, or one byte
 * at a time when bytewise is set.  Returns 1 on success; on failure,
 * *stage says where: 1 init, 2 update, 3 final.
 */
static int aead_op(const EVP_CIPHER *c, int enc, const unsigned char *key, size_t keylen,
		   const unsigned char *iv, size_t ivlen, const unsigned char *aad, size_t aadlen,
		   const unsigned char *in, size_t len, unsigned char *out,
		   unsigned char *tag, size_t taglen, int bytewise, int *stage)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	size_t i, step = bytewise ? 1 : (len > 0 ? len : 1);
	int outl, ok = 0;

	*stage = 1;
	if (ctx == NULL || !EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL))
		goto out;
	/* Lengths the cipher does not take are set first: the init then cannot over-read. */
	if (keylen != (size_t)EVP_CIPHER_CTX_get_key_length(ctx)) {
		params[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen);
		if (!EVP_CIPHER_CTX_set_params(ctx, params))
			goto out;
	}
	if (ivlen != (size_t)EVP_CIPHER_CTX_get_iv_length(ctx)) {
		params[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen);
		if (!EVP_CIPHER_CTX_set_params(ctx, params))
			goto out;
	}
	if (!EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL))
		goto out;
	if (!enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, tag))
		goto out;
	*stage = 2;
	if (aadlen > 0 && !EVP_CipherUpdate(ctx, NULL, &outl, aad, (int)aadlen))
		goto out;
	for (i = 0; i < len; i += step) {
		size_t n = len - i < step ? len - i : step;

		if (!EVP_CipherUpdate(ctx, out + i, &outl, in + i, (int)n) || (size_t)outl != n)
			goto out;
	}
	*stage = 3;
	if (!EVP_CipherFinal_ex(ctx, out + len, &outl) || outl != 0)
		goto out;
	if (enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag))
		goto out;
	ok = 1;
out:
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/* ChaCha20 over len bytes, in pieces of step bytes. */
static int chacha20_op(const EVP_CIPHER *c, const unsigned char *key, const unsigned char *iv,
		       const unsigned char *in, size_t len, unsigned char *out, size_t step)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	size_t i;
	int outl, ok = 0;

	if (ctx == NULL || !EVP_EncryptInit_ex2(ctx, c, key, iv, NULL))
		goto out;
	for (i = 0; i < len; i += step) {
		size_t n = len - i < step ? len - i : step;

		if (!EVP_EncryptUpdate(ctx, out + i, &outl, in + i, (int)n) || (size_t)outl != n)
			goto out;
	}
	ok = EVP_EncryptFinal_ex(ctx, out + len, &outl) && outl == 0;
out:
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/*
 * HChaCha20 from default's ChaCha20: with the IV set to the 16-byte HChaCha
 * input, the state is constants, key, input; a keystream block is the
 * permuted state plus that state, so subtracting the constants and the
 * input from words 0-3 and 12-15 leaves HChaCha20's output.
 */
static void hchacha20_via_default(unsigned char out[32], const unsigned char key[32],
				  const unsigned char in[16])
{
	static const unsigned char sigma[16] = "expand 32-byte k";
	unsigned char zero[64] = { 0 }, block[64];
	size_t w;

	if (!chacha20_op(default_chacha20, key, in, zero, 64, block, 64)) {
		printf("Bail out! default ChaCha20 failed\n");
		exit(99);
	}
	for (w = 0; w < 8; w++) {
		const unsigned char *ks = block + (w < 4 ? 4 * w : 4 * (w + 8));
		const unsigned char *st = w < 4 ? sigma + 4 * w : in + 4 * (w - 4);
		uint32_t k = (uint32_t)ks[0] | (uint32_t)ks[1] << 8 | (uint32_t)ks[2] << 16 |
			     (uint32_t)ks[3] << 24;
		uint32_t s = (uint32_t)st[0] | (uint32_t)st[1] << 8 | (uint32_t)st[2] << 16 |
			     (uint32_t)st[3] << 24;
		uint32_t v = k - s;

		out[4 * w] = (unsigned char)v;
		out[4 * w + 1] = (unsigned char)(v >> 8);
		out[4 * w + 2] = (unsigned char)(v >> 16);
		out[4 * w + 3] = (unsigned char)(v >> 24);
	}
}

/* XChaCha20-Poly1305 encryption with default: HChaCha20 subkey, 0^4 || nonce[16..23]. */
static int xaead_encrypt_via_default(const unsigned char key[32], const unsigned char nonce[24],
				     const unsigned char *aad, size_t aadlen,
				     const unsigned char *in, size_t len, unsigned char *out,
				     unsigned char tag[16])
{
	unsigned char subkey[32], iv[12] = { 0 };
	int stage;

	hchacha20_via_default(subkey, key, nonce);
	memcpy(iv + 4, nonce + 16, 8);
	return aead_op(default_aead, 1, subkey, 32, iv, 12, aad, aadlen, in, len, out, tag, 16, 0,
		       &stage);
}

static const char sunscreen[] =
	"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for "
	"the future, sunscreen would be it.";

static void check_hex_eq(const unsigned char *got, size_t len, const char *hex, const char *what)
{
	size_t n;
	unsigned char *want = zt_unhex(hex, &n);

	zt_mem_eq(got, len, want, n, "%s", what);
	free(want);
}

/* RFC 8439 2.4.2: ChaCha20 encryption, counter 1. */
static void test_rfc8439_chacha20(void)
{
	static const char *ct =
		"6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
		"f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
		"07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
		"5af90bbf74a35be6b40b8eedf2785e42874d";
	size_t n, len = strlen(sunscreen);
	unsigned char *key = zt_unhex("000102030405060708090a0b0c0d0e0f"
				      "101112131415161718191a1b1c1d1e1f", &n);
	unsigned char *iv = zt_unhex("01000000000000000000004a00000000", &n);
	unsigned char out[sizeof(sunscreen)];

	const unsigned char *pt = (const unsigned char *)sunscreen;

	zt_ok(chacha20_op(default_chacha20, key, iv, pt, len, out, len),
	      "RFC 8439 2.4.2: default runs");
	check_hex_eq(out, len, ct, "RFC 8439 2.4.2: default agrees with the typed vector");
	zt_ok(chacha20_op(zinc_chacha20, key, iv, pt, len, out, len),
	      "RFC 8439 2.4.2: zinc runs");
	check_hex_eq(out, len, ct, "RFC 8439 2.4.2: zinc ChaCha20 one-shot");
	zt_ok(chacha20_op(zinc_chacha20, key, iv, pt, len, out, 1),
	      "RFC 8439 2.4.2: zinc runs bytewise");
	check_hex_eq(out, len, ct, "RFC 8439 2.4.2: zinc ChaCha20 bytewise");
	free(key);
	free(iv);
}

struct aead_vector {
	const char *name, *key, *iv, *aad, *pt_hex, *ct, *tag;
	const char *pt_ascii;
};

static void run_typed_aead(const struct aead_vector *v, const EVP_CIPHER *zc, int oracle)
{
	size_t klen, ivlen, alen, clen, tlen, plen;
	unsigned char *key = zt_unhex(v->key, &klen), *iv = zt_unhex(v->iv, &ivlen);
	unsigned char *aad = zt_unhex(v->aad, &alen), *ct = zt_unhex(v->ct, &clen);
	unsigned char *tag = zt_unhex(v->tag, &tlen);
	unsigned char *pt = v->pt_ascii != NULL ? (unsigned char *)strdup(v->pt_ascii)
						: zt_unhex(v->pt_hex, &plen);
	unsigned char *out = malloc(clen + 1), otag[16];
	int stage, bytewise;

	if (v->pt_ascii != NULL)
		plen = strlen(v->pt_ascii);
	if (oracle == 1) {
		zt_ok(aead_op(default_aead, 1, key, klen, iv, ivlen, aad, alen, pt, plen, out,
			      otag, 16, 0, &stage), "%s: default encrypts", v->name);
		zt_mem_eq(out, plen, ct, clen, "%s: default agrees with the typed ciphertext",
			  v->name);
		zt_mem_eq(otag, 16, tag, tlen, "%s: default agrees with the typed tag", v->name);
	} else if (oracle == 2) {
		zt_ok(xaead_encrypt_via_default(key, iv, aad, alen, pt, plen, out, otag),
		      "%s: default (HChaCha20 subkey) encrypts", v->name);
		zt_mem_eq(out, plen, ct, clen,
			  "%s: default with an HChaCha20 subkey agrees with the typed ciphertext",
			  v->name);
		zt_mem_eq(otag, 16, tag, tlen,
			  "%s: default with an HChaCha20 subkey agrees with the typed tag",
			  v->name);
	}
	for (bytewise = 0; bytewise <= 1; bytewise++) {
		const char *how = bytewise ? "bytewise" : "one-shot";

		memset(out, 0, clen + 1);
		zt_ok(aead_op(zc, 1, key, klen, iv, ivlen, aad, alen, pt, plen, out, otag, 16,
			      bytewise, &stage), "%s: zinc encrypts (%s)", v->name, how);
		zt_mem_eq(out, plen, ct, clen, "%s: zinc ciphertext (%s)", v->name, how);
		zt_mem_eq(otag, 16, tag, tlen, "%s: zinc tag (%s)", v->name, how);
		memset(out, 0, clen + 1);
		zt_ok(aead_op(zc, 0, key, klen, iv, ivlen, aad, alen, ct, clen, out, tag, tlen,
			      bytewise, &stage),
		      "%s: zinc decrypts and verifies (%s)", v->name, how);
		zt_mem_eq(out, clen, pt, plen, "%s: zinc plaintext (%s)", v->name, how);
	}
	tag[0] ^= 0x80;
	zt_ok(!aead_op(zc, 0, key, klen, iv, ivlen, aad, alen, ct, clen, out, tag, tlen, 0,
		       &stage) && stage == 3,
	      "%s: zinc's final refuses a tag with one bit flipped", v->name);
	ERR_clear_error();
	free(key);
	free(iv);
	free(aad);
	free(ct);
	free(tag);
	free(pt);
	free(out);
}

static void test_typed_aead(void)
{
	static const struct aead_vector rfc_2_8_2 = {
		"RFC 8439 2.8.2",
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
		"070000004041424344454647", "50515253c0c1c2c3c4c5c6c7", NULL,
		"d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
		"3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
		"92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
		"3ff4def08e4b7a9de576d26586cec64b6116",
		"1ae10b594f09e26a7e902ecbd0600691", sunscreen
	};
	static const struct aead_vector rfc_a_5 = {
		"RFC 8439 A.5",
		"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
		"000000000102030405060708", "f33388860000000000004e91", NULL,
		"64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb2"
		"4c6cfc18755d43eea09ee94e382d26b0bdb7b73c321b0100d4f03b7f355894cf"
		"332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855"
		"9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4"
		"b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523e"
		"af4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a"
		"0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a10"
		"49e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29"
		"a6ad5cb4022b02709b",
		"eead9d67890cbb22392336fea1851f38",
		"Internet-Drafts are draft documents valid for a maximum of six months and may be "
		"updated, replaced, or obsoleted by other documents at any time. It is "
		"inappropriate to use Internet-Drafts as reference material or to cite them "
		"other than as /\xe2\x80\x9cwork in progress./\xe2\x80\x9d"
	};
	static const struct aead_vector xchacha_a_3_1 = {
		"draft-irtf-cfrg-xchacha A.3.1",
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
		"404142434445464748494a4b4c4d4e4f5051525354555657", "50515253c0c1c2c3c4c5c6c7",
		NULL,
		"bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
		"731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
		"2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
		"21f9664c97637da9768812f615c68b13b52e",
		"c0875924c1c7987947deafd8780acf49", sunscreen
	};

	run_typed_aead(&rfc_2_8_2, zinc_aead, 1);
	run_typed_aead(&rfc_a_5, zinc_aead, 1);
	run_typed_aead(&xchacha_a_3_1, zinc_xaead, 2);
}

/* --- the shared suites ----------------------------------------------------- */

static const EVP_CIPHER *zinc_cipher_named(const char *name)
{
	if (strcasecmp(name, "chacha20") == 0)
		return zinc_chacha20;
	if (strcasecmp(name, "chacha20-poly1305") == 0)
		return zinc_aead;
	if (strcasecmp(name, "xchacha20-poly1305") == 0)
		return zinc_xaead;
	return NULL;
}

static unsigned char *bytes_or_empty(const struct zt_stanza *s, const char *key, size_t *len)
{
	unsigned char *b = zt_stanza_bytes(s, key, len);

	if (b == NULL) {
		*len = 0;
		b = zt_unhex("", len);
	}
	return b;
}

/*
 * One AEAD stanza.  expect: "valid" must encrypt to Ciphertext || Tag and
 * decrypt back; "invalid" must fail (a wrong nonce length already at
 * init); "acceptable" may fail, but if it succeeds the output must match.
 * decrypt_only (evp_test's Operation = DECRYPT) skips encryption.
 */
static void run_aead_stanza(const struct zt_stanza *s, const EVP_CIPHER *c, const char *label,
			    const char *expect, int decrypt_only)
{
	size_t klen, ivlen, alen, plen, clen, tlen, ivwant = (size_t)EVP_CIPHER_get_iv_length(c);
	unsigned char *key = bytes_or_empty(s, "Key", &klen), *iv = bytes_or_empty(s, "IV", &ivlen);
	unsigned char *aad = bytes_or_empty(s, "AAD", &alen);
	unsigned char *pt = bytes_or_empty(s, "Plaintext", &plen);
	unsigned char *ct = bytes_or_empty(s, "Ciphertext", &clen);
	unsigned char *tag = bytes_or_empty(s, "Tag", &tlen);
	const char *inplace = zt_stanza_get(s, "InPlace");
	unsigned char *out = malloc(plen + clen + 1), otag[16];
	int stage, enc_ok = 1, dec_ok, refused_by_tag, valid = strcmp(expect, "valid") == 0;
	const char *reason;

	if (klen != 32 || ivlen != ivwant || tlen == 0 || tlen > 16) {
		/* Parameters the cipher cannot take: refused, whatever the vector says. */
		dec_ok = aead_op(c, 0, key, klen, iv, ivlen, aad, alen, ct, clen, out, tag, tlen, 0,
				 &stage);
		reason = zt_zinc_reason();
		zt_ok(!valid && !dec_ok && stage == 1 && reason != NULL,
		      "%s: key/IV/tag of %zu/%zu/%zu bytes refused at init (%s), vector says %s",
		      label, klen, ivlen, tlen, reason != NULL ? reason : "no zinc reason", expect);
		goto out;
	}
	if (!decrypt_only) {
		if (inplace != NULL && strcmp(inplace, "1") == 0) {
			memcpy(out, pt, plen);
			enc_ok = aead_op(c, 1, key, klen, iv, ivlen, aad, alen, out, plen, out,
					 otag, 16, 0, &stage);
		} else {
			enc_ok = aead_op(c, 1, key, klen, iv, ivlen, aad, alen, pt, plen, out,
					 otag, 16, 0, &stage);
		}
		enc_ok = enc_ok && plen == clen && memcmp(out, ct, clen) == 0 &&
			 memcmp(otag, tag, tlen) == 0;
	}
	dec_ok = aead_op(c, 0, key, klen, iv, ivlen, aad, alen, ct, clen, out, tag, tlen, 0,
			 &stage);
	reason = zt_zinc_reason();
	/* A refusal must come from the tag check at final, not from anywhere else. */
	refused_by_tag = !dec_ok && stage == 3 && reason != NULL &&
			 strcmp(reason, "tag mismatch: the message is not authentic") == 0;
	dec_ok = dec_ok && plen == clen && memcmp(out, pt, plen) == 0;
	if (valid)
		zt_ok(enc_ok && dec_ok, "%s: valid: %s encrypts to it and decrypts it", label,
		      decrypt_only ? "(decrypt only)" : "zinc");
	else if (strcmp(expect, "acceptable") == 0)
		zt_ok(dec_ok ? enc_ok : refused_by_tag, "%s: acceptable: %s", label,
		      dec_ok ? "accepted, with the expected output" : "refused");
	else
		zt_ok(refused_by_tag && (decrypt_only || !enc_ok),
		      "%s: invalid: decryption's final refuses it", label);
out:
	free(key);
	free(iv);
	free(aad);
	free(pt);
	free(ct);
	free(tag);
	free(out);
}

/* A stanza from JSON fields, for run_aead_stanza(); 0 if a field is absent. */
static int json_stanza(struct zt_stanza *s, const char *const *kv, size_t n)
{
	size_t i;

	zt_stanza_free(s);
	for (i = 0; i < n; i += 2) {
		if (kv[i + 1] == NULL)
			return 0;
		s->key[s->n] = strdup(kv[i]);
		s->value[s->n] = strdup(kv[i + 1]);
		if (s->key[s->n] == NULL || s->value[s->n] == NULL)
			exit(99);
		s->n++;
	}
	return 1;
}

/* Wycheproof's AEAD tests: testGroups[].tests[], the nonce size in the group. */
static unsigned int run_wycheproof_aead(const char *relative, const struct zt_json *json,
					unsigned int *malformed)
{
	const char *alg = zt_json_str(json, "algorithm");
	const char *name = alg != NULL && strcmp(alg, "XCHACHA20-POLY1305") == 0
			   ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305";
	const EVP_CIPHER *c = zinc_cipher_named(name);
	struct zt_wycheproof it = { 0 };
	struct zt_stanza s = { 0 };
	const struct zt_json *t;
	unsigned int n = 0;

	while ((t = zt_wycheproof_next(json, &it)) != NULL) {
		const char *kv[] = {
			"Key", zt_json_str(t, "key"), "IV", zt_json_str(t, "iv"),
			"AAD", zt_json_str(t, "aad"), "Plaintext", zt_json_str(t, "msg"),
			"Ciphertext", zt_json_str(t, "ct"), "Tag", zt_json_str(t, "tag")
		};
		const char *result = zt_json_str(t, "result");
		char label[256];

		snprintf(label, sizeof(label), "%s tcId %ld (%s)", relative,
			 zt_json_long(t, "tcId"), name);
		if (result == NULL || !json_stanza(&s, kv, sizeof(kv) / sizeof(kv[0]))) {
			zt_ok(0, "%s: a field is missing", label);
			(*malformed)++;
			continue;
		}
		run_aead_stanza(&s, c, label, result, 0);
		n++;
	}
	zt_stanza_free(&s);
	return n;
}

/* The bytes of libsodium's .exp output ("0xNN" each), as hex. */
static char *exp_hex(const char *path)
{
	char *text = zt_read_file(path, NULL), *hex;
	const char *p;
	size_t n = 0;

	if (text == NULL)
		return NULL;
	hex = malloc(strlen(text) + 1);
	if (hex == NULL)
		exit(99);
	for (p = text; (p = strstr(p, "0x")) != NULL; p += 2)
		if (isxdigit((unsigned char)p[2]) && isxdigit((unsigned char)p[3])) {
			hex[n++] = (char)tolower((unsigned char)p[2]);
			hex[n++] = (char)tolower((unsigned char)p[3]);
		}
	hex[n] = '\0';
	free(text);
	return hex;
}

/*
 * libsodium's XChaCha20-Poly1305 vector: its three encryptions (with AD,
 * without, without in place), each as ciphertext || tag; with the .exp
 * file, libsodium's own three outputs again, so that the JSON
 * transcription is checked against them.
 */
#define MAX_MSG 1024
static unsigned int run_libsodium_aead(const char *relative, const struct zt_json *json,
				       const char *exp, unsigned int *malformed)
{
	static const char *const cases[3][3] = {
		{ "with AD", "ciphertext_with_tag_with_ad", "0" },
		{ "no AD", "ciphertext_with_tag_no_ad", "0" },
		{ "no AD, in place", "ciphertext_with_tag_no_ad_inplace", "1" }
	};
	const char *msg = zt_json_str(json, "message");
	size_t mlen = msg != NULL ? strlen(msg) : 0;
	char *from_exp = exp != NULL ? exp_hex(exp) : NULL;
	struct zt_stanza s = { 0 };
	unsigned int n = 0;
	int round, i;

	if (msg == NULL || mlen > 2 * MAX_MSG) {
		zt_ok(0, "%s: no message, or one longer than %d bytes", relative, MAX_MSG);
		(*malformed)++;
		free(from_exp);
		return 0;
	}
	if (exp != NULL && (from_exp == NULL || strlen(from_exp) != 3 * (mlen + 32))) {
		zt_ok(0, "%s: expected 3 outputs of %zu bytes", exp, mlen / 2 + 16);
		(*malformed)++;
		free(from_exp);
		from_exp = NULL;
	}
	for (round = 0; round < (from_exp != NULL ? 2 : 1); round++)
		for (i = 0; i < 3; i++) {
			/* A slice of the .exp bytes; the JSON's whole string. */
			const char *ct = round == 0 ? zt_json_str(json, cases[i][1])
						    : from_exp + (size_t)i * (mlen + 32);
			int ct_ok = ct != NULL && (round == 1 || strlen(ct) == mlen + 32);
			char ct_hex[2 * MAX_MSG + 33], label[256];
			const char *kv[] = {
				"Key", zt_json_str(json, "key"), "IV", zt_json_str(json, "nonce"),
				"AAD", i == 0 ? zt_json_str(json, "ad") : "", "Plaintext", msg,
				"InPlace", cases[i][2], "Ciphertext", ct_hex, "Tag", ct_hex + mlen + 1
			};

			snprintf(label, sizeof(label), "%s libsodium tv, %s, %s (XChaCha20-Poly1305)",
				 relative, round == 0 ? "JSON" : ".exp", cases[i][0]);
			if (ct_ok) {
				/* "ciphertext\0tag" */
				memcpy(ct_hex, ct, mlen);
				ct_hex[mlen] = '\0';
				memcpy(ct_hex + mlen + 1, ct + mlen, 32);
				ct_hex[mlen + 33] = '\0';
			}
			if (!ct_ok || !json_stanza(&s, kv, sizeof(kv) / sizeof(kv[0]))) {
				zt_ok(0, "%s: not ciphertext || 16-byte tag, or a field is missing",
				      label);
				(*malformed)++;
				continue;
			}
			run_aead_stanza(&s, zinc_xaead, label, "valid", 0);
			n++;
		}
	zt_stanza_free(&s);
	free(from_exp);
	return n;
}

/* The JSON suites: Wycheproof's, and libsodium's vector with its .exp. */
static void run_json_suite(const char *relative, const char *exp_relative)
{
	char *path = zt_vector_path(relative), *exp = NULL;
	unsigned int n = 0, malformed = 0;
	struct zt_json *json;
	long declared = -1;

	if (path == NULL)
		return;
	if (exp_relative != NULL)
		exp = zt_vector_path(exp_relative);
	json = zt_json_load(path);
	if (zt_json_get(json, "testGroups") != NULL) {
		declared = zt_json_long(json, "numberOfTests");
		n = run_wycheproof_aead(relative, json, &malformed);
	} else if (zt_json_get(json, "ciphertext_with_tag_with_ad") != NULL) {
		n = run_libsodium_aead(relative, json, exp, &malformed);
		declared = exp != NULL ? 6 : 3;	/* three encryptions, from .exp again */
	}
	zt_ok(n > 0 && (long)n == declared && malformed == 0,
	      "%s: %u vectors read, as the file says (%ld)", relative, n, declared);
	zt_json_free(json);
	free(exp);
	free(path);
}

/* OpenSSL's evp_test stanzas for chacha20 and chacha20-poly1305. */
static void run_evpciph_chacha(void)
{
	char *path = zt_vector_path("openssl/30-test_evp_data/evpciph_chacha.txt");
	struct zt_stanza s = { 0 };
	unsigned int n = 0;
	FILE *f;

	if (path == NULL)
		return;
	f = fopen(path, "r");
	if (f == NULL) {
		zt_ok(0, "cannot open %s", path);
		free(path);
		return;
	}
	while (zt_stanza_next(f, &s)) {
		const char *name = zt_stanza_get(&s, "Cipher");
		const char *result = zt_stanza_get(&s, "Result");
		const char *op = zt_stanza_get(&s, "Operation");
		const EVP_CIPHER *c = name != NULL ? zinc_cipher_named(name) : NULL;
		int decrypt_only = op != NULL && strcmp(op, "DECRYPT") == 0;
		char label[128];

		if (name == NULL)
			continue;	/* Title */
		snprintf(label, sizeof(label), "evpciph_chacha.txt line %d (%s)", s.line, name);
		if (c == NULL) {
			zt_ok(0, "%s: unknown cipher", label);
			continue;
		}
		n++;
		if (c == zinc_chacha20) {
			size_t klen, ivlen, plen, clen;
			unsigned char *key = bytes_or_empty(&s, "Key", &klen);
			unsigned char *iv = bytes_or_empty(&s, "IV", &ivlen);
			unsigned char *pt = bytes_or_empty(&s, "Plaintext", &plen);
			unsigned char *ct = bytes_or_empty(&s, "Ciphertext", &clen);
			unsigned char *out = malloc(plen + clen + 1);
			int ok = klen == 32 && ivlen == 16 && plen == clen;

			ok = ok && chacha20_op(c, key, iv, pt, plen, out, plen ? plen : 1) &&
			     memcmp(out, ct, clen) == 0;
			ok = ok && chacha20_op(c, key, iv, ct, clen, out, 7) &&
			     memcmp(out, pt, plen) == 0;
			zt_ok(ok, "%s: encrypts one-shot and decrypts in 7-byte pieces", label);
			free(key);
			free(iv);
			free(pt);
			free(ct);
			free(out);
			continue;
		}
		if (result == NULL) {
			size_t ivlen;
			unsigned char *iv = bytes_or_empty(&s, "IV", &ivlen);

			free(iv);
			if (ivlen != 12) {
				zt_skip("%s: %zu-byte IV, which only later OpenSSL zero-pads; "
					"OpenSSL 3.0 (and zinc) take 12 bytes only "
					"(PROVIDER-FACTS)", label, ivlen);
				continue;
			}
			run_aead_stanza(&s, c, label, "valid", decrypt_only);
		} else if (strcmp(result, "CIPHERFINAL_ERROR") == 0 ||
			   strcmp(result, "INVALID_IV_LENGTH") == 0) {
			run_aead_stanza(&s, c, label, "invalid", decrypt_only);
		} else {
			zt_ok(0, "%s: unexpected Result = %s", label, result);
		}
	}
	zt_ok(n > 0, "evpciph_chacha.txt: %u cipher stanzas read", n);
	zt_stanza_free(&s);
	fclose(f);
	free(path);
}

/* The oracle's HChaCha20 itself, against libsodium's HChaCha20 vectors. */
static void check_hchacha20_oracle(void)
{
	char *path = zt_vector_path("libsodium/hchacha20_tv.json");
	const struct zt_json *vectors, *v;
	struct zt_json *json;
	size_t n = 0, bad = 0;

	if (path == NULL)
		return;
	json = zt_json_load(path);
	vectors = zt_json_get(json, "vectors");
	v = vectors != NULL && vectors->type == ZT_JSON_ARRAY ? vectors->child : NULL;
	for (; v != NULL; v = v->next) {
		unsigned char *k, *in, *want;
		size_t kl = 0, il = 0, ol = 0;

		k = zt_json_hex(v, "key", &kl);
		in = zt_json_hex(v, "input", &il);
		want = zt_json_hex(v, "output", &ol);
		if (kl != 32 || il != 16 || ol != 32) {
			bad++;
		} else {
			unsigned char got[32];

			hchacha20_via_default(got, k, in);
			bad += memcmp(got, want, 32) != 0;
		}
		n++;
		free(k);
		free(in);
		free(want);
	}
	zt_ok(n >= 5 && bad == 0,
	      "HChaCha20 from default's ChaCha20 matches libsodium's %zu vectors (%zu bad)",
	      n, bad);
	zt_json_free(json);
	free(path);
}

int main(void)
{
	zinc_chacha20 = fetch(zt_zinc_ctx(), "ChaCha20");
	zinc_aead = fetch(zt_zinc_ctx(), "ChaCha20-Poly1305");
	zinc_xaead = fetch(zt_zinc_ctx(), "XChaCha20-Poly1305");
	default_chacha20 = fetch(zt_default_ctx(), "ChaCha20");
	default_aead = fetch(zt_default_ctx(), "ChaCha20-Poly1305");

	test_rfc8439_chacha20();
	check_hchacha20_oracle();
	test_typed_aead();
	run_evpciph_chacha();
	run_json_suite("wycheproof/testvectors_v1/chacha20_poly1305_test.json", NULL);
	run_json_suite("wycheproof/testvectors_v1/xchacha20_poly1305_test.json", NULL);
	run_json_suite("libsodium/aead_xchacha20poly1305_tv.json",
		       "libsodium/test/default/aead_xchacha20poly1305.exp");

	EVP_CIPHER_free(zinc_chacha20);
	EVP_CIPHER_free(zinc_aead);
	EVP_CIPHER_free(zinc_xaead);
	EVP_CIPHER_free(default_chacha20);
	EVP_CIPHER_free(default_aead);
	return zt_done();
}
