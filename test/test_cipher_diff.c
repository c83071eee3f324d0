/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zinc's ChaCha20, ChaCha20-Poly1305 and XChaCha20-Poly1305 against oracles
 * on random data: OpenSSL's default provider in its own library context,
 * and libsodium for XChaCha20-Poly1305 (when built with it; otherwise,
 * and in any case, default's ChaCha20-Poly1305 under an HChaCha20 subkey
 * computed from default's ChaCha20).  Every length 0..4096 and some up to
 * 1 MB, random update splits with zero-length updates, in-place and
 * misaligned buffers, counters about to wrap, re-init and duplicated
 * contexts, truncated tags, the TLS record mode, and every parameter.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include "config.h"
#include "testutil.h"
#ifdef HAVE_LIBSODIUM
#include <sodium.h>
#endif

#define MAX_LEN 4096
#define BIG_LEN (1 << 20)
#define TLS_AAD_LEN 13

static EVP_CIPHER *zc20, *zaead, *zxaead, *dc20, *daead;

static void bail(const char *what)
{
	printf("Bail out! %s\n", what);
	ERR_print_errors_fp(stdout);
	exit(99);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		bail("out of memory");
	return p;
}

static EVP_CIPHER *fetch(OSSL_LIB_CTX *libctx, const char *name)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, NULL);

	if (c == NULL)
		bail(name);
	return c;
}

static EVP_CIPHER_CTX *new_ctx(void)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (ctx == NULL)
		bail("EVP_CIPHER_CTX_new");
	return ctx;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* --- splitting input across updates --------------------------------------- */

enum { SPLIT_ONESHOT, SPLIT_BYTES, SPLIT_BLOCKISH, SPLIT_SMALL, SPLIT_ANY, SPLIT_MODES };

/* The next update's length; zero-length updates are part of the mix. */
static size_t piece(int mode, size_t left)
{
	static const size_t blockish[] = { 0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 256 };
	size_t n;

	switch (mode) {
	case SPLIT_ONESHOT:
		return left;
	case SPLIT_BYTES:
		return left > 0;
	case SPLIT_BLOCKISH:
		n = blockish[zt_rand_below(sizeof(blockish) / sizeof(blockish[0]))];
		break;
	case SPLIT_SMALL:
		n = zt_rand_below(200);
		break;
	default:
		n = zt_rand_below(left + 1);
		break;
	}
	return n < left ? n : left;
}

/* Data through EVP_CipherUpdate in pieces; each must report exactly its length. */
static int update_split(EVP_CIPHER_CTX *ctx, unsigned char *out, const unsigned char *in,
			size_t len, int mode)
{
	size_t done = 0;

	do {
		size_t n = piece(mode, len - done);
		int outl = -1;

		if (!EVP_CipherUpdate(ctx, out + done, &outl, in + done, (int)n) ||
		    (size_t)outl != n)
			return 0;
		done += n;
	} while (done < len);
	return 1;
}

/* AAD in pieces (out == NULL), with zero-length ones, some with in == NULL. */
static int aad_split(EVP_CIPHER_CTX *ctx, const unsigned char *aad, size_t len, int mode)
{
	size_t done = 0;

	do {
		size_t n = piece(mode, len - done);
		int outl = -1;

		if (n == 0 && zt_rand_below(2) == 0) {
			if (!EVP_CipherUpdate(ctx, NULL, &outl, NULL, 0) || outl != 0)
				return 0;
			continue;
		}
		if (!EVP_CipherUpdate(ctx, NULL, &outl, aad + done, (int)n) || (size_t)outl != n)
			return 0;
		done += n;
	} while (done < len);
	return 1;
}

/* --- whole operations ------------------------------------------------------ */

static int chacha20_run(const EVP_CIPHER *c, const unsigned char *key, const unsigned char *iv,
			const unsigned char *in, unsigned char *out, size_t len, int mode)
{
	EVP_CIPHER_CTX *ctx = new_ctx();
	int outl = -1, ok;

	ok = EVP_EncryptInit_ex2(ctx, c, key, iv, NULL) && update_split(ctx, out, in, len, mode) &&
	     EVP_EncryptFinal_ex(ctx, out + len, &outl) && outl == 0;
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/*
 * An AEAD operation.  Encryption writes the 16-byte tag; decryption checks
 * the first taglen bytes of tag.  Returns 1 if every step succeeded.
 */
static int aead_run(const EVP_CIPHER *c, int enc, const unsigned char *key,
		    const unsigned char *nonce, const unsigned char *aad, size_t alen,
		    const unsigned char *in, unsigned char *out, size_t len,
		    unsigned char *tag, size_t taglen, int mode, int amode)
{
	EVP_CIPHER_CTX *ctx = new_ctx();
	int outl = -1, ok;

	ok = EVP_CipherInit_ex2(ctx, c, key, nonce, enc, NULL) &&
	     (enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, tag)) &&
	     aad_split(ctx, aad, alen, amode) && update_split(ctx, out, in, len, mode) &&
	     EVP_CipherFinal_ex(ctx, out + len, &outl) && outl == 0 &&
	     (!enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag));
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/* HChaCha20 from default's ChaCha20: keystream block minus its input state. */
static void hchacha20_via_default(unsigned char out[32], const unsigned char key[32],
				  const unsigned char in[16])
{
	static const unsigned char sigma[16] = "expand 32-byte k";
	unsigned char zero[64] = { 0 }, block[64];
	size_t w;

	if (!chacha20_run(dc20, key, in, zero, block, 64, SPLIT_ONESHOT))
		bail("default ChaCha20 failed");
	for (w = 0; w < 8; w++) {
		const unsigned char *ks = block + (w < 4 ? 4 * w : 4 * (w + 8));
		const unsigned char *st = w < 4 ? sigma + 4 * w : in + 4 * (w - 4);

		put_le32(out + 4 * w, le32(ks) - le32(st));
	}
}

/* XChaCha20-Poly1305 encryption as default's ChaCha20-Poly1305 under the HChaCha20 subkey. */
static int xaead_via_default(const unsigned char key[32], const unsigned char nonce[24],
			     const unsigned char *aad, size_t alen, const unsigned char *in,
			     unsigned char *out, size_t len, unsigned char tag[16])
{
	unsigned char subkey[32], iv[12] = { 0 };

	hchacha20_via_default(subkey, key, nonce);
	memcpy(iv + 4, nonce + 16, 8);
	return aead_run(daead, 1, subkey, iv, aad, alen, in, out, len, tag, 16, SPLIT_ONESHOT,
			SPLIT_ONESHOT);
}

/* A buffer of len bytes at a random misalignment; the block to free is *base. */
static unsigned char *misaligned(size_t len, unsigned char **base)
{
	*base = xmalloc(len + 16);
	return *base + zt_rand_below(16);
}

/* --- ChaCha20 --------------------------------------------------------------- */

static int chacha20_case(size_t len, const unsigned char iv[16])
{
	unsigned char key[32], *bin, *bout, *bwant;
	unsigned char *in = misaligned(len, &bin), *out = misaligned(len, &bout);
	unsigned char *want = misaligned(len, &bwant);
	int mode = (int)zt_rand_below(SPLIT_MODES), ok;

	zt_rand(key, sizeof(key));
	zt_rand(in, len);
	ok = chacha20_run(dc20, key, iv, in, want, len, SPLIT_ONESHOT);
	if (zt_rand_below(3) == 0) {
		memcpy(out, in, len);
		ok = ok && chacha20_run(zc20, key, iv, out, out, len, mode);
	} else {
		ok = ok && chacha20_run(zc20, key, iv, in, out, len, mode);
	}
	ok = ok && memcmp(out, want, len) == 0;
	if (!ok)
		zt_diag("ChaCha20 length %zu, split mode %d differs from default", len, mode);
	free(bin);
	free(bout);
	free(bwant);
	return ok;
}

static void test_chacha20_lengths(void)
{
	unsigned char iv[16];
	size_t len, bad = 0, i;

	for (len = 0; len <= MAX_LEN; len++) {
		zt_rand(iv, sizeof(iv));
		/* Mostly small counters; a quarter anywhere, so some wrap into the nonce. */
		if (zt_rand_below(4) != 0)
			put_le32(iv, (uint32_t)zt_rand_below(1000));
		bad += !chacha20_case(len, iv);
	}
	zt_ok(bad == 0, "ChaCha20: every length 0..%d equals default (random splits, in place, "
	      "misaligned): %zu bad", MAX_LEN, bad);
	for (i = 0, bad = 0; i < 6; i++) {
		zt_rand(iv, sizeof(iv));
		put_le32(iv, 0);
		bad += !chacha20_case(MAX_LEN + 1 + zt_rand_below(BIG_LEN - MAX_LEN), iv);
	}
	zt_ok(bad == 0, "ChaCha20: 6 random lengths up to 1 MB equal default: %zu bad", bad);
}

/* The 32-bit counter carries into the first nonce word, in default and in zinc. */
static void test_chacha20_counter_wrap(void)
{
	unsigned char iv[16];
	uint32_t c;
	size_t bad = 0;

	for (c = 0xfffffff0u; c != 0; c++) {
		zt_rand(iv, sizeof(iv));
		put_le32(iv, c);
		if (c == 0xffffffffu)
			put_le32(iv + 4, 0xffffffffu);	/* and the carry out of that word */
		bad += !chacha20_case((size_t)64 * 20 + zt_rand_below(64), iv);
	}
	zt_ok(bad == 0, "ChaCha20: counters 0xfffffff0..0xffffffff wrap as default does: %zu bad",
	      bad);
}

/*
 * One context, random re-inits (key and IV, IV only, key only, neither)
 * between random updates, and updates after final, in zinc and in default.
 */
static void test_chacha20_reinit(void)
{
	EVP_CIPHER_CTX *z = new_ctx(), *d = new_ctx();
	unsigned char key[32], iv[16], in[300], zout[300], dout[300];
	int step, ok = 1, zo, dol;

	zt_rand(key, sizeof(key));
	zt_rand(iv, sizeof(iv));
	ok = EVP_EncryptInit_ex2(z, zc20, key, iv, NULL) &&
	     EVP_EncryptInit_ex2(d, dc20, key, iv, NULL);
	for (step = 0; ok && step < 400; step++) {
		size_t n = zt_rand_below(sizeof(in));
		int zl = -1, dl = -1;

		switch (zt_rand_below(8)) {
		case 0:
			zt_rand(key, sizeof(key));
			zt_rand(iv, sizeof(iv));
			ok = EVP_EncryptInit_ex2(z, NULL, key, iv, NULL) &&
			     EVP_EncryptInit_ex2(d, NULL, key, iv, NULL);
			break;
		case 1:
			zt_rand(iv, sizeof(iv));
			put_le32(iv, (uint32_t)zt_rand_below(5));
			ok = EVP_EncryptInit_ex2(z, NULL, NULL, iv, NULL) &&
			     EVP_EncryptInit_ex2(d, NULL, NULL, iv, NULL);
			break;
		case 2:
			/* Default restarts at the block holding the next byte. */
			zt_rand(key, sizeof(key));
			ok = EVP_EncryptInit_ex2(z, NULL, key, NULL, NULL) &&
			     EVP_EncryptInit_ex2(d, NULL, key, NULL, NULL);
			break;
		case 3:
			ok = EVP_EncryptInit_ex2(z, NULL, NULL, NULL, NULL) &&
			     EVP_EncryptInit_ex2(d, NULL, NULL, NULL, NULL);
			break;
		case 4:
			/* A stream cipher's final writes nothing and the stream may go on. */
			zo = dol = -1;
			ok = EVP_EncryptFinal_ex(z, zout, &zo) &&
			     EVP_EncryptFinal_ex(d, dout, &dol) && zo == 0 && dol == 0;
			break;
		default:
			zt_rand(in, n);
			ok = EVP_EncryptUpdate(z, zout, &zl, in, (int)n) &&
			     EVP_EncryptUpdate(d, dout, &dl, in, (int)n) && zl == dl &&
			     memcmp(zout, dout, n) == 0;
			break;
		}
		/* 3.6's "updated-iv": default's counter, then the nonce. */
		if (ok && zt_openssl_at_least(3, 6)) {
			unsigned char ziv[16], div[16];

			ok = EVP_CIPHER_CTX_get_updated_iv(z, ziv, sizeof(ziv)) &&
			     EVP_CIPHER_CTX_get_updated_iv(d, div, sizeof(div)) &&
			     memcmp(ziv, div, sizeof(ziv)) == 0;
		}
	}
	zt_ok(ok, "ChaCha20: random re-inits (key+IV, IV, key only, neither), finals and updates "
	      "on one context equal default, and so does updated-iv from 3.6 (%d steps)", step);
	EVP_CIPHER_CTX_free(z);
	EVP_CIPHER_CTX_free(d);
}

/* Duplicated mid-stream: the copy and the original go on independently. */
static void test_chacha20_dup(void)
{
	unsigned char key[32], iv[16], in[1000], want[1000], a[1000], b[1000];
	int i, ok = 1, outl;

	for (i = 0; i < 50 && ok; i++) {
		EVP_CIPHER_CTX *z = new_ctx(), *copy = new_ctx();
		size_t cut, rest;

		zt_rand(key, sizeof(key));
		zt_rand(iv, sizeof(iv));
		zt_rand(in, sizeof(in));
		cut = zt_rand_below(500);
		rest = zt_rand_below(500);
		ok = chacha20_run(dc20, key, iv, in, want, cut + rest, SPLIT_ONESHOT) &&
		     EVP_EncryptInit_ex2(z, zc20, key, iv, NULL) &&
		     EVP_EncryptUpdate(z, a, &outl, in, (int)cut) && EVP_CIPHER_CTX_copy(copy, z);
		/* The original moves on with other data first; the copy must not notice. */
		ok = ok && EVP_EncryptUpdate(z, a + cut, &outl, in + 500, (int)rest);
		EVP_CIPHER_CTX_free(z);
		ok = ok && EVP_EncryptUpdate(copy, b, &outl, in + cut, (int)rest) &&
		     memcmp(a, want, cut) == 0 && memcmp(b, want + cut, rest) == 0;
		EVP_CIPHER_CTX_free(copy);
	}
	zt_ok(ok, "ChaCha20: contexts duplicated mid-stream go on independently");
}

/* --- ChaCha20-Poly1305 and XChaCha20-Poly1305 ------------------------------- */

/*
 * The oracle for one AEAD encryption: default for ChaCha20-Poly1305;
 * libsodium (or default under an HChaCha20 subkey) for XChaCha.
 */
static int oracle_encrypt(int x, int sodium, const unsigned char *key, const unsigned char *nonce,
			  const unsigned char *aad, size_t alen, const unsigned char *in,
			  unsigned char *out, size_t len, unsigned char tag[16])
{
	if (!x)
		return aead_run(daead, 1, key, nonce, aad, alen, in, out, len, tag, 16,
				SPLIT_ONESHOT, SPLIT_ONESHOT);
#ifdef HAVE_LIBSODIUM
	if (sodium) {
		unsigned long long maclen;

		return crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
			       out, tag, &maclen, in, len, aad, alen, NULL, nonce, key) == 0 &&
		       maclen == 16;
	}
#else
	(void)sodium;
#endif
	return xaead_via_default(key, nonce, aad, alen, in, out, len, tag);
}

/*
 * One random case: zinc encrypts with random splits (maybe in place,
 * misaligned) and must match the oracle; zinc decrypts (maybe in place)
 * with a possibly truncated tag; a message tampered under the whole tag
 * must be refused (by default too, for ChaCha20-Poly1305).
 */
static int aead_case(int x, int sodium, size_t len, int tamper)
{
	const EVP_CIPHER *zc = x ? zxaead : zaead;
	unsigned char key[32], nonce[24], ztag[16], wtag[16], aad[300];
	unsigned char *bin, *bout, *bwant;
	unsigned char *in = misaligned(len, &bin), *out = misaligned(len, &bout);
	unsigned char *want = misaligned(len, &bwant);
	size_t alen = zt_rand_below(4) == 0 ? 0 : zt_rand_below(sizeof(aad));
	size_t taglen = zt_rand_below(4) == 0 ? 1 + zt_rand_below(16) : 16;
	int mode = (int)zt_rand_below(SPLIT_MODES), amode = (int)zt_rand_below(SPLIT_MODES);
	int ok;

	zt_rand(key, sizeof(key));
	zt_rand(nonce, sizeof(nonce));
	zt_rand(aad, alen);
	zt_rand(in, len);
	ok = oracle_encrypt(x, sodium, key, nonce, aad, alen, in, want, len, wtag);
	if (zt_rand_below(3) == 0) {
		memcpy(out, in, len);
		ok = ok && aead_run(zc, 1, key, nonce, aad, alen, out, out, len, ztag, 16, mode,
				    amode);
	} else {
		ok = ok && aead_run(zc, 1, key, nonce, aad, alen, in, out, len, ztag, 16, mode,
				    amode);
	}
	ok = ok && memcmp(out, want, len) == 0 && memcmp(ztag, wtag, 16) == 0;
	if (!ok) {
		zt_diag("%s length %zu, AAD %zu, splits %d/%d: encryption differs from the oracle",
			x ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305", len, alen, mode, amode);
		goto out;
	}
	mode = (int)zt_rand_below(SPLIT_MODES);
	if (zt_rand_below(3) == 0) {
		memcpy(out, want, len);
		ok = aead_run(zc, 0, key, nonce, aad, alen, out, out, len, wtag, taglen, mode,
			      amode);
	} else {
		ok = aead_run(zc, 0, key, nonce, aad, alen, want, out, len, wtag, taglen, mode,
			      amode);
	}
	ok = ok && memcmp(out, in, len) == 0;
	if (!ok) {
		zt_diag("%s length %zu, tag %zu bytes: decryption failed",
			x ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305", len, taglen);
		goto out;
	}
	/*
	 * Tampering is checked against the whole tag: a forgery survives a tag
	 * truncated to t bytes once in 2^(8t) tries, which would make the test flaky.
	 */
	if (tamper) {
		size_t where = zt_rand_below(len + alen + 16);
		unsigned char bit = (unsigned char)(1 << zt_rand_below(8));

		if (where < len)
			want[where] ^= bit;
		else if (where < len + alen)
			aad[where - len] ^= bit;
		else
			wtag[where - len - alen] ^= bit;
		ok = !aead_run(zc, 0, key, nonce, aad, alen, want, out, len, wtag, 16, mode,
			       amode) &&
		     (x || !aead_run(daead, 0, key, nonce, aad, alen, want, out, len, wtag, 16,
				     SPLIT_ONESHOT, SPLIT_ONESHOT));
		ERR_clear_error();
		if (!ok)
			zt_diag("%s length %zu: a flipped bit at %zu went unnoticed",
				x ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305", len, where);
	}
out:
	free(bin);
	free(bout);
	free(bwant);
	return ok;
}

static void test_aead_lengths(int x, int sodium, const char *oracle)
{
	const char *name = x ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305";
	size_t len, bad = 0, i;

	for (len = 0; len <= MAX_LEN; len++)
		bad += !aead_case(x, sodium, len, len % 8 == 0);
	zt_ok(bad == 0, "%s: every length 0..%d equals %s (random AAD and splits with "
	      "zero-length updates, in place, misaligned, truncated tags, tampering): %zu bad",
	      name, MAX_LEN, oracle, bad);
	for (i = 0, bad = 0; i < 6; i++)
		bad += !aead_case(x, sodium, MAX_LEN + 1 + zt_rand_below(BIG_LEN - MAX_LEN), 1);
	zt_ok(bad == 0, "%s: 6 random lengths up to 1 MB equal %s: %zu bad", name, oracle, bad);
}

/* The tag's first n bytes, n = 1..16; a truncated tag verifies, a wrong one does not. */
static void test_aead_truncated_tags(void)
{
	unsigned char key[32], nonce[12], in[100], ct[100], out[100], tag[16], ztag[16], dtag[16];
	EVP_CIPHER_CTX *z = new_ctx(), *d = new_ctx();
	size_t n;
	int outl, ready, ok;

	zt_rand(key, sizeof(key));
	zt_rand(nonce, sizeof(nonce));
	zt_rand(in, sizeof(in));
	/* Both checks need ct and tag: they fail if these could not be made. */
	ready = aead_run(daead, 1, key, nonce, NULL, 0, in, ct, sizeof(in), tag, 16,
			 SPLIT_ONESHOT, SPLIT_ONESHOT) &&
		EVP_EncryptInit_ex2(z, zaead, key, nonce, NULL) &&
		EVP_EncryptInit_ex2(d, daead, key, nonce, NULL) &&
		EVP_EncryptUpdate(z, out, &outl, in, sizeof(in)) &&
		EVP_EncryptUpdate(d, out, &outl, in, sizeof(in)) &&
		EVP_EncryptFinal_ex(z, out, &outl) && EVP_EncryptFinal_ex(d, out, &outl);
	for (n = 1, ok = ready; ok && n <= 16; n++) {
		memset(ztag, 0xa5, sizeof(ztag));
		memset(dtag, 0xa5, sizeof(dtag));
		ok = EVP_CIPHER_CTX_ctrl(z, EVP_CTRL_AEAD_GET_TAG, (int)n, ztag) == 1 &&
		     EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_GET_TAG, (int)n, dtag) == 1 &&
		     memcmp(ztag, dtag, 16) == 0 && memcmp(ztag, tag, n) == 0;
	}
	zt_ok(ok, "ChaCha20-Poly1305: getting the tag's first 1..16 bytes equals default");
	for (n = 1, ok = ready; ok && n <= 16; n++) {
		int zr, dr;

		ok = aead_run(zaead, 0, key, nonce, NULL, 0, ct, out, sizeof(in), tag, n,
			      SPLIT_ONESHOT, SPLIT_ONESHOT) &&
		     memcmp(out, in, sizeof(in)) == 0;
		tag[n - 1] ^= 1;
		zr = aead_run(zaead, 0, key, nonce, NULL, 0, ct, out, sizeof(in), tag, n,
			      SPLIT_ONESHOT, SPLIT_ONESHOT);
		dr = aead_run(daead, 0, key, nonce, NULL, 0, ct, out, sizeof(in), tag, n,
			      SPLIT_ONESHOT, SPLIT_ONESHOT);
		ERR_clear_error();
		tag[n - 1] ^= 1;
		ok = ok && !zr && !dr;
	}
	zt_ok(ok, "ChaCha20-Poly1305: tags truncated to 1..16 bytes verify, and with their last "
	      "byte changed fail, as in default");
	EVP_CIPHER_CTX_free(z);
	EVP_CIPHER_CTX_free(d);
}

/*
 * Messages on one context, in zinc and default.  Partway through, after the
 * AAD or after some data, a re-init with a new key (the nonce stays), a new
 * IV, or both restarts the message; one with neither changes nothing.  The
 * decrypting context gets its tag before the init that starts the message.
 */
static void test_aead_reinit(void)
{
	EVP_CIPHER_CTX *ze = new_ctx(), *de = new_ctx(), *zd = new_ctx(), *dd = new_ctx();
	unsigned char key[32], nonce[12], nkey[32], nnonce[12], aad[40], in[200];
	unsigned char zo[200], dout[200], zt[16], dt[16];
	int msg, ok, zl, dl;

	zt_rand(key, sizeof(key));
	zt_rand(nonce, sizeof(nonce));
	ok = EVP_EncryptInit_ex2(ze, zaead, key, nonce, NULL) &&
	     EVP_EncryptInit_ex2(de, daead, key, nonce, NULL) &&
	     EVP_DecryptInit_ex2(zd, zaead, key, nonce, NULL) &&
	     EVP_DecryptInit_ex2(dd, daead, key, nonce, NULL);
	for (msg = 0; ok && msg < 200; msg++) {
		size_t alen = zt_rand_below(sizeof(aad)), n = zt_rand_below(sizeof(in));
		size_t cut = zt_rand_below(n + 1);
		int how = (int)zt_rand_below(4), after_data = (int)zt_rand_below(2);
		const unsigned char *k = how == 0 || how == 2 ? nkey : NULL;
		const unsigned char *iv = how == 1 || how == 2 ? nnonce : NULL;

		zt_rand(nkey, sizeof(nkey));
		zt_rand(nnonce, sizeof(nnonce));
		zt_rand(aad, alen);
		zt_rand(in, n);
		ok = EVP_EncryptInit_ex2(ze, NULL, key, nonce, NULL) &&
		     EVP_EncryptInit_ex2(de, NULL, key, nonce, NULL);
		if (ok && how != 3) {
			ok = EVP_EncryptUpdate(ze, NULL, &zl, aad, (int)alen) &&
			     EVP_EncryptUpdate(de, NULL, &dl, aad, (int)alen) &&
			     (!after_data || (EVP_EncryptUpdate(ze, zo, &zl, in, (int)cut) &&
					      EVP_EncryptUpdate(de, dout, &dl, in, (int)cut))) &&
			     EVP_EncryptInit_ex2(ze, NULL, k, iv, NULL) &&
			     EVP_EncryptInit_ex2(de, NULL, k, iv, NULL);
			if (k != NULL)
				memcpy(key, nkey, sizeof(key));
			if (iv != NULL)
				memcpy(nonce, nnonce, sizeof(nonce));
		}
		ok = ok && EVP_EncryptUpdate(ze, NULL, &zl, aad, (int)alen) &&
		     EVP_EncryptUpdate(de, NULL, &dl, aad, (int)alen) && zl == dl &&
		     EVP_EncryptUpdate(ze, zo, &zl, in, (int)cut) &&
		     EVP_EncryptUpdate(de, dout, &dl, in, (int)cut) && zl == dl;
		if (ok && how == 3)
			ok = EVP_EncryptInit_ex2(ze, NULL, NULL, NULL, NULL) &&
			     EVP_EncryptInit_ex2(de, NULL, NULL, NULL, NULL);
		ok = ok && EVP_EncryptUpdate(ze, zo + cut, &zl, in + cut, (int)(n - cut)) &&
		     EVP_EncryptUpdate(de, dout + cut, &dl, in + cut, (int)(n - cut)) && zl == dl &&
		     EVP_EncryptFinal_ex(ze, zo, &zl) && EVP_EncryptFinal_ex(de, dout, &dl) &&
		     EVP_CIPHER_CTX_ctrl(ze, EVP_CTRL_AEAD_GET_TAG, 16, zt) &&
		     EVP_CIPHER_CTX_ctrl(de, EVP_CTRL_AEAD_GET_TAG, 16, dt) &&
		     memcmp(zo, dout, n) == 0 && memcmp(zt, dt, 16) == 0;
		if (!ok)
			break;
		/* Both decrypt it under the key and nonce in force. */
		ok = EVP_CIPHER_CTX_ctrl(zd, EVP_CTRL_AEAD_SET_TAG, 16, zt) &&
		     EVP_CIPHER_CTX_ctrl(dd, EVP_CTRL_AEAD_SET_TAG, 16, dt) &&
		     EVP_DecryptInit_ex2(zd, NULL, key, nonce, NULL) &&
		     EVP_DecryptInit_ex2(dd, NULL, key, nonce, NULL) &&
		     EVP_DecryptUpdate(zd, NULL, &zl, aad, (int)alen) &&
		     EVP_DecryptUpdate(dd, NULL, &dl, aad, (int)alen) &&
		     EVP_DecryptUpdate(zd, zo, &zl, dout, (int)n) &&
		     EVP_DecryptUpdate(dd, dout, &dl, dout, (int)n) &&
		     EVP_DecryptFinal_ex(zd, zo + n, &zl) &&
		     EVP_DecryptFinal_ex(dd, dout + n, &dl) &&
		     memcmp(zo, in, n) == 0 && memcmp(dout, in, n) == 0;
	}
	zt_ok(ok, "ChaCha20-Poly1305: re-init with a new key, IV, both or neither partway "
	      "through a message, and a tag set before the init, equal default (%d messages)",
	      msg);
	EVP_CIPHER_CTX_free(ze);
	EVP_CIPHER_CTX_free(de);
	EVP_CIPHER_CTX_free(zd);
	EVP_CIPHER_CTX_free(dd);
}

/* Duplicated after some AAD and data: both go on independently to the right tags. */
static void test_aead_dup(const EVP_CIPHER *zc, int x, int sodium)
{
	unsigned char key[32], nonce[24], aad[50], in[600], out[600], want[600];
	unsigned char tag[16], wtag[16];
	int i, ok = 1, outl;

	for (i = 0; i < 40 && ok; i++) {
		EVP_CIPHER_CTX *z = new_ctx(), *copy = new_ctx();
		size_t cut = zt_rand_below(300), rest = zt_rand_below(300);
		int enc = i % 2 == 0;

		zt_rand(key, sizeof(key));
		zt_rand(nonce, sizeof(nonce));
		zt_rand(aad, sizeof(aad));
		zt_rand(in, sizeof(in));
		/* Encrypting, want is the ciphertext; decrypting, in is taken as one. */
		ok = oracle_encrypt(x, sodium, key, nonce, aad, sizeof(aad), in, want, cut + rest,
				    wtag);
		ok = ok && EVP_CipherInit_ex2(z, zc, key, nonce, enc, NULL) &&
		     (enc || EVP_CIPHER_CTX_ctrl(z, EVP_CTRL_AEAD_SET_TAG, 16, wtag)) &&
		     EVP_CipherUpdate(z, NULL, &outl, aad, sizeof(aad)) &&
		     EVP_CipherUpdate(z, out, &outl, enc ? in : want, (int)cut) &&
		     EVP_CIPHER_CTX_copy(copy, z);
		/* The original finishes another message; then the copy finishes the right one. */
		ok = ok && EVP_CipherUpdate(z, out + cut, &outl, in + 300, (int)rest) &&
		     (EVP_CipherFinal_ex(z, out, &outl) || !enc);
		ERR_clear_error();
		EVP_CIPHER_CTX_free(z);
		ok = ok && EVP_CipherUpdate(copy, out + cut, &outl, (enc ? in : want) + cut,
					    (int)rest) &&
		     EVP_CipherFinal_ex(copy, out + cut + rest, &outl) &&
		     memcmp(out, enc ? want : in, cut + rest) == 0 &&
		     (!enc || (EVP_CIPHER_CTX_ctrl(copy, EVP_CTRL_AEAD_GET_TAG, 16, tag) &&
			       memcmp(tag, wtag, 16) == 0));
		EVP_CIPHER_CTX_free(copy);
	}
	zt_ok(ok, "%s: contexts duplicated mid-stream (both directions) go on independently",
	      x ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305");
}

/* --- the TLS record mode ----------------------------------------------------- */

struct tls_result {
	int iv_ret, aad_ret, ret, outl;
	size_t pad, taglen;
};

static size_t get_size_param(EVP_CIPHER_CTX *ctx, const char *name)
{
	size_t v = 12345;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(name, &v), OSSL_PARAM_END };

	return EVP_CIPHER_CTX_get_params(ctx, p) ? v : 54321;
}

/* One record on ctx, as libssl 3.0 does for TLS 1.2: tlsaad, then one update. */
static void tls_record(EVP_CIPHER_CTX *ctx, unsigned char aad[TLS_AAD_LEN],
		       const unsigned char *in, unsigned char *out, size_t inl,
		       struct tls_result *r)
{
	r->aad_ret = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, TLS_AAD_LEN, aad);
	r->pad = get_size_param(ctx, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD);
	r->taglen = get_size_param(ctx, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
	r->outl = -1;
	r->ret = EVP_CipherUpdate(ctx, out, &r->outl, in, (int)inl);
}

static EVP_CIPHER_CTX *tls_ctx(const EVP_CIPHER *c, int enc, const unsigned char *key,
			       const unsigned char *fixed, size_t fixed_len, struct tls_result *r)
{
	EVP_CIPHER_CTX *ctx = new_ctx();

	if (!EVP_CipherInit_ex(ctx, c, NULL, key, NULL, enc))
		bail("TLS context init");
	r->iv_ret = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IV_FIXED, (int)fixed_len,
					(void *)fixed);
	return ctx;
}

static int same_result(const struct tls_result *a, const struct tls_result *b)
{
	return a->iv_ret == b->iv_ret && a->aad_ret == b->aad_ret && a->ret == b->ret &&
	       a->outl == b->outl && a->pad == b->pad && a->taglen == b->taglen;
}

static void set_tls_aad(unsigned char aad[TLS_AAD_LEN], uint64_t seq, size_t len)
{
	int i;

	for (i = 0; i < 8; i++)
		aad[i] = (unsigned char)(seq >> (56 - 8 * i));
	aad[8] = 23;
	aad[9] = 3;
	aad[10] = 3;
	aad[11] = (unsigned char)(len >> 8);
	aad[12] = (unsigned char)len;
}

/*
 * Records of many lengths, both directions, in place or not, on long-lived
 * contexts as libssl keeps them: zinc and default must agree on the ctrl
 * results, return values, outl and bytes; tampered records fail alike
 * (plaintext wiped, nothing past it written); a wrong length fails and
 * leaves the record pending in both.
 */
static void test_tls_chacha20_poly1305(void)
{
	static const size_t lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 100, 255, 256, 1000,
				       1400, 4096, 16383, 16384 };
	unsigned char key[32], fixed[12], aad[TLS_AAD_LEN];
	unsigned char *pt = xmalloc(16384 + 16), *zrec = xmalloc(16384 + 64);
	unsigned char *drec = xmalloc(16384 + 64), *zout = xmalloc(16384 + 64);
	unsigned char *dout = xmalloc(16384 + 64);
	struct tls_result zr, dr, zr2, dr2;
	EVP_CIPHER_CTX *ze, *de, *zd, *dd;
	size_t i, bad = 0, tbad = 0, wbad = 0;
	uint64_t seq = zt_rand_u64() >> 1;

	zt_rand(key, sizeof(key));
	zt_rand(fixed, sizeof(fixed));
	ze = tls_ctx(zaead, 1, key, fixed, 12, &zr);
	de = tls_ctx(daead, 1, key, fixed, 12, &dr);
	zd = tls_ctx(zaead, 0, key, fixed, 12, &zr2);
	dd = tls_ctx(daead, 0, key, fixed, 12, &dr2);
	zt_ok(zr.iv_ret == dr.iv_ret && zr2.iv_ret == dr2.iv_ret && zr.iv_ret == 1,
	      "TLS: tlsivfixed is accepted as by default (%d, %d)", zr.iv_ret, dr.iv_ret);
	for (i = 0; i < 3 * sizeof(lens) / sizeof(lens[0]) + 20; i++) {
		size_t n = i < 3 * sizeof(lens) / sizeof(lens[0]) ? lens[i / 3]
								   : zt_rand_below(16385);
		int inplace = i % 2 == 1;

		zt_rand(pt, n);
		memset(zrec, 0xee, n + 64);
		memset(drec, 0xee, n + 64);
		set_tls_aad(aad, seq, n);
		if (inplace) {
			memcpy(zrec, pt, n);
			memcpy(drec, pt, n);
			tls_record(ze, aad, zrec, zrec, n + 16, &zr);
			tls_record(de, aad, drec, drec, n + 16, &dr);
		} else {
			tls_record(ze, aad, pt, zrec, n + 16, &zr);
			tls_record(de, aad, pt, drec, n + 16, &dr);
		}
		if (!same_result(&zr, &dr) || zr.ret != 1 || memcmp(zrec, drec, n + 64) != 0) {
			zt_diag("TLS encrypt %zu bytes: zinc ret %d outl %d pad %zu, "
				"default ret %d outl %d pad %zu", n, zr.ret, zr.outl, zr.pad, dr.ret,
				dr.outl, dr.pad);
			bad++;
			continue;
		}
		/* Decrypt: the AAD announces the record with its tag. */
		set_tls_aad(aad, seq, n + 16);
		memset(zout, 0xee, n + 64);
		memset(dout, 0xee, n + 64);
		if (inplace) {
			memcpy(zout, zrec, n + 16);
			memcpy(dout, zrec, n + 16);
			tls_record(zd, aad, zout, zout, n + 16, &zr);
			tls_record(dd, aad, dout, dout, n + 16, &dr);
		} else {
			tls_record(zd, aad, zrec, zout, n + 16, &zr);
			tls_record(dd, aad, zrec, dout, n + 16, &dr);
		}
		if (!same_result(&zr, &dr) || zr.ret != 1 || memcmp(zout, dout, n + 64) != 0 ||
		    memcmp(zout, pt, n) != 0) {
			zt_diag("TLS decrypt %zu bytes: zinc ret %d outl %d, "
				"default ret %d outl %d", n, zr.ret, zr.outl, dr.ret, dr.outl);
			bad++;
			continue;
		}
		/* Tampered: both fail, wipe what they wrote and write nothing more. */
		zrec[zt_rand_below(n + 16)] ^= (unsigned char)(1 << zt_rand_below(8));
		memset(zout, 0xee, n + 64);
		memset(dout, 0xee, n + 64);
		tls_record(zd, aad, zrec, zout, n + 16, &zr);
		tls_record(dd, aad, zrec, dout, n + 16, &dr);
		ERR_clear_error();
		if (zr.ret != 0 || dr.ret != 0 || zr.aad_ret != dr.aad_ret ||
		    memcmp(zout, dout, n + 64) != 0) {
			zt_diag("TLS tampered %zu bytes: zinc ret %d, default ret %d", n, zr.ret,
				dr.ret);
			tbad++;
		}
		/* A wrong length fails in both; the record stays pending for the right one. */
		tls_record(zd, aad, drec, zout, n + 15, &zr);
		tls_record(dd, aad, drec, dout, n + 15, &dr);
		ERR_clear_error();
		zr2.outl = dr2.outl = -1;
		zr2.ret = EVP_CipherUpdate(zd, zout, &zr2.outl, drec, (int)(n + 16));
		dr2.ret = EVP_CipherUpdate(dd, dout, &dr2.outl, drec, (int)(n + 16));
		if (zr.ret != 0 || dr.ret != 0 || zr2.ret != 1 || dr2.ret != 1 ||
		    zr2.outl != dr2.outl || memcmp(zout, pt, n) != 0 || memcmp(dout, pt, n) != 0)
			wbad++;
		seq++;
	}
	zt_ok(bad == 0, "TLS record mode: records of 0..16384 bytes, both directions, in place or "
	      "not, equal default in ctrl results, return values, outl and bytes: %zu bad", bad);
	zt_ok(tbad == 0, "TLS record mode: tampered records fail as in default, plaintext wiped "
	      "and nothing past it written: %zu bad", tbad);
	zt_ok(wbad == 0, "TLS record mode: a record of the wrong length fails and the right one "
	      "then succeeds, as in default: %zu bad", wbad);

	/* tlsaad of a wrong size, or announcing less than a tag when decrypting. */
	set_tls_aad(aad, seq, 10);
	zt_ok(EVP_CIPHER_CTX_ctrl(zd, EVP_CTRL_AEAD_TLS1_AAD, TLS_AAD_LEN, aad) ==
	      EVP_CIPHER_CTX_ctrl(dd, EVP_CTRL_AEAD_TLS1_AAD, TLS_AAD_LEN, aad) &&
	      EVP_CIPHER_CTX_ctrl(ze, EVP_CTRL_AEAD_TLS1_AAD, 12, aad) ==
	      EVP_CIPHER_CTX_ctrl(de, EVP_CTRL_AEAD_TLS1_AAD, 12, aad) &&
	      EVP_CIPHER_CTX_ctrl(ze, EVP_CTRL_AEAD_TLS1_AAD, 12, aad) <= 0,
	      "TLS: tlsaad of 12 bytes, or of a 10-byte record when decrypting, fails as in "
	      "default");
	ERR_clear_error();
	EVP_CIPHER_CTX_free(ze);
	EVP_CIPHER_CTX_free(de);
	EVP_CIPHER_CTX_free(zd);
	EVP_CIPHER_CTX_free(dd);
	free(pt);
	free(zrec);
	free(drec);
	free(zout);
	free(dout);
}

/*
 * XChaCha20-Poly1305 in the same record mode (zinc's extension: a 24-byte
 * fixed IV, the sequence XORed into its last 8 bytes) is the AEAD over
 * the 13-byte AAD with that nonce.
 */
static void test_tls_xchacha(int sodium)
{
	unsigned char key[32], fixed[24], nonce[24], aad[TLS_AAD_LEN], pt[300], rec[316];
	unsigned char want[300], wtag[16], out[316];
	struct tls_result r, rd;
	EVP_CIPHER_CTX *e, *d;
	int i, ok = 1;
	uint64_t seq = zt_rand_u64();

	zt_rand(key, sizeof(key));
	zt_rand(fixed, sizeof(fixed));
	e = tls_ctx(zxaead, 1, key, fixed, 24, &r);
	d = tls_ctx(zxaead, 0, key, fixed, 24, &rd);
	ok = r.iv_ret == 1 && rd.iv_ret == 1;
	for (i = 0; i < 20 && ok; i++, seq++) {
		size_t n = zt_rand_below(sizeof(pt) + 1), j;

		zt_rand(pt, n);
		set_tls_aad(aad, seq, n);
		memcpy(nonce, fixed, 24);
		for (j = 0; j < 8; j++)
			nonce[16 + j] ^= aad[j];
		ok = oracle_encrypt(1, sodium, key, nonce, aad, TLS_AAD_LEN, pt, want, n, wtag);
		tls_record(e, aad, pt, rec, n + 16, &r);
		ok = ok && r.aad_ret == 16 && r.ret == 1 && (size_t)r.outl == n + 16 &&
		     memcmp(rec, want, n) == 0 && memcmp(rec + n, wtag, 16) == 0;
		set_tls_aad(aad, seq, n + 16);
		tls_record(d, aad, rec, out, n + 16, &rd);
		ok = ok && rd.ret == 1 && (size_t)rd.outl == n && memcmp(out, pt, n) == 0;
	}
	zt_ok(ok, "XChaCha20-Poly1305: TLS records equal the AEAD with nonce = fixed IV XOR "
	      "sequence (%s)", sodium ? "libsodium" : "default under HChaCha20");
	EVP_CIPHER_CTX_free(e);
	EVP_CIPHER_CTX_free(d);
}

/* --- parameters -------------------------------------------------------------- */

/* Same names with the same types, in any order. */
static int same_param_list(const OSSL_PARAM *a, const OSSL_PARAM *b, const char *what)
{
	const OSSL_PARAM *p, *q;
	size_t na = 0, nb = 0;
	int ok = a != NULL && b != NULL;

	for (p = a; ok && p->key != NULL; p++, na++) {
		for (q = b; q->key != NULL; q++)
			if (strcmp(p->key, q->key) == 0)
				break;
		if (q->key == NULL || q->data_type != p->data_type) {
			zt_diag("%s: zinc's %s is %s in default's list", what, p->key,
				q->key == NULL ? "not" : "of another type");
			ok = 0;
		}
	}
	for (q = b; ok && q->key != NULL; q++)
		nb++;
	if (ok && na != nb)
		zt_diag("%s: zinc lists %zu parameters, default %zu", what, na, nb);
	return ok && na == nb;
}

/* Reads every integer parameter of default's list from both, with default's type. */
static int same_values(const OSSL_PARAM *list, int (*get_z)(void *, OSSL_PARAM *), void *z,
		       int (*get_d)(void *, OSSL_PARAM *), void *d, const char *what,
		       const char *skip)
{
	const OSSL_PARAM *p;
	int ok = 1;

	for (p = list; p->key != NULL; p++) {
		uint64_t zv = 0, dv = 0;
		OSSL_PARAM zq[2] = { OSSL_PARAM_END, OSSL_PARAM_END }, dq[2];
		int zr, dr;

		if (p->data_type != OSSL_PARAM_INTEGER &&
		    p->data_type != OSSL_PARAM_UNSIGNED_INTEGER)
			continue;
		if (skip != NULL && strcmp(p->key, skip) == 0)
			continue;
		zq[0] = *p;
		zq[0].data = &zv;
		zq[0].data_size = p->data_size;
		zq[0].return_size = OSSL_PARAM_UNMODIFIED;
		dq[0] = zq[0];
		dq[0].data = &dv;
		dq[1] = zq[1];
		zr = get_z(z, zq);
		dr = get_d(d, dq);
		if (zr != dr || zv != dv || !OSSL_PARAM_modified(zq) || !OSSL_PARAM_modified(dq)) {
			zt_diag("%s: %s: zinc %d/%llu, default %d/%llu", what, p->key, zr,
				(unsigned long long)zv, dr, (unsigned long long)dv);
			ok = 0;
		}
	}
	return ok;
}

static int cipher_get(void *c, OSSL_PARAM *p)
{
	return EVP_CIPHER_get_params(c, p);
}

static int ctx_get(void *ctx, OSSL_PARAM *p)
{
	return EVP_CIPHER_CTX_get_params(ctx, p);
}

static void test_params_of(EVP_CIPHER *z, EVP_CIPHER *d, const char *name, int x)
{
	EVP_CIPHER_CTX *zc = new_ctx(), *dc = new_ctx();
	unsigned char key[32] = { 0 }, iv[24] = { 0 };
	const char *vs = x ? "default's ChaCha20-Poly1305" : "default";
	int aead = (EVP_CIPHER_get_flags(d) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0;

	zt_ok(same_param_list(EVP_CIPHER_gettable_params(z), EVP_CIPHER_gettable_params(d), name),
	      "%s: algorithm gettable parameters name for name and type as %s", name, vs);
	zt_ok(same_values(EVP_CIPHER_gettable_params(d), cipher_get, z, cipher_get, d, name,
			  x ? OSSL_CIPHER_PARAM_IVLEN : NULL),
	      "%s: every algorithm parameter has %s's value%s", name, vs,
	      x ? " (but ivlen)" : "");
	zt_ok(EVP_CIPHER_get_flags(z) == EVP_CIPHER_get_flags(d) &&
	      EVP_CIPHER_get_mode(z) == EVP_CIPHER_get_mode(d) &&
	      EVP_CIPHER_get_block_size(z) == EVP_CIPHER_get_block_size(d) &&
	      EVP_CIPHER_get_key_length(z) == EVP_CIPHER_get_key_length(d) &&
	      EVP_CIPHER_get_iv_length(z) == (x ? 24 : EVP_CIPHER_get_iv_length(d)),
	      "%s: flags %#lx, mode, block size, key and IV lengths as %s", name,
	      EVP_CIPHER_get_flags(z), vs);
	zt_ok(same_param_list(EVP_CIPHER_gettable_ctx_params(z), EVP_CIPHER_gettable_ctx_params(d),
			      name) &&
	      same_param_list(EVP_CIPHER_settable_ctx_params(z),
			      EVP_CIPHER_settable_ctx_params(d), name),
	      "%s: context gettable and settable parameters as %s", name, vs);
	if (!EVP_EncryptInit_ex2(zc, z, key, iv, NULL) ||
	    !EVP_EncryptInit_ex2(dc, d, key, iv, NULL))
		bail("init");
	zt_ok(same_param_list(EVP_CIPHER_CTX_gettable_params(zc),
			      EVP_CIPHER_CTX_gettable_params(dc), name) &&
	      same_param_list(EVP_CIPHER_CTX_settable_params(zc),
			      EVP_CIPHER_CTX_settable_params(dc), name),
	      "%s: EVP_CIPHER_CTX gettable and settable parameters as %s", name, vs);
	zt_ok(same_values(EVP_CIPHER_gettable_ctx_params(d), ctx_get, zc, ctx_get, dc, name,
			  x ? OSSL_CIPHER_PARAM_IVLEN : NULL),
	      "%s: context parameter values after init as %s", name, vs);
	if (aead) {
		OSSL_PARAM tl[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
									NULL, 8), OSSL_PARAM_END };
		unsigned char aad[TLS_AAD_LEN] = { 0 };

		/* "taglen" follows a tag length set without a tag; "tlsaadpad" follows tlsaad. */
		zt_ok(EVP_CIPHER_CTX_set_params(zc, tl) == EVP_CIPHER_CTX_set_params(dc, tl) &&
		      get_size_param(zc, OSSL_CIPHER_PARAM_AEAD_TAGLEN) == 8 &&
		      get_size_param(dc, OSSL_CIPHER_PARAM_AEAD_TAGLEN) == 8,
		      "%s: setting an 8-byte tag length without a tag makes taglen 8, as in %s",
		      name, vs);
		aad[12] = 5;
		zt_ok(EVP_CIPHER_CTX_ctrl(zc, EVP_CTRL_AEAD_TLS1_AAD, TLS_AAD_LEN, aad) ==
		      EVP_CIPHER_CTX_ctrl(dc, EVP_CTRL_AEAD_TLS1_AAD, TLS_AAD_LEN, aad) &&
		      same_values(EVP_CIPHER_gettable_ctx_params(d), ctx_get, zc, ctx_get, dc,
				  name, x ? OSSL_CIPHER_PARAM_IVLEN : NULL),
		      "%s: tlsaad returns the pad and then taglen and tlsaadpad are as in %s",
		      name, vs);
		if (!EVP_EncryptInit_ex2(zc, NULL, NULL, iv, NULL) ||
		    !EVP_EncryptInit_ex2(dc, NULL, NULL, iv, NULL))
			bail("re-init");
		zt_ok(same_values(EVP_CIPHER_gettable_ctx_params(d), ctx_get, zc, ctx_get, dc,
				  name, x ? OSSL_CIPHER_PARAM_IVLEN : NULL),
		      "%s: a re-init keeps taglen and tlsaadpad, as %s does", name, vs);
	}
	{
		/* Lengths can be set to their value only. */
		size_t v, ivlen = (size_t)EVP_CIPHER_get_iv_length(z);
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &v),
				    OSSL_PARAM_END };
		int ok = 1;

		for (v = ivlen - 1; v <= ivlen + 1; v++)
			ok = ok && EVP_CIPHER_CTX_set_params(zc, p) == (v == ivlen) &&
			     (x || EVP_CIPHER_CTX_set_params(dc, p) == (v == ivlen));
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &v);
		for (v = 31; v <= 33; v++)
			ok = ok && EVP_CIPHER_CTX_set_params(zc, p) == (v == 32) &&
			     EVP_CIPHER_CTX_set_params(dc, p) == (v == 32);
		ERR_clear_error();
		zt_ok(ok, "%s: ivlen and keylen can be set to their own value only, as in %s",
		      name, vs);
	}
	EVP_CIPHER_CTX_free(zc);
	EVP_CIPHER_CTX_free(dc);
}

int main(void)
{
	int sodium = 0;

	zc20 = fetch(zt_zinc_ctx(), "ChaCha20");
	zaead = fetch(zt_zinc_ctx(), "ChaCha20-Poly1305");
	zxaead = fetch(zt_zinc_ctx(), "XChaCha20-Poly1305");
	dc20 = fetch(zt_default_ctx(), "ChaCha20");
	daead = fetch(zt_default_ctx(), "ChaCha20-Poly1305");
#ifdef HAVE_LIBSODIUM
	sodium = sodium_init() >= 0;
#endif

	test_params_of(zc20, dc20, "ChaCha20", 0);
	test_params_of(zaead, daead, "ChaCha20-Poly1305", 0);
	test_params_of(zxaead, daead, "XChaCha20-Poly1305", 1);

	test_chacha20_lengths();
	test_chacha20_counter_wrap();
	test_chacha20_reinit();
	test_chacha20_dup();

	test_aead_lengths(0, 0, "default");
	if (sodium)
		test_aead_lengths(1, 1, "libsodium");
	else
		zt_missing("XChaCha20-Poly1305 against libsodium: not built with libsodium");
	/* Independent of libsodium: default's ChaCha20-Poly1305 under an HChaCha20 subkey. */
	test_aead_lengths(1, 0, "default under an HChaCha20 subkey");
	test_aead_truncated_tags();
	test_aead_reinit();
	test_aead_dup(zaead, 0, 0);
	test_aead_dup(zxaead, 1, sodium);

	test_tls_chacha20_poly1305();
	test_tls_xchacha(sodium);

	EVP_CIPHER_free(zc20);
	EVP_CIPHER_free(zaead);
	EVP_CIPHER_free(zxaead);
	EVP_CIPHER_free(dc20);
	EVP_CIPHER_free(daead);
	return zt_done();
}
