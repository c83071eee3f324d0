/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The constant-time case catalogue (see ct_cases.h): inputs per secret
 * set, the traced calls between two ct_mark() calls, and the check of
 * their results afterwards.  Portable C over include/zinc only.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "zinc/blake2s.h"
#include "zinc/chacha20.h"
#include "zinc/chacha20poly1305.h"
#include "zinc/curve25519.h"
#include "zinc/poly1305.h"
#include "ct_cases.h"
#include "ct_fill.h"

#define MAXLEN 2200	/* the longest case, 2112, and room */
#define NSETS 65	/* the reference and 64 others */

/*
 * Every input and output lives here, static: the same addresses in every
 * run, so that a driver may compare memory addresses across runs.
 */
static struct {
	uint8_t key[32], nonce[24], iv[16];
	uint8_t in[MAXLEN], out[MAXLEN + CHACHA20POLY1305_TAG_SIZE], back[MAXLEN];
	uint8_t ad[80];
	uint8_t scalar[32], point[32];
	uint8_t tag[16];	/* an expected result, where the set has one */
	bool expect_tag;	/* poly1305: tag must equal b.tag */
	bool expect_zero;	/* x25519: a low-order point, all-zero result */
	size_t pos;		/* memeq, forged tags: the secret position */
	uint8_t flip;		/* ... and the nonzero difference there */
} b;

/* --- secrets: deterministic bytes per set, and the edge classes --------- */

static uint64_t rng;

static void seed(unsigned set)
{
	rng = ct_seed(0x9e3779b97f4a7c15u, set);
}

static void fill(void *buf, size_t len)
{
	ct_fill(&rng, buf, len);
}

static uint8_t fill_byte(void)
{
	uint8_t v;

	fill(&v, 1);
	return v;
}

/* Public data: the same in every run, whatever the set. */
static void fill_public(void *buf, size_t len, uint64_t tweak)
{
	uint64_t state = 0x5851f42d4c957f2du ^ tweak;

	ct_fill(&state, buf, len);
}

/* Edge classes shared by the symmetric primitives: key and data extremes. */
static const char *const sym_kinds[] = {
	NULL, "key 0, data 0", "key 0xff.., data 0xff..", "key 0, data 0xff..",
	"key 0xff.., data 0"
};
#define NSYM (sizeof(sym_kinds) / sizeof(sym_kinds[0]))

/* Fills key and data for set: an edge class, else random. */
static void sym_fill(unsigned set, uint8_t *key, size_t keylen, uint8_t *data, size_t len)
{
	fill(key, keylen);
	fill(data, len);
	if (set == 0 || set >= NSYM)
		return;
	memset(key, set == 2 || set == 4 ? 0xff : 0, keylen);
	memset(data, set == 2 || set == 3 ? 0xff : 0, len);
}

/* --- ChaCha20 and HChaCha20 ----------------------------------------------- */

/* param: the public starting block counter. */
static void p_chacha20(const struct ct_case *c, unsigned set)
{
	uint32_t ctr = (uint32_t)c->param;

	seed(set);
	sym_fill(set, b.key, sizeof(b.key), b.in, c->len);
	fill_public(b.iv, sizeof(b.iv), 1);
	b.iv[0] = (uint8_t)ctr;
	b.iv[1] = (uint8_t)(ctr >> 8);
	b.iv[2] = (uint8_t)(ctr >> 16);
	b.iv[3] = (uint8_t)(ctr >> 24);
}

static int r_chacha20(const struct ct_case *c)
{
	struct chacha20_ctx ctx;
	size_t len = c->len;

	ct_mark();
	/* One-shot, then in two pieces through the buffered keystream. */
	chacha20_init(&ctx, b.key, b.iv);
	chacha20_crypt(&ctx, b.out, b.in, len);
	chacha20_init(&ctx, b.key, b.iv);
	chacha20_crypt(&ctx, b.back, b.in, len / 3);
	chacha20_crypt(&ctx, b.back + len / 3, b.in + len / 3, len - len / 3);
	ct_mark();
	return memcmp(b.out, b.back, len) != 0;
}

/*
 * chacha20_jobs: c->len jobs, the blocks of one stream (whole, 32 bytes as
 * a Poly1305 key block, and shorter), the job array and key words static
 * like every input.
 */
enum { MAXJOBS = 33 };
static struct chacha20_job jobs[MAXJOBS];
static uint32_t key_words[8];

static void p_chacha20_jobs(const struct ct_case *c, unsigned set)
{
	size_t j;

	seed(set);
	sym_fill(set, b.key, sizeof(b.key), b.in, CHACHA20_BLOCK_SIZE * c->len);
	fill_public(b.iv, sizeof(b.iv), 3);
	b.iv[3] = 0;	/* word 12 does not wrap within the stream */
	ct_le32_words(key_words, b.key, 8);
	for (j = 0; j < c->len; j++) {
		jobs[j] = (struct chacha20_job){
			.key = key_words, .src = b.in + CHACHA20_BLOCK_SIZE * j,
			.dst = b.out + CHACHA20_BLOCK_SIZE * j,
			.len = j % 3 == 0 ? CHACHA20_BLOCK_SIZE : j % 3 == 1 ? 32 : 64 - j
		};
		ct_le32_words(jobs[j].iv, b.iv, 4);
		jobs[j].iv[0] += (uint32_t)j;
	}
}

static int r_chacha20_jobs(const struct ct_case *c)
{
	struct chacha20_ctx ctx;
	size_t j;
	int bad = 0;

	ct_mark();
	chacha20_jobs(jobs, c->len);
	ct_mark();
	chacha20_init(&ctx, b.key, b.iv);
	chacha20_crypt(&ctx, b.back, b.in, CHACHA20_BLOCK_SIZE * c->len);
	for (j = 0; j < c->len; j++)
		bad |= memcmp(jobs[j].dst, b.back + CHACHA20_BLOCK_SIZE * j, jobs[j].len) != 0;
	return bad;
}

static void p_hchacha20(const struct ct_case *c, unsigned set)
{
	(void)c;
	seed(set);
	sym_fill(set, b.key, sizeof(b.key), b.in, 0);
	fill_public(b.nonce, HCHACHA20_NONCE_SIZE, 2);
}

static int r_hchacha20(const struct ct_case *c)
{
	(void)c;
	ct_mark();
	hchacha20(b.out, b.nonce, b.key);
	ct_mark();
	return 0;
}

/* --- Poly1305 ------------------------------------------------------------- */

/*
 * Numbers below 2^160 as five 32-bit limbs, little-endian: enough to
 * derive messages whose accumulator lands next to p = 2^130 - 5.
 */
typedef uint32_t num[5];

static const num P = { 0xfffffffb, 0xffffffff, 0xffffffff, 0xffffffff, 3 };

static void num_add(num r, const num a, const num x)
{
	uint64_t t = 0;
	int i;

	for (i = 0; i < 5; i++) {
		t += (uint64_t)a[i] + x[i];
		r[i] = (uint32_t)t;
		t >>= 32;
	}
}

/* r = a - x, for a >= x. */
static void num_sub(num r, const num a, const num x)
{
	uint64_t borrow = 0;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t t = (uint64_t)a[i] - x[i] - borrow;

		r[i] = (uint32_t)t;
		borrow = (t >> 63) & 1;
	}
}

static int num_cmp(const num a, const num x)
{
	int i;

	for (i = 4; i >= 0; i--)
		if (a[i] != x[i])
			return a[i] < x[i] ? -1 : 1;
	return 0;
}

/* The Poly1305 block value of len (1..16) bytes: m + 2^(8 len). */
static void num_block(num r, const uint8_t *m, size_t len)
{
	size_t i;

	memset(r, 0, sizeof(num));
	for (i = 0; i < len; i++)
		r[i / 4] |= (uint32_t)m[i] << (8 * (i % 4));
	r[len / 4] |= (uint32_t)1 << (8 * (len % 4));
}

/* The message bytes of a full block value c (2^128 <= c < 2^129). */
static void num_unblock(uint8_t *m, const num c)
{
	size_t i;

	for (i = 0; i < 16; i++)
		m[i] = (uint8_t)(c[i / 4] >> (8 * (i % 4)));
}

/*
 * With r = 1 the accumulator after the last block is the sum of the block
 * values.  Chooses the message so that this sum, before the final
 * reduction, is exactly p + k (k from -1 to 4: h >= p for k >= 0, all
 * 130 bits set for k = 4, h + 5 carrying through every limb): the last
 * block all 0xff, the others full blocks whose sum is p + k - (the last)
 * modulo p (the accumulator, partially reduced after every block, is
 * below 2^130 + 10: then it holds exactly that value).  The sum, an
 * integer of the form (p + k - last) + j p, is spread greedily: 0xff..
 * blocks, one in between, then 0x00.. blocks.  Returns false where the
 * length allows no such message (one block; two whose last is short).
 */
static bool poly1305_land(uint8_t *msg, size_t len, int k)
{
	size_t nblocks = (len + 15) / 16, last = len - 16 * (nblocks - 1), m = nblocks - 1, i;
	num target, cn, sum, low, high, rest, c;
	static const num max_take = { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0 };

	if (m == 0 || m > 1000)
		return false;
	memcpy(target, P, sizeof(num));
	if (k >= 0) {
		num small = { (uint32_t)k, 0, 0, 0, 0 };

		num_add(target, target, small);
	} else {
		num one = { 1, 0, 0, 0, 0 };

		num_sub(target, target, one);
	}
	memset(msg + 16 * (nblocks - 1), 0xff, last);
	num_block(cn, msg + 16 * (nblocks - 1), last);
	num_sub(sum, target, cn);	/* what the others must sum to, mod p */
	/* m blocks sum to at least m 2^128 and at most m (2^129 - 1). */
	memset(low, 0, sizeof(num));
	low[4] = (uint32_t)m;
	memset(high, 0, sizeof(num));
	high[4] = (uint32_t)(2 * m);
	{
		num mm = { (uint32_t)m, 0, 0, 0, 0 };

		num_sub(high, high, mm);
	}
	while (num_cmp(sum, low) < 0)
		num_add(sum, sum, P);
	if (num_cmp(sum, high) > 0)
		return false;
	num_sub(rest, sum, low);
	for (i = 0; i < m; i++) {
		/* c = 2^128 + min(rest, 2^128 - 1) */
		if (num_cmp(rest, max_take) > 0)
			memcpy(c, max_take, sizeof(num));
		else
			memcpy(c, rest, sizeof(num));
		num_sub(rest, rest, c);
		c[4] = 1;
		num_unblock(msg + 16 * i, c);
	}
	return true;
}

static const char *const poly_kinds[] = {
	NULL,
	"key 0xff.., message 0xff..",
	"key 0, message 0",
	"r = 0, s = 0xff..",
	"r 0xff.. (clamped), s = 0, message 0xff..",
	"r = 1, s = 0xff.., message 0xff..",
	"r = 1, h = p - 1 before the final reduction",
	"r = 1, h = p before the final reduction",
	"r = 1, h = p + 1 before the final reduction",
	"r = 1, h = p + 2 before the final reduction",
	"r = 1, h = p + 3 before the final reduction",
	"r = 1, h = 2^130 - 1 (all limbs ones) before the final reduction",
	"r = 1, s = 0xff.., h = p + 4, h + s carries",
};
#define NPOLY (sizeof(poly_kinds) / sizeof(poly_kinds[0]))

static void p_poly1305(const struct ct_case *c, unsigned set)
{
	uint8_t *key = b.key, *msg = b.in;
	size_t len = c->len;
	int k;

	seed(set);
	fill(key, 32);
	fill(msg, len);
	b.expect_tag = false;
	switch (set < NPOLY ? set : 0) {
	case 1:
		memset(key, 0xff, 32);
		memset(msg, 0xff, len);
		break;
	case 2:
		memset(key, 0, 32);
		memset(msg, 0, len);
		break;
	case 3:
		memset(key, 0, 16);
		memset(key + 16, 0xff, 16);
		break;
	case 4:
		memset(key, 0xff, 16);
		memset(key + 16, 0, 16);
		memset(msg, 0xff, len);
		break;
	case 5:
		memset(key, 0, 16);
		key[0] = 1;
		memset(key + 16, 0xff, 16);
		memset(msg, 0xff, len);
		break;
	case 6: case 7: case 8: case 9: case 10: case 11: case 12:
		k = (int)set - 7;
		if (set == 12)
			k = 4;
		memset(key, 0, 16);
		key[0] = 1;
		if (set == 12)
			memset(key + 16, 0xff, 16);
		if (poly1305_land(msg, len, k)) {
			/* tag = (h mod p) + s mod 2^128, h mod p = p - 1 or k */
			uint64_t carry = 0;
			unsigned i;
			uint8_t hb[16];

			memset(hb, 0, sizeof(hb));
			if (k < 0) {
				memset(hb, 0xff, sizeof(hb));
				hb[0] = 0xfa;	/* p - 1 = 2^130 - 6, low 128 bits */
			} else {
				hb[0] = (uint8_t)k;
			}
			for (i = 0; i < 16; i++) {
				carry += (uint64_t)hb[i] + key[16 + i];
				b.tag[i] = (uint8_t)carry;
				carry >>= 8;
			}
			b.expect_tag = true;
		}
		break;
	default:
		break;
	}
}

static int r_poly1305(const struct ct_case *c)
{
	struct poly1305_ctx ctx;
	size_t len = c->len, cut = len / 3 + 1 > len ? len : len / 3 + 1;

	ct_mark();
	poly1305(b.out, b.in, len, b.key);
	poly1305_init(&ctx, b.key);
	poly1305_update(&ctx, b.in, cut);
	poly1305_update(&ctx, b.in + cut, len - cut);
	poly1305_final(&ctx, b.out + 16);
	ct_mark();
	if (memcmp(b.out, b.out + 16, 16) != 0)
		return 1;
	return b.expect_tag && memcmp(b.out, b.tag, 16) != 0 ? 2 : 0;
}

/*
 * poly1305_update_many: 17 records under the set's key (two batches of
 * lanes), record i the message's first len - 16 i bytes (or none), each
 * tag equal to the one-shot's of the same bytes.
 */
#define MANY_RECORDS 17
static int r_poly1305_many(const struct ct_case *c)
{
	struct poly1305_ctx ctx[MANY_RECORDS], *pctx[MANY_RECORDS];
	const uint8_t *in[MANY_RECORDS];
	size_t len[MANY_RECORDS], i;
	uint8_t *many = b.out, *one = b.out + (size_t)16 * MANY_RECORDS;

	for (i = 0; i < MANY_RECORDS; i++) {
		pctx[i] = &ctx[i];
		in[i] = b.in;
		len[i] = c->len > 16 * i ? c->len - 16 * i : 0;
	}
	ct_mark();
	for (i = 0; i < MANY_RECORDS; i++)
		poly1305_init(&ctx[i], b.key);
	poly1305_update_many(pctx, in, len, MANY_RECORDS);
	for (i = 0; i < MANY_RECORDS; i++) {
		poly1305_final(&ctx[i], many + 16 * i);
		poly1305(one + 16 * i, b.in, len[i], b.key);
	}
	ct_mark();
	if (memcmp(many, one, (size_t)16 * MANY_RECORDS) != 0)
		return 1;
	return b.expect_tag && memcmp(many, b.tag, 16) != 0 ? 2 : 0;
}

/* --- BLAKE2s -------------------------------------------------------------- */

/* Unkeyed one-shot; keyed (17 bytes) with salt and personal, in two pieces. */
static void p_blake2s(const struct ct_case *c, unsigned set)
{
	seed(set);
	sym_fill(set, b.key, sizeof(b.key), b.in, c->len);
}

static int r_blake2s(const struct ct_case *c)
{
	struct blake2s_state state;
	uint8_t salt[BLAKE2S_SALT_SIZE], personal[BLAKE2S_PERSONAL_SIZE];
	size_t len = c->len;

	fill_public(salt, sizeof(salt), 3);
	fill_public(personal, sizeof(personal), 4);
	ct_mark();
	blake2s(b.out, b.in, NULL, BLAKE2S_HASH_SIZE, len, 0);
	blake2s_init_param(&state, 20, b.key, 17, salt, personal);
	blake2s_update(&state, b.in, len / 2);
	blake2s_update(&state, b.in + len / 2, len - len / 2);
	blake2s_final(&state, b.out + 32);
	ct_mark();
	return 0;
}

/* Keyed, len the key length (public); a 65-byte message. */
#define BLAKE2S_KEYED_MSG 65

static void p_blake2s_key(const struct ct_case *c, unsigned set)
{
	seed(set);
	sym_fill(set, b.key, c->len, b.in, BLAKE2S_KEYED_MSG);
}

static int r_blake2s_key(const struct ct_case *c)
{
	struct blake2s_state state;

	ct_mark();
	blake2s(b.out, b.in, b.key, BLAKE2S_HASH_SIZE, BLAKE2S_KEYED_MSG, c->len);
	blake2s_init_key(&state, BLAKE2S_HASH_SIZE, b.key, c->len);
	blake2s_update(&state, b.in, 1);
	blake2s_update(&state, b.in + 1, BLAKE2S_KEYED_MSG - 1);
	blake2s_final(&state, b.out + 32);
	ct_mark();
	return memcmp(b.out, b.out + 32, 32) != 0;
}

/* --- ChaCha20-Poly1305 and XChaCha20-Poly1305 ---------------------------- */

/* AD length: public, short (waits for the key block) or long. */
static size_t ad_len_for(size_t len)
{
	return (len * 13) % sizeof(b.ad);
}

/* param: bit 0 XChaCha20, bit 1 open (else seal), bit 2 a forged tag. */
enum { AEAD_X = 1, AEAD_OPEN = 2, AEAD_FORGED = 4 };

static const char *const forged_kinds[] = {
	NULL, "first tag byte wrong", "last tag byte wrong", "every tag byte wrong",
	"tag all zero", "tag all 0xff"
};
#define NFORGED (sizeof(forged_kinds) / sizeof(forged_kinds[0]))

static void p_aead(const struct ct_case *c, unsigned set)
{
	size_t len = c->len, ad_len = ad_len_for(len), i;
	uint8_t *tag = b.out + len, right[16];

	seed(set);
	sym_fill(set, b.key, sizeof(b.key), b.in, len);
	fill(b.ad, ad_len);
	fill_public(b.nonce, sizeof(b.nonce), 5);
	if (!(c->param & AEAD_OPEN))
		return;
	if (c->param & AEAD_X)
		xchacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, b.nonce, b.key);
	else
		chacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, b.nonce, b.key);
	if (!(c->param & AEAD_FORGED))
		return;
	/* Wrong at a secret position, by a secret nonzero difference. */
	b.pos = fill_byte() % 16;
	b.flip = (uint8_t)(fill_byte() | 1);
	memcpy(right, tag, 16);
	switch (set < NFORGED ? set : 0) {
	case 1:
		tag[0] ^= b.flip;
		break;
	case 2:
		tag[15] ^= b.flip;
		break;
	case 3:
		for (i = 0; i < 16; i++)
			tag[i] ^= b.flip;
		break;
	case 4: case 5:
		memset(tag, set == 4 ? 0 : 0xff, 16);
		/* A forged tag must differ from the right one. */
		if (memcmp(right, tag, 16) == 0)
			tag[0] ^= 1;
		break;
	default:
		tag[b.pos] ^= b.flip;
		break;
	}
}

static int r_aead(const struct ct_case *c)
{
	size_t len = c->len, ad_len = ad_len_for(len);
	bool x = c->param & AEAD_X;
	struct chacha20poly1305_ctx ctx;
	volatile bool v1 = true, v2 = true;

	ct_mark();
	if (!(c->param & AEAD_OPEN)) {
		if (x) {
			xchacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, b.nonce, b.key);
			xchacha20poly1305_init(&ctx, b.key, b.nonce);
		} else {
			chacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, b.nonce, b.key);
			chacha20poly1305_init(&ctx, b.key, b.nonce);
		}
		chacha20poly1305_ad(&ctx, b.ad, ad_len / 2);
		chacha20poly1305_ad(&ctx, b.ad + ad_len / 2, ad_len - ad_len / 2);
		chacha20poly1305_encrypt_update(&ctx, b.back, b.in, len / 2);
		chacha20poly1305_encrypt_update(&ctx, b.back + len / 2, b.in + len / 2,
						len - len / 2);
		chacha20poly1305_final(&ctx, b.back + len);
		ct_mark();
		return memcmp(b.out, b.back, len + CHACHA20POLY1305_TAG_SIZE) != 0;
	}
	if (x) {
		v1 = xchacha20poly1305_decrypt(b.back, b.out, len + CHACHA20POLY1305_TAG_SIZE,
					       b.ad, ad_len, b.nonce, b.key);
		xchacha20poly1305_init(&ctx, b.key, b.nonce);
	} else {
		v1 = chacha20poly1305_decrypt(b.back, b.out, len + CHACHA20POLY1305_TAG_SIZE,
					      b.ad, ad_len, b.nonce, b.key);
		chacha20poly1305_init(&ctx, b.key, b.nonce);
	}
	chacha20poly1305_ad(&ctx, b.ad, ad_len);
	chacha20poly1305_decrypt_update(&ctx, b.back, b.out, len / 3);
	chacha20poly1305_decrypt_update(&ctx, b.back + len / 3, b.out + len / 3, len - len / 3);
	v2 = chacha20poly1305_final_verify(&ctx, b.out + len, CHACHA20POLY1305_TAG_SIZE);
	ct_mark();
	/* The verdicts are what the case says, else the case tests nothing. */
	if (c->param & AEAD_FORGED)
		return v1 || v2 ? 3 : 0;
	return !v1 || !v2 ? 3 : memcmp(b.back, b.in, len) != 0;
}

/* --- X25519 --------------------------------------------------------------- */

/*
 * u-coordinates of Curve25519's points of small order (the 8-torsion),
 * little-endian: 0 and 1, the two of order 8, p - 1 (order 4, u = -1);
 * then non-canonical encodings (u >= p): p (0), p + 1 (1), 2^255 - 1
 * (18), and the order-8 ones with bit 255 set, which X25519 ignores.
 * (Known values, as listed with RFC 7748's discussion of low-order
 * inputs; X25519 of any clamped scalar and these gives all zeros, which
 * run() checks.)
 */
static const uint8_t low_order[][32] = {
	{ 0 },
	{ 1 },
	{ 0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3, 0xfa, 0xf1,
	  0x9f, 0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd, 0x86, 0x62,
	  0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00 },
	{ 0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1, 0x55, 0x9c,
	  0x83, 0xef, 0x5b, 0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c, 0x8e, 0x86, 0xd8, 0x22,
	  0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57 },
	{ 0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	  0xff, 0xff, 0xff, 0xff, 0xff, 0x7f },
	{ 0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	  0xff, 0xff, 0xff, 0xff, 0xff, 0x7f },
	{ 0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	  0xff, 0xff, 0xff, 0xff, 0xff, 0x7f },
};
#define NLOW (sizeof(low_order) / sizeof(low_order[0]))

/*
 * Sets 1-8: the scalar's top byte (bits 255, 254 and their neighbours,
 * which clamping overrides) in each pattern; 9-15: u of low order; 16-22:
 * the same with bit 255 set; 23: u = 2^255 - 1 (18, non-canonical); 24:
 * u = 2^256 - 1; 25, 26: all-zero and all-0xff scalars; 27: u = 9 (the
 * base point); then random.
 */
static const uint8_t top_bytes[] = { 0x00, 0x40, 0x80, 0xc0, 0x3f, 0x7f, 0xbf, 0xff };
#define NTOP (sizeof(top_bytes) / sizeof(top_bytes[0]))

static const char *x25519_kind(unsigned set)
{
	static const char *const kinds[] = {
		"scalar top byte 0x00", "scalar top byte 0x40", "scalar top byte 0x80",
		"scalar top byte 0xc0", "scalar top byte 0x3f", "scalar top byte 0x7f",
		"scalar top byte 0xbf", "scalar top byte 0xff",
		"u = 0", "u = 1", "u of order 8 (a)", "u of order 8 (b)", "u = p - 1",
		"u = p", "u = p + 1",
		"u = 0, bit 255 set", "u = 1, bit 255 set", "u of order 8 (a), bit 255 set",
		"u of order 8 (b), bit 255 set", "u = p - 1, bit 255 set",
		"u = p, bit 255 set", "u = p + 1, bit 255 set",
		"u = 2^255 - 1", "u = 2^256 - 1", "scalar 0", "scalar 0xff..", "u = 9"
	};

	if (set == 0 || set > sizeof(kinds) / sizeof(kinds[0]))
		return NULL;
	return kinds[set - 1];
}

static void p_x25519(const struct ct_case *c, unsigned set)
{
	(void)c;
	seed(set);
	fill(b.scalar, 32);
	fill(b.point, 32);
	b.expect_zero = false;
	if (set >= 1 && set <= NTOP) {
		b.scalar[31] = top_bytes[set - 1];
	} else if (set > NTOP && set <= NTOP + 2 * NLOW) {
		unsigned i = (set - NTOP - 1) % NLOW;

		memcpy(b.point, low_order[i], 32);
		if (set > NTOP + NLOW)
			b.point[31] |= 0x80;
		b.expect_zero = true;
	} else if (set == NTOP + 2 * NLOW + 1) {
		memset(b.point, 0xff, 32);
		b.point[31] = 0x7f;
	} else if (set == NTOP + 2 * NLOW + 2) {
		memset(b.point, 0xff, 32);
	} else if (set == NTOP + 2 * NLOW + 3) {
		memset(b.scalar, 0, 32);
	} else if (set == NTOP + 2 * NLOW + 4) {
		memset(b.scalar, 0xff, 32);
	} else if (set == NTOP + 2 * NLOW + 5) {
		memset(b.point, 0, 32);
		b.point[0] = 9;
	}
}

static int r_x25519(const struct ct_case *c)
{
	static const uint8_t zero[32];
	volatile bool v;

	(void)c;
	ct_mark();
	v = curve25519(b.out, b.scalar, b.point);
	ct_mark();
	if (b.expect_zero)
		return v || memcmp(b.out, zero, 32) != 0 ? 4 : 0;
	return 0;
}

static void p_x25519_keygen(const struct ct_case *c, unsigned set)
{
	p_x25519(c, set);
}

static int r_x25519_keygen(const struct ct_case *c)
{
	(void)c;
	ct_mark();
	curve25519_clamp_secret(b.scalar);
	curve25519_generate_public(b.out, b.scalar);
	ct_mark();
	/* The same public key as X25519 of the base point. */
	memset(b.point, 0, 32);
	b.point[0] = 9;
	return !curve25519(b.back, b.scalar, b.point) || memcmp(b.out, b.back, 32) != 0;
}

/* --- zinc_memeq: unequal at a secret position, or equal ------------------- */

static const char *const memeq_kinds[] = {
	NULL, "differ in the first byte", "differ in the last byte", "differ in every byte"
};
#define NMEMEQ (sizeof(memeq_kinds) / sizeof(memeq_kinds[0]))

/* param: 1 equal, 0 unequal. */
static void p_memeq(const struct ct_case *c, unsigned set)
{
	size_t len = c->len, i;

	seed(set);
	fill(b.in, len);
	memcpy(b.back, b.in, len);
	if (c->param)
		return;
	b.pos = fill_byte() % len;
	b.flip = (uint8_t)(fill_byte() | 1);
	switch (set < NMEMEQ ? set : 0) {
	case 1:
		b.back[0] ^= b.flip;
		break;
	case 2:
		b.back[len - 1] ^= b.flip;
		break;
	case 3:
		for (i = 0; i < len; i++)
			b.back[i] ^= b.flip;
		break;
	default:
		b.back[b.pos] ^= b.flip;
		break;
	}
}

static int r_memeq(const struct ct_case *c)
{
	volatile bool v;

	ct_mark();
	v = zinc_memeq(b.in, b.back, c->len);
	ct_mark();
	return v != (c->param != 0);
}

/* --- the catalogue -------------------------------------------------------- */

/*
 * Lengths, public, each its own case: block and lane boundaries +-1 (a
 * byte, or a block around the 4/8/16/32-block passes), for the stream
 * and the MAC around their vector thresholds too.
 */
static const size_t chacha20_lengths[] = {
	1, 63, 64, 65, 192, 255, 256, 257, 320, 448, 512, 576, 960, 1024, 1088,
	1984, 2048, 2112
};
static const size_t ctrwrap_lengths[] = { 257, 2112 };
/* jobs: around the lane counts (4, 8, 16 and 32) */
static const size_t jobs_counts[] = { 1, 5, 17, 26, 33 };
static const size_t poly1305_lengths[] = {
	1, 15, 16, 17, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513,
	1024, 2049
};
/* Records of r_poly1305_many around the lanes' thresholds (64 and 1792 bytes). */
static const size_t poly1305_many_lengths[] = { 63, 64, 65, 257, 1024, 1791, 2049 };
static const size_t blake2s_lengths[] = { 0, 1, 63, 64, 65, 127, 128, 129, 200 };
static const size_t keylen_lengths[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
	23, 24, 25, 26, 27, 28, 29, 30, 31, 32
};
static const size_t seal_lengths[] = { 0, 1, 64, 65, 257, 2049 };
static const size_t open_lengths[] = { 0, 65, 257 };
static const size_t forged_lengths[] = { 1, 65 };
static const size_t x_lengths[] = { 257 };
static const size_t one_length[] = { 0 };
static const size_t memeq_lengths[] = { 16, 32, 64 };

static const struct {
	const char *cls;
	unsigned prims;
	void (*prepare)(const struct ct_case *c, unsigned set);
	int (*run)(const struct ct_case *c);
	const size_t *lengths;
	size_t nlengths;
	int param;
} classes[] = {
#define L(a) (a), sizeof(a) / sizeof((a)[0])
	{ "chacha20", CT_CHACHA20, p_chacha20, r_chacha20, L(chacha20_lengths), 1 },
	/* The public counter starts 3 blocks below 2^32: it wraps inside. */
	{ "chacha20-ctrwrap", CT_CHACHA20, p_chacha20, r_chacha20, L(ctrwrap_lengths),
	  (int)0xfffffffdu },
	{ "chacha20-jobs", CT_CHACHA20, p_chacha20_jobs, r_chacha20_jobs, L(jobs_counts), 0 },
	{ "hchacha20", CT_CHACHA20, p_hchacha20, r_hchacha20, L(one_length), 0 },
	{ "poly1305", CT_POLY1305, p_poly1305, r_poly1305, L(poly1305_lengths), 0 },
	{ "poly1305-many", CT_POLY1305, p_poly1305, r_poly1305_many, L(poly1305_many_lengths),
	  0 },
	{ "blake2s", CT_BLAKE2S, p_blake2s, r_blake2s, L(blake2s_lengths), 0 },
	{ "blake2s-keylen", CT_BLAKE2S, p_blake2s_key, r_blake2s_key, L(keylen_lengths), 0 },
	/* The AEADs' Poly1305 calls run the poly1305 class's code. */
	{ "chacha20poly1305-seal", CT_CHACHA20 | CT_POLY1305, p_aead, r_aead,
	  L(seal_lengths), 0 },
	{ "chacha20poly1305-open", CT_CHACHA20 | CT_POLY1305, p_aead, r_aead,
	  L(open_lengths), AEAD_OPEN },
	{ "chacha20poly1305-forged", CT_CHACHA20 | CT_POLY1305, p_aead, r_aead,
	  L(forged_lengths), AEAD_OPEN | AEAD_FORGED },
	{ "xchacha20poly1305-seal", CT_CHACHA20 | CT_POLY1305, p_aead, r_aead,
	  L(x_lengths), AEAD_X },
	{ "xchacha20poly1305-open", CT_CHACHA20 | CT_POLY1305, p_aead, r_aead,
	  L(x_lengths), AEAD_X | AEAD_OPEN },
	{ "xchacha20poly1305-forged", CT_CHACHA20 | CT_POLY1305, p_aead, r_aead,
	  L(x_lengths), AEAD_X | AEAD_OPEN | AEAD_FORGED },
	{ "x25519", CT_CURVE25519, p_x25519, r_x25519, L(one_length), 0 },
	{ "x25519-keygen", CT_CURVE25519, p_x25519_keygen, r_x25519_keygen, L(one_length), 0 },
	{ "zinc_memeq", 0, p_memeq, r_memeq, L(memeq_lengths), 0 },
	{ "zinc_memeq-equal", 0, p_memeq, r_memeq, L(memeq_lengths), 1 },
#undef L
};
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

#define MAXCASES 128
static struct ct_case cases[MAXCASES];
static char names[MAXCASES][48];
static size_t ncases;

static void build(void)
{
	size_t k, i;

	if (ncases)
		return;
	for (k = 0; k < NCLASSES; k++) {
		for (i = 0; i < classes[k].nlengths && ncases < MAXCASES; i++) {
			struct ct_case *c = &cases[ncases];

			c->cls = classes[k].cls;
			c->prims = classes[k].prims;
			c->len = classes[k].lengths[i];
			c->nsets = NSETS;
			c->prepare = classes[k].prepare;
			c->run = classes[k].run;
			c->param = classes[k].param;
			if (classes[k].lengths == one_length)
				snprintf(names[ncases], sizeof(names[0]), "%s", c->cls);
			else
				snprintf(names[ncases], sizeof(names[0]), "%s/%zu", c->cls, c->len);
			c->name = names[ncases];
			ncases++;
		}
	}
}

size_t ct_case_count(void)
{
	build();
	return ncases;
}

const struct ct_case *ct_case_get(size_t index)
{
	build();
	return index < ncases ? &cases[index] : NULL;
}

const char *ct_prim_name(unsigned prim)
{
	switch (prim) {
	case CT_CHACHA20:
		return "chacha20";
	case CT_POLY1305:
		return "poly1305";
	case CT_BLAKE2S:
		return "blake2s";
	case CT_CURVE25519:
		return "curve25519";
	default:
		return "?";
	}
}

const char *ct_set_kind(const struct ct_case *c, unsigned set)
{
	if (set == 0)
		return "reference";
	if (c->prepare == p_poly1305)
		return set < NPOLY ? poly_kinds[set] : NULL;
	if (c->prepare == p_x25519 || c->prepare == p_x25519_keygen)
		return x25519_kind(set);
	if (c->prepare == p_memeq)
		return !c->param && set < NMEMEQ ? memeq_kinds[set] : NULL;
	if (c->prepare == p_aead && (c->param & AEAD_FORGED) && set < NFORGED)
		return forged_kinds[set];
	return set < NSYM ? sym_kinds[set] : NULL;
}
