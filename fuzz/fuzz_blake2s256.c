/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BLAKE2S-256: zinc in pieces against the default provider in one piece;
 * a copy of the context part way must finish to the same digest as the
 * original; XOF output and a "size" parameter (any value) get the same
 * verdict from both; a re-init after final starts afresh.
 */
#include <stdlib.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "fuzz.h"

static EVP_MD *zmd, *dmd;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FZ_FETCH_PAIR(EVP_MD_fetch, "BLAKE2S-256", zmd, dmd);
	return 0;
}

static int feed(EVP_MD_CTX *ctx, const uint8_t *msg, size_t len, struct fz_split *sp)
{
	size_t done = 0;

	do {
		size_t n = sp != NULL ? fz_split_next(sp, len - done) : len - done;

		if (!EVP_DigestUpdate(ctx, msg + done, n))
			return 0;
		done += n;
	} while (done < len);
	return 1;
}

struct result {
	int verdict;
	uint8_t md[3][EVP_MAX_MD_SIZE], xof[64];
	unsigned int len[3];
};

static void run(EVP_MD *md, const uint8_t *msg, size_t len, size_t cut, struct fz_split *sp,
		const OSSL_PARAM *params, size_t xoflen, struct result *r)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new(), *copy = EVP_MD_CTX_new();

	if (ctx == NULL || copy == NULL)
		abort();
	r->verdict = 0;
	if (!EVP_DigestInit_ex2(ctx, md, NULL) || !feed(ctx, msg, cut, sp) ||
	    !EVP_MD_CTX_copy_ex(copy, ctx) || !feed(ctx, msg + cut, len - cut, sp) ||
	    !feed(copy, msg + cut, len - cut, sp) || !EVP_DigestFinal_ex(ctx, r->md[0], &r->len[0]) ||
	    !EVP_DigestFinal_ex(copy, r->md[1], &r->len[1]))
		fz_fail("%s: digest failed", OSSL_PROVIDER_get0_name(EVP_MD_get0_provider(md)));
	if (EVP_DigestInit_ex2(ctx, NULL, params))
		r->verdict |= 1;
	ERR_clear_error();
	if ((r->verdict & 1) && feed(ctx, msg, len, NULL) &&
	    EVP_DigestFinal_ex(ctx, r->md[2], &r->len[2]))
		r->verdict |= 2;
	if (EVP_DigestInit_ex2(copy, NULL, NULL) && EVP_DigestFinalXOF(copy, r->xof, xoflen))
		r->verdict |= 4;
	ERR_clear_error();
	EVP_MD_CTX_free(ctx);
	EVP_MD_CTX_free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct fz_split sp;
	uint8_t flags = fz_u8(&in);
	size_t sizev = fz_u8(&in), xoflen = fz_u8(&in) % 64, cut = fz_below(&in, 4096), len;
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	static struct result z, d;
	const uint8_t *msg;

	fz_split_init(&sp, &in);
	msg = fz_ref(&in, SIZE_MAX, &len);
	if (cut > len)
		cut = len;
	if (flags & 1)
		params[0] = OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &sizev);
	run(zmd, msg, len, cut, &sp, params, xoflen, &z);
	run(dmd, msg, len, cut, NULL, params, xoflen, &d);
	FZ_CHECK(z.verdict == d.verdict, "verdicts: zinc %#x, default %#x", z.verdict, d.verdict);
	for (int i = 0; i < 3; i++)
		if (i < 2 || (z.verdict & 2))
			fz_check_eq(z.md[i], z.len[i], d.md[i], d.len[i], "BLAKE2S-256 digest");
	if (z.verdict & 4)
		fz_check_eq(z.xof, xoflen, d.xof, xoflen, "BLAKE2S-256 XOF output");
	return 0;
}
