/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Misuse of zinc's ChaCha20, ChaCha20-Poly1305 and XChaCha20-Poly1305:
 * every case must fail cleanly, with zinc's reason, without a crash, and
 * without writing past the output (a canary follows every output buffer).
 * Where zinc is deliberately stricter than OpenSSL 3.0's default provider,
 * the comment says what default does.  Some cases cannot be reached
 * through EVP (EVP always passes the context's own key and IV lengths, and
 * an int length); those call zinc's dispatch table directly, as the core
 * would.  Two uses default accepts, zinc accepts too, with default's
 * results: tags shorter than 16 bytes, and overlapping buffers.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "zinc/chacha20poly1305.h"
#include "testutil.h"

#define R_KEYLEN	"invalid key length"
#define R_IVLEN		"invalid iv length"
#define R_TAGLEN	"invalid tag length"
#define R_MISMATCH	"tag mismatch: the message is not authentic"
#define R_NO_TAG	"no tag was set before decryption's final"
#define R_NO_TAG_YET	"the tag is available only after encryption's final"
#define R_NO_KEY	"no key set"
#define R_NO_IV		"no iv set"
#define R_AAD_LATE	"additional data must come before the message"
#define R_AFTER_FINAL	"update or final after final"
#define R_LIMIT		"too much data for one nonce"
#define R_OUT_SMALL	"output buffer too small"
#define R_INLEN		"invalid input length"
#define R_TLS_AAD	"invalid TLS additional data"
#define R_GET		"failed to get parameter"
#define R_SET		"failed to set parameter"
#define R_NULL		"null argument"
#define R_MODE		"operation not supported in this mode"

#define CANARY 0xa5
#define BUF 512

static unsigned char key[32], iv[24], aad[13], pt[BUF];
static unsigned char out[BUF + 64];

static void bail(const char *what)
{
	printf("Bail out! %s\n", what);
	ERR_print_errors_fp(stdout);
	exit(99);
}

/* A failure: a return value <= 0 and zinc's reason on the error queue (which it clears). */
static int fails_with(int ret, const char *want, const char *what, const char *name)
{
	const char *got = zt_zinc_reason();

	return zt_ok(ret <= 0 && got != NULL && strcmp(got, want) == 0,
		     "%s: %s fails with \"%s\" (returned %d, reason: %s)", name, what, want, ret,
		     got != NULL ? got : "none from zinc");
}

static void reset_out(void)
{
	memset(out, CANARY, sizeof(out));
}

/* Nothing written from byte from on. */
static int untouched_from(size_t from)
{
	size_t i;

	for (i = from; i < sizeof(out); i++)
		if (out[i] != CANARY)
			return 0;
	return 1;
}

static EVP_CIPHER_CTX *ctx_for(const EVP_CIPHER *c, int enc, const unsigned char *k,
			       const unsigned char *n)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (ctx == NULL || !EVP_CipherInit_ex2(ctx, c, k, n, enc, NULL))
		bail("context");
	return ctx;
}

static int set_octets(EVP_CIPHER_CTX *ctx, const char *name, void *data, size_t len)
{
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(name, data, len), OSSL_PARAM_END };

	return EVP_CIPHER_CTX_set_params(ctx, p);
}

static int get_octets(EVP_CIPHER_CTX *ctx, const char *name, void *data, size_t len)
{
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(name, data, len), OSSL_PARAM_END };

	return EVP_CIPHER_CTX_get_params(ctx, p);
}

static int set_size(EVP_CIPHER_CTX *ctx, const char *name, size_t v)
{
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(name, &v), OSSL_PARAM_END };

	return EVP_CIPHER_CTX_set_params(ctx, p);
}

/* --- zinc's dispatch table, called directly ---------------------------------- */

struct direct {
	OSSL_PROVIDER *prov;
	void *provctx;
	OSSL_FUNC_cipher_newctx_fn *newctx;
	OSSL_FUNC_cipher_freectx_fn *freectx;
	OSSL_FUNC_cipher_encrypt_init_fn *einit;
	OSSL_FUNC_cipher_decrypt_init_fn *dinit;
	OSSL_FUNC_cipher_update_fn *update;
	OSSL_FUNC_cipher_final_fn *final;
};

static void direct_open(struct direct *d, const char *name)
{
	const OSSL_ALGORITHM *a;
	const OSSL_DISPATCH *f;
	int no_cache;

	memset(d, 0, sizeof(*d));
	d->prov = OSSL_PROVIDER_load(zt_zinc_ctx(), "zinc");
	if (d->prov == NULL)
		bail("OSSL_PROVIDER_load");
	d->provctx = OSSL_PROVIDER_get0_provider_ctx(d->prov);
	a = OSSL_PROVIDER_query_operation(d->prov, OSSL_OP_CIPHER, &no_cache);
	for (; a != NULL && a->algorithm_names != NULL; a++)
		if (strcmp(a->algorithm_names, name) == 0)
			break;
	if (a == NULL || a->algorithm_names == NULL)
		bail(name);
	for (f = a->implementation; f->function_id != 0; f++) {
		switch (f->function_id) {
		case OSSL_FUNC_CIPHER_NEWCTX:
			d->newctx = OSSL_FUNC_cipher_newctx(f);
			break;
		case OSSL_FUNC_CIPHER_FREECTX:
			d->freectx = OSSL_FUNC_cipher_freectx(f);
			break;
		case OSSL_FUNC_CIPHER_ENCRYPT_INIT:
			d->einit = OSSL_FUNC_cipher_encrypt_init(f);
			break;
		case OSSL_FUNC_CIPHER_DECRYPT_INIT:
			d->dinit = OSSL_FUNC_cipher_decrypt_init(f);
			break;
		case OSSL_FUNC_CIPHER_UPDATE:
			d->update = OSSL_FUNC_cipher_update(f);
			break;
		case OSSL_FUNC_CIPHER_FINAL:
			d->final = OSSL_FUNC_cipher_final(f);
			break;
		default:
			break;
		}
	}
	if (!d->newctx || !d->freectx || !d->einit || !d->dinit || !d->update || !d->final)
		bail("incomplete dispatch table");
	OSSL_PROVIDER_unquery_operation(d->prov, OSSL_OP_CIPHER, a);
}

static void direct_close(struct direct *d)
{
	OSSL_PROVIDER_unload(d->prov);
}

/* Lengths EVP never passes, and an output buffer smaller than the input. */
static void test_direct_lengths(const char *name, size_t ivlen)
{
	struct direct d;
	void *ctx;
	size_t outl = 12345;

	direct_open(&d, name);
	ctx = d.newctx(d.provctx);
	if (ctx == NULL)
		bail("newctx");
	fails_with(d.einit(ctx, key, 16, iv, ivlen, NULL), R_KEYLEN, "init with a 16-byte key",
		   name);
	fails_with(d.einit(ctx, key, 33, iv, ivlen, NULL), R_KEYLEN, "init with a 33-byte key",
		   name);
	fails_with(d.einit(ctx, key, 32, iv, ivlen - 1, NULL), R_IVLEN,
		   "init with an IV one byte short", name);
	fails_with(d.einit(ctx, key, 32, iv, ivlen + 1, NULL), R_IVLEN,
		   "init with an IV one byte long", name);
	if (!d.einit(ctx, key, 32, iv, ivlen, NULL))
		bail("init");
	reset_out();
	fails_with(d.update(ctx, out, &outl, 99, pt, 100), R_OUT_SMALL,
		   "update of 100 bytes into 99", name);
	zt_ok(untouched_from(0), "%s: ... and writes nothing", name);
	fails_with(d.update(ctx, out, &outl, 100, NULL, 100), R_NULL, "update from NULL", name);
	zt_ok(untouched_from(0), "%s: ... and writes nothing", name);
	d.freectx(ctx);
	direct_close(&d);
}

/*
 * The 2^38 - 64 byte limit per nonce cannot be reached by encrypting
 * 256 GB here.  What a provider test can show: one update that would pass
 * the limit (a size_t length EVP's int cannot carry) fails with zinc's
 * reason before reading or writing a byte (in is 64 bytes long: reading
 * it would crash or trip ASan/valgrind), and leaves the stream as it was
 * (the message then completes to default's bytes).  That the boundary
 * itself sits at exactly 2^38 - 64 is the primitive's check, reachable
 * only with its data_len, in test_primitives.
 */
static void test_data_limit(const EVP_CIPHER *dc, const char *name)
{
	EVP_CIPHER_CTX *ref = ctx_for(dc, 1, key, iv);
	unsigned char ct[128];
	struct direct d;
	size_t outl;
	int enc, l;

	if (!EVP_EncryptUpdate(ref, ct, &l, pt, 128))
		bail("default");
	EVP_CIPHER_CTX_free(ref);
	direct_open(&d, name);
	for (enc = 1; enc >= 0; enc--) {
		const char *dir = enc ? "encrypting" : "decrypting";
		const unsigned char *in = enc ? pt : ct;
		void *ctx = d.newctx(d.provctx);
		int ok;

		if (ctx == NULL || !(enc ? d.einit : d.dinit)(ctx, key, 32, iv, 12, NULL))
			bail("init");
		reset_out();
		ok = d.update(ctx, out, &outl, 64, in, 64) && outl == 64;
		/*
		 * One update can pass the limit only where size_t holds it;
		 * a 32-bit length is taken at its word, as by default.
		 */
		if ((uint64_t)SIZE_MAX > CHACHA20POLY1305_MAX_DATA) {
			fails_with(d.update(ctx, out + 64, &outl, SIZE_MAX, in,
					    (size_t)(CHACHA20POLY1305_MAX_DATA - 64 + 1)), R_LIMIT,
				   enc ? "encrypting: an update taking the message one byte past 2^38 - 64"
				       : "decrypting: an update taking the message one byte past 2^38 - 64",
				   name);
			zt_ok(untouched_from(64), "%s: ... and writes nothing", name);
			fails_with(d.update(ctx, out + 64, &outl, SIZE_MAX, in, SIZE_MAX), R_LIMIT,
				   enc ? "encrypting: an update of SIZE_MAX bytes"
				       : "decrypting: an update of SIZE_MAX bytes", name);
			zt_ok(untouched_from(64), "%s: ... and writes nothing", name);
		} else {
			zt_skip("%s: %s, a %zu-bit size_t cannot pass the 2^38 - 64 limit in one update",
				name, dir, sizeof(size_t) * 8);
		}
		/* The refused updates changed nothing: the stream goes on as default's. */
		ok = ok && d.update(ctx, out + 64, &outl, 64, in + 64, 64) && outl == 64 &&
		     memcmp(out, enc ? ct : pt, 128) == 0;
		zt_ok(ok, "%s: %s, the stream then goes on as default's", name, dir);
		d.freectx(ctx);
	}
	direct_close(&d);
}

/* --- ChaCha20 ----------------------------------------------------------------- */

static void test_chacha20(const EVP_CIPHER *c)
{
	EVP_CIPHER_CTX *ctx;
	unsigned char b[8];
	int outl = 7;

	ctx = ctx_for(c, 1, NULL, NULL);
	reset_out();
	fails_with(EVP_EncryptUpdate(ctx, out, &outl, pt, 10), R_NO_KEY, "update without a key",
		   "ChaCha20");
	zt_ok(untouched_from(0), "ChaCha20: ... and writes nothing");
	fails_with(EVP_EncryptFinal_ex(ctx, out, &outl), R_NO_KEY, "final without a key",
		   "ChaCha20");
	if (!EVP_EncryptInit_ex2(ctx, NULL, key, iv, NULL))
		bail("init");
	/* Default's ChaCha20 crashes on this (NULL dereference). */
	fails_with(EVP_EncryptUpdate(ctx, NULL, &outl, pt, 10), R_NULL, "update into NULL",
		   "ChaCha20");
	fails_with(set_size(ctx, OSSL_CIPHER_PARAM_IVLEN, 12), R_IVLEN, "setting ivlen 12",
		   "ChaCha20");
	fails_with(set_size(ctx, OSSL_CIPHER_PARAM_KEYLEN, 16), R_KEYLEN, "setting keylen 16",
		   "ChaCha20");
	memset(b, 0, sizeof(b));
	b[0] = 16;
	fails_with(set_octets(ctx, OSSL_CIPHER_PARAM_IVLEN, b, sizeof(b)), R_SET,
		   "setting ivlen as an octet string", "ChaCha20");
	{
		char s[8];
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_KEYLEN, s,
								     sizeof(s)), OSSL_PARAM_END };

		fails_with(EVP_CIPHER_CTX_get_params(ctx, p), R_GET,
			   "getting keylen as a UTF-8 string", "ChaCha20");
	}
	EVP_CIPHER_CTX_free(ctx);
	test_direct_lengths("ChaCha20", 16);
}

/* --- ChaCha20-Poly1305 and XChaCha20-Poly1305 ------------------------------------ */

static void test_aead_lengths_and_types(const EVP_CIPHER *c, const char *name, size_t ivlen)
{
	EVP_CIPHER_CTX *ctx = ctx_for(c, 0, key, iv);
	unsigned char t[17] = { 0 };
	size_t sz = 16;
	int i = 12;

	fails_with(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 8, NULL), R_IVLEN,
		   "the ctrl setting an 8-byte IV", name);
	fails_with(set_size(ctx, OSSL_CIPHER_PARAM_IVLEN, ivlen + 1), R_IVLEN,
		   "setting ivlen one too long", name);
	fails_with(set_size(ctx, OSSL_CIPHER_PARAM_KEYLEN, 16), R_KEYLEN, "setting keylen 16",
		   name);
	fails_with(set_octets(ctx, OSSL_CIPHER_PARAM_AEAD_TAG, t, 0), R_TAGLEN,
		   "setting a 0-byte tag", name);
	fails_with(set_octets(ctx, OSSL_CIPHER_PARAM_AEAD_TAG, t, 17), R_TAGLEN,
		   "setting a 17-byte tag", name);
	fails_with(set_octets(ctx, OSSL_CIPHER_PARAM_IVLEN, t, 8), R_SET,
		   "setting ivlen as an octet string", name);
	{
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAG, &sz),
				    OSSL_PARAM_END };

		fails_with(EVP_CIPHER_CTX_set_params(ctx, p), R_SET, "setting the tag as a size_t",
			   name);
		fails_with(EVP_CIPHER_CTX_get_params(ctx, p), R_GET, "getting the tag as a size_t",
			   name);
	}
	fails_with(get_octets(ctx, OSSL_CIPHER_PARAM_KEYLEN, t, 8), R_GET,
		   "getting keylen as an octet string", name);
	{
		static char text[] = "0123456789abc";
		OSSL_PARAM p[2] = {
			OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, text, 13),
			OSSL_PARAM_END
		};

		fails_with(EVP_CIPHER_CTX_set_params(ctx, p), R_SET, "setting tlsaad as a string",
			   name);
		p[0] = OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, &i);
		fails_with(EVP_CIPHER_CTX_set_params(ctx, p), R_SET, "setting tlsivfixed as an int",
			   name);
	}
	EVP_CIPHER_CTX_free(ctx);
	ctx = ctx_for(c, 1, key, iv);
	/* Default: "tag not needed". */
	fails_with(set_octets(ctx, OSSL_CIPHER_PARAM_AEAD_TAG, t, 16), R_MODE,
		   "setting a tag to encrypt with", name);
	EVP_CIPHER_CTX_free(ctx);
	test_direct_lengths(name, ivlen);
}

/* Default runs with an all-zero key or nonce instead. */
static void test_aead_no_key(const EVP_CIPHER *c, const char *name)
{
	EVP_CIPHER_CTX *ctx = ctx_for(c, 1, NULL, NULL);
	int outl;

	reset_out();
	fails_with(EVP_EncryptUpdate(ctx, out, &outl, pt, 10), R_NO_KEY, "update without a key",
		   name);
	fails_with(EVP_EncryptUpdate(ctx, NULL, &outl, aad, 10), R_NO_KEY, "AAD without a key",
		   name);
	fails_with(EVP_EncryptFinal_ex(ctx, out, &outl), R_NO_KEY, "final without a key", name);
	if (!EVP_EncryptInit_ex2(ctx, NULL, key, NULL, NULL))
		bail("init");
	fails_with(EVP_EncryptUpdate(ctx, out, &outl, pt, 10), R_NO_IV,
		   "update with a key but no IV", name);
	zt_ok(untouched_from(0), "%s: ... and none of these writes anything", name);
	EVP_CIPHER_CTX_free(ctx);
}

static void test_aead_sequence(const EVP_CIPHER *c, const char *name)
{
	EVP_CIPHER_CTX *ctx = ctx_for(c, 1, key, iv), *ref = ctx_for(c, 1, key, iv);
	unsigned char tag[17], rtag[16], ct[100];
	int outl;

	memset(tag, CANARY, sizeof(tag));
	fails_with(get_octets(ctx, OSSL_CIPHER_PARAM_AEAD_TAG, tag, 16), R_NO_TAG_YET,
		   "getting the tag before final", name);
	if (!EVP_EncryptUpdate(ctx, NULL, &outl, aad, 13) ||
	    !EVP_EncryptUpdate(ctx, ct, &outl, pt, 50))
		bail("update");
	/*
	 * Default accepts AAD after data and returns 1 (OpenSSL issue 31188),
	 * yielding a tag nobody else computes.  zinc refuses, and the refused
	 * AAD changes nothing: the tag is that of the message without it.
	 */
	fails_with(EVP_EncryptUpdate(ctx, NULL, &outl, aad, 5), R_AAD_LATE, "AAD after data",
		   name);
	if (!EVP_EncryptUpdate(ctx, ct + 50, &outl, pt + 50, 50) ||
	    !EVP_EncryptFinal_ex(ctx, ct, &outl) ||
	    !get_octets(ctx, OSSL_CIPHER_PARAM_AEAD_TAG, tag, 16) ||
	    !EVP_EncryptUpdate(ref, NULL, &outl, aad, 13) ||
	    !EVP_EncryptUpdate(ref, ct, &outl, pt, 100) || !EVP_EncryptFinal_ex(ref, ct, &outl) ||
	    !get_octets(ref, OSSL_CIPHER_PARAM_AEAD_TAG, rtag, 16))
		bail("final");
	zt_ok(memcmp(tag, rtag, 16) == 0, "%s: ... and the refused AAD left the tag alone", name);
	memset(tag, CANARY, sizeof(tag));
	fails_with(get_octets(ctx, OSSL_CIPHER_PARAM_AEAD_TAG, tag, 0), R_TAGLEN,
		   "getting a 0-byte tag", name);
	fails_with(get_octets(ctx, OSSL_CIPHER_PARAM_AEAD_TAG, tag, 17), R_TAGLEN,
		   "getting a 17-byte tag", name);
	zt_ok(tag[0] == CANARY && tag[16] == CANARY, "%s: ... and these write nothing", name);
	/* Default goes on (and its second final returns another tag). */
	reset_out();
	fails_with(EVP_EncryptUpdate(ctx, out, &outl, pt, 10), R_AFTER_FINAL,
		   "update after final", name);
	fails_with(EVP_EncryptUpdate(ctx, NULL, &outl, aad, 10), R_AFTER_FINAL,
		   "AAD after final", name);
	fails_with(EVP_EncryptFinal_ex(ctx, out, &outl), R_AFTER_FINAL, "final twice", name);
	zt_ok(untouched_from(0), "%s: ... and none of these writes anything", name);
	/* Default still hands out the last message's tag. */
	if (!EVP_EncryptInit_ex2(ctx, NULL, NULL, iv, NULL))
		bail("re-init");
	fails_with(get_octets(ctx, OSSL_CIPHER_PARAM_AEAD_TAG, tag, 16), R_NO_TAG_YET,
		   "getting the tag after a re-init, before final", name);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_CTX_free(ref);

	/* Decryption: rtag is the right tag of aad || pt[0..100). */
	ctx = ctx_for(c, 0, key, iv);
	if (!EVP_DecryptUpdate(ctx, NULL, &outl, aad, 13) ||
	    !EVP_DecryptUpdate(ctx, out, &outl, ct, 100))
		bail("decrypt update");
	/* Default's final succeeds here: the message is accepted without authentication. */
	fails_with(EVP_DecryptFinal_ex(ctx, out + 100, &outl), R_NO_TAG,
		   "decryption's final without a tag", name);
	fails_with(get_octets(ctx, OSSL_CIPHER_PARAM_AEAD_TAG, tag, 16), R_NO_TAG_YET,
		   "getting the tag when decrypting", name);
	fails_with(EVP_DecryptUpdate(ctx, out, &outl, ct, 10), R_AFTER_FINAL,
		   "decryption's update after final", name);
	EVP_CIPHER_CTX_free(ctx);
	ctx = ctx_for(c, 0, key, iv);
	rtag[15] ^= 1;
	if (!EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, rtag) ||
	    !EVP_DecryptUpdate(ctx, NULL, &outl, aad, 13) ||
	    !EVP_DecryptUpdate(ctx, out, &outl, ct, 100))
		bail("decrypt update");
	fails_with(EVP_DecryptFinal_ex(ctx, out + 100, &outl), R_MISMATCH,
		   "decryption's final with a wrong tag", name);
	EVP_CIPHER_CTX_free(ctx);
}

/* TLS record mode misuse. */
static void test_aead_tls(const EVP_CIPHER *c, const char *name, size_t ivlen)
{
	EVP_CIPHER_CTX *ctx = ctx_for(c, 1, key, NULL);
	unsigned char a[14] = { 0 }, rec[100 + 16];
	int outl;

	/* Default would take an all-zero fixed IV. */
	a[12] = 100;
	fails_with(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, a), R_NO_IV,
		   "tlsaad without any IV", name);
	fails_with(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IV_FIXED, 8, iv), R_IVLEN,
		   "an 8-byte tlsivfixed", name);
	fails_with(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IV_FIXED, (int)ivlen + 1, iv),
		   R_IVLEN, "a tlsivfixed one byte too long", name);
	if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IV_FIXED, (int)ivlen, iv) != 1)
		bail("tlsivfixed");
	fails_with(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 12, a), R_TLS_AAD,
		   "a 12-byte tlsaad", name);
	fails_with(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 14, a), R_TLS_AAD,
		   "a 14-byte tlsaad", name);
	if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, a) != 16)
		bail("tlsaad");
	reset_out();
	fails_with(EVP_EncryptUpdate(ctx, out, &outl, pt, 115), R_INLEN,
		   "a record one byte short", name);
	fails_with(EVP_EncryptUpdate(ctx, out, &outl, pt, 117), R_INLEN,
		   "a record one byte long", name);
	fails_with(EVP_EncryptUpdate(ctx, NULL, &outl, pt, 116), R_MODE,
		   "AAD instead of the record", name);
	fails_with(EVP_EncryptFinal_ex(ctx, out, &outl), R_MODE, "final instead of the record",
		   name);
	zt_ok(untouched_from(0), "%s: ... and none of these writes anything", name);
	zt_ok(EVP_EncryptUpdate(ctx, rec, &outl, pt, 116) == 1 && outl == 116,
	      "%s: the record then goes through", name);
	/* Default would start another message under the same nonce. */
	fails_with(EVP_EncryptUpdate(ctx, out, &outl, pt, 116), R_AFTER_FINAL,
		   "a second update after the record", name);
	zt_ok(untouched_from(0), "%s: ... and writes nothing", name);
	EVP_CIPHER_CTX_free(ctx);

	ctx = ctx_for(c, 0, key, NULL);
	if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IV_FIXED, (int)ivlen, iv) != 1)
		bail("tlsivfixed");
	a[12] = 15;
	fails_with(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, a), R_TLS_AAD,
		   "a decryption tlsaad announcing 15 bytes, less than a tag", name);
	a[12] = 116;
	if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, a) != 16)
		bail("tlsaad");
	rec[50] ^= 4;
	reset_out();
	fails_with(EVP_DecryptUpdate(ctx, out, &outl, rec, 116), R_MISMATCH,
		   "a tampered record", name);
	{
		static const unsigned char zero[100];

		zt_ok(memcmp(out, zero, 100) == 0 && untouched_from(100),
		      "%s: ... its plaintext is wiped and nothing is written past it", name);
	}
	EVP_CIPHER_CTX_free(ctx);
}

/* --- Accepted as default accepts them ------------------------------------------ */

/* What a decryption with an n-byte tag from tag gives: set's and final's returns, taglen. */
struct tag_verdict {
	int set, taglen, final;
};

static struct tag_verdict decrypt_with_tag(const EVP_CIPHER *c, const unsigned char *ct,
					   size_t len, const unsigned char *tag, int n)
{
	EVP_CIPHER_CTX *ctx = ctx_for(c, 0, key, iv);
	struct tag_verdict v = { 0, 0, -1 };
	int outl, fin;

	v.set = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, n, (void *)tag) > 0;
	v.taglen = EVP_CIPHER_CTX_get_tag_length(ctx);
	if (v.set) {
		unsigned char got[64];

		if (!EVP_DecryptUpdate(ctx, got, &outl, ct, (int)len))
			bail("decrypt update");
		v.final = EVP_DecryptFinal_ex(ctx, got + outl, &fin);
		if (v.final > 0 && memcmp(got, pt, len) != 0)
			v.final = -2;	/* accepted, with a wrong plaintext */
	}
	ERR_clear_error();	/* the refusals' own, expected */
	EVP_CIPHER_CTX_free(ctx);
	return v;
}

static void seal_64(const EVP_CIPHER *c, unsigned char ct[64], unsigned char tag[16])
{
	EVP_CIPHER_CTX *ctx = ctx_for(c, 1, key, iv);
	int outl, fin;

	if (!EVP_EncryptUpdate(ctx, ct, &outl, pt, 64) || !EVP_EncryptFinal_ex(ctx, ct + outl, &fin) ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) <= 0)
		bail("seal");
	EVP_CIPHER_CTX_free(ctx);
}

/*
 * Decryption with the first n bytes of the tag, n = 1..17: right, with the
 * last of them flipped, and with the byte after them flipped.  Default
 * (3.0 to 4.0) takes 1 to 16 bytes and compares only those, and so must
 * zinc; its XChaCha20-Poly1305, which default lacks, must give default's
 * ChaCha20-Poly1305 verdicts.  An application that requires 16 bytes
 * passes exactly 16: EVP_CIPHER_CTX_get_tag_length() then says 16.
 */
static void test_short_tags(const EVP_CIPHER *c, const EVP_CIPHER *dc, const char *name)
{
	unsigned char ct[64], tag[17] = { 0 }, dct[64], dtag[17] = { 0 };
	int n, flip, same = 1, as_expected = 1;

	seal_64(c, ct, tag);
	seal_64(dc, dct, dtag);
	for (n = 1; n <= 17; n++) {
		for (flip = 0; flip <= 2; flip++) {
			/* flip 1: the last byte given; flip 2: the byte after (the 16th for n = 16, 17). */
			int at = flip == 1 ? n - 1 : n < 16 ? n : 15;
			unsigned char t[17], dt[17];
			struct tag_verdict z, d;
			int accept = n <= 16 && (flip == 0 || (flip == 2 && n < 16));

			memcpy(t, tag, sizeof(t));
			memcpy(dt, dtag, sizeof(dt));
			if (flip != 0) {
				t[at] ^= 1;
				dt[at] ^= 1;
			}
			z = decrypt_with_tag(c, ct, sizeof(ct), t, n);
			d = decrypt_with_tag(dc, dct, sizeof(dct), dt, n);
			if (z.set != d.set || z.taglen != d.taglen || (z.final > 0) != (d.final > 0)) {
				if (same)
					zt_diag("%d-byte tag, flip %d: zinc set %d taglen %d final %d, "
						"default set %d taglen %d final %d", n, flip, z.set,
						z.taglen, z.final, d.set, d.taglen, d.final);
				same = 0;
			}
			if (z.set != (n <= 16) || (z.set && z.taglen != n) ||
			    (z.final > 0) != accept || z.final == -2)
				as_expected = 0;
		}
	}
	zt_ok(same, "%s: 1 to 17 bytes of tag, right or with a byte flipped: default's verdicts",
	      name);
	zt_ok(as_expected,
	      "%s: tags of 1 to 15 bytes on decryption: accepted, comparing only their bytes, "
	      "as by default", name);
}

/*
 * Output overlapping the input.  In place (out == in) must work: it is
 * how TLS and most AEAD users decrypt, at every length the paths split at;
 * ref gives the bytes with separate buffers.  Partially overlapping buffers
 * (out = in + k, 0 < |k| < length) are not refused by default's ChaCha20
 * ciphers (3.0 to 4.0: EVP checks only ciphers not from a provider), and
 * zinc does as dc does: the output is undefined, but nothing is written
 * outside the two buffers.
 */
static void test_overlap(const EVP_CIPHER *c, const EVP_CIPHER *ref, const char *ref_bytes,
			 const EVP_CIPHER *dc, const char *name, int aead)
{
	static const int lens[] = { 1, 63, 64, 65, 255, 256, 257, 511, 512, 513, 1031 };
	static const int shifts[] = { 1, -1, 63, -63, 299, -299 };
	unsigned char big[1100], want[1100], scratch[1100], buf[1100 + 2 * 300];
	unsigned char tag[16], wtag[16], got[16];
	int in_place = 1, same_return = 1, in_bounds = 1;
	size_t i, j;

	zt_rand(big, sizeof(big));
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		const int len = lens[i];

		for (int enc = 1; enc >= 0; enc--) {
			EVP_CIPHER_CTX *r = ctx_for(ref, enc, key, iv), *ctx = ctx_for(c, enc, key, iv);
			int outl = 0, fin = 0, ok;

			if (!EVP_CipherUpdate(r, want, &outl, big, len))
				bail("reference update");
			if (aead && enc && (!EVP_EncryptFinal_ex(r, scratch, &fin) ||
					    EVP_CIPHER_CTX_ctrl(r, EVP_CTRL_AEAD_GET_TAG, 16, wtag) <= 0))
				bail("reference tag");
			if (aead && !enc) {
				/* The tag of big as a ciphertext: sealing what it decrypts to. */
				EVP_CIPHER_CTX *seal = ctx_for(ref, 1, key, iv);

				if (!EVP_EncryptUpdate(seal, scratch, &outl, want, len) ||
				    !EVP_EncryptFinal_ex(seal, scratch, &fin) ||
				    EVP_CIPHER_CTX_ctrl(seal, EVP_CTRL_AEAD_GET_TAG, 16, tag) <= 0 ||
				    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag) <= 0)
					bail("reference seal");
				EVP_CIPHER_CTX_free(seal);
			}
			memcpy(buf, big, len);
			ok = EVP_CipherUpdate(ctx, buf, &outl, buf, len) && outl == len &&
			     memcmp(buf, want, len) == 0;
			if (aead && ok)
				ok = EVP_CipherFinal_ex(ctx, buf + len, &fin) > 0;
			if (aead && ok && enc)
				ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, got) > 0 &&
				     memcmp(got, wtag, 16) == 0;
			if (!ok && in_place)
				zt_diag("%s in place, %d bytes: wrong", enc ? "encrypting" : "decrypting",
					len);
			in_place &= ok;
			EVP_CIPHER_CTX_free(ctx);
			EVP_CIPHER_CTX_free(r);
		}
	}
	zt_ok(in_place, "%s: in place (output = input), 1 to 1031 bytes: %s%s", name, ref_bytes,
	      aead ? ", tags too, and the tags verify" : "");

	for (i = 0; i < sizeof(shifts) / sizeof(shifts[0]); i++) {
		const int k = shifts[i], len = 300;

		for (int enc = 1; enc >= 0; enc--) {
			EVP_CIPHER_CTX *ctx = ctx_for(c, enc, key, iv), *d = ctx_for(dc, enc, key, iv);
			unsigned char *in = buf + 300, *dst = in + k;
			const unsigned char *lo = k < 0 ? dst : in, *hi = (k < 0 ? in : dst) + len;
			int outl, zret, dret;

			memcpy(in, big, len);
			dret = EVP_CipherUpdate(d, dst, &outl, in, len);
			memset(buf, CANARY, sizeof(buf));
			memcpy(in, big, len);
			zret = EVP_CipherUpdate(ctx, dst, &outl, in, len);
			ERR_clear_error();
			if (zret != dret && same_return)
				zt_diag("%s, out = in %+d: zinc returned %d, default %d",
					enc ? "encrypting" : "decrypting", k, zret, dret);
			same_return &= zret == dret;
			for (j = 0; j < sizeof(buf); j++)
				if ((buf + j < lo || buf + j >= hi) && buf[j] != CANARY)
					in_bounds = 0;
			EVP_CIPHER_CTX_free(ctx);
			EVP_CIPHER_CTX_free(d);
		}
	}
	zt_ok(same_return,
	      "%s: partially overlapping input and output: not refused, as by default "
	      "(the output is undefined)", name);
	zt_ok(in_bounds, "%s: ... and nothing is written outside the two buffers", name);
}

int main(void)
{
	static const struct {
		const char *name;
		size_t ivlen;
	} aeads[] = { { "ChaCha20-Poly1305", 12 }, { "XChaCha20-Poly1305", 24 } };
	EVP_CIPHER *c, *dc;
	size_t i;

	zt_rand(key, sizeof(key));
	zt_rand(iv, sizeof(iv));
	zt_rand(aad, sizeof(aad));
	zt_rand(pt, sizeof(pt));

	c = EVP_CIPHER_fetch(zt_zinc_ctx(), "ChaCha20", NULL);
	if (c == NULL)
		bail("fetch ChaCha20");
	test_chacha20(c);
	EVP_CIPHER_free(c);

	for (i = 0; i < sizeof(aeads) / sizeof(aeads[0]); i++) {
		c = EVP_CIPHER_fetch(zt_zinc_ctx(), aeads[i].name, NULL);
		if (c == NULL)
			bail(aeads[i].name);
		test_aead_lengths_and_types(c, aeads[i].name, aeads[i].ivlen);
		test_aead_no_key(c, aeads[i].name);
		test_aead_sequence(c, aeads[i].name);
		test_aead_tls(c, aeads[i].name, aeads[i].ivlen);
		EVP_CIPHER_free(c);
	}

	dc = EVP_CIPHER_fetch(zt_default_ctx(), "ChaCha20-Poly1305", NULL);
	if (dc == NULL)
		bail("fetch default ChaCha20-Poly1305");
	test_data_limit(dc, "ChaCha20-Poly1305");

	/* XChaCha20-Poly1305, which default lacks, against default's ChaCha20-Poly1305. */
	for (i = 0; i < sizeof(aeads) / sizeof(aeads[0]); i++) {
		c = EVP_CIPHER_fetch(zt_zinc_ctx(), aeads[i].name, NULL);
		if (c == NULL)
			bail(aeads[i].name);
		test_short_tags(c, dc, aeads[i].name);
		test_overlap(c, i == 0 ? dc : c,
			     i == 0 ? "default's bytes" : "the bytes of separate buffers", dc,
			     aeads[i].name, 1);
		EVP_CIPHER_free(c);
	}
	EVP_CIPHER_free(dc);

	c = EVP_CIPHER_fetch(zt_zinc_ctx(), "ChaCha20", NULL);
	dc = EVP_CIPHER_fetch(zt_default_ctx(), "ChaCha20", NULL);
	if (c == NULL || dc == NULL)
		bail("fetch ChaCha20");
	test_overlap(c, dc, "default's bytes", dc, "ChaCha20", 0);
	EVP_CIPHER_free(c);
	EVP_CIPHER_free(dc);
	return zt_done();
}
