/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL 3.5's cipher pipelines (EVP_CipherPipeline*) with zinc's
 * ChaCha20-Poly1305, XChaCha20-Poly1305 and ChaCha20: every record of a
 * pipeline of 1 to 32 equals the same record sealed alone, by zinc and by
 * the default provider; decryption finds the forged records and leaves the
 * others be; misuse is refused with zinc's reasons.  On a core before 3.5
 * zinc must not offer the pipeline functions at all, and the rest skips.
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

struct cipher_case {
	const char *name;
	size_t iv_len;
	int aead;
};

static const struct cipher_case ciphers[] = {
	{ "ChaCha20-Poly1305", 12, 1 },
	{ "XChaCha20-Poly1305", 24, 1 },
	{ "ChaCha20", 16, 0 },
};

/* The function numbers of the pipeline: 15..18 since 3.5. */
static int pipeline_functions(const OSSL_DISPATCH *d)
{
	int n = 0;

	for (; d->function_id != 0; d++)
		n += d->function_id >= 15 && d->function_id <= 18;
	return n;
}

/* zinc's own table, asked directly: what it offers this core. */
static void check_offered(void)
{
	const int want = zt_openssl_at_least(3, 5) ? 4 : 0;
	OSSL_PROVIDER *prov = OSSL_PROVIDER_load(zt_zinc_ctx(), "zinc");
	const OSSL_ALGORITHM *a;
	int no_cache = 0;
	size_t i;

	if (!zt_ok(prov != NULL, "zinc loads"))
		return;
	a = OSSL_PROVIDER_query_operation(prov, OSSL_OP_CIPHER, &no_cache);
	for (i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++) {
		const OSSL_ALGORITHM *alg = a;
		int got = -1;

		for (; alg != NULL && alg->algorithm_names != NULL; alg++)
			if (strcmp(alg->algorithm_names, ciphers[i].name) == 0)
				got = pipeline_functions(alg->implementation);
		zt_ok(got == want, "%s: zinc offers %d of the 4 pipeline functions to this core (%d)",
		      ciphers[i].name, want, got);
	}
	OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_CIPHER, a);
	OSSL_PROVIDER_unload(prov);
}

#if OPENSSL_VERSION_NUMBER >= 0x30500000L

#define MAX_PIPES EVP_MAX_PIPES
#define MAX_LEN 16384
#define TAG_LEN 16
#define ZINC_PARAM_FAILED "zinc-pipeline-failed"

#define R_MISMATCH	"tag mismatch: the message is not authentic"
#define R_NO_TAG	"no tag was set before decryption's final"
#define R_NO_TAG_YET	"the tag is available only after encryption's final"
#define R_NO_RESULT	"the records' results are available only after a decrypting pipeline's final"
#define R_COUNT		"a pipeline has 1 to 32 records, the same number in every call"
#define R_NO_KEY	"no key set"
#define R_NO_IV		"no iv set"
#define R_KEYLEN	"invalid key length"
#define R_IVLEN		"invalid iv length"
#define R_TAGLEN	"invalid tag length"
#define R_AAD_LATE	"additional data must come before the message"
#define R_AFTER_FINAL	"update or final after final"
#define R_OUT_SMALL	"output buffer too small"
#define R_NULL		"null argument"
#define R_MODE		"operation not supported in this mode"

/* The lengths every run covers, with random ones between. */
static const size_t special_len[] = { 0, 1, 15, 16, 17, 63, 64, 65, 200, 1000, 1420, 16384 };
#define SPECIAL_LENS (sizeof(special_len) / sizeof(special_len[0]))
static const size_t aad_len_choice[] = { 0, 1, 12, 13, 16, 17, 64, 255 };

/* One pipeline's records. */
struct records {
	size_t n;
	unsigned char key[32];
	unsigned char iv[MAX_PIPES][24];
	unsigned char aad[MAX_PIPES][255];
	size_t aad_len[MAX_PIPES];
	unsigned char *pt[MAX_PIPES], *ct[MAX_PIPES], *dec[MAX_PIPES];
	size_t len[MAX_PIPES];
	unsigned char tag[MAX_PIPES][TAG_LEN];
	/* Where each record's data is cut for the three updates. */
	size_t cut[MAX_PIPES][2];
};

static void bail(const char *what)
{
	printf("Bail out! %s\n", what);
	ERR_print_errors_fp(stdout);
	exit(99);
}

static void *xmalloc(size_t len)
{
	void *p = malloc(len > 0 ? len : 1);

	if (p == NULL)
		bail("out of memory");
	return p;
}

static int fails_with(int ret, const char *want, const char *what, const char *name)
{
	const char *got = zt_zinc_reason();

	return zt_ok(ret <= 0 && got != NULL && strcmp(got, want) == 0,
		     "%s: %s fails with \"%s\" (returned %d, reason: %s)", name, what, want, ret,
		     got != NULL ? got : "none from zinc");
}

static EVP_CIPHER *fetch(OSSL_LIB_CTX *libctx, const char *name)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, NULL);

	if (c == NULL)
		bail(name);
	return c;
}

static void records_free(struct records *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->pt[i]);
		free(r->ct[i]);
		free(r->dec[i]);
	}
	r->n = 0;
}

/* n records, each of exactly its length (so that an overrun is caught by sanitizers). */
static void records_make(struct records *r, const struct cipher_case *cc, size_t n)
{
	size_t i;

	r->n = n;
	zt_rand(r->key, sizeof(r->key));
	for (i = 0; i < n; i++) {
		size_t a, b;

		r->len[i] = i % 2 == 0 ? special_len[(n + i / 2) % SPECIAL_LENS] : zt_rand_below(MAX_LEN + 1);
		r->aad_len[i] = cc->aead ? aad_len_choice[zt_rand_below(8)] : 0;
		zt_rand(r->iv[i], cc->iv_len);
		zt_rand(r->aad[i], r->aad_len[i]);
		r->pt[i] = xmalloc(r->len[i]);
		r->ct[i] = xmalloc(r->len[i]);
		r->dec[i] = xmalloc(r->len[i]);
		zt_rand(r->pt[i], r->len[i]);
		a = zt_rand_below(r->len[i] + 1);
		b = zt_rand_below(r->len[i] + 1);
		r->cut[i][0] = a < b ? a : b;
		r->cut[i][1] = a < b ? b : a;
	}
	/* ChaCha20's counter passing 0xffffffff in records: the carry into word 13. */
	for (i = 0; !cc->aead && i < n; i += 3)
		memcpy(r->iv[i], "\xfe\xff\xff\xff", 4);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * Default has no XChaCha20-Poly1305: its ChaCha20-Poly1305 under the
 * HChaCha20 subkey, which is default's ChaCha20 block for IV nonce[0..15]
 * less the input words (HChaCha20 is the permutation without that sum).
 */
static int default_xchacha(const unsigned char key[32], const unsigned char nonce[24],
			   unsigned char subkey[32], unsigned char inner[12])
{
	static const unsigned char zero[64];
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	EVP_CIPHER *c = fetch(zt_default_ctx(), "ChaCha20");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned char block[64] = { 0 };
	size_t w, b;
	int outl, ok;

	ok = ctx != NULL && EVP_EncryptInit_ex2(ctx, c, key, nonce, NULL) &&
	     EVP_EncryptUpdate(ctx, block, &outl, zero, 64);
	for (w = 0; w < 8; w++) {
		uint32_t v = w < 4 ? le32(block + 4 * w) - sigma[w]
				   : le32(block + 48 + 4 * (w - 4)) - le32(nonce + 4 * (w - 4));

		for (b = 0; b < 4; b++)
			subkey[4 * w + b] = (unsigned char)(v >> (8 * b));
	}
	memset(inner, 0, 4);
	memcpy(inner + 4, nonce + 16, 8);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
	return ok;
}

/* One record alone through the ordinary EVP calls. */
static int seal_alone(OSSL_LIB_CTX *libctx, const struct cipher_case *cc,
		      const struct records *r, size_t i, unsigned char *ct, unsigned char *tag)
{
	const int derive = libctx == zt_default_ctx() && cc->iv_len == 24;
	EVP_CIPHER *c = fetch(libctx, derive ? "ChaCha20-Poly1305" : cc->name);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	const unsigned char *key = r->key, *iv = r->iv[i];
	unsigned char subkey[32], inner[12];
	int outl, ok = 1;

	if (derive) {
		ok = default_xchacha(r->key, r->iv[i], subkey, inner);
		key = subkey;
		iv = inner;
	}
	ok = ok && ctx != NULL && EVP_EncryptInit_ex2(ctx, c, key, iv, NULL) &&
	     (r->aad_len[i] == 0 ||
	      EVP_EncryptUpdate(ctx, NULL, &outl, r->aad[i], (int)r->aad_len[i])) &&
	     EVP_EncryptUpdate(ctx, ct, &outl, r->pt[i], (int)r->len[i]) &&
	     EVP_EncryptFinal_ex(ctx, ct + outl, &outl);
	if (ok && cc->aead) {
		OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };

		params[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag,
							      TAG_LEN);
		ok = EVP_CIPHER_CTX_get_params(ctx, params);
	}
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
	return ok;
}

static OSSL_PARAM tags_param(unsigned char **tags, void **holder, size_t tag_len)
{
	*holder = tags;
	return OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_PIPELINE_AEAD_TAG, holder, tag_len);
}

/*
 * A whole pipeline over r: AAD in two calls, data in three (cut where r
 * says), final continuing where each record's data ended.  Encryption
 * writes ct and the tags; decryption reads ct and tags (of tag_len bytes)
 * and writes dec.  Returns final's result, or -1 if an earlier step failed.
 */
static int run_pipeline(EVP_CIPHER_CTX *ctx, EVP_CIPHER *c, const struct cipher_case *cc,
			struct records *r, int enc, unsigned char tags[][TAG_LEN], size_t tag_len)
{
	const unsigned char *ivs[MAX_PIPES], *in[MAX_PIPES];
	unsigned char *out[MAX_PIPES], *tag_ptr[MAX_PIPES];
	size_t inl[MAX_PIPES], outl[MAX_PIPES], outsize[MAX_PIPES], step, i;
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	void *holder;
	int ok;

	for (i = 0; i < r->n; i++) {
		ivs[i] = r->iv[i];
		tag_ptr[i] = tags[i];
	}
	ok = enc ? EVP_CipherPipelineEncryptInit(ctx, c, r->key, 32, r->n, ivs, cc->iv_len)
		 : EVP_CipherPipelineDecryptInit(ctx, c, r->key, 32, r->n, ivs, cc->iv_len);
	if (!ok)
		return -1;
	if (!enc && cc->aead) {
		params[0] = tags_param(tag_ptr, &holder, tag_len);
		if (!EVP_CIPHER_CTX_set_params(ctx, params))
			return -1;
	}
	for (step = 0; cc->aead && step < 2; step++) {
		for (i = 0; i < r->n; i++) {
			size_t half = r->aad_len[i] / 2;

			in[i] = r->aad[i] + (step == 0 ? 0 : half);
			inl[i] = step == 0 ? half : r->aad_len[i] - half;
		}
		if (!EVP_CipherPipelineUpdate(ctx, NULL, outl, NULL, in, inl))
			return -1;
	}
	for (step = 0; step < 3; step++) {
		for (i = 0; i < r->n; i++) {
			size_t from = step == 0 ? 0 : r->cut[i][step - 1];
			size_t to = step == 2 ? r->len[i] : r->cut[i][step];

			in[i] = (enc ? r->pt[i] : r->ct[i]) + from;
			out[i] = (enc ? r->ct[i] : r->dec[i]) + from;
			inl[i] = to - from;
			outsize[i] = r->len[i] - from;
		}
		if (!EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, inl))
			return -1;
		for (i = 0; i < r->n; i++)
			if (outl[i] != inl[i])
				return -1;
	}
	for (i = 0; i < r->n; i++) {
		out[i] = (enc ? r->ct[i] : r->dec[i]) + r->len[i];
		outsize[i] = 0;
	}
	ok = EVP_CipherPipelineFinal(ctx, out, outl, outsize);
	if (ok && enc && cc->aead) {
		params[0] = tags_param(tag_ptr, &holder, tag_len);
		if (!EVP_CIPHER_CTX_get_params(ctx, params))
			return -1;
	}
	return ok;
}

static int failed_records(EVP_CIPHER_CTX *ctx, uint32_t *failed)
{
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };

	params[0] = OSSL_PARAM_construct_uint32(ZINC_PARAM_FAILED, failed);
	return EVP_CIPHER_CTX_get_params(ctx, params);
}

/* Every record against zinc's and default's single-record sealing, then back. */
static void check_count(const struct cipher_case *cc, EVP_CIPHER *c, size_t n)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	struct records r;
	unsigned char *alone = xmalloc(MAX_LEN), tag[TAG_LEN];
	size_t i, bad_zinc = n, bad_default = n, bad_plain = n;
	uint32_t failed = ~0u;
	int enc_ok, dec_ok;

	records_make(&r, cc, n);
	enc_ok = run_pipeline(ctx, c, cc, &r, 1, r.tag, TAG_LEN) == 1;
	for (i = n; i-- > 0;) {
		memset(tag, 0, sizeof(tag));
		if (!seal_alone(zt_zinc_ctx(), cc, &r, i, alone, tag) ||
		    memcmp(alone, r.ct[i], r.len[i]) != 0 ||
		    (cc->aead && memcmp(tag, r.tag[i], TAG_LEN) != 0))
			bad_zinc = i;
		if (!seal_alone(zt_default_ctx(), cc, &r, i, alone, tag) ||
		    memcmp(alone, r.ct[i], r.len[i]) != 0 ||
		    (cc->aead && memcmp(tag, r.tag[i], TAG_LEN) != 0))
			bad_default = i;
	}
	zt_ok(enc_ok && bad_zinc == n && bad_default == n,
	      "%s: %zu records sealed as a pipeline equal each sealed alone by zinc and by default"
	      " (first differing: zinc %ld, default %ld)", cc->name, n,
	      bad_zinc == n ? -1L : (long)bad_zinc, bad_default == n ? -1L : (long)bad_default);
	dec_ok = run_pipeline(ctx, c, cc, &r, 0, r.tag, TAG_LEN) == 1;
	for (i = n; i-- > 0;)
		if (memcmp(r.dec[i], r.pt[i], r.len[i]) != 0)
			bad_plain = i;
	if (cc->aead)
		dec_ok = dec_ok && failed_records(ctx, &failed) && failed == 0;
	zt_ok(dec_ok && bad_plain == n, "%s: %zu records opened as a pipeline give the plaintext",
	      cc->name, n);
	zt_clear_errors();
	records_free(&r);
	free(alone);
	EVP_CIPHER_CTX_free(ctx);
}

static int all_zero(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

/* Forged tags on the records of mask: those fail, are named and wiped; the rest open. */
static void check_forged(const struct cipher_case *cc, EVP_CIPHER *c, size_t n, uint32_t mask,
			 size_t tag_len)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	struct records r;
	uint32_t failed = 0;
	size_t i;
	int ret, others_ok = 1, wiped = 1;
	const char *reason;

	records_make(&r, cc, n);
	if (run_pipeline(ctx, c, cc, &r, 1, r.tag, TAG_LEN) != 1)
		bail("sealing failed");
	for (i = 0; i < n; i++)
		if (mask >> i & 1)
			r.tag[i][zt_rand_below(tag_len)] ^= (unsigned char)(1u << zt_rand_below(8));
	ret = run_pipeline(ctx, c, cc, &r, 0, r.tag, tag_len);
	reason = zt_zinc_reason();
	for (i = 0; i < n; i++) {
		if (mask >> i & 1)
			wiped &= all_zero(r.dec[i], r.len[i]);
		else
			others_ok &= memcmp(r.dec[i], r.pt[i], r.len[i]) == 0;
	}
	zt_ok(ret == 0 && reason != NULL && strcmp(reason, R_MISMATCH) == 0,
	      "%s: %zu records with %zu-byte tags, forged 0x%08x: final fails with \"%s\""
	      " (returned %d)", cc->name, n, tag_len, mask, R_MISMATCH, ret);
	zt_ok(failed_records(ctx, &failed) && failed == mask,
	      "%s: %zu records, forged 0x%08x: %s says 0x%08x", cc->name, n, mask,
	      ZINC_PARAM_FAILED, failed);
	zt_ok(others_ok, "%s: %zu records, forged 0x%08x: the others' plaintext is right",
	      cc->name, n, mask);
	zt_ok(wiped, "%s: %zu records, forged 0x%08x: the forged records' plaintext is wiped",
	      cc->name, n, mask);
	zt_clear_errors();
	records_free(&r);
	EVP_CIPHER_CTX_free(ctx);
}

/*
 * Opens r's 2 records of 100 bytes with each update's output elsewhere:
 * the first 50 bytes to first[i], the rest to second[i]; final's result.
 */
static int open_in_two_places(EVP_CIPHER_CTX *ctx, EVP_CIPHER *c, const struct cipher_case *cc,
			      struct records *r, unsigned char first[2][50],
			      unsigned char second[2][50])
{
	const unsigned char *ivs[2] = { r->iv[0], r->iv[1] }, *aad[2] = { r->aad[0], r->aad[1] };
	const unsigned char *in[2];
	unsigned char *out[2], *tags[2] = { r->tag[0], r->tag[1] };
	size_t inl[2] = { 50, 50 }, outl[2], outsize[2] = { 50, 50 }, i, k;
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	void *holder;

	params[0] = tags_param(tags, &holder, TAG_LEN);
	if (!EVP_CipherPipelineDecryptInit(ctx, c, r->key, 32, 2, ivs, cc->iv_len) ||
	    !EVP_CIPHER_CTX_set_params(ctx, params) ||
	    !EVP_CipherPipelineUpdate(ctx, NULL, outl, NULL, aad, r->aad_len))
		return -1;
	for (k = 0; k < 2; k++) {
		for (i = 0; i < 2; i++) {
			in[i] = r->ct[i] + 50 * k;
			out[i] = k == 0 ? first[i] : second[i];
		}
		if (!EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, inl))
			return -1;
	}
	for (i = 0; i < 2; i++)
		out[i] = second[i] + 50;
	return EVP_CipherPipelineFinal(ctx, out, outl, outsize);
}

/*
 * A forged record whose plaintext went to two places: zinc names it but
 * cannot tell where all of it went, so it touches neither place; the good
 * record opens.
 */
static void check_scattered(const struct cipher_case *cc, EVP_CIPHER *c)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned char first[2][50], second[2][50];
	struct records r;
	uint32_t failed = 0;
	size_t i;
	int ret, same = 1;

	records_make(&r, cc, 2);
	for (i = 0; i < 2; i++) {
		free(r.pt[i]);
		free(r.ct[i]);
		free(r.dec[i]);
		r.len[i] = 100;
		r.pt[i] = xmalloc(100);
		r.ct[i] = xmalloc(100);
		r.dec[i] = xmalloc(100);
		zt_rand(r.pt[i], 100);
		r.cut[i][0] = r.cut[i][1] = 50;
	}
	if (run_pipeline(ctx, c, cc, &r, 1, r.tag, TAG_LEN) != 1)
		bail("sealing failed");
	r.tag[1][0] ^= 1;
	ret = open_in_two_places(ctx, c, cc, &r, first, second);
	for (i = 0; i < 2; i++)
		same &= memcmp(first[i], r.pt[i], 50) == 0 && memcmp(second[i], r.pt[i] + 50, 50) == 0;
	zt_ok(ret == 0 && failed_records(ctx, &failed) && failed == 0x2 && same,
	      "%s: a forged record written to two places is named (0x%08x) and neither place"
	      " touched; the other opens", cc->name, failed);
	zt_clear_errors();
	records_free(&r);
	EVP_CIPHER_CTX_free(ctx);
}

/* A shorter tag is compared truncated, as default does for one record. */
static void check_short_tag(const struct cipher_case *cc, EVP_CIPHER *c)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned char short_tag[MAX_PIPES][TAG_LEN];
	struct records r;
	size_t i;
	int same = 1;

	records_make(&r, cc, 4);
	memset(short_tag, 0, sizeof(short_tag));
	if (run_pipeline(ctx, c, cc, &r, 1, r.tag, TAG_LEN) != 1 ||
	    run_pipeline(ctx, c, cc, &r, 1, short_tag, 8) != 1)
		bail("sealing failed");
	for (i = 0; i < r.n; i++)
		same &= memcmp(short_tag[i], r.tag[i], 8) == 0 && all_zero(short_tag[i] + 8, 8);
	zt_ok(same, "%s: pipeline-tag of 8 bytes gets each tag's first 8", cc->name);
	zt_ok(run_pipeline(ctx, c, cc, &r, 0, short_tag, 8) == 1,
	      "%s: records open with their tags' first 8 bytes", cc->name);
	zt_clear_errors();
	records_free(&r);
	EVP_CIPHER_CTX_free(ctx);
}

/* Misuse: refused with zinc's reason, nothing written. */
static void check_misuse(const struct cipher_case *cc, EVP_CIPHER *c)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned char key[32] = { 0 }, iv[2][24] = { { 0 } }, buf[2][64], src[2][64] = { { 0 } };
	const unsigned char *ivs[2] = { iv[0], iv[1] }, *in[2] = { src[0], src[1] };
	unsigned char *out[2] = { buf[0], buf[1] };
	size_t inl[2] = { 64, 64 }, outl[2], outsize[2] = { 64, 63 }, i;
	int untouched = 1, len;

	fails_with(EVP_CipherPipelineEncryptInit(ctx, c, key, 32, 0, ivs, cc->iv_len), R_COUNT,
		   "a pipeline of 0 records", cc->name);
	fails_with(EVP_CipherPipelineEncryptInit(ctx, c, key, 31, 2, ivs, cc->iv_len), R_KEYLEN,
		   "a 31-byte key", cc->name);
	fails_with(EVP_CipherPipelineEncryptInit(ctx, c, key, 32, 2, ivs, cc->iv_len - 1),
		   R_IVLEN, "IVs one byte short", cc->name);
	fails_with(EVP_CipherPipelineEncryptInit(ctx, c, key, 32, 2, NULL, 0), R_NO_IV,
		   "no IVs", cc->name);
	fails_with(EVP_CipherPipelineEncryptInit(ctx, c, NULL, 32, 2, ivs, cc->iv_len),
		   R_NO_KEY, "no key", cc->name);
	fails_with(EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, inl), "operation not initialised",
		   "an update after a failed init", cc->name);
	zt_ok(EVP_CipherPipelineEncryptInit(ctx, c, key, 32, 2, ivs, cc->iv_len),
	      "%s: a pipeline of 2 records initialises", cc->name);
	memset(buf, 0xa5, sizeof(buf));
	fails_with(EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, inl), R_OUT_SMALL,
		   "an output of 63 bytes for 64", cc->name);
	in[1] = NULL;
	outsize[1] = 64;
	fails_with(EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, inl), R_NULL,
		   "a NULL input", cc->name);
	in[1] = src[1];
	fails_with(EVP_CipherPipelineUpdate(ctx, out, outl, NULL, in, inl), R_NULL,
		   "no output sizes", cc->name);
	fails_with(EVP_CipherPipelineUpdate(ctx, out, outl, outsize, NULL, inl), R_NULL,
		   "no inputs", cc->name);
	for (i = 0; i < sizeof(buf); i++)
		untouched &= ((unsigned char *)buf)[i] == 0xa5;
	zt_ok(untouched, "%s: the refused updates wrote nothing", cc->name);
	fails_with(EVP_EncryptUpdate(ctx, buf[0], &len, src[0], 16), R_NO_KEY,
		   "a single-record update on a pipeline", cc->name);
	if (!cc->aead) {
		fails_with(EVP_CipherPipelineUpdate(ctx, NULL, outl, NULL, in, inl), R_MODE,
			   "AAD for ChaCha20", cc->name);
	} else {
		unsigned char *tag_ptr[2] = { buf[0], buf[1] };
		OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
		void *holder;
		uint32_t failed;

		params[0] = tags_param(tag_ptr, &holder, TAG_LEN);
		fails_with(EVP_CIPHER_CTX_get_params(ctx, params), R_NO_TAG_YET,
			   "pipeline-tag before final", cc->name);
		fails_with(EVP_CIPHER_CTX_set_params(ctx, params), R_MODE,
			   "setting pipeline-tag when encrypting", cc->name);
		zt_ok(EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, inl),
		      "%s: data for both records", cc->name);
		fails_with(EVP_CipherPipelineUpdate(ctx, NULL, outl, NULL, in, inl), R_AAD_LATE,
			   "AAD after data", cc->name);
		fails_with(failed_records(ctx, &failed), R_NO_RESULT,
			   ZINC_PARAM_FAILED " when encrypting", cc->name);
		params[0] = tags_param(tag_ptr, &holder, 17);
		zt_ok(EVP_CipherPipelineFinal(ctx, out, outl, outsize), "%s: final", cc->name);
		fails_with(EVP_CIPHER_CTX_get_params(ctx, params), R_TAGLEN,
			   "pipeline-tag of 17 bytes", cc->name);
		zt_ok(EVP_CipherPipelineDecryptInit(ctx, c, key, 32, 2, ivs, cc->iv_len),
		      "%s: a decrypting pipeline initialises", cc->name);
		zt_ok(EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, inl),
		      "%s: data for both records", cc->name);
		fails_with(EVP_CipherPipelineFinal(ctx, out, outl, outsize), R_NO_TAG,
			   "decryption's final without tags", cc->name);
		zt_ok(EVP_CipherPipelineEncryptInit(ctx, c, key, 32, 2, ivs, cc->iv_len),
		      "%s: a new pipeline initialises", cc->name);
		zt_ok(EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, inl),
		      "%s: data for both records", cc->name);
	}
	zt_ok(EVP_CipherPipelineFinal(ctx, out, outl, outsize), "%s: final", cc->name);
	fails_with(EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, inl), R_AFTER_FINAL,
		   "data after final", cc->name);
	fails_with(EVP_CipherPipelineFinal(ctx, out, outl, outsize), R_AFTER_FINAL,
		   "a second final", cc->name);
	zt_clear_errors();
	EVP_CIPHER_CTX_free(ctx);
}

/* A copy of a pipeline made part way (after the AAD) finishes as the original does. */
static void check_dup(const struct cipher_case *cc, EVP_CIPHER *c)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *dup = NULL;
	unsigned char key[32], iv[3][24], data[3][100], out[2][3][100], tag[2][3][TAG_LEN];
	const unsigned char *ivs[3] = { iv[0], iv[1], iv[2] };
	const unsigned char *in[3] = { data[0], data[1], data[2] };
	size_t inl[3] = { 100, 37, 0 }, outl[3], outsize[3] = { 100, 100, 100 }, k, i;
	EVP_CIPHER_CTX *both[2];
	int ok;

	zt_rand(key, sizeof(key));
	zt_rand(iv, sizeof(iv));
	zt_rand(data, sizeof(data));
	memset(out, 0, sizeof(out));
	memset(tag, 0, sizeof(tag));
	ok = EVP_CipherPipelineEncryptInit(ctx, c, key, 32, 3, ivs, cc->iv_len) &&
	     (!cc->aead || EVP_CipherPipelineUpdate(ctx, NULL, outl, NULL, in, inl)) &&
	     (dup = EVP_CIPHER_CTX_dup(ctx)) != NULL;
	both[0] = ctx;
	both[1] = dup;
	for (k = 0; ok && k < 2; k++) {
		unsigned char *o[3] = { out[k][0], out[k][1], out[k][2] };
		unsigned char *t[3] = { tag[k][0], tag[k][1], tag[k][2] };
		OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
		void *holder;

		ok = EVP_CipherPipelineUpdate(both[k], o, outl, outsize, in, inl);
		for (i = 0; i < 3; i++)
			o[i] += inl[i];
		ok = ok && EVP_CipherPipelineFinal(both[k], o, outl, outsize);
		params[0] = tags_param(t, &holder, TAG_LEN);
		ok = ok && (!cc->aead || EVP_CIPHER_CTX_get_params(both[k], params));
	}
	zt_ok(ok && memcmp(out[0], out[1], sizeof(out[0])) == 0 &&
	      (!cc->aead || memcmp(tag[0], tag[1], sizeof(tag[0])) == 0),
	      "%s: a copy of a pipeline made before its data finishes as the original", cc->name);
	zt_clear_errors();
	EVP_CIPHER_CTX_free(dup);
	EVP_CIPHER_CTX_free(ctx);
}

static void check_pipelines(void)
{
	static const uint32_t forged[][2] = { { 1, 0x1 }, { 7, 0x24 }, { 32, 0x80002001 } };
	size_t k, n, f;

	for (k = 0; k < sizeof(ciphers) / sizeof(ciphers[0]); k++) {
		const struct cipher_case *cc = &ciphers[k];
		EVP_CIPHER *c = fetch(zt_zinc_ctx(), cc->name);

		zt_ok(EVP_CIPHER_can_pipeline(c, 1) && EVP_CIPHER_can_pipeline(c, 0),
		      "%s: EVP_CIPHER_can_pipeline is true for zinc's", cc->name);
		for (n = 1; n <= MAX_PIPES; n++)
			check_count(cc, c, n);
		check_misuse(cc, c);
		check_dup(cc, c);
		if (cc->aead) {
			for (f = 0; f < sizeof(forged) / sizeof(forged[0]); f++)
				check_forged(cc, c, forged[f][0], forged[f][1], TAG_LEN);
			check_forged(cc, c, 5, 0x10, 4);
			check_scattered(cc, c);
			check_short_tag(cc, c);
		}
		EVP_CIPHER_free(c);
	}
}
#endif

int main(void)
{
	check_offered();
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
	check_pipelines();
#else
	zt_skip("OpenSSL's cipher pipeline API is new in 3.5: these headers are older");
#endif
	return zt_done();
}
