/* SPDX-License-Identifier: Apache-2.0 */
/* Poly1305 (RFC 8439): portable constant-time C and dispatch. */
#include "config.h"
#include "zinc/poly1305.h"
#include "internal.h"

#if defined(ZINC_ASM_X86_64)
#include "poly1305-x86_64-glue.c"
#elif defined(ZINC_ASM_ARMV8)
#include "poly1305-armv8-glue.c"
#elif defined(ZINC_ASM_ARMV4)
#include "poly1305-armv4-glue.c"
#else
/*
 * Dispatch point: the arch glue replaces this section.
 *
 * The portable and arch layouts of ctx->opaque differ: an arch
 * implementation whose init accepted a context owns ctx->opaque from then
 * on, and its blocks and emit must accept that context too (the choice is
 * made once, by zinc_init(), so they do).  blocks takes whole 16-byte
 * blocks; padbit is 1 for full message blocks and 0 for the final padded
 * one.  emit writes (h + s) mod 2^128, s being ctx->nonce.  Returning false
 * means "not handled": the portable code runs instead.
 */
static void poly1305_arch_choose(unsigned int features)
{
	(void)features;
}

static bool poly1305_init_arch(void *opaque, const uint8_t key[16])
{
	(void)opaque;
	(void)key;
	return false;
}

static bool poly1305_blocks_arch(void *opaque, const uint8_t *in, size_t len,
				 uint32_t padbit)
{
	(void)opaque;
	(void)in;
	(void)len;
	(void)padbit;
	return false;
}

static bool poly1305_emit_arch(void *opaque, uint8_t mac[POLY1305_MAC_SIZE],
			       const uint32_t nonce[4])
{
	(void)opaque;
	(void)mac;
	(void)nonce;
	return false;
}

static const char *poly1305_arch_name(void)
{
	return NULL;
}

#endif

/* --- portable C ---------------------------------------------------------- */

#ifdef __SIZEOF_INT128__
/*
 * Radix 2^44: h and r in three limbs of 44, 44 and 42 bits, products in
 * unsigned __int128.  opaque[0..2] = r, opaque[3..5] = h.
 */
#define POLY1305_GENERIC_NAME "portable C (radix 2^44)"
#define M44 ((UINT64_C(1) << 44) - 1)
#define M42 ((UINT64_C(1) << 42) - 1)
typedef unsigned __int128 u128;

static void poly1305_init_generic(uint64_t *st, const uint8_t key[16])
{
	uint64_t t0 = zinc_load_le64(key) & UINT64_C(0x0ffffffc0fffffff);
	uint64_t t1 = zinc_load_le64(key + 8) & UINT64_C(0x0ffffffc0ffffffc);

	st[0] = t0 & M44;
	st[1] = ((t0 >> 44) | (t1 << 20)) & M44;
	st[2] = (t1 >> 24) & M42;
	st[3] = 0;
	st[4] = 0;
	st[5] = 0;
}

static void poly1305_blocks_generic(uint64_t *st, const uint8_t *in, size_t len,
				    uint32_t padbit)
{
	const uint64_t r0 = st[0], r1 = st[1], r2 = st[2];
	/* 2^132 = 4 * 2^130 == 4 * 5 (mod 2^130 - 5) */
	const uint64_t s1 = r1 * 20, s2 = r2 * 20;
	const uint64_t hibit = (uint64_t)padbit << 40;
	uint64_t h0 = st[3], h1 = st[4], h2 = st[5];

	while (len >= POLY1305_BLOCK_SIZE) {
		const uint64_t t0 = zinc_load_le64(in), t1 = zinc_load_le64(in + 8);
		u128 d0, d1, d2;
		uint64_t c;

		h0 += t0 & M44;
		h1 += ((t0 >> 44) | (t1 << 20)) & M44;
		h2 += ((t1 >> 24) & M42) | hibit;

		d0 = (u128)h0 * r0 + (u128)h1 * s2 + (u128)h2 * s1;
		d1 = (u128)h0 * r1 + (u128)h1 * r0 + (u128)h2 * s2;
		d2 = (u128)h0 * r2 + (u128)h1 * r1 + (u128)h2 * r0;

		/*
		 * Partial reduction to h1 < 2^44, h2 < 2^42 and h0 < 2^51: the
		 * carry out of h0 waits for the next block (products stay below
		 * 2^97), which shortens the dependency chain between blocks.
		 */
		c = (uint64_t)(d0 >> 44);
		h0 = (uint64_t)d0 & M44;
		d1 += c;
		c = (uint64_t)(d1 >> 44);
		h1 = (uint64_t)d1 & M44;
		d2 += c;
		c = (uint64_t)(d2 >> 42);
		h2 = (uint64_t)d2 & M42;
		h0 += c * 5;

		in += POLY1305_BLOCK_SIZE;
		len -= POLY1305_BLOCK_SIZE;
	}
	st[3] = h0;
	st[4] = h1;
	st[5] = h2;
}

static void poly1305_emit_generic(const uint64_t *st, uint8_t mac[POLY1305_MAC_SIZE],
				  const uint32_t nonce[4])
{
	uint64_t h0 = st[3], h1 = st[4], h2 = st[5], g0, g1, g2, c, mask;
	u128 f;
	size_t i;

	/* Carry fully, twice: afterwards h < 2p and every limb is in range. */
	for (i = 0; i < 2; i++) {
		c = h0 >> 44;
		h0 &= M44;
		h1 += c;
		c = h1 >> 44;
		h1 &= M44;
		h2 += c;
		c = h2 >> 42;
		h2 &= M42;
		h0 += c * 5;
	}
	c = h0 >> 44;
	h0 &= M44;
	h1 += c;
	c = h1 >> 44;
	h1 &= M44;
	h2 += c;

	/* g = h - p = h + 5 - 2^130; take g unless it is negative. */
	g0 = h0 + 5;
	c = g0 >> 44;
	g0 &= M44;
	g1 = h1 + c;
	c = g1 >> 44;
	g1 &= M44;
	g2 = h2 + c - (UINT64_C(1) << 42);
	mask = (g2 >> 63) - 1;	/* all ones when g >= 0 */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);

	/* (h + s) mod 2^128 */
	f = (u128)(h0 | (h1 << 44)) + ((uint64_t)nonce[0] | (uint64_t)nonce[1] << 32);
	zinc_store_le64(mac, (uint64_t)f);
	f = (u128)((h1 >> 20) | (h2 << 24)) + ((uint64_t)nonce[2] | (uint64_t)nonce[3] << 32) +
	    (uint64_t)(f >> 64);
	zinc_store_le64(mac + 8, (uint64_t)f);
}

#else
/*
 * Radix 2^26: h and r in five 26-bit limbs, products in 64 bits.
 * opaque[0..4] = r, opaque[5..9] = h.
 */
#define POLY1305_GENERIC_NAME "portable C (radix 2^26)"
#define M26 ((UINT32_C(1) << 26) - 1)

static void poly1305_init_generic(uint64_t *st, const uint8_t key[16])
{
	uint32_t t0 = zinc_load_le32(key) & 0x0fffffff;
	uint32_t t1 = zinc_load_le32(key + 4) & 0x0ffffffc;
	uint32_t t2 = zinc_load_le32(key + 8) & 0x0ffffffc;
	uint32_t t3 = zinc_load_le32(key + 12) & 0x0ffffffc;
	size_t i;

	st[0] = t0 & M26;
	st[1] = ((t0 >> 26) | (t1 << 6)) & M26;
	st[2] = ((t1 >> 20) | (t2 << 12)) & M26;
	st[3] = ((t2 >> 14) | (t3 << 18)) & M26;
	st[4] = t3 >> 8;
	for (i = 5; i < 10; i++)
		st[i] = 0;
}

static void poly1305_blocks_generic(uint64_t *st, const uint8_t *in, size_t len,
				    uint32_t padbit)
{
	const uint32_t r0 = (uint32_t)st[0], r1 = (uint32_t)st[1], r2 = (uint32_t)st[2];
	const uint32_t r3 = (uint32_t)st[3], r4 = (uint32_t)st[4];
	/* 2^130 == 5 (mod 2^130 - 5) */
	const uint32_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
	const uint32_t hibit = padbit << 24;
	uint32_t h0 = (uint32_t)st[5], h1 = (uint32_t)st[6], h2 = (uint32_t)st[7];
	uint32_t h3 = (uint32_t)st[8], h4 = (uint32_t)st[9];

	while (len >= POLY1305_BLOCK_SIZE) {
		const uint32_t t0 = zinc_load_le32(in), t1 = zinc_load_le32(in + 4);
		const uint32_t t2 = zinc_load_le32(in + 8), t3 = zinc_load_le32(in + 12);
		uint64_t d0, d1, d2, d3, d4, c;

		h0 += t0 & M26;
		h1 += ((t0 >> 26) | (t1 << 6)) & M26;
		h2 += ((t1 >> 20) | (t2 << 12)) & M26;
		h3 += ((t2 >> 14) | (t3 << 18)) & M26;
		h4 += (t3 >> 8) | hibit;

		d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3 +
		     (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
		d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4 +
		     (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
		d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 +
		     (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
		d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 +
		     (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
		d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2 +
		     (uint64_t)h3 * r1 + (uint64_t)h4 * r0;

		c = d0 >> 26;
		h0 = (uint32_t)d0 & M26;
		d1 += c;
		c = d1 >> 26;
		h1 = (uint32_t)d1 & M26;
		d2 += c;
		c = d2 >> 26;
		h2 = (uint32_t)d2 & M26;
		d3 += c;
		c = d3 >> 26;
		h3 = (uint32_t)d3 & M26;
		d4 += c;
		c = d4 >> 26;
		h4 = (uint32_t)d4 & M26;
		c = h0 + c * 5;
		h0 = (uint32_t)c & M26;
		h1 += (uint32_t)(c >> 26);

		in += POLY1305_BLOCK_SIZE;
		len -= POLY1305_BLOCK_SIZE;
	}
	st[5] = h0;
	st[6] = h1;
	st[7] = h2;
	st[8] = h3;
	st[9] = h4;
}

static void poly1305_emit_generic(const uint64_t *st, uint8_t mac[POLY1305_MAC_SIZE],
				  const uint32_t nonce[4])
{
	uint32_t h0 = (uint32_t)st[5], h1 = (uint32_t)st[6], h2 = (uint32_t)st[7];
	uint32_t h3 = (uint32_t)st[8], h4 = (uint32_t)st[9];
	uint32_t g0, g1, g2, g3, g4, c, mask;
	uint64_t f;
	size_t i;

	/* Carry fully, twice: afterwards h < 2p and every limb is in range. */
	for (i = 0; i < 2; i++) {
		c = h0 >> 26;
		h0 &= M26;
		h1 += c;
		c = h1 >> 26;
		h1 &= M26;
		h2 += c;
		c = h2 >> 26;
		h2 &= M26;
		h3 += c;
		c = h3 >> 26;
		h3 &= M26;
		h4 += c;
		c = h4 >> 26;
		h4 &= M26;
		h0 += c * 5;
	}
	c = h0 >> 26;
	h0 &= M26;
	h1 += c;
	c = h1 >> 26;
	h1 &= M26;
	h2 += c;
	c = h2 >> 26;
	h2 &= M26;
	h3 += c;
	c = h3 >> 26;
	h3 &= M26;
	h4 += c;

	/* g = h - p = h + 5 - 2^130; take g unless it is negative. */
	g0 = h0 + 5;
	c = g0 >> 26;
	g0 &= M26;
	g1 = h1 + c;
	c = g1 >> 26;
	g1 &= M26;
	g2 = h2 + c;
	c = g2 >> 26;
	g2 &= M26;
	g3 = h3 + c;
	c = g3 >> 26;
	g3 &= M26;
	g4 = h4 + c - (UINT32_C(1) << 26);
	mask = (g4 >> 31) - 1;	/* all ones when g >= 0 */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);
	h3 = (h3 & ~mask) | (g3 & mask);
	h4 = (h4 & ~mask) | (g4 & mask);

	/* (h + s) mod 2^128, 32 bits at a time */
	f = (uint64_t)(h0 | (h1 << 26)) + nonce[0];
	zinc_store_le32(mac, (uint32_t)f);
	f = (uint64_t)((h1 >> 6) | (h2 << 20)) + nonce[1] + (f >> 32);
	zinc_store_le32(mac + 4, (uint32_t)f);
	f = (uint64_t)((h2 >> 12) | (h3 << 14)) + nonce[2] + (f >> 32);
	zinc_store_le32(mac + 8, (uint32_t)f);
	f = (uint64_t)((h3 >> 18) | (h4 << 8)) + nonce[3] + (f >> 32);
	zinc_store_le32(mac + 12, (uint32_t)f);
}
#endif

/* --- the API, over whichever implementation runs -------------------------- */

static void poly1305_blocks(struct poly1305_ctx *ctx, const uint8_t *in, size_t len,
			    uint32_t padbit)
{
	if (!poly1305_blocks_arch(ctx->opaque, in, len, padbit))
		poly1305_blocks_generic(ctx->opaque, in, len, padbit);
}

void poly1305_init(struct poly1305_ctx *ctx, const uint8_t key[POLY1305_KEY_SIZE])
{
	size_t i;

	if (!poly1305_init_arch(ctx->opaque, key))
		poly1305_init_generic(ctx->opaque, key);
	for (i = 0; i < 4; i++)
		ctx->nonce[i] = zinc_load_le32(key + 16 + 4 * i);
	ctx->buflen = 0;
}

void poly1305_update(struct poly1305_ctx *ctx, const uint8_t *in, size_t len)
{
	size_t n;

	if (len == 0)
		return;
	if (ctx->buflen > 0) {
		n = POLY1305_BLOCK_SIZE - ctx->buflen;
		if (n > len)
			n = len;
		memcpy(ctx->buf + ctx->buflen, in, n);
		ctx->buflen += n;
		in += n;
		len -= n;
		if (ctx->buflen < POLY1305_BLOCK_SIZE)
			return;
		poly1305_blocks(ctx, ctx->buf, POLY1305_BLOCK_SIZE, 1);
		ctx->buflen = 0;
	}
	n = len & ~(size_t)(POLY1305_BLOCK_SIZE - 1);
	if (n > 0) {
		poly1305_blocks(ctx, in, n, 1);
		in += n;
		len -= n;
	}
	if (len > 0) {
		memcpy(ctx->buf, in, len);
		ctx->buflen = len;
	}
}

void poly1305_final(struct poly1305_ctx *ctx, uint8_t mac[POLY1305_MAC_SIZE])
{
	if (ctx->buflen > 0) {
		/* The last partial block: 0x01 after the message, no 2^128 bit. */
		ctx->buf[ctx->buflen] = 1;
		memset(ctx->buf + ctx->buflen + 1, 0, POLY1305_BLOCK_SIZE - ctx->buflen - 1);
		poly1305_blocks(ctx, ctx->buf, POLY1305_BLOCK_SIZE, 0);
	}
	if (!poly1305_emit_arch(ctx->opaque, mac, ctx->nonce))
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
	poly1305_arch_choose(features);
}

const char *poly1305_implementation(void)
{
	const char *name = poly1305_arch_name();

	return name ? name : POLY1305_GENERIC_NAME;
}
