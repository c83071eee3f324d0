/* SPDX-License-Identifier: Apache-2.0 */
/* Poly1305 (RFC 8439): portable constant-time C and dispatch. */
#include "config.h"
#include "zinc/poly1305.h"
#include "internal.h"

/*
 * Dispatch: the arch glue is a table poly1305_paths[] (internal.h) of these.
 *
 * A path owns the layout of ctx->opaque (st) from its init on: the choice
 * is made once, by zinc_init(), so the same path's blocks and emit get
 * that context.  init takes the first 16 bytes of the key (r; the generic
 * code keeps s).  blocks takes len bytes, a multiple of 16 (0 allowed);
 * padbit is 1 for full message blocks and 0 for the final padded one.
 * emit writes (h + s) mod 2^128, s being nonce.
 *
 * Optional, for long runs: vector(st, in, len, 1) with len a non-zero
 * multiple of unit, used from min bytes on (min_cached once the context's
 * powers of r exist: powers(st) computes them and sets 64-bit word
 * POLY1305_POWERS_OK of st, which init clears).  A length, never a secret,
 * decides.  The final padded block (padbit 0) is one block, always
 * scalar.
 *
 * Optional, for many records at once (poly1305_update_many): many(st, in,
 * len, n) is blocks(st[i], in[i], len[i], 1) for each i < n, 1 <= n <=
 * lanes, the st distinct, each len a multiple of 16 from many_min up to
 * below many_max (shorter and longer records take blocks or vector alone).
 */
enum { POLY1305_POWERS_OK = 6 };

struct poly1305_path {
	struct zinc_path path;
	void (*init)(void *st, const uint8_t key[16]);
	void (*blocks)(void *st, const uint8_t *in, size_t len, uint32_t padbit);
	void (*emit)(const void *st, uint8_t mac[POLY1305_MAC_SIZE], const uint32_t nonce[4]);
	void (*powers)(void *st);
	void (*vector)(void *st, const uint8_t *in, size_t len, uint32_t padbit);
	size_t unit, min, min_cached;
	void (*many)(void *const st[], const uint8_t *const in[], const size_t len[], size_t n);
	size_t lanes, many_min, many_max;
};

/* Records sorted at a time for the lanes (a pipeline holds up to 32). */
enum { POLY1305_MANY_WINDOW = 64, POLY1305_MANY_MIN_RECORDS = 8 };

#if defined(ZINC_ASM_X86_64)
#include "poly1305-x86_64-glue.c"
#elif defined(ZINC_ASM_ARMV8)
#include "poly1305-armv8-glue.c"
#elif defined(ZINC_ASM_ARMV4)
#include "poly1305-armv4-glue.c"
#endif

static const struct poly1305_path *poly1305_path;

static void poly1305_blocks_arch(const struct poly1305_path *p, uint64_t st[48],
				 const uint8_t *in, size_t len, uint32_t padbit)
{
	if (p->vector != NULL && padbit == 1 &&
	    len >= (st[POLY1305_POWERS_OK] ? p->min_cached : p->min)) {
		const size_t n = len & ~(p->unit - 1);

		if (!st[POLY1305_POWERS_OK])
			p->powers(st);
		p->vector(st, in, n, padbit);
		in += n;
		len -= n;
	}
	if (len > 0)
		p->blocks(st, in, len, padbit);
}

/* --- portable C ---------------------------------------------------------- */

/*
 * The accumulator h and the key r are numbers written in machine words
 * ("limbs"), least significant first; h has one limb more than the 128 bits
 * of r, holding its few bits from 2^128 up.  Arithmetic is modulo
 * p = 2^130 - 5, so 2^130 == 5: whatever lands from 2^130 up is folded back
 * in times 5.
 *
 * The limbs are full machine words (radix 2^64, or 2^32 without a 128-bit
 * type) rather than narrower ones with spare bits, because clamping makes
 * the full words cheap: it clears the low two bits of r's words 1, 2 and 3
 * (RFC 8439, 2.5.1), so any product of such a word that reaches 2^128 is a
 * whole multiple of 2^130, and r_j 2^128 == (r_j / 4) 5 = r_j + r_j / 4
 * (mod p).  With that "wrapped" form of each of those words precomputed,
 * h r needs one double-width product per pair of limbs and no rescaling:
 * 4 (plus 2 of h's top limb) in radix 2^64 against 9 for 44-bit limbs, 16
 * (plus 4) in radix 2^32 against 25 for 26-bit limbs.  The price is carry
 * propagation across full words, which the double-width type expresses.
 *
 * h is kept only partially reduced between blocks: below 5 * 2^128 < 2p,
 * its top limb at most 4.  emit reduces it completely.
 */

#ifdef __SIZEOF_INT128__
#define POLY1305_GENERIC_NAME "portable C (radix 2^64)"
__extension__ typedef unsigned __int128 u128;

/* Where the words live in ctx->opaque. */
enum { ACC = 0, KEY = 3, KEY_WRAP = 5 };

/*
 * Adds x and a carry in to *limb; returns the carry out.  In 64 bits with
 * compares, which GCC turns into add and setc: widening to u128 here made
 * it spill zeros to the stack.
 */
static inline uint64_t add_to_limb(uint64_t *limb, uint64_t x, uint64_t carry)
{
	uint64_t sum = *limb + x, carries = sum < x;

	sum += carry;
	carries += sum < carry;
	*limb = sum;
	return carries;
}

static inline u128 mul_wide(uint64_t a, uint64_t b)
{
	return (u128)a * b;
}

static void poly1305_init_generic(uint64_t *st, const uint8_t key[16])
{
	const uint64_t r0 = zinc_load_le64(key) & UINT64_C(0x0ffffffc0fffffff);
	const uint64_t r1 = zinc_load_le64(key + 8) & UINT64_C(0x0ffffffc0ffffffc);

	st[KEY] = r0;
	st[KEY + 1] = r1;
	st[KEY_WRAP] = r1 + (r1 >> 2);
	st[ACC] = st[ACC + 1] = st[ACC + 2] = 0;
}

static void poly1305_blocks_generic(uint64_t *st, const uint8_t *in, size_t len,
				    uint32_t padbit)
{
	const uint64_t r0 = st[KEY], r1 = st[KEY + 1], r1_wrap = st[KEY_WRAP];
	uint64_t h0 = st[ACC], h1 = st[ACC + 1], h2 = st[ACC + 2];

	for (; len >= POLY1305_BLOCK_SIZE; in += POLY1305_BLOCK_SIZE, len -= POLY1305_BLOCK_SIZE) {
		u128 low, mid;
		uint64_t high, carry;

		/* h += the block, and padbit at 2^128: h2 <= 6 */
		carry = add_to_limb(&h0, zinc_load_le64(in), 0);
		carry = add_to_limb(&h1, zinc_load_le64(in + 8), carry);
		h2 += carry + padbit;

		/*
		 * h r = low + mid 2^64 + high 2^128 (mod p): the products reaching
		 * 2^128 through r1 wrapped.  Each sum stays far below its type's
		 * top: low, mid < 2^126, high < 2^63.
		 */
		low = mul_wide(h0, r0) + mul_wide(h1, r1_wrap);
		mid = mul_wide(h0, r1) + mul_wide(h1, r0) + mul_wide(h2, r1_wrap) + (low >> 64);
		high = h2 * r0 + (uint64_t)(mid >> 64);

		/* Keep high's two bits below 2^130; those above fold back times 5. */
		h0 = (uint64_t)low;
		h1 = (uint64_t)mid;
		carry = add_to_limb(&h0, (high & ~UINT64_C(3)) + (high >> 2), 0);
		carry = add_to_limb(&h1, 0, carry);
		h2 = (high & 3) + carry;
	}
	st[ACC] = h0;
	st[ACC + 1] = h1;
	st[ACC + 2] = h2;
}

static void poly1305_emit_generic(const uint64_t *st, uint8_t mac[POLY1305_MAC_SIZE],
				  const uint32_t nonce[4])
{
	uint64_t h0 = st[ACC], h1 = st[ACC + 1], g0 = h0, g1 = h1, g2, use_g, carry;

	/*
	 * h < 2p, so h mod p is h or h - p.  g = h + 5 reaches 2^130 exactly
	 * when h >= p, and then h - p = g - 2^130: g's bit 130 chooses,
	 * without a branch.  Only the low 128 bits go into the tag.
	 */
	carry = add_to_limb(&g0, 5, 0);
	carry = add_to_limb(&g1, 0, carry);
	g2 = st[ACC + 2] + carry;
	use_g = 0 - (g2 >> 2);
	h0 ^= (h0 ^ g0) & use_g;
	h1 ^= (h1 ^ g1) & use_g;

	/* tag = (h + s) mod 2^128 */
	carry = add_to_limb(&h0, (uint64_t)nonce[1] << 32 | nonce[0], 0);
	add_to_limb(&h1, (uint64_t)nonce[3] << 32 | nonce[2], carry);
	zinc_store_le64(mac, h0);
	zinc_store_le64(mac + 8, h1);
}

#else
#define POLY1305_GENERIC_NAME "portable C (radix 2^32)"

/* Where the words live in ctx->opaque, one 32-bit limb per element. */
enum { ACC = 0, KEY = 5, KEY_WRAP = 9 };

/* Adds x to *limb; returns what carries into the next limb. */
static inline uint32_t add_to_limb(uint32_t *limb, uint64_t x)
{
	x += *limb;
	*limb = (uint32_t)x;
	return (uint32_t)(x >> 32);
}

static inline uint64_t mul_wide(uint32_t a, uint32_t b)
{
	return (uint64_t)a * b;
}

static void poly1305_init_generic(uint64_t *st, const uint8_t key[16])
{
	size_t i;

	for (i = 0; i < 4; i++) {
		/* the top four bits of every word, the low two of words 1..3 */
		const uint32_t r = zinc_load_le32(key + 4 * i) & (i == 0 ? 0x0fffffff : 0x0ffffffc);

		st[KEY + i] = r;
		if (i > 0)
			st[KEY_WRAP + i - 1] = r + (r >> 2);
	}
	for (i = 0; i < 5; i++)
		st[ACC + i] = 0;
}

static void poly1305_blocks_generic(uint64_t *st, const uint8_t *in, size_t len,
				    uint32_t padbit)
{
	const uint32_t r0 = (uint32_t)st[KEY], r1 = (uint32_t)st[KEY + 1];
	const uint32_t r2 = (uint32_t)st[KEY + 2], r3 = (uint32_t)st[KEY + 3];
	const uint32_t w1 = (uint32_t)st[KEY_WRAP], w2 = (uint32_t)st[KEY_WRAP + 1];
	const uint32_t w3 = (uint32_t)st[KEY_WRAP + 2];
	uint32_t h0 = (uint32_t)st[ACC], h1 = (uint32_t)st[ACC + 1], h2 = (uint32_t)st[ACC + 2];
	uint32_t h3 = (uint32_t)st[ACC + 3], h4 = (uint32_t)st[ACC + 4];

	for (; len >= POLY1305_BLOCK_SIZE; in += POLY1305_BLOCK_SIZE, len -= POLY1305_BLOCK_SIZE) {
		uint64_t d0, d1, d2, d3, high;
		uint32_t carry;

		/* h += the block, and padbit at 2^128: h4 <= 6 */
		carry = add_to_limb(&h0, zinc_load_le32(in));
		carry = add_to_limb(&h1, (uint64_t)zinc_load_le32(in + 4) + carry);
		carry = add_to_limb(&h2, (uint64_t)zinc_load_le32(in + 8) + carry);
		carry = add_to_limb(&h3, (uint64_t)zinc_load_le32(in + 12) + carry);
		h4 += carry + padbit;

		/*
		 * h r = d0 + d1 2^32 + d2 2^64 + d3 2^96 + high 2^128 (mod p),
		 * limb i times limb j landing at 2^(32 (i + j)), wrapped from
		 * 2^128 on.  A column sums at most four products below 5 2^60
		 * each (h4's are tiny) and the carry in: no overflow.
		 */
		d0 = mul_wide(h0, r0) + mul_wide(h1, w3) + mul_wide(h2, w2) + mul_wide(h3, w1);
		d1 = mul_wide(h0, r1) + mul_wide(h1, r0) + mul_wide(h2, w3) + mul_wide(h3, w2) +
		     mul_wide(h4, w1) + (d0 >> 32);
		d2 = mul_wide(h0, r2) + mul_wide(h1, r1) + mul_wide(h2, r0) + mul_wide(h3, w3) +
		     mul_wide(h4, w2) + (d1 >> 32);
		d3 = mul_wide(h0, r3) + mul_wide(h1, r2) + mul_wide(h2, r1) + mul_wide(h3, r0) +
		     mul_wide(h4, w3) + (d2 >> 32);
		high = mul_wide(h4, r0) + (d3 >> 32);

		/* Keep high's two bits below 2^130; those above fold back times 5. */
		h0 = (uint32_t)d0;
		h1 = (uint32_t)d1;
		h2 = (uint32_t)d2;
		h3 = (uint32_t)d3;
		carry = add_to_limb(&h0, (high & ~UINT64_C(3)) + (high >> 2));
		carry = add_to_limb(&h1, carry);
		carry = add_to_limb(&h2, carry);
		carry = add_to_limb(&h3, carry);
		h4 = ((uint32_t)high & 3) + carry;
	}
	st[ACC] = h0;
	st[ACC + 1] = h1;
	st[ACC + 2] = h2;
	st[ACC + 3] = h3;
	st[ACC + 4] = h4;
}

static void poly1305_emit_generic(const uint64_t *st, uint8_t mac[POLY1305_MAC_SIZE],
				  const uint32_t nonce[4])
{
	uint32_t h[4], g[4], use_g, carry = 5;
	size_t i;

	/* As in radix 2^64: g = h + 5 reaches 2^130 exactly when h >= p. */
	for (i = 0; i < 4; i++) {
		h[i] = g[i] = (uint32_t)st[ACC + i];
		carry = add_to_limb(&g[i], carry);
	}
	use_g = 0 - (((uint32_t)st[ACC + 4] + carry) >> 2);

	/* tag = (h or g, the low 128 bits) + s mod 2^128 */
	carry = 0;
	for (i = 0; i < 4; i++) {
		h[i] ^= (h[i] ^ g[i]) & use_g;
		carry = add_to_limb(&h[i], (uint64_t)nonce[i] + carry);
		zinc_store_le32(mac + 4 * i, h[i]);
	}
}
#endif

/* --- the API, over whichever implementation runs -------------------------- */

static void poly1305_blocks(struct poly1305_ctx *ctx, const uint8_t *in, size_t len,
			    uint32_t padbit)
{
	if (poly1305_path != NULL)
		poly1305_blocks_arch(poly1305_path, ctx->opaque, in, len, padbit);
	else
		poly1305_blocks_generic(ctx->opaque, in, len, padbit);
}

void poly1305_init(struct poly1305_ctx *ctx, const uint8_t key[POLY1305_KEY_SIZE])
{
	size_t i;

	if (poly1305_path != NULL)
		poly1305_path->init(ctx->opaque, key);
	else
		poly1305_init_generic(ctx->opaque, key);
	for (i = 0; i < 4; i++)
		ctx->nonce[i] = zinc_load_le32(key + 16 + 4 * i);
	ctx->buflen = 0;
}

/*
 * Completes the partial block buffered in ctx, if any, from in (len > 0);
 * returns how many bytes it took.  ctx->buflen is 0 afterwards unless all
 * of in went into the buffer.
 */
static size_t poly1305_fill_buffer(struct poly1305_ctx *ctx, const uint8_t *in, size_t len)
{
	size_t n = POLY1305_BLOCK_SIZE - ctx->buflen;

	if (ctx->buflen == 0)
		return 0;
	if (n > len)
		n = len;
	memcpy(ctx->buf + ctx->buflen, in, n);
	ctx->buflen += n;
	if (ctx->buflen == POLY1305_BLOCK_SIZE) {
		poly1305_blocks(ctx, ctx->buf, POLY1305_BLOCK_SIZE, 1);
		ctx->buflen = 0;
	}
	return n;
}

/* Buffers the last len < 16 bytes of a message, the buffer being empty. */
static void poly1305_keep_tail(struct poly1305_ctx *ctx, const uint8_t *in, size_t len)
{
	if (len > 0) {
		memcpy(ctx->buf, in, len);
		ctx->buflen = len;
	}
}

void poly1305_update(struct poly1305_ctx *ctx, const uint8_t *in, size_t len)
{
	size_t n;

	if (len == 0)
		return;
	n = poly1305_fill_buffer(ctx, in, len);
	in += n;
	len -= n;
	n = len & ~(size_t)(POLY1305_BLOCK_SIZE - 1);
	if (n > 0)
		poly1305_blocks(ctx, in, n, 1);
	poly1305_keep_tail(ctx, in + n, len - n);
}

/* Records waiting for lanes, longest first, in parallel arrays for p->many. */
struct poly1305_jobs {
	void *st[POLY1305_MANY_WINDOW];
	const uint8_t *in[POLY1305_MANY_WINDOW];
	size_t len[POLY1305_MANY_WINDOW];
	size_t n;
};

/*
 * Sorted by length, as a batch of lanes runs as long as its longest
 * record: lengths are public.
 */
static void poly1305_jobs_add(struct poly1305_jobs *jobs, void *st, const uint8_t *in,
			      size_t len)
{
	size_t j;

	for (j = jobs->n; j > 0 && jobs->len[j - 1] < len; j--) {
		jobs->st[j] = jobs->st[j - 1];
		jobs->in[j] = jobs->in[j - 1];
		jobs->len[j] = jobs->len[j - 1];
	}
	jobs->st[j] = st;
	jobs->in[j] = in;
	jobs->len[j] = len;
	jobs->n++;
}

/*
 * A batch of lanes costs about what its longest record alone costs on the
 * lanes, whatever the number of records: below POLY1305_MANY_MIN_RECORDS
 * they run one at a time (measured in ChaCha20-Poly1305 pipelines of 1 KB
 * records: one record 3 times as slow in lanes as alone; four 1.2 times).
 */
static void poly1305_jobs_run(const struct poly1305_path *p, struct poly1305_jobs *jobs)
{
	size_t i, k;

	for (i = 0; i < jobs->n; i += k) {
		k = jobs->n - i < p->lanes ? jobs->n - i : p->lanes;
		if (k >= POLY1305_MANY_MIN_RECORDS) {
			p->many(jobs->st + i, jobs->in + i, jobs->len + i, k);
			continue;
		}
		for (size_t j = i; j < i + k; j++)
			poly1305_blocks_arch(p, jobs->st[j], jobs->in[j], jobs->len[j], 1);
	}
	jobs->n = 0;
}

/*
 * Each record's buffered bytes and tail as poly1305_update's, its whole
 * blocks to the lanes, or alone when too few or many_max bytes or more.
 */
static void poly1305_update_many_arch(const struct poly1305_path *p,
				      struct poly1305_ctx *const ctx[],
				      const uint8_t *const in[], const size_t len[], size_t n)
{
	struct poly1305_jobs jobs;
	size_t i;

	jobs.n = 0;
	for (i = 0; i < n; i++) {
		const uint8_t *m = in[i];
		size_t left = len[i], took, blocks;

		if (left == 0)
			continue;
		took = poly1305_fill_buffer(ctx[i], m, left);
		m += took;
		left -= took;
		blocks = left & ~(size_t)(POLY1305_BLOCK_SIZE - 1);
		poly1305_keep_tail(ctx[i], m + blocks, left - blocks);
		if (blocks < p->many_min || blocks >= p->many_max) {
			poly1305_blocks(ctx[i], m, blocks, 1);
		} else {
			poly1305_jobs_add(&jobs, ctx[i]->opaque, m, blocks);
			if (jobs.n == POLY1305_MANY_WINDOW)
				poly1305_jobs_run(p, &jobs);
		}
	}
	poly1305_jobs_run(p, &jobs);
}

void poly1305_update_many(struct poly1305_ctx *const ctx[], const uint8_t *const in[],
			  const size_t len[], size_t n)
{
	size_t i;

	if (poly1305_path != NULL && poly1305_path->many != NULL) {
		poly1305_update_many_arch(poly1305_path, ctx, in, len, n);
		return;
	}
	for (i = 0; i < n; i++)
		poly1305_update(ctx[i], in[i], len[i]);
}

void poly1305_final(struct poly1305_ctx *ctx, uint8_t mac[POLY1305_MAC_SIZE])
{
	if (ctx->buflen > 0) {
		/* The last partial block: 0x01 after the message, no 2^128 bit. */
		ctx->buf[ctx->buflen] = 1;
		memset(ctx->buf + ctx->buflen + 1, 0, POLY1305_BLOCK_SIZE - ctx->buflen - 1);
		poly1305_blocks(ctx, ctx->buf, POLY1305_BLOCK_SIZE, 0);
	}
	if (poly1305_path != NULL)
		poly1305_path->emit(ctx->opaque, mac, ctx->nonce);
	else
		poly1305_emit_generic(ctx->opaque, mac, ctx->nonce);
	zinc_memzero(ctx, sizeof(*ctx));
}

void poly1305(uint8_t mac[POLY1305_MAC_SIZE], const uint8_t *in, size_t len,
	      const uint8_t key[POLY1305_KEY_SIZE])
{
	struct poly1305_ctx ctx;

	poly1305_init(&ctx, key);
	poly1305_update(&ctx, in, len);
	poly1305_final(&ctx, mac);
}

void zinc_poly1305_choose(unsigned int features)
{
#ifdef ZINC_HAVE_ASM
	poly1305_path = ZINC_CHOOSE_PATH(poly1305_paths, features);
#else
	(void)features;
#endif
}

const char *poly1305_implementation(void)
{
	return poly1305_path != NULL ? poly1305_path->path.name : POLY1305_GENERIC_NAME;
}
