/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Misuse of POLY1305, BLAKE2SMAC and BLAKE2S-256: each must fail with a zinc
 * reason and leave the output buffer (and what follows it) untouched.  Where
 * OpenSSL's default provider fails too, the test says so; where it goes on
 * (update after final, a key of the wrong parameter type), zinc is stricter
 * on purpose.  Checks that EVP itself would catch first also go straight to
 * zinc's dispatch tables, so that zinc's own checks are exercised.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "testutil.h"

#define R_KEY "invalid key length"
#define R_NO_KEY "no key set"
#define R_SIZE "invalid output size"
#define R_SALT "invalid salt length"
#define R_CUSTOM "invalid custom (personalisation) length"
#define R_SET "failed to set parameter"
#define R_GET "failed to get parameter"
#define R_AFTER_FINAL "update or final after final"
#define R_NOT_INIT "operation not initialised"
#define R_SMALL "output buffer too small"

#define FILL 0xa5
#define CANARY 16

static unsigned char key33[33];

/* An output buffer followed by a canary, all filled with FILL. */
struct outbuf {
	unsigned char b[64 + CANARY];
};

static void out_reset(struct outbuf *o)
{
	memset(o->b, FILL, sizeof(o->b));
}

/* Nothing written from byte `from` on. */
static int tail_untouched(const struct outbuf *o, size_t from)
{
	size_t i;

	for (i = from; i < sizeof(o->b); i++)
		if (o->b[i] != FILL)
			return 0;
	return 1;
}

static int out_untouched(const struct outbuf *o)
{
	return tail_untouched(o, 0);
}

/* The call failed and zinc said why, as expected. */
static int fails_with(int ret, const char *want, const char *what)
{
	const char *got = zt_zinc_reason();

	return zt_ok(!ret && got != NULL && strcmp(got, want) == 0,
		     "%s: fails with \"%s\" (got %s%s)", what, want, ret ? "success, " : "",
		     got != NULL ? got : "no zinc reason");
}

static EVP_MAC_CTX *mac_ctx(OSSL_LIB_CTX *libctx, const char *alg)
{
	EVP_MAC *mac = EVP_MAC_fetch(libctx, alg, NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;

	EVP_MAC_free(mac);
	if (ctx == NULL) {
		printf("Bail out! cannot fetch %s\n", alg);
		exit(99);
	}
	return ctx;
}

static int set_octets(EVP_MAC_CTX *ctx, const char *name, const void *data, size_t len)
{
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_octet_string(name, (void *)data, len);
	p[1] = OSSL_PARAM_construct_end();
	return EVP_MAC_CTX_set_params(ctx, p);
}

static int set_utf8(EVP_MAC_CTX *ctx, const char *name, const char *s)
{
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_utf8_string(name, (char *)s, strlen(s));
	p[1] = OSSL_PARAM_construct_end();
	return EVP_MAC_CTX_set_params(ctx, p);
}

static int set_size(EVP_MAC_CTX *ctx, size_t size)
{
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size);
	p[1] = OSSL_PARAM_construct_end();
	return EVP_MAC_CTX_set_params(ctx, p);
}

/* --- zinc's dispatch tables, reached without EVP --------------------------- */

struct direct {
	const OSSL_PROVIDER *prov;
	const OSSL_ALGORITHM *algs;
	int op;
	const OSSL_DISPATCH *fns;
	void *provctx;
};

static int direct_open(struct direct *d, const OSSL_PROVIDER *prov, int op, const char *name)
{
	const OSSL_ALGORITHM *a;
	int no_cache = 0;

	memset(d, 0, sizeof(*d));
	d->prov = prov;
	d->op = op;
	d->provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
	d->algs = OSSL_PROVIDER_query_operation(prov, op, &no_cache);
	/* The first of the names, which a colon ends. */
	for (a = d->algs; a != NULL && a->algorithm_names != NULL; a++)
		if (strncmp(a->algorithm_names, name, strlen(name)) == 0 &&
		    strchr(":", a->algorithm_names[strlen(name)]) != NULL)
			d->fns = a->implementation;
	return zt_ok(d->fns != NULL, "zinc's dispatch table for %s", name);
}

static void direct_close(struct direct *d)
{
	if (d->algs != NULL)
		OSSL_PROVIDER_unquery_operation(d->prov, d->op, d->algs);
}

static void (*direct_fn(const struct direct *d, int id))(void)
{
	const OSSL_DISPATCH *f;

	for (f = d->fns; f != NULL && f->function_id != 0; f++)
		if (f->function_id == id)
			return f->function;
	printf("Bail out! zinc lacks function %d\n", id);
	exit(99);
}

#define DIRECT_FN(d, type, id) ((type *)direct_fn((d), (id)))

/* zinc's own output length check on a MAC, without EVP's in front of it. */
static void direct_mac_short_output(const OSSL_PROVIDER *prov, const char *name, size_t size)
{
	struct direct d;
	struct outbuf o;
	size_t outl = 0;
	char what[64];
	void *c;

	if (!direct_open(&d, prov, OSSL_OP_MAC, name)) {
		direct_close(&d);
		return;
	}
	c = DIRECT_FN(&d, OSSL_FUNC_mac_newctx_fn, OSSL_FUNC_MAC_NEWCTX)(d.provctx);
	out_reset(&o);
	zt_ok(c != NULL &&
	      DIRECT_FN(&d, OSSL_FUNC_mac_init_fn, OSSL_FUNC_MAC_INIT)(c, key33, 32, NULL),
	      "%s direct: keyed", name);
	snprintf(what, sizeof(what), "%s direct final into %zu bytes", name, size - 1);
	fails_with(
		DIRECT_FN(&d, OSSL_FUNC_mac_final_fn, OSSL_FUNC_MAC_FINAL)(c, o.b, &outl, size - 1),
		R_SMALL, what);
	zt_ok(out_untouched(&o), "  nothing written");
	zt_ok(DIRECT_FN(&d, OSSL_FUNC_mac_final_fn, OSSL_FUNC_MAC_FINAL)(c, o.b, &outl, size) &&
	      outl == size && tail_untouched(&o, size),
	      "  and final into %zu bytes then works, none past them", size);
	DIRECT_FN(&d, OSSL_FUNC_mac_freectx_fn, OSSL_FUNC_MAC_FREECTX)(c);
	direct_close(&d);
}

/*
 * libcrypto 3.2+ refuses a digest's update or final after final itself,
 * before the provider is called; earlier releases leave it to zinc.
 */
static void after_final_through_evp(int ret, const char *op)
{
	const char *reason = zt_zinc_reason();

	if (zt_openssl_at_least(3, 2))
		zt_ok(!ret && reason == NULL,
		      "BLAKE2S-256 %s after final through EVP: refused by libcrypto before zinc (3.2+)",
		      op);
	else
		zt_ok(!ret && reason != NULL && strcmp(reason, R_AFTER_FINAL) == 0,
		      "BLAKE2S-256 %s after final through EVP: refused by zinc before 3.2 (%s)", op,
		      reason != NULL ? reason : "no zinc reason");
}

/* The digest's checks of state and output length, without EVP's. */
static void direct_digest(const OSSL_PROVIDER *prov)
{
	const char *name = "BLAKE2S-256";
	OSSL_FUNC_digest_update_fn *update;
	OSSL_FUNC_digest_final_fn *final;
	struct direct d;
	struct outbuf o;
	size_t outl = 0;
	void *c;

	if (!direct_open(&d, prov, OSSL_OP_DIGEST, name)) {
		direct_close(&d);
		return;
	}
	update = DIRECT_FN(&d, OSSL_FUNC_digest_update_fn, OSSL_FUNC_DIGEST_UPDATE);
	final = DIRECT_FN(&d, OSSL_FUNC_digest_final_fn, OSSL_FUNC_DIGEST_FINAL);
	c = DIRECT_FN(&d, OSSL_FUNC_digest_newctx_fn, OSSL_FUNC_DIGEST_NEWCTX)(d.provctx);
	out_reset(&o);
	zt_ok(c != NULL, "%s direct: new context", name);
	fails_with(update(c, (const unsigned char *)"abc", 3), R_NOT_INIT,
		   "BLAKE2S-256 direct update before init");
	fails_with(final(c, o.b, &outl, 32), R_NOT_INIT, "BLAKE2S-256 direct final before init");
	zt_ok(DIRECT_FN(&d, OSSL_FUNC_digest_init_fn, OSSL_FUNC_DIGEST_INIT)(c, NULL),
	      "BLAKE2S-256 direct init");
	fails_with(final(c, o.b, &outl, 31), R_SMALL, "BLAKE2S-256 direct final into 31 bytes");
	zt_ok(out_untouched(&o), "  nothing written");
	zt_ok(final(c, o.b, &outl, 32) && outl == 32 && tail_untouched(&o, 32),
	      "  and final into 32 bytes then works, none past them");
	out_reset(&o);
	fails_with(update(c, (const unsigned char *)"abc", 3), R_AFTER_FINAL,
		   "BLAKE2S-256 update after final");
	fails_with(final(c, o.b, &outl, 32), R_AFTER_FINAL, "BLAKE2S-256 final after final");
	zt_ok(out_untouched(&o), "  nothing written");
	DIRECT_FN(&d, OSSL_FUNC_digest_freectx_fn, OSSL_FUNC_DIGEST_FREECTX)(c);
	direct_close(&d);
}

/* --- POLY1305 --------------------------------------------------------------- */

static void test_poly1305(void)
{
	static const size_t bad_lengths[] = { 0, 1, 16, 31, 33 };
	EVP_MAC_CTX *ctx = mac_ctx(zt_zinc_ctx(), "POLY1305");
	EVP_MAC_CTX *dctx = mac_ctx(zt_default_ctx(), "POLY1305");
	struct outbuf o;
	size_t i, outl = 0;
	int r;

	for (i = 0; i < sizeof(bad_lengths) / sizeof(bad_lengths[0]); i++) {
		char what[64];

		snprintf(what, sizeof(what), "POLY1305 init with a %zu-byte key", bad_lengths[i]);
		fails_with(EVP_MAC_init(ctx, key33, bad_lengths[i], NULL), R_KEY, what);
		zt_ok(!EVP_MAC_init(dctx, key33, bad_lengths[i], NULL),
		      "  the default provider refuses it too");
		ERR_clear_error();
		snprintf(what, sizeof(what), "POLY1305 \"key\" parameter of %zu bytes",
			 bad_lengths[i]);
		fails_with(set_octets(ctx, OSSL_MAC_PARAM_KEY, key33, bad_lengths[i]), R_KEY, what);
	}

	/* A fresh context: init without a key succeeds, as in the default provider... */
	EVP_MAC_CTX_free(ctx);
	ctx = mac_ctx(zt_zinc_ctx(), "POLY1305");
	out_reset(&o);
	fails_with(EVP_MAC_final(ctx, o.b, &outl, 16), R_NO_KEY,
		   "POLY1305 final on a fresh context");
	zt_ok(out_untouched(&o), "  nothing written");
	zt_ok(EVP_MAC_init(ctx, NULL, 0, NULL),
	      "POLY1305 init without any key succeeds (as default's)");
	/* ...but there is nothing to MAC with. */
	fails_with(EVP_MAC_update(ctx, key33, 3), R_NO_KEY, "POLY1305 update with no key");
	fails_with(EVP_MAC_final(ctx, o.b, &outl, 16), R_NO_KEY, "POLY1305 final with no key");
	zt_ok(out_untouched(&o), "  nothing written");

	/* A key of the wrong parameter type: the default provider takes its bytes. */
	fails_with(set_utf8(ctx, OSSL_MAC_PARAM_KEY, "0123456789abcdef0123456789abcdef"), R_SET,
		   "POLY1305 \"key\" as a UTF-8 string (zinc is stricter than default)");

	/* Output too small: EVP refuses first; zinc's own check follows below. */
	zt_ok(EVP_MAC_init(ctx, key33, 32, NULL) && EVP_MAC_update(ctx, key33, 33),
	      "POLY1305 keyed");
	r = EVP_MAC_final(ctx, o.b, &outl, 15);
	zt_ok(!r && out_untouched(&o), "POLY1305 final into 15 bytes fails, nothing written");
	ERR_clear_error();

	/* The key is spent: no re-init without a new one (default: the same, silently). */
	zt_ok(EVP_MAC_final(ctx, o.b, &outl, 16) && outl == 16 && tail_untouched(&o, 16),
	      "POLY1305 final into 16 bytes, none past them");
	out_reset(&o);
	fails_with(EVP_MAC_update(ctx, key33, 3), R_AFTER_FINAL, "POLY1305 update after final");
	fails_with(EVP_MAC_final(ctx, o.b, &outl, 16), R_AFTER_FINAL, "POLY1305 final after final");
	zt_ok(out_untouched(&o), "  nothing written");
	fails_with(EVP_MAC_init(ctx, NULL, 0, NULL), R_NO_KEY,
		   "POLY1305 re-init without a key after final");
	zt_ok(EVP_MAC_init(dctx, key33, 32, NULL) && EVP_MAC_update(dctx, key33, 3) &&
	      !EVP_MAC_init(dctx, NULL, 0, NULL), "  the default provider refuses it too");
	ERR_clear_error();
	zt_ok(EVP_MAC_init(ctx, key33, 32, NULL) && EVP_MAC_update(ctx, key33, 0),
	      "POLY1305 new key, empty update");
	fails_with(EVP_MAC_init(ctx, NULL, 0, NULL), R_NO_KEY,
		   "POLY1305 re-init without a key after any update");
	zt_ok(EVP_MAC_init(ctx, key33, 32, NULL) && EVP_MAC_final(ctx, o.b, &outl, 16),
	      "POLY1305 usable again with a new key");

	/* The algorithm-level "size" of a type it cannot take. */
	{
		unsigned char octets[8];
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SIZE, octets,
								      8),
				    OSSL_PARAM_END };
		EVP_MAC *m = EVP_MAC_fetch(zt_zinc_ctx(), "POLY1305", NULL);
		EVP_MAC *dm = EVP_MAC_fetch(zt_default_ctx(), "POLY1305", NULL);

		zt_ok(!EVP_MAC_get_params(m, p) && !EVP_MAC_get_params(dm, p),
		      "POLY1305 \"size\" as an octet string: refused by zinc and default");
		ERR_clear_error();
		EVP_MAC_free(m);
		EVP_MAC_free(dm);
	}

	direct_mac_short_output(EVP_MAC_get0_provider(EVP_MAC_CTX_get0_mac(ctx)), "POLY1305", 16);
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_CTX_free(dctx);
}

/* --- BLAKE2SMAC ------------------------------------------------------------- */

static void test_blake2smac(void)
{
	EVP_MAC_CTX *ctx = mac_ctx(zt_zinc_ctx(), "BLAKE2SMAC");
	EVP_MAC_CTX *dctx = mac_ctx(zt_default_ctx(), "BLAKE2SMAC");
	static const unsigned char nine[9] = "123456789";
	struct outbuf o;
	size_t outl = 0;
	int r;

	out_reset(&o);
	fails_with(EVP_MAC_final(ctx, o.b, &outl, 32), R_NOT_INIT,
		   "BLAKE2SMAC final on a fresh context");
	zt_ok(out_untouched(&o), "  nothing written");
	fails_with(EVP_MAC_update(ctx, key33, 3), R_NOT_INIT,
		   "BLAKE2SMAC update on a fresh context");
	fails_with(EVP_MAC_init(ctx, NULL, 0, NULL), R_NO_KEY, "BLAKE2SMAC init without a key");
	zt_ok(!EVP_MAC_init(dctx, NULL, 0, NULL), "  the default provider refuses it too");
	ERR_clear_error();
	fails_with(EVP_MAC_init(ctx, key33, 0, NULL), R_KEY, "BLAKE2SMAC init with a 0-byte key");
	fails_with(EVP_MAC_init(ctx, key33, 33, NULL), R_KEY, "BLAKE2SMAC init with a 33-byte key");
	zt_ok(!EVP_MAC_init(dctx, key33, 0, NULL) && !EVP_MAC_init(dctx, key33, 33, NULL),
	      "  the default provider refuses both too");
	ERR_clear_error();
	fails_with(set_octets(ctx, OSSL_MAC_PARAM_KEY, key33, 0), R_KEY,
		   "BLAKE2SMAC \"key\" of 0 bytes");
	fails_with(set_octets(ctx, OSSL_MAC_PARAM_KEY, key33, 33), R_KEY,
		   "BLAKE2SMAC \"key\" of 33 bytes");
	fails_with(EVP_MAC_init(ctx, NULL, 0, NULL), R_NO_KEY, "  and no key is set after those");

	fails_with(set_size(ctx, 0), R_SIZE, "BLAKE2SMAC size 0");
	fails_with(set_size(ctx, 33), R_SIZE, "BLAKE2SMAC size 33");
	zt_ok(!set_size(dctx, 0) && !set_size(dctx, 33), "  the default provider refuses both too");
	ERR_clear_error();
	{
		int minus_one = -1;
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_int(OSSL_MAC_PARAM_SIZE, &minus_one),
				    OSSL_PARAM_END };

		fails_with(EVP_MAC_CTX_set_params(ctx, p), R_SIZE, "BLAKE2SMAC size -1 (an int)");
	}
	fails_with(set_utf8(ctx, OSSL_MAC_PARAM_SIZE, "16"), R_SET,
		   "BLAKE2SMAC size as a UTF-8 string");
	fails_with(set_octets(ctx, OSSL_MAC_PARAM_SALT, nine, 9), R_SALT, "BLAKE2SMAC 9-byte salt");
	fails_with(set_octets(ctx, OSSL_MAC_PARAM_CUSTOM, nine, 9), R_CUSTOM,
		   "BLAKE2SMAC 9-byte custom");
	zt_ok(!set_octets(dctx, OSSL_MAC_PARAM_SALT, nine, 9) &&
	      !set_octets(dctx, OSSL_MAC_PARAM_CUSTOM, nine, 9),
	      "  the default provider refuses both too");
	ERR_clear_error();
	fails_with(set_utf8(ctx, OSSL_MAC_PARAM_SALT, "salt"), R_SET,
		   "BLAKE2SMAC salt as a UTF-8 string (zinc is stricter than default)");
	fails_with(set_utf8(ctx, OSSL_MAC_PARAM_CUSTOM, "app"), R_SET,
		   "BLAKE2SMAC custom as a UTF-8 string (zinc is stricter than default)");
	fails_with(set_utf8(ctx, OSSL_MAC_PARAM_KEY, "key"), R_SET,
		   "BLAKE2SMAC key as a UTF-8 string (zinc is stricter than default)");
	{
		char s[8];
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_SIZE, s,
								     sizeof(s)),
				    OSSL_PARAM_END };

		fails_with(EVP_MAC_CTX_get_params(ctx, p), R_GET,
			   "BLAKE2SMAC get \"size\" into a UTF-8 string");
	}

	/* Output too small: EVP refuses first; zinc's own check follows below. */
	zt_ok(EVP_MAC_init(ctx, key33, 32, NULL) && EVP_MAC_update(ctx, key33, 33),
	      "BLAKE2SMAC keyed");
	out_reset(&o);
	r = EVP_MAC_final(ctx, o.b, &outl, 31);
	zt_ok(!r && out_untouched(&o), "BLAKE2SMAC final into 31 bytes fails, nothing written");
	ERR_clear_error();

	/*
	 * A size set after init applies at the next init, yet EVP sizes the
	 * output by it: default writes 32 bytes into the 16 it reports.
	 */
	zt_ok(set_size(ctx, 16), "BLAKE2SMAC size 16 after init");
	fails_with(EVP_MAC_final(ctx, o.b, &outl, 16), R_SIZE,
		   "BLAKE2SMAC final with the size changed since init");
	zt_ok(out_untouched(&o), "  nothing written");
	zt_ok(EVP_MAC_init(ctx, NULL, 0, NULL) && EVP_MAC_final(ctx, o.b, &outl, 16) &&
	      outl == 16 && tail_untouched(&o, 16),
	      "  re-init applies it: 16 bytes written, no more");

	out_reset(&o);
	fails_with(EVP_MAC_update(ctx, key33, 3), R_AFTER_FINAL, "BLAKE2SMAC update after final");
	fails_with(EVP_MAC_final(ctx, o.b, &outl, 32), R_AFTER_FINAL,
		   "BLAKE2SMAC final after final");
	zt_ok(out_untouched(&o), "  nothing written");
	zt_ok(EVP_MAC_init(ctx, NULL, 0, NULL) && EVP_MAC_update(ctx, key33, 3),
	      "BLAKE2SMAC re-init without a key reuses the key");

	direct_mac_short_output(EVP_MAC_get0_provider(EVP_MAC_CTX_get0_mac(ctx)), "BLAKE2SMAC", 32);
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_CTX_free(dctx);
}

/* --- BLAKE2S-256 ------------------------------------------------------------ */

static void test_blake2s256(void)
{
	EVP_MD *md = EVP_MD_fetch(zt_zinc_ctx(), "BLAKE2S-256", NULL);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	struct outbuf o;
	unsigned int len = 0;

	if (md == NULL || ctx == NULL) {
		printf("Bail out! cannot fetch BLAKE2S-256\n");
		exit(99);
	}
	out_reset(&o);
	zt_ok(EVP_DigestInit_ex2(ctx, md, NULL) && EVP_DigestUpdate(ctx, "abc", 3) &&
	      EVP_DigestFinal_ex(ctx, o.b, &len) && len == 32 && tail_untouched(&o, 32),
	      "BLAKE2S-256 digest, none past its 32 bytes");
	out_reset(&o);
	after_final_through_evp(EVP_DigestUpdate(ctx, "abc", 3), "update");
	after_final_through_evp(EVP_DigestFinal_ex(ctx, o.b, &len), "final");
	zt_ok(out_untouched(&o), "  nothing written");
	{
		char s[8];
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string(OSSL_DIGEST_PARAM_BLOCK_SIZE,
								     s, sizeof(s)),
				    OSSL_PARAM_END };
		EVP_MD *dmd = EVP_MD_fetch(zt_default_ctx(), "BLAKE2S-256", NULL);

		zt_ok(!EVP_MD_get_params(md, p) && !EVP_MD_get_params(dmd, p),
		      "BLAKE2S-256 \"blocksize\" into a UTF-8 string: refused by zinc and default");
		ERR_clear_error();
		EVP_MD_free(dmd);
	}
	direct_digest(EVP_MD_get0_provider(md));
	EVP_MD_CTX_free(ctx);
	EVP_MD_free(md);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(key33); i++)
		key33[i] = (unsigned char)(0x40 + i);
	test_poly1305();
	test_blake2smac();
	test_blake2s256();
	return zt_done();
}
