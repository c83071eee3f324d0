/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant time, checked by valgrind memcheck (test/test_ct_memcheck.sh
 * runs this under it, once per ZINC_CPU mask).  Every byte a primitive
 * reads is marked undefined ("secret") before the call: keys, scalars,
 * plaintext, AD, ciphertext, tags, peer points, messages.  Only nonces and
 * lengths stay defined, being public by design.  A branch, conditional move
 * or memory address computed from a secret then becomes a memcheck error,
 * counted around each primitive with VALGRIND_COUNT_ERRORS.  Outputs are
 * declared public only after the call, and must be undefined until then
 * (else the secrets did not reach the primitive and the check would prove
 * nothing).  The one secret-derived value declared public earlier is the
 * tag comparison's verdict: the one-shot decrypt branches on it to wipe its
 * output, which test/test_ct.supp allows, once per call.
 *
 *   test_ct run      the primitives over every length class (TAP)
 *   test_ct info     CPU features and implementation names, for the script
 *   test_ct leaky    a table lookup and a branch on secrets: memcheck must
 *                    report both, proving the check can fail
 *
 * Linked with the primitives only: no OpenSSL code runs under memcheck.
 */
#include "config.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zinc/blake2s.h"
#include "zinc/chacha20.h"
#include "zinc/chacha20poly1305.h"
#include "zinc/curve25519.h"
#include "zinc/poly1305.h"
#include "ct_fill.h"
#include "skip.h"

#ifdef HAVE_VALGRIND_MEMCHECK_H
#include <valgrind/memcheck.h>
#endif

#ifndef HAVE_VALGRIND_MEMCHECK_H
int main(void)
{
	return zt_missing_all("built without valgrind/memcheck.h (install valgrind)");
}
#else

/* Every length class: block and lane boundaries +-1, then a long one. */
static const size_t lengths[] = {
	0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257,
	511, 512, 513, 1023, 1024, 1025, 4095, 4096, 4097, 65536 + 5
};
#define NLENGTHS (sizeof(lengths) / sizeof(lengths[0]))
#define MAXLEN (65536 + 5)

/*
 * Streaming in many pieces: the sizes of the pieces, in turn, so that
 * buffered partial blocks meet every path.
 */
static const size_t pieces[] = { 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1024, 3 };
#define NPIECES (sizeof(pieces) / sizeof(pieces[0]))

static size_t piece(size_t k, size_t left)
{
	return pieces[k % NPIECES] < left ? pieces[k % NPIECES] : left;
}

static int tap_n, tap_failed;

static void __attribute__((format(printf, 2, 3))) ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!cond)
		tap_failed++;
}

/* Deterministic test data (xorshift64*): the same bytes on every run. */
static uint64_t rng = 0x9e3779b97f4a7c15u;

static void fill(void *buf, size_t len)
{
	ct_fill(&rng, buf, len);
}

static void secret(const void *p, size_t len)
{
	(void)VALGRIND_MAKE_MEM_UNDEFINED(p, len);
}

/* Fresh random secret bytes. */
static void fill_secret(void *p, size_t len)
{
	fill(p, len);
	secret(p, len);
}

/* Outputs that should carry secrets but were found fully defined. */
static unsigned int untainted;

/*
 * Declares an output public, after checking, when memcheck runs and the
 * output depends on secrets (tainted), that it still carries them.
 */
static void declassify(const void *p, size_t len, bool tainted)
{
	static uint8_t vbits[MAXLEN + CHACHA20POLY1305_TAG_SIZE];

	if (tainted && len > 0 && len <= sizeof(vbits) &&
	    VALGRIND_GET_VBITS(p, vbits, len) == 1) {
		uint8_t any = 0;
		size_t i;

		for (i = 0; i < len; i++)
			any |= vbits[i];
		if (!any)
			untainted++;
	}
	(void)VALGRIND_MAKE_MEM_DEFINED(p, len);
}

static void public(const void *p, size_t len)
{
	declassify(p, len, true);
}

/*
 * A yes/no answer made public: a tag check's, curve25519's all-zero check's,
 * or the test's own comparison of two secret outputs.
 */
static bool verdict(bool v)
{
	(void)VALGRIND_MAKE_MEM_DEFINED(&v, sizeof(v));
	return v;
}

static bool same(const void *a, const void *b, size_t len)
{
	return len == 0 || memcmp(a, b, len) == 0;
}

/* Compares two secret-carrying outputs of the same secrets, without a branch on them. */
static bool equal_after(const void *a, const void *b, size_t len)
{
	return verdict(zinc_memeq(a, b, len));
}

struct buffers {
	uint8_t in[MAXLEN];
	uint8_t out[MAXLEN + CHACHA20POLY1305_TAG_SIZE];
	uint8_t out2[MAXLEN + CHACHA20POLY1305_TAG_SIZE];
	uint8_t back[MAXLEN];
	uint8_t plain[MAXLEN];	/* a public copy of in */
	uint8_t ad[80];
};
static struct buffers b;

/* Runs one primitive's checks, reporting results and memcheck's verdict. */
static void check(const char *name, bool (*fn)(void))
{
	unsigned int before = VALGRIND_COUNT_ERRORS, errors;
	unsigned int untainted_before = untainted;
	bool right = fn();

	errors = VALGRIND_COUNT_ERRORS - before;
	ok(right, "%s: results right", name);
	if (RUNNING_ON_VALGRIND) {
		ok(errors == 0, "%s: no branch or index on a secret (%u memcheck errors)",
		   name, errors);
		ok(untainted == untainted_before,
		   "%s: outputs carry the secrets until declared public (%u did not)",
		   name, untainted - untainted_before);
	}
}

/* --- the primitives -------------------------------------------------------- */

static bool ct_chacha20(void)
{
	uint8_t key[CHACHA20_KEY_SIZE], iv[CHACHA20_IV_SIZE];
	struct chacha20_ctx ctx;
	bool right = true;
	size_t i, k, off, n;

	for (i = 0; i < NLENGTHS; i++) {
		const size_t len = lengths[i], cut = len / 3;

		fill_secret(key, sizeof(key));
		fill(iv, sizeof(iv));
		fill_secret(b.in, len);

		chacha20_init(&ctx, key, iv);
		chacha20_crypt(&ctx, b.out, b.in, len);
		/* Streamed in two pieces, through the buffered keystream. */
		chacha20_init(&ctx, key, iv);
		chacha20_crypt(&ctx, b.out2, b.in, cut);
		chacha20_crypt(&ctx, b.out2 + cut, b.in + cut, len - cut);
		right &= equal_after(b.out, b.out2, len);
		chacha20_init(&ctx, key, iv);
		for (k = 0, off = 0; off < len; off += n, k++) {
			n = piece(k, len - off);
			chacha20_crypt(&ctx, b.out2 + off, b.in + off, n);
		}
		/* In place, back to the plaintext. */
		memcpy(b.back, b.out, len);
		chacha20_init(&ctx, key, iv);
		chacha20_crypt(&ctx, b.back, b.back, len);

		public(b.out, len);
		public(b.out2, len);
		public(b.in, len);
		public(b.back, len);
		right &= same(b.out, b.out2, len) && same(b.back, b.in, len);
	}
	return right;
}

/*
 * chacha20_jobs: the blocks of one stream as jobs (whole, 32 bytes as a
 * Poly1305 key block, and shorter), around each path's lane counts,
 * against chacha20_crypt.
 */
static bool ct_chacha20_jobs(void)
{
	static const size_t counts[] = { 1, 5, 8, 16, 17, 26, 33 };
	enum { MAXJOBS = 33 };
	uint8_t key[CHACHA20_KEY_SIZE], iv[CHACHA20_IV_SIZE];
	struct chacha20_job jobs[MAXJOBS];
	uint32_t words[8];
	struct chacha20_ctx ctx;
	bool right = true;
	size_t i, j;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		const size_t n = counts[i];

		fill_secret(key, sizeof(key));
		fill(iv, sizeof(iv));
		iv[3] = 0;	/* word 12 does not wrap within the stream */
		fill_secret(b.in, CHACHA20_BLOCK_SIZE * n);
		ct_le32_words(words, key, 8);
		for (j = 0; j < n; j++) {
			jobs[j] = (struct chacha20_job){
				.key = words, .src = b.in + CHACHA20_BLOCK_SIZE * j,
				.dst = b.out + CHACHA20_BLOCK_SIZE * j,
				.len = j % 3 == 0 ? CHACHA20_BLOCK_SIZE : j % 3 == 1 ? 32 : 64 - j
			};
			ct_le32_words(jobs[j].iv, iv, 4);
			jobs[j].iv[0] += (uint32_t)j;
		}
		chacha20_jobs(jobs, n);
		chacha20_init(&ctx, key, iv);
		chacha20_crypt(&ctx, b.out2, b.in, CHACHA20_BLOCK_SIZE * n);
		for (j = 0; j < n; j++)
			right &= equal_after(jobs[j].dst, b.out2 + CHACHA20_BLOCK_SIZE * j, jobs[j].len);
		for (j = 0; j < n; j++)
			public(jobs[j].dst, jobs[j].len);
		public(b.out2, CHACHA20_BLOCK_SIZE * n);
		public(b.in, CHACHA20_BLOCK_SIZE * n);
	}
	return right;
}

static bool ct_hchacha20(void)
{
	uint8_t key[HCHACHA20_KEY_SIZE], nonce[HCHACHA20_NONCE_SIZE];
	uint8_t out[HCHACHA20_KEY_SIZE], out2[HCHACHA20_KEY_SIZE];
	bool right = true;
	int i;

	for (i = 0; i < 8; i++) {
		fill_secret(key, sizeof(key));
		fill(nonce, sizeof(nonce));
		hchacha20(out, nonce, key);
		hchacha20(out2, nonce, key);
		public(out, sizeof(out));
		public(out2, sizeof(out2));
		right &= same(out, out2, sizeof(out));
	}
	return right;
}

static bool ct_poly1305(void)
{
	uint8_t key[POLY1305_KEY_SIZE], mac[POLY1305_MAC_SIZE], mac2[POLY1305_MAC_SIZE];
	struct poly1305_ctx ctx;
	bool right = true;
	size_t i, k, off, n;

	for (i = 0; i < NLENGTHS; i++) {
		const size_t len = lengths[i], cut = len / 3 + 1 > len ? len : len / 3 + 1;

		fill_secret(key, sizeof(key));
		fill_secret(b.in, len);

		poly1305(mac, b.in, len, key);
		poly1305_init(&ctx, key);
		poly1305_update(&ctx, b.in, cut);
		poly1305_update(&ctx, b.in + cut, len - cut);
		poly1305_final(&ctx, mac2);
		right &= equal_after(mac, mac2, sizeof(mac));
		poly1305_init(&ctx, key);
		for (k = 0, off = 0; off < len; off += n, k++) {
			n = piece(k, len - off);
			poly1305_update(&ctx, b.in + off, n);
		}
		poly1305_final(&ctx, mac2);

		public(mac, sizeof(mac));
		public(mac2, sizeof(mac2));
		right &= same(mac, mac2, sizeof(mac));
	}
	return right;
}

static bool ct_blake2s(void)
{
	uint8_t key[BLAKE2S_KEY_SIZE], salt[BLAKE2S_SALT_SIZE], personal[BLAKE2S_PERSONAL_SIZE];
	uint8_t h[BLAKE2S_HASH_SIZE], h2[BLAKE2S_HASH_SIZE];
	struct blake2s_state state;
	bool right = true;
	size_t i, k, off, n;

	for (i = 0; i < 2 * NLENGTHS; i++) {
		const size_t len = lengths[i / 2], cut = len / 2;
		/* Unkeyed and keyed at each length; key and output lengths vary. */
		const size_t keylen = i % 2 ? 1 + i % BLAKE2S_KEY_SIZE : 0;
		const size_t outlen = BLAKE2S_HASH_SIZE - i % 5;

		fill_secret(key, sizeof(key));
		fill_secret(b.in, len);

		blake2s(h, b.in, keylen ? key : NULL, outlen, len, keylen);
		blake2s_init_key(&state, outlen, key, keylen);
		blake2s_update(&state, b.in, cut);
		blake2s_update(&state, b.in + cut, len - cut);
		blake2s_final(&state, h2);
		/* The empty message unkeyed has no secret in it. */
		declassify(h, outlen, len + keylen > 0);
		declassify(h2, outlen, len + keylen > 0);
		right &= same(h, h2, outlen);

		/* Salt and personalisation are public; the key is not. */
		fill(salt, sizeof(salt));
		fill(personal, sizeof(personal));
		blake2s_init_param(&state, outlen, key, keylen, salt, personal);
		for (k = 0, off = 0; off < len; off += n, k++) {
			n = piece(k + i, len - off);
			blake2s_update(&state, b.in + off, n);
		}
		blake2s_final(&state, h2);
		declassify(h2, outlen, len + keylen > 0);
		public(b.in, len);
	}
	return right;
}

/* Encrypts b.in (len) into b.out (ciphertext || tag) one-shot, X or not. */
static void aead_seal(bool x, size_t len, size_t ad_len, const uint8_t *nonce, const uint8_t *key)
{
	if (x)
		xchacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, nonce, key);
	else
		chacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, nonce, key);
}

/* test_ct.supp's budget: one suppressed branch on the verdict per call. */
static unsigned int oneshot_decrypts;

static bool aead_open(bool x, uint8_t *dst, size_t len, size_t ad_len,
		      const uint8_t *nonce, const uint8_t *key)
{
	bool v;

	oneshot_decrypts++;
	if (x)
		v = xchacha20poly1305_decrypt(dst, b.out, len + CHACHA20POLY1305_TAG_SIZE,
					      b.ad, ad_len, nonce, key);
	else
		v = chacha20poly1305_decrypt(dst, b.out, len + CHACHA20POLY1305_TAG_SIZE,
					     b.ad, ad_len, nonce, key);
	return verdict(v);
}

static void aead_init(bool x, struct chacha20poly1305_ctx *ctx, const uint8_t *key,
		      const uint8_t *nonce)
{
	if (x)
		xchacha20poly1305_init(ctx, key, nonce);
	else
		chacha20poly1305_init(ctx, key, nonce);
}

static bool ct_aead(bool x)
{
	uint8_t key[CHACHA20POLY1305_KEY_SIZE], nonce[XCHACHA20POLY1305_NONCE_SIZE];
	uint8_t tag[CHACHA20POLY1305_TAG_SIZE];
	struct chacha20poly1305_ctx ctx;
	bool right = true;
	size_t i, k, off, n;

	for (i = 0; i < NLENGTHS; i++) {
		const size_t len = lengths[i], cut = len / 2;
		/* AD short enough to wait for the key block, and longer. */
		const size_t ad_len = (i * 13) % sizeof(b.ad);
		bool v;

		fill_secret(key, sizeof(key));
		fill(nonce, sizeof(nonce));
		fill(b.plain, len);
		memcpy(b.in, b.plain, len);
		secret(b.in, len);
		fill_secret(b.ad, ad_len);

		/* One-shot encrypt; streamed encrypt in pieces agrees. */
		aead_seal(x, len, ad_len, nonce, key);
		aead_init(x, &ctx, key, nonce);
		chacha20poly1305_ad(&ctx, b.ad, ad_len / 2);
		chacha20poly1305_ad(&ctx, b.ad + ad_len / 2, ad_len - ad_len / 2);
		chacha20poly1305_encrypt_update(&ctx, b.out2, b.in, cut);
		chacha20poly1305_encrypt_update(&ctx, b.out2 + cut, b.in + cut, len - cut);
		chacha20poly1305_final(&ctx, b.out2 + len);

		/* One-shot decrypt: the verdict (public) and the plaintext. */
		v = aead_open(x, b.back, len, ad_len, nonce, key);
		public(b.back, len);
		right &= v && same(b.back, b.plain, len);

		/* Streamed decrypt with final_verify, in place. */
		memcpy(b.back, b.out, len);
		memcpy(tag, b.out + len, sizeof(tag));
		aead_init(x, &ctx, key, nonce);
		chacha20poly1305_ad(&ctx, b.ad, ad_len);
		for (k = 0, off = 0; off < len; off += n, k++) {
			n = piece(k + i, len - off);
			chacha20poly1305_decrypt_update(&ctx, b.back + off, b.back + off, n);
		}
		v = verdict(chacha20poly1305_final_verify(&ctx, tag, sizeof(tag)));
		public(b.back, len);
		right &= v && same(b.back, b.plain, len);

		/* A forged tag fails, one-shot and streamed. */
		b.out[len + i % CHACHA20POLY1305_TAG_SIZE] ^= 1;
		right &= !aead_open(x, b.back, len, ad_len, nonce, key);
		aead_init(x, &ctx, key, nonce);
		chacha20poly1305_ad(&ctx, b.ad, ad_len);
		chacha20poly1305_decrypt_update(&ctx, b.back, b.out, len);
		right &= !verdict(chacha20poly1305_final_verify(&ctx, b.out + len,
							       CHACHA20POLY1305_TAG_SIZE));
		b.out[len + i % CHACHA20POLY1305_TAG_SIZE] ^= 1;

		public(b.out, len + CHACHA20POLY1305_TAG_SIZE);
		public(b.out2, len + CHACHA20POLY1305_TAG_SIZE);
		public(b.in, len);
		public(b.ad, ad_len);
		right &= same(b.out, b.out2, len + CHACHA20POLY1305_TAG_SIZE);
	}
	return right;
}

static bool ct_chacha20poly1305(void)
{
	return ct_aead(false);
}

static bool ct_xchacha20poly1305(void)
{
	return ct_aead(true);
}

static bool ct_curve25519(void)
{
	uint8_t a[CURVE25519_KEY_SIZE], bb[CURVE25519_KEY_SIZE];
	uint8_t pa[CURVE25519_KEY_SIZE], pb[CURVE25519_KEY_SIZE];
	uint8_t sa[CURVE25519_KEY_SIZE], sb[CURVE25519_KEY_SIZE];
	uint8_t u[CURVE25519_KEY_SIZE];
	bool right = true;
	int i;

	for (i = 0; i < 4; i++) {
		bool va, vb;

		fill_secret(a, sizeof(a));
		fill_secret(bb, sizeof(bb));
		curve25519_clamp_secret(a);
		curve25519_generate_public(pa, a);
		curve25519_generate_public(pb, bb);
		/* The peers' public keys, secret too: nothing may branch on them. */
		secret(pa, sizeof(pa));
		secret(pb, sizeof(pb));
		va = curve25519(sa, a, pb);
		vb = curve25519(sb, bb, pa);
		/* The all-zero check's result is public (derive fails on it). */
		va = verdict(va);
		vb = verdict(vb);
		public(sa, sizeof(sa));
		public(sb, sizeof(sb));
		right &= va && vb && same(sa, sb, sizeof(sa));

		/* An arbitrary u, top bit set, not on the curve maybe. */
		fill_secret(u, sizeof(u));
		(void)verdict(curve25519(sa, a, u));
		public(sa, sizeof(sa));
	}
	return right;
}

static bool ct_memeq(void)
{
	bool right = true;
	size_t i;

	for (i = 0; i < NLENGTHS; i++) {
		const size_t len = lengths[i];

		fill_secret(b.in, len);
		memcpy(b.back, b.in, len);
		right &= verdict(zinc_memeq(b.in, b.back, len));
		if (len > 0) {
			b.back[len - 1] ^= 0x80;
			right &= !verdict(zinc_memeq(b.in, b.back, len));
		}
		zinc_memzero(b.in, len);
	}
	return right;
}

/* --- the proof that the check can fail --------------------------------------- */

static volatile uint8_t sink;

/* An S-box lookup indexed by a secret byte: a cache-timing leak. */
static __attribute__((noinline)) uint8_t leaky_table_lookup(const uint8_t *s)
{
	static uint8_t table[256];
	size_t i;

	for (i = 0; i < sizeof(table); i++)
		table[i] = (uint8_t)(i * 7 + 1);
	return table[s[0]];
}

/* A branch on a secret bit, with work on one side only: a timing leak. */
static __attribute__((noinline)) void leaky_branch(const uint8_t *s)
{
	if (s[1] & 1) {
		sink = 1;
		sink = sink * 3;
	}
}

static int leaky(void)
{
	uint8_t s[2];
	unsigned int before;

	fill_secret(s, sizeof(s));
	before = VALGRIND_COUNT_ERRORS;
	sink = leaky_table_lookup(s);
	ok(VALGRIND_COUNT_ERRORS > before, "a table lookup indexed by a secret is reported");
	before = VALGRIND_COUNT_ERRORS;
	leaky_branch(s);
	ok(VALGRIND_COUNT_ERRORS > before, "a branch on a secret bit is reported");
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "run";

	zinc_init();
	if (strcmp(mode, "info") == 0) {
		printf("cpu: %s\n", zinc_cpu_features_string());
		printf("chacha20: %s\npoly1305: %s\nblake2s: %s\ncurve25519: %s\n",
		       chacha20_implementation(), poly1305_implementation(),
		       blake2s_implementation(), curve25519_implementation());
#if defined(__SANITIZE_ADDRESS__)
		puts("sanitizers: yes");
#endif
		return 0;
	}
	if (!RUNNING_ON_VALGRIND)
		puts("# not under valgrind: results only (test/test_ct_memcheck.sh runs memcheck)");
	if (strcmp(mode, "leaky") == 0)
		return leaky();
	if (strcmp(mode, "run") != 0) {
		fprintf(stderr, "usage: test_ct [run|info|leaky]\n");
		return 2;
	}
	printf("# cpu: %s\n", zinc_cpu_features_string());
	check("chacha20", ct_chacha20);
	check("chacha20_jobs", ct_chacha20_jobs);
	check("hchacha20", ct_hchacha20);
	check("poly1305", ct_poly1305);
	check("blake2s", ct_blake2s);
	check("chacha20poly1305", ct_chacha20poly1305);
	check("xchacha20poly1305", ct_xchacha20poly1305);
	check("curve25519", ct_curve25519);
	check("zinc_memeq", ct_memeq);
	printf("# one-shot decrypts: %u\n", oneshot_decrypts);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
#endif
