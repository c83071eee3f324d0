/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cipher pipelines (OpenSSL 3.5+): ChaCha20, ChaCha20-Poly1305 and
 * XChaCha20-Poly1305 pipelines of 1 to 32 records, the AAD and data of
 * each record cut into pieces the input chooses, must give every record as
 * zinc gives it sealed alone and, but for XChaCha20 (which default lacks),
 * as the default provider does.  Opened again with tags or ciphertext the
 * input may have altered, with a tag length it chooses, exactly the
 * records that fail when opened alone (by default where it has the
 * cipher, else by zinc) must fail (named by zinc-pipeline-failed, their
 * plaintext wiped; every record whose tag alone was altered among them)
 * and the others give what they give alone.
 *
 * Input: flags (cipher, in place), number of records, key, then per
 * record: IV, AAD length, data length, alteration; the split generator's
 * seed; the tag length; the records' bytes.  Built only against OpenSSL
 * 3.5 or later (configure's CRYPTO_PIPELINES).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PIPES EVP_MAX_PIPES
#define TAG 16
#define MAX_AAD 80
#define MAX_DATA 2100
#define MAX_CALLS 40	/* updates of data before the rest goes in one */

struct cipher_case {
	const char *name;
	size_t iv_len;
	int aead;
	EVP_CIPHER *zinc, *dflt;	/* dflt NULL: default lacks it */
};

static struct cipher_case cases[] = {
	{ "ChaCha20-Poly1305", 12, 1, NULL, NULL },
	{ "XChaCha20-Poly1305", 24, 1, NULL, NULL },
	{ "ChaCha20", 16, 0, NULL, NULL },
};

struct rec {
	uint8_t iv[24], aad[MAX_AAD], *pt, *ct, *out, *opened, tag[TAG];
	size_t alen, len;
	unsigned alter;		/* bit 0: a tag bit, bit 1: a ciphertext bit */
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cases[i].zinc = EVP_CIPHER_fetch(fz_zinc_ctx(), cases[i].name, NULL);
		if (cases[i].zinc == NULL || !EVP_CIPHER_can_pipeline(cases[i].zinc, 1) ||
		    !EVP_CIPHER_can_pipeline(cases[i].zinc, 0))
			fz_fail("zinc's %s cannot pipeline", cases[i].name);
		if (cases[i].iv_len != 24)
			cases[i].dflt = EVP_CIPHER_fetch(fz_default_ctx(), cases[i].name, NULL);
	}
	return 0;
}

/* One record alone, as any EVP user seals it; returns 0 if refused. */
static int seal_alone(EVP_CIPHER *c, int aead, const uint8_t *key, const struct rec *r,
		      uint8_t *ct, uint8_t *tag)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	OSSL_PARAM p[2] = { OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, TAG),
			    OSSL_PARAM_END };
	int outl, ok;

	ok = ctx != NULL && EVP_EncryptInit_ex2(ctx, c, key, r->iv, NULL) &&
	     (r->alen == 0 || EVP_EncryptUpdate(ctx, NULL, &outl, r->aad, (int)r->alen)) &&
	     EVP_EncryptUpdate(ctx, ct, &outl, r->pt, (int)r->len) &&
	     EVP_EncryptFinal_ex(ctx, ct + outl, &outl) &&
	     (!aead || EVP_CIPHER_CTX_get_params(ctx, p));
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/* One record alone opened with a tag of taglen bytes: 1 if it verifies. */
static int open_alone(EVP_CIPHER *c, const uint8_t *key, const struct rec *r, uint8_t *pt,
		      size_t taglen)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	uint8_t tag[TAG];
	int outl, ok;

	memcpy(tag, r->tag, taglen);
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, taglen);
	ok = ctx != NULL && EVP_DecryptInit_ex2(ctx, c, key, r->iv, NULL) &&
	     (r->alen == 0 || EVP_DecryptUpdate(ctx, NULL, &outl, r->aad, (int)r->alen)) &&
	     EVP_DecryptUpdate(ctx, pt, &outl, r->ct, (int)r->len) &&
	     EVP_CIPHER_CTX_set_params(ctx, p) && EVP_DecryptFinal_ex(ctx, pt + outl, &outl) > 0;
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/*
 * The records' bytes from src (AAD if aad) in pieces sp draws, all records
 * in each call, into each record's out; in place when dst == src.
 */
static void feed(EVP_CIPHER_CTX *ctx, struct rec *r, size_t n, struct fz_split *sp, int aad,
		 int enc, int inplace)
{
	const uint8_t *in[PIPES];
	uint8_t *out[PIPES];
	size_t done[PIPES] = { 0 }, inl[PIPES], outl[PIPES], outsize[PIPES], i, calls = 0;
	int more = 1;

	while (more) {
		more = 0;
		calls++;
		for (i = 0; i < n; i++) {
			size_t total = aad ? r[i].alen : r[i].len;
			const uint8_t *src = aad ? r[i].aad : inplace ? r[i].out : enc ? r[i].pt : r[i].ct;

			inl[i] = calls < MAX_CALLS ? fz_split_next(sp, total - done[i])
						  : total - done[i];
			in[i] = src + done[i];
			out[i] = r[i].out + done[i];
			outsize[i] = total - done[i];
			done[i] += inl[i];
			more |= done[i] < total;
		}
		if (!EVP_CipherPipelineUpdate(ctx, aad ? NULL : out, outl, aad ? NULL : outsize,
					      in, inl))
			fz_fail("pipeline update refused (%s)", aad ? "AAD" : "data");
		for (i = 0; i < n; i++)
			FZ_CHECK(outl[i] == inl[i], "record %zu: outl %zu for %zu bytes", i, outl[i],
				 inl[i]);
	}
}

/* A whole pipeline; returns final's result.  Decryption sets tags of taglen bytes. */
static int pipeline(const struct cipher_case *cc, const uint8_t *key, struct rec *r, size_t n,
		    int enc, int inplace, size_t taglen, struct fz_split *sp, uint32_t *failed)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	const uint8_t *iv[PIPES];
	uint8_t *tags[PIPES], *end[PIPES];
	size_t outl[PIPES], outsize[PIPES] = { 0 }, i;
	OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	void *holder = tags;
	int ret;

	if (ctx == NULL)
		abort();
	for (i = 0; i < n; i++) {
		iv[i] = r[i].iv;
		tags[i] = r[i].tag;
		end[i] = r[i].out + r[i].len;
		if (inplace)
			memcpy(r[i].out, enc ? r[i].pt : r[i].ct, r[i].len);
	}
	if (!(enc ? EVP_CipherPipelineEncryptInit(ctx, cc->zinc, key, 32, n, iv, cc->iv_len)
		  : EVP_CipherPipelineDecryptInit(ctx, cc->zinc, key, 32, n, iv, cc->iv_len)))
		fz_fail("pipeline init refused");
	p[0] = OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_PIPELINE_AEAD_TAG, &holder,
					      taglen);
	if (cc->aead && !enc && !EVP_CIPHER_CTX_set_params(ctx, p))
		fz_fail("pipeline-tag refused");
	if (cc->aead)
		feed(ctx, r, n, sp, 1, enc, 0);
	feed(ctx, r, n, sp, 0, enc, inplace);
	ret = EVP_CipherPipelineFinal(ctx, end, outl, outsize);
	if (cc->aead && enc && (!ret || !EVP_CIPHER_CTX_get_params(ctx, p)))
		fz_fail("no tags after final");
	if (cc->aead && !enc) {
		p[0] = OSSL_PARAM_construct_uint32("zinc-pipeline-failed", failed);
		if (!EVP_CIPHER_CTX_get_params(ctx, p))
			fz_fail("zinc-pipeline-failed refused after final");
	}
	EVP_CIPHER_CTX_free(ctx);
	return ret;
}

static int all_zero(const uint8_t *p, size_t len)
{
	uint8_t acc = 0;
	size_t i;

	for (i = 0; i < len; i++)
		acc |= p[i];
	return acc == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct rec r[PIPES];
	struct fz_split sp;
	uint8_t key[32], *alone, tag[TAG];
	const uint8_t flags = fz_u8(&in);
	const struct cipher_case *cc = &cases[flags % 3];
	const int inplace = flags >> 2 & 1;
	const size_t n = 1 + fz_below(&in, PIPES);
	size_t i, taglen;
	uint32_t want = 0, failed = ~0u;
	int ret;

	fz_take(&in, key, sizeof(key));
	for (i = 0; i < n; i++) {
		fz_take(&in, r[i].iv, cc->iv_len);
		r[i].alen = cc->aead ? fz_below(&in, MAX_AAD + 1) : 0;
		r[i].len = fz_below(&in, MAX_DATA + 1);
		r[i].alter = cc->aead ? fz_u8(&in) & 3 : 0;
	}
	fz_split_init(&sp, &in);
	taglen = 1 + fz_below(&in, TAG);
	for (i = 0; i < n; i++) {
		fz_take(&in, r[i].aad, r[i].alen);
		r[i].pt = fz_malloc(r[i].len);
		r[i].ct = fz_malloc(r[i].len);
		r[i].out = fz_malloc(r[i].len);
		r[i].opened = fz_malloc(r[i].len);
		fz_take(&in, r[i].pt, r[i].len);
	}
	alone = fz_malloc(MAX_DATA);

	/* Sealed as a pipeline: each record as sealed alone. */
	pipeline(cc, key, r, n, 1, inplace, TAG, &sp, NULL);
	for (i = 0; i < n; i++) {
		memcpy(r[i].ct, r[i].out, r[i].len);
		FZ_CHECK(seal_alone(cc->zinc, cc->aead, key, &r[i], alone, tag), "zinc refused a record");
		fz_check_eq(r[i].ct, r[i].len, alone, r[i].len, "ciphertext vs zinc alone");
		if (cc->aead)
			fz_check_eq(r[i].tag, TAG, tag, TAG, "tag vs zinc alone");
		if (cc->dflt == NULL)
			continue;
		FZ_CHECK(seal_alone(cc->dflt, cc->aead, key, &r[i], alone, tag), "default refused a record");
		fz_check_eq(r[i].ct, r[i].len, alone, r[i].len, "ciphertext vs default");
		if (cc->aead)
			fz_check_eq(r[i].tag, TAG, tag, TAG, "tag vs default");
	}

	/*
	 * Opened, some altered: those that fail alone fail (an altered
	 * ciphertext may pass a short tag, even with the tag altered too),
	 * every record with only its tag altered among them.
	 */
	for (i = 0; i < n; i++) {
		if (r[i].alter & 1)
			r[i].tag[fz_below(&in, taglen)] ^= (uint8_t)(1u << fz_below(&in, 8));
		if ((r[i].alter & 2) != 0 && r[i].len > 0)
			r[i].ct[fz_below(&in, r[i].len)] ^= (uint8_t)(1u << fz_below(&in, 8));
		memcpy(r[i].opened, r[i].pt, r[i].len);
		if (cc->aead && !open_alone(cc->dflt != NULL ? cc->dflt : cc->zinc, key, &r[i],
					    r[i].opened, taglen))
			want |= UINT32_C(1) << i;
		FZ_CHECK(r[i].alter != 1 || (want >> i & 1), "record %zu: altered tag passed", i);
	}
	ret = pipeline(cc, key, r, n, 0, inplace, taglen, &sp, &failed);
	FZ_CHECK(ret == (want == 0), "final returned %d with records 0x%08x altered", ret, want);
	FZ_CHECK(!cc->aead || failed == want, "zinc-pipeline-failed 0x%08x, altered 0x%08x",
		 failed, want);
	for (i = 0; i < n; i++) {
		if (want >> i & 1)
			FZ_CHECK(all_zero(r[i].out, r[i].len), "record %zu failed but not wiped", i);
		else
			fz_check_eq(r[i].out, r[i].len, r[i].opened, r[i].len, "plaintext");
	}
	for (i = 0; i < n; i++) {
		free(r[i].pt);
		free(r[i].ct);
		free(r[i].out);
		free(r[i].opened);
	}
	free(alone);
	return 0;
}

