/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ChaCha20-Poly1305: zinc against the default provider, both directions.
 *
 * Stream use: zinc takes the AAD and the data in pieces the input chooses,
 * default in one piece each; ciphertext, tag (of a length the input chooses,
 * valid or not), decrypted text and the verdict on a tag, ciphertext or AAD
 * the input may have tampered with must be the same, also with an IV length
 * set first (any value), and from a copy of zinc's context made part way.
 * TLS use (tlsivfixed, tlsaad, one update per record, records in sequence):
 * the same record out and the same verdict, with the AAD's length field
 * right or as the input has it.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "fuzz.h"

#define TAG 16
#define TLS_AAD 13

static EVP_CIPHER *zc, *dc;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FZ_FETCH_PAIR(EVP_CIPHER_fetch, "ChaCha20-Poly1305", zc, dc);
	return 0;
}

struct job {
	uint8_t key[32], nonce[12];
	const uint8_t *aad, *msg;
	size_t alen, len;
	size_t taglen;		/* 0..19: out of range must fail in both */
	size_t ivlen;		/* 0: not set; else set to ivlen - 1 before the key */
	size_t cut;		/* zinc copies its context after cut bytes of data */
	int inplace;
	struct fz_split sp;	/* zinc's pieces (default takes one piece each) */
};

static int tag_param(EVP_CIPHER_CTX *ctx, int get, uint8_t *tag, size_t len)
{
	OSSL_PARAM p[2] = { OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, len),
			    OSSL_PARAM_END };

	return get ? EVP_CIPHER_CTX_get_params(ctx, p) : EVP_CIPHER_CTX_set_params(ctx, p);
}

/* Feeds len bytes in pieces (sp != NULL) or at once; out NULL for AAD. */
static int feed(EVP_CIPHER_CTX *ctx, struct fz_split *sp, uint8_t *out, const uint8_t *in,
		size_t len, int inplace)
{
	size_t done = 0;

	do {
		size_t n = sp != NULL ? fz_split_next(sp, len - done) : len;
		int outl = -1;

		if (!EVP_CipherUpdate(ctx, out != NULL ? out + done : NULL, &outl,
				      inplace ? out + done : in + done, (int)n) ||
		    (size_t)outl != n)
			return 0;
		done += n;
	} while (done < len);
	return 1;
}

/*
 * The data from byte from on, the tag (decryption), final, the tag
 * (encryption); the verdict bits 2, 4 and 8 of stream() below.
 */
static int finish(EVP_CIPHER_CTX *ctx, const struct job *j, struct fz_split *sp, int enc,
		  const uint8_t *in, uint8_t *out, size_t from, uint8_t *tag)
{
	int v = 0, outl = -1;

	if (!feed(ctx, sp, out + from, in + from, j->len - from, j->inplace))
		fz_fail("update failed");
	if (!enc) {
		/* Neither takes a message without its tag (zinc refuses, default would not check). */
		if (!tag_param(ctx, 0, tag, j->taglen))
			return v;
		v |= 2;
	}
	if (!EVP_CipherFinal_ex(ctx, out + j->len, &outl) || outl != 0)
		return v;
	v |= 4;
	if (enc && tag_param(ctx, 1, tag, j->taglen))
		v |= 8;
	return v;
}

/*
 * One stream encryption or decryption; returns the verdict as bits:
 * 1 init, 2 tag set (decryption), 4 final, 8 tag got (encryption),
 * 16 ivlen set.  In zinc (sp not NULL) with j->cut set, a copy of the
 * context made after cut bytes of data must finish the same.
 */
static int stream(EVP_CIPHER *c, const struct job *j, struct fz_split *sp, int enc,
		  const uint8_t *in, uint8_t *out, uint8_t *tag)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *copy = NULL;
	size_t cut = sp != NULL && j->cut <= j->len ? j->cut : 0;
	uint8_t *out2 = NULL, tag2[TAG + 4];
	int v = 0, f, f2;

	if (ctx == NULL)
		abort();
	if (j->inplace)
		memcpy(out, in, j->len);
	if (j->ivlen > 0) {
		size_t ivlen = j->ivlen - 1;
		OSSL_PARAM p[2] = { OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen),
				    OSSL_PARAM_END };

		if (!EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, p))
			goto done;
		v |= 16;
	}
	if (!EVP_CipherInit_ex2(ctx, j->ivlen > 0 ? NULL : c, j->key, j->nonce, enc, NULL))
		goto done;
	v |= 1;
	if (!feed(ctx, sp, NULL, j->aad, j->alen, 0) || !feed(ctx, sp, out, in, cut, j->inplace))
		fz_fail("update failed in %s", c == zc ? "zinc" : "default");
	if (sp != NULL && j->cut <= j->len) {
		copy = EVP_CIPHER_CTX_new();
		out2 = malloc(j->len + !j->len);
		if (copy == NULL || out2 == NULL || !EVP_CIPHER_CTX_copy(copy, ctx))
			fz_fail("zinc: cannot copy the context");
		memcpy(out2, out, j->len);
		memcpy(tag2, tag, sizeof(tag2));
	}
	f = finish(ctx, j, sp, enc, in, out, cut, tag);
	v |= f;
	if (copy != NULL) {
		f2 = finish(copy, j, sp, enc, j->inplace ? out2 : in, out2, cut, tag2);
		FZ_CHECK(f2 == f, "zinc: the copy's verdict %#x, the original's %#x", f2, f);
		fz_check_eq(out2 + cut, j->len - cut, out + cut, j->len - cut, "the copy's output");
		if (f & 8)
			fz_check_eq(tag2, j->taglen, tag, j->taglen, "the copy's tag");
	}
done:
	EVP_CIPHER_CTX_free(copy);
	EVP_CIPHER_CTX_free(ctx);
	free(out2);
	return v;
}

static void stream_case(struct job *j, struct fz *in)
{
	uint8_t ztag[TAG + 4], dtag[TAG + 4], fulltag[TAG];
	uint8_t *ct = fz_malloc(j->len), *zout = fz_malloc(j->len), *dout = fz_malloc(j->len);
	uint8_t where = fz_u8(in), bit = fz_u8(in);
	struct job one = *j;
	int zv, dv;

	/* Encryption: one piece in default, the input's pieces in zinc. */
	one.taglen = TAG;
	one.ivlen = 0;
	if (stream(dc, &one, NULL, 1, j->msg, ct, fulltag) != (1 | 4 | 8))
		fz_fail("default encryption failed");
	zv = stream(zc, j, &j->sp, 1, j->msg, zout, ztag);
	dv = stream(dc, j, NULL, 1, j->msg, dout, dtag);
	FZ_CHECK(zv == dv, "encryption verdicts: zinc %#x, default %#x (taglen %zu)", zv, dv,
		 j->taglen);
	if (zv & 1)
		fz_check_eq(zout, j->len, dout, j->len, "ciphertext");
	if (zv & 8)
		fz_check_eq(ztag, j->taglen, dtag, j->taglen, "tag");

	/* Decryption of the true ciphertext, perhaps with one bit flipped somewhere. */
	memcpy(dtag, fulltag, TAG);
	if (where & 1) {
		size_t at = (where >> 1) % 3, i = fz_below(in, 65536);

		if (at == 0 || (at == 1 && j->len == 0) || (at == 2 && j->alen == 0))
			dtag[i % TAG] ^= 1 << (bit & 7);
		else if (at == 1)
			ct[i % j->len] ^= 1 << (bit & 7);
		else
			((uint8_t *)j->aad)[i % j->alen] ^= 1 << (bit & 7);
	}
	memcpy(ztag, dtag, TAG);
	zv = stream(zc, j, &j->sp, 0, ct, zout, ztag);
	dv = stream(dc, j, NULL, 0, ct, dout, dtag);
	FZ_CHECK(zv == dv, "decryption verdicts: zinc %#x, default %#x (taglen %zu, tamper %#x)", zv,
		 dv, j->taglen, where);
	if (zv & 1)
		fz_check_eq(zout, j->len, dout, j->len, "decrypted text");
	free(ct);
	free(zout);
	free(dout);
}

/* One TLS record through a context set up for TLS; the verdict and the output length. */
static int record(EVP_CIPHER_CTX *ctx, const uint8_t aad[TLS_AAD], const uint8_t *in,
		  uint8_t *out, size_t len, int *outl)
{
	OSSL_PARAM p[2] = { OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD,
						    (void *)aad, TLS_AAD),
			    OSSL_PARAM_END };

	*outl = -1;
	if (!EVP_CIPHER_CTX_set_params(ctx, p))
		return 1;
	return EVP_CipherUpdate(ctx, out, outl, in, (int)len) ? 3 : 2;
}

static EVP_CIPHER_CTX *tls_ctx(EVP_CIPHER *c, const struct job *j, int enc)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	OSSL_PARAM p[2] = { OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
						    (void *)j->nonce, sizeof(j->nonce)),
			    OSSL_PARAM_END };

	if (ctx == NULL || !EVP_CipherInit_ex2(ctx, c, j->key, NULL, enc, NULL) ||
	    !EVP_CIPHER_CTX_set_params(ctx, p))
		fz_fail("TLS set-up failed");
	return ctx;
}

static void tls_case(struct job *j, struct fz *in)
{
	uint8_t flags = fz_u8(in);
	int records = 1 + (flags & 3), keep_len = flags & 4, tamper = flags & 8;
	uint8_t aad[TLS_AAD];
	size_t rlen = j->len + TAG;
	uint8_t *buf = fz_malloc(rlen), *zout = fz_malloc(rlen), *dout = fz_malloc(rlen);
	EVP_CIPHER_CTX *ze = tls_ctx(zc, j, 1), *de = tls_ctx(dc, j, 1);
	EVP_CIPHER_CTX *zd = tls_ctx(zc, j, 0), *dd = tls_ctx(dc, j, 0);

	fz_take(in, aad, sizeof(aad));
	for (int r = 0; r < records; r++) {
		int zv, dv, zl, dl;

		aad[7] = (uint8_t)(aad[7] + r);
		if (!keep_len) {
			aad[11] = (uint8_t)(j->len >> 8);
			aad[12] = (uint8_t)j->len;
		}
		/* Encryption: the payload, then room for the tag. */
		memcpy(buf, j->msg, j->len);
		memset(buf + j->len, 0, TAG);
		zv = record(ze, aad, buf, zout, rlen, &zl);
		dv = record(de, aad, buf, dout, rlen, &dl);
		FZ_CHECK(zv == dv, "TLS encryption: zinc %d, default %d", zv, dv);
		if (zv != 3)
			break;
		FZ_CHECK(zl == dl, "TLS encryption lengths: zinc %d, default %d", zl, dl);
		fz_check_eq(zout, (size_t)zl, dout, (size_t)dl, "TLS record");

		/* Decryption of default's record, the length field now counting the tag. */
		memcpy(buf, dout, rlen);
		if (tamper)
			buf[fz_below(in, 65536) % rlen] ^= 1 << (fz_u8(in) & 7);
		if (!keep_len) {
			aad[11] = (uint8_t)(rlen >> 8);
			aad[12] = (uint8_t)rlen;
		}
		zv = record(zd, aad, buf, zout, rlen, &zl);
		dv = record(dd, aad, buf, dout, rlen, &dl);
		FZ_CHECK(zv == dv, "TLS decryption: zinc %d, default %d", zv, dv);
		if (zv != 3)
			break;
		FZ_CHECK(zl == dl, "TLS decryption lengths: zinc %d, default %d", zl, dl);
		fz_check_eq(zout, (size_t)zl, dout, (size_t)dl, "TLS payload");
	}
	EVP_CIPHER_CTX_free(ze);
	EVP_CIPHER_CTX_free(de);
	EVP_CIPHER_CTX_free(zd);
	EVP_CIPHER_CTX_free(dd);
	free(buf);
	free(zout);
	free(dout);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct job j;
	uint8_t flags = fz_u8(&in);
	uint8_t *aad;

	j.inplace = flags & 2;
	j.taglen = flags & 4 ? fz_u8(&in) % 20 : TAG;
	j.ivlen = flags & 8 ? 1 + fz_u8(&in) % 32 : 0;
	j.cut = flags & 16 ? fz_below(&in, 4096) : SIZE_MAX;
	fz_take(&in, j.key, sizeof(j.key));
	fz_take(&in, j.nonce, sizeof(j.nonce));
	fz_split_init(&j.sp, &in);
	/* The AAD is a copy: a tampered byte must not change the input. */
	j.alen = fz_below(&in, 512);
	aad = fz_malloc(j.alen);
	fz_take(&in, aad, j.alen);
	j.aad = aad;
	/* What the cases below read comes first, then the message: the rest. */
	{
		uint8_t choices[16];
		struct fz ch = { choices, sizeof(choices) };

		fz_take(&in, choices, sizeof(choices));
		j.msg = fz_ref(&in, SIZE_MAX, &j.len);
		if (flags & 1) {
			if (j.len > 16384 - TAG)
				j.len = 16384 - TAG;
			tls_case(&j, &ch);
		} else {
			stream_case(&j, &ch);
		}
	}
	free(aad);
	return 0;
}
