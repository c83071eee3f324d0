/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ChaCha20: zinc, fed in pieces the input chooses (in place or not, as
 * encryption or decryption), against the default provider fed in one piece
 * per segment.  The input chooses key, IV (counter included: the carry past
 * 2^32 blocks), data, and a re-init part way with a new IV, a new key or
 * both, which both providers are given at the same point.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "fuzz.h"

static EVP_CIPHER *zc, *dc;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FZ_FETCH_PAIR(EVP_CIPHER_fetch, "ChaCha20", zc, dc);
	return 0;
}

struct job {
	uint8_t key[32], iv[16], key2[32], iv2[16];
	int enc, inplace;
	int reinit;		/* bit 0: new key, bit 1: new IV, at cut; 0: none */
	size_t cut, len;
	const uint8_t *msg;
};

static int update(EVP_CIPHER_CTX *ctx, uint8_t *out, const uint8_t *in, size_t n)
{
	int outl = -1;

	return EVP_CipherUpdate(ctx, out, &outl, in, (int)n) && (size_t)outl == n;
}

static int reinit(EVP_CIPHER_CTX *ctx, const struct job *j)
{
	return EVP_CipherInit_ex2(ctx, NULL, j->reinit & 1 ? j->key2 : NULL,
				  j->reinit & 2 ? j->iv2 : NULL, j->enc, NULL);
}

/*
 * Init, the data up to cut, the re-init, the rest: in the pieces sp draws,
 * or in one piece per segment when sp is NULL.
 */
static int run(EVP_CIPHER *c, const struct job *j, struct fz_split *sp, uint8_t *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	size_t done = 0;
	int pending = j->reinit, outl = -1, ok;

	if (ctx == NULL)
		abort();
	if (j->inplace)
		memcpy(out, j->msg, j->len);
	ok = EVP_CipherInit_ex2(ctx, c, j->key, j->iv, j->enc, NULL);
	while (ok) {
		size_t end = done < j->cut ? j->cut : j->len, n;

		if (done == j->cut && pending) {
			ok = reinit(ctx, j);
			pending = 0;
		}
		if (!ok || done == j->len)
			break;
		n = sp != NULL ? fz_split_next(sp, end - done) : end - done;
		ok = update(ctx, out + done, j->inplace ? out + done : j->msg + done, n);
		done += n;
	}
	ok = ok && EVP_CipherFinal_ex(ctx, out + j->len, &outl) && outl == 0;
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct fz_split sp, split;
	struct job j;
	uint8_t flags = fz_u8(&in);
	uint8_t *out, *want;

	j.enc = flags & 1;
	j.inplace = flags & 2;
	j.reinit = (flags >> 2) & 3;
	fz_take(&in, j.key, sizeof(j.key));
	fz_take(&in, j.iv, sizeof(j.iv));
	fz_take(&in, j.key2, sizeof(j.key2));
	fz_take(&in, j.iv2, sizeof(j.iv2));
	fz_split_init(&sp, &in);
	j.cut = fz_below(&in, 4096);
	j.msg = fz_ref(&in, SIZE_MAX, &j.len);
	if (j.cut > j.len)
		j.cut = j.len;

	/* Exactly len bytes (malloc(0) may be NULL), so that ASan sees a write past the end. */
	out = malloc(j.len + !j.len);
	want = malloc(j.len + !j.len);
	if (out == NULL || want == NULL)
		abort();
	/*
	 * Default's own output depends on the pieces when only the key changes
	 * (a block finished exactly at the end of an update restarts): there it
	 * gets zinc's pieces, elsewhere one piece per segment.
	 */
	split = sp;
	if (!run(dc, &j, j.reinit == 1 ? &split : NULL, want))
		fz_fail("default ChaCha20 failed");
	FZ_CHECK(run(zc, &j, &sp, out), "zinc ChaCha20 failed");
	fz_check_eq(out, j.len, want, j.len, "ChaCha20 output");
	free(out);
	free(want);
	return 0;
}
