/* SPDX-License-Identifier: Apache-2.0 */
/*
 * POLY1305, BLAKE2SMAC and BLAKE2S-256 in zinc against OpenSSL's default
 * provider in another library context: every input length 0..4096 and some
 * larger ones, random keys, BLAKE2SMAC sizes, key, salt and custom lengths,
 * random update splits, misaligned buffers, contexts re-initialised with a
 * new key and duplicated mid-stream; then the parameter lists and values.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "testutil.h"

#define MAX_EVERY 4096
#define MAX_LARGE (1 << 20)
#define LARGE_COUNT 12
#define SHOW_MAX 5		/* mismatches shown in full per algorithm */

enum alg { POLY1305, BLAKE2SMAC, BLAKE2S256, NALGS };

static const char *const alg_name[NALGS] = { "POLY1305", "BLAKE2SMAC", "BLAKE2S-256" };

/* One computation, the same for both providers. */
struct job {
	enum alg alg;
	unsigned char key[32];
	size_t keylen;
	size_t size;			/* BLAKE2SMAC: 0 leaves the default */
	unsigned char salt[8], custom[8];
	size_t salt_len, custom_len;
	int with_salt, with_custom;
	int key_as_param;		/* the key in init's parameters, not its argument */
	int reuse_key;			/* BLAKE2SMAC: init without a key, reusing the last */
};

/* One provider's contexts, kept and re-initialised from job to job. */
struct engine {
	const char *who;
	EVP_MAC_CTX *mac[2];
	EVP_MD *md;
	EVP_MD_CTX *mdctx;
};

/* A running computation: a MAC or digest context. */
struct stream {
	enum alg alg;
	EVP_MAC_CTX *mac;
	EVP_MD_CTX *md;
};

static struct engine zinc, dflt;
static unsigned long mismatches[NALGS], runs[NALGS], failures[NALGS];

static void engine_open(struct engine *e, const char *who, OSSL_LIB_CTX *libctx)
{
	int i;

	e->who = who;
	for (i = 0; i < 2; i++) {
		EVP_MAC *m = EVP_MAC_fetch(libctx, alg_name[i], NULL);

		e->mac[i] = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
		EVP_MAC_free(m);
	}
	e->md = EVP_MD_fetch(libctx, "BLAKE2S-256", NULL);
	e->mdctx = EVP_MD_CTX_new();
	if (e->mac[0] == NULL || e->mac[1] == NULL || e->md == NULL || e->mdctx == NULL) {
		printf("Bail out! cannot fetch the algorithms from %s\n", who);
		exit(99);
	}
}

static void engine_close(struct engine *e)
{
	EVP_MAC_CTX_free(e->mac[0]);
	EVP_MAC_CTX_free(e->mac[1]);
	EVP_MD_CTX_free(e->mdctx);
	EVP_MD_free(e->md);
}

static int stream_begin(struct engine *e, const struct job *j, struct stream *s)
{
	OSSL_PARAM params[5], *p = params;
	size_t size = j->size;

	s->alg = j->alg;
	s->mac = NULL;
	s->md = NULL;
	if (j->alg == BLAKE2S256) {
		s->md = e->mdctx;
		return EVP_DigestInit_ex2(s->md, e->md, NULL);
	}
	s->mac = e->mac[j->alg];
	if (j->alg == BLAKE2SMAC) {
		if (size != 0)
			*p++ = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size);
		if (j->with_custom)
			*p++ = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM,
								 (void *)j->custom, j->custom_len);
		if (j->with_salt)
			*p++ = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT,
								 (void *)j->salt, j->salt_len);
		if (j->reuse_key) {
			*p = OSSL_PARAM_construct_end();
			return EVP_MAC_init(s->mac, NULL, 0, params);
		}
	}
	if (j->key_as_param) {
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, (void *)j->key,
							 j->keylen);
		*p = OSSL_PARAM_construct_end();
		return EVP_MAC_init(s->mac, NULL, 0, params);
	}
	*p = OSSL_PARAM_construct_end();
	return EVP_MAC_init(s->mac, j->key, j->keylen, params);
}

static int stream_update(struct stream *s, const unsigned char *in, size_t len)
{
	return s->md != NULL ? EVP_DigestUpdate(s->md, in, len) : EVP_MAC_update(s->mac, in, len);
}

static int stream_final(struct stream *s, unsigned char *out, size_t *outl)
{
	unsigned int len = 0;

	if (s->mac != NULL)
		return EVP_MAC_final(s->mac, out, outl, 32);
	if (!EVP_DigestFinal_ex(s->md, out, &len))
		return 0;
	*outl = len;
	return 1;
}

static int stream_dup(const struct stream *s, struct stream *copy)
{
	*copy = *s;
	if (s->mac != NULL) {
		copy->mac = EVP_MAC_CTX_dup(s->mac);
		return copy->mac != NULL;
	}
	copy->md = EVP_MD_CTX_new();
	return copy->md != NULL && EVP_MD_CTX_copy_ex(copy->md, s->md);
}

static void stream_free_copy(struct stream *copy)
{
	EVP_MAC_CTX_free(copy->mac);
	EVP_MD_CTX_free(copy->md);
}

/* Feeds in as a random sequence of updates, some of them empty. */
static int feed(struct stream *s, const unsigned char *in, size_t len)
{
	size_t style = zt_rand_below(5), max;

	if (style == 0)
		return stream_update(s, in, len);
	max = style == 1 ? 17 : style == 2 ? 130 : style == 3 ? 1100 : len + 1;
	while (len > 0) {
		size_t n = zt_rand_below(max + 1);

		if (n > len)
			n = len;
		if (!stream_update(s, in, n))
			return 0;
		in += n;
		len -= n;
	}
	return 1;
}

static int compute(struct engine *e, const struct job *j, const unsigned char *in, size_t len,
		   int split, unsigned char *out, size_t *outl)
{
	struct stream s;

	return stream_begin(e, j, &s) && (split ? feed(&s, in, len) : stream_update(&s, in, len)) &&
	       stream_final(&s, out, outl);
}

static void compare(enum alg alg, int ok, const unsigned char *got, size_t got_len,
		    const unsigned char *want, size_t want_len, const char *what, size_t len)
{
	runs[alg]++;
	if (!ok) {
		if (failures[alg]++ < SHOW_MAX)
			zt_ok(0, "%s %s, %zu bytes: a call failed", alg_name[alg], what, len);
		zt_clear_errors();
		return;
	}
	if (got_len == want_len && memcmp(got, want, got_len) == 0)
		return;
	if (mismatches[alg]++ < SHOW_MAX)
		zt_mem_eq(got, got_len, want, want_len, "%s %s, %zu bytes", alg_name[alg], what,
			  len);
}

static void random_job(struct job *j, enum alg alg, int first)
{
	memset(j, 0, sizeof(*j));
	j->alg = alg;
	if (alg == POLY1305) {
		j->keylen = 32;
		zt_rand(j->key, 32);
		j->key_as_param = zt_rand_below(4) == 0;
	} else if (alg == BLAKE2SMAC) {
		j->keylen = 1 + zt_rand_below(32);
		zt_rand(j->key, j->keylen);
		j->key_as_param = zt_rand_below(4) == 0;
		j->reuse_key = !first && zt_rand_below(8) == 0;
		j->size = zt_rand_below(4) == 0 ? 0 : 1 + zt_rand_below(32);
		j->with_salt = zt_rand_below(2) == 1;
		j->salt_len = zt_rand_below(9);
		zt_rand(j->salt, j->salt_len);
		j->with_custom = zt_rand_below(2) == 1;
		j->custom_len = zt_rand_below(9);
		zt_rand(j->custom, j->custom_len);
	}
}

/*
 * One input through both providers: zinc with random splits, from a
 * misaligned buffer, into a misaligned output; default in one update.
 * Now and then zinc's context is duplicated mid-stream and the copy fed
 * a different tail, which must not disturb the original.
 */
static void one(enum alg alg, const unsigned char *src, size_t len, unsigned char *work,
		unsigned char *work2, int first)
{
	unsigned char obuf[32 + 8], want[32], want2[32], *got = obuf + zt_rand_below(8), got2[32];
	size_t off = zt_rand_below(16), got_len = 0, want_len = 0, got2_len = 0, want2_len = 0;
	unsigned char *in = work + off, *in2 = work2 + zt_rand_below(16);
	struct stream s, copy;
	struct job j;
	size_t cut;
	int ok, dok;

	random_job(&j, alg, first);
	memcpy(in, src, len);
	if (len == 0 || zt_rand_below(8) != 0) {
		dok = compute(&dflt, &j, in, len, 0, want, &want_len);
		ok = compute(&zinc, &j, in, len, 1, got, &got_len);
		compare(alg, ok && dok, got, got_len, want, want_len, "random splits", len);
		return;
	}
	/* Duplicate after `cut` bytes; the copy then sees another tail. */
	cut = zt_rand_below(len + 1);
	memcpy(in2, in, cut);
	zt_rand(in2 + cut, len - cut);
	dok = compute(&dflt, &j, in, len, 0, want, &want_len) &&
	      compute(&dflt, &j, in2, len, 0, want2, &want2_len);
	ok = stream_begin(&zinc, &j, &s) && feed(&s, in, cut) && stream_dup(&s, &copy);
	if (ok) {
		ok = feed(&s, in + cut, len - cut) && feed(&copy, in2 + cut, len - cut) &&
		     stream_final(&copy, got2, &got2_len) && stream_final(&s, got, &got_len);
		stream_free_copy(&copy);
	}
	compare(alg, ok && dok, got, got_len, want, want_len, "duplicated: original", len);
	compare(alg, ok && dok, got2, got2_len, want2, want2_len, "duplicated: copy", len);
}

static void test_streams(void)
{
	unsigned char *src = malloc(MAX_LARGE), *work = malloc(MAX_LARGE + 16);
	unsigned char *work2 = malloc(MAX_LARGE + 16);
	enum alg alg;
	size_t len, i;

	if (src == NULL || work == NULL || work2 == NULL) {
		printf("Bail out! out of memory\n");
		exit(99);
	}
	for (alg = POLY1305; alg < NALGS; alg++) {
		for (len = 0; len <= MAX_EVERY; len++) {
			zt_rand(src, len);
			one(alg, src, len, work, work2, len == 0);
		}
		for (i = 0; i < LARGE_COUNT; i++) {
			len = MAX_EVERY + 1 + zt_rand_below(MAX_LARGE - MAX_EVERY);
			zt_rand(src, len);
			one(alg, src, len, work, work2, 0);
		}
		zt_ok(runs[alg] >= MAX_EVERY + 1 + LARGE_COUNT && mismatches[alg] == 0 &&
		      failures[alg] == 0,
		      "%s: %lu computations equal default's (%lu differ, %lu failed)",
		      alg_name[alg], runs[alg], mismatches[alg], failures[alg]);
	}
	free(src);
	free(work);
	free(work2);
}

/* --- parameters ------------------------------------------------------------ */

/* The same names with the same types, in any order. */
static int same_list(const OSSL_PARAM *a, const OSSL_PARAM *b, const char *what)
{
	const OSSL_PARAM *p, *q;
	size_t na = 0, nb = 0;
	int ok = 1;

	for (p = a; p != NULL && p->key != NULL; p++, na++) {
		q = OSSL_PARAM_locate_const(b, p->key);
		if (q == NULL || q->data_type != p->data_type) {
			zt_diag("%s: zinc's \"%s\" %s", what, p->key,
				q == NULL ? "is not default's" : "has another type than default's");
			ok = 0;
		}
	}
	for (q = b; q != NULL && q->key != NULL; q++, nb++)
		if (OSSL_PARAM_locate_const(a, q->key) == NULL) {
			zt_diag("%s: default's \"%s\" is missing from zinc", what, q->key);
			ok = 0;
		}
	return zt_ok(ok && na == nb, "%s: %zu parameters, as default's", what, na);
}

static void test_param_lists(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		EVP_MAC_CTX *z = zinc.mac[i], *d = dflt.mac[i];
		const EVP_MAC *zm = EVP_MAC_CTX_get0_mac(z), *dm = EVP_MAC_CTX_get0_mac(d);
		char what[64];

		snprintf(what, sizeof(what), "%s gettable", alg_name[i]);
		same_list(EVP_MAC_gettable_params(zm), EVP_MAC_gettable_params(dm), what);
		snprintf(what, sizeof(what), "%s gettable_ctx", alg_name[i]);
		same_list(EVP_MAC_gettable_ctx_params(zm), EVP_MAC_gettable_ctx_params(dm), what);
		snprintf(what, sizeof(what), "%s settable_ctx", alg_name[i]);
		same_list(EVP_MAC_settable_ctx_params(zm), EVP_MAC_settable_ctx_params(dm), what);
		snprintf(what, sizeof(what), "%s context's gettable", alg_name[i]);
		same_list(EVP_MAC_CTX_gettable_params(z), EVP_MAC_CTX_gettable_params(d), what);
		snprintf(what, sizeof(what), "%s context's settable", alg_name[i]);
		same_list(EVP_MAC_CTX_settable_params(z), EVP_MAC_CTX_settable_params(d), what);
	}
	same_list(EVP_MD_gettable_params(zinc.md), EVP_MD_gettable_params(dflt.md),
		  "BLAKE2S-256 gettable");
	same_list(EVP_MD_gettable_ctx_params(zinc.md), EVP_MD_gettable_ctx_params(dflt.md),
		  "BLAKE2S-256 gettable_ctx");
	same_list(EVP_MD_settable_ctx_params(zinc.md), EVP_MD_settable_ctx_params(dflt.md),
		  "BLAKE2S-256 settable_ctx");
}

/* Every gettable parameter's value, read as the list types it, equal in both. */
static int mac_values(EVP_MAC_CTX *z, EVP_MAC_CTX *d, int ctx_level, const char *what)
{
	const OSSL_PARAM *list = ctx_level ? EVP_MAC_CTX_gettable_params(d) :
				 EVP_MAC_gettable_params(EVP_MAC_CTX_get0_mac(d));
	int ok = 1, n = 0;

	for (; list != NULL && list->key != NULL; list++, n++) {
		size_t zv = 0, dv = 0;
		OSSL_PARAM zp[2] = { OSSL_PARAM_construct_size_t(list->key, &zv), OSSL_PARAM_END };
		OSSL_PARAM dp[2] = { OSSL_PARAM_construct_size_t(list->key, &dv), OSSL_PARAM_END };
		int zr, dr;

		if (ctx_level) {
			zr = EVP_MAC_CTX_get_params(z, zp);
			dr = EVP_MAC_CTX_get_params(d, dp);
		} else {
			zr = EVP_MAC_get_params(EVP_MAC_CTX_get0_mac(z), zp);
			dr = EVP_MAC_get_params(EVP_MAC_CTX_get0_mac(d), dp);
		}
		if (zr != dr || zv != dv) {
			zt_diag("%s: \"%s\" zinc %d/%zu, default %d/%zu", what, list->key, zr, zv,
				dr, dv);
			ok = 0;
		}
	}
	return zt_ok(ok && EVP_MAC_CTX_get_mac_size(z) == EVP_MAC_CTX_get_mac_size(d) &&
		     EVP_MAC_CTX_get_block_size(z) == EVP_MAC_CTX_get_block_size(d),
		     "%s: %d values, mac size %zu and block size %zu as default's", what, n,
		     EVP_MAC_CTX_get_mac_size(z), EVP_MAC_CTX_get_block_size(z));
}

static void test_param_values(void)
{
	size_t sizes[] = { 1, 16, 31, 32 }, i;
	size_t bs_z = 0, sz_z = 0, bs_d = 0, sz_d = 0;
	int xof_z = -1, aa_z = -1, xof_d = -2, aa_d = -2;
	OSSL_PARAM zp[5] = {
		OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, &bs_z),
		OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &sz_z),
		OSSL_PARAM_construct_int(OSSL_DIGEST_PARAM_XOF, &xof_z),
		OSSL_PARAM_construct_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, &aa_z), OSSL_PARAM_END
	};
	OSSL_PARAM dp[5] = {
		OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, &bs_d),
		OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &sz_d),
		OSSL_PARAM_construct_int(OSSL_DIGEST_PARAM_XOF, &xof_d),
		OSSL_PARAM_construct_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, &aa_d), OSSL_PARAM_END
	};
	int zr, dr;

	mac_values(zinc.mac[POLY1305], dflt.mac[POLY1305], 0, "POLY1305 algorithm parameters");
	mac_values(zinc.mac[POLY1305], dflt.mac[POLY1305], 1, "POLY1305 context parameters");
	mac_values(zinc.mac[BLAKE2SMAC], dflt.mac[BLAKE2SMAC], 0,
		   "BLAKE2SMAC algorithm parameters");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &sizes[i]),
				    OSSL_PARAM_END };
		char what[64];

		snprintf(what, sizeof(what), "BLAKE2SMAC context parameters, size %zu", sizes[i]);
		zt_ok(EVP_MAC_CTX_set_params(zinc.mac[BLAKE2SMAC], p) &&
		      EVP_MAC_CTX_set_params(dflt.mac[BLAKE2SMAC], p),
		      "BLAKE2SMAC set size %zu", sizes[i]);
		mac_values(zinc.mac[BLAKE2SMAC], dflt.mac[BLAKE2SMAC], 1, what);
	}
	zr = EVP_MD_get_params(zinc.md, zp);
	dr = EVP_MD_get_params(dflt.md, dp);
	zt_ok(zr && dr && bs_z == bs_d && sz_z == sz_d && xof_z == xof_d && aa_z == aa_d,
	      "BLAKE2S-256 blocksize %zu size %zu xof %d algid-absent %d, as default's (%zu %zu %d "
	      "%d)",
	      bs_z, sz_z, xof_z, aa_z, bs_d, sz_d, xof_d, aa_d);
	zt_ok(EVP_MD_get_size(zinc.md) == 32 && EVP_MD_get_block_size(zinc.md) == 64 &&
	      EVP_MD_get_flags(zinc.md) == EVP_MD_get_flags(dflt.md) &&
	      EVP_MD_get_type(zinc.md) == EVP_MD_get_type(dflt.md),
	      "BLAKE2S-256 size, block size, flags and NID as default's");
}

/* The context's "size", as 3.2's EVP_MD_CTX_get_size_ex reads it. */
static unsigned int md_ctx_size(EVP_MD_CTX *ctx)
{
	unsigned int size = 0;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint(OSSL_DIGEST_PARAM_SIZE, &size),
			    OSSL_PARAM_END };

	return EVP_MD_CTX_get_params(ctx, p) ? size : 0;
}

/*
 * BLAKE2S-256's "size" (3.2+): the digest length in the parameter block,
 * given at init or set on the context, held across re-inits; each size
 * 1 to 32 over messages around the block size, against default.
 */
static void test_blake2s_size(void)
{
	EVP_MD_CTX *z = EVP_MD_CTX_new(), *d = EVP_MD_CTX_new();
	unsigned char msg[130], zout[32], dout[32];
	unsigned int size, zl, dl;
	int bad = 0, tried = 0;

	if (z == NULL || d == NULL) {
		printf("Bail out! EVP_MD_CTX_new\n");
		exit(99);
	}
	zt_rand(msg, sizeof(msg));
	if (!zt_openssl_at_least(3, 2)) {
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint(OSSL_DIGEST_PARAM_SIZE, &size),
				    OSSL_PARAM_END };

		size = 16;
		zt_ok(EVP_DigestInit_ex2(z, zinc.md, NULL) && EVP_DigestInit_ex2(d, dflt.md, NULL) &&
		      EVP_MD_CTX_set_params(z, p) == 0 && EVP_MD_CTX_set_params(d, p) == 0,
		      "BLAKE2S-256 size: not settable before 3.2, as in default");
		zt_clear_errors();
		goto out;
	}
	for (size = 1; size <= 32; size++) {
		static const size_t lens[] = { 0, 1, 63, 64, 65, 128, 130 };
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint(OSSL_DIGEST_PARAM_SIZE, &size),
				    OSSL_PARAM_END };

		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			int ok;

			zl = dl = 0;
			/* Odd sizes at init, even ones set afterwards then a re-init. */
			if (size % 2)
				ok = EVP_DigestInit_ex2(z, zinc.md, p) &&
				     EVP_DigestInit_ex2(d, dflt.md, p);
			else
				ok = EVP_DigestInit_ex2(z, zinc.md, NULL) &&
				     EVP_DigestInit_ex2(d, dflt.md, NULL) &&
				     EVP_MD_CTX_set_params(z, p) && EVP_MD_CTX_set_params(d, p) &&
				     EVP_DigestInit_ex2(z, NULL, NULL) &&
				     EVP_DigestInit_ex2(d, NULL, NULL);
			ok = ok && md_ctx_size(z) == size && md_ctx_size(d) == size &&
			     EVP_DigestUpdate(z, msg, lens[i]) && EVP_DigestUpdate(d, msg, lens[i]) &&
			     EVP_DigestFinal_ex(z, zout, &zl) && EVP_DigestFinal_ex(d, dout, &dl) &&
			     zl == size && dl == size && memcmp(zout, dout, size) == 0;
			tried++;
			if (!ok) {
				zt_diag("size %u, %zu bytes: zinc %u bytes, default %u", size, lens[i],
					zl, dl);
				bad++;
			}
		}
	}
	zt_ok(bad == 0, "BLAKE2S-256 size 1 to 32, at init or set then re-init: %d digests as "
	      "default's, byte for byte (3.2+)", tried);
	{
		unsigned int too_big = 33, zero = 0;
		OSSL_PARAM big[2] = { OSSL_PARAM_construct_uint(OSSL_DIGEST_PARAM_SIZE, &too_big),
				      OSSL_PARAM_END };
		OSSL_PARAM none[2] = { OSSL_PARAM_construct_uint(OSSL_DIGEST_PARAM_SIZE, &zero),
				       OSSL_PARAM_END };
		const char *reason;

		zt_ok(!EVP_DigestInit_ex2(z, zinc.md, big) && !EVP_DigestInit_ex2(d, dflt.md, big),
		      "BLAKE2S-256 size 33: refused, as default");
		reason = zt_zinc_reason();
		zt_ok(reason != NULL && strcmp(reason, "invalid output size") == 0,
		      "BLAKE2S-256 size 33: zinc says \"%s\"", reason ? reason : "nothing");
		zt_ok(!EVP_DigestInit_ex2(z, zinc.md, none) && !EVP_DigestInit_ex2(d, dflt.md, none),
		      "BLAKE2S-256 size 0: refused, as default");
		zt_clear_errors();
	}
out:
	EVP_MD_CTX_free(z);
	EVP_MD_CTX_free(d);
}

int main(void)
{
	engine_open(&zinc, "zinc", zt_zinc_ctx());
	engine_open(&dflt, "default", zt_default_ctx());
	test_streams();
	test_param_lists();
	test_param_values();
	test_blake2s_size();
	engine_close(&zinc);
	engine_close(&dflt);
	return zt_done();
}
