/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Many records side by side (chacha20_lanes.h, chacha20poly1305.h): every
 * step of ChaCha20 or ChaCha20-Poly1305 for all records in one call, so
 * that their keystream blocks run side by side in chacha20_jobs().
 */
#include "config.h"
#include <stddef.h>
#include "zinc/chacha20poly1305.h"
#include "internal.h"

/*
 * A record with this many whole blocks to do in one call goes through
 * chacha20_crypt(), whose widest path already runs 16 blocks side by
 * side; fewer go to chacha20_jobs() with the other records' blocks.
 * Measured on Zen 5 with the AVX-512 paths (32 and 8 records, best of 7):
 * jobs about 18 ns a block whatever the record's length; chacha20_crypt 26
 * at 4 blocks, 18 at 8, 13 to 14 at 16, 11 from 32.
 */
#define SINGLE_STREAM_BLOCKS 16

/* Jobs gathered before a chacha20_jobs() call: a multiple of any kernel's width. */
#define JOB_BATCH 64

static const uint8_t zero_block[CHACHA20_BLOCK_SIZE];

static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };

/* The 64-bit block counter of words 12 and 13, as chacha20.h describes. */
static void counter_next(uint32_t iv[4])
{
	if (++iv[0] == 0)
		iv[1]++;
}

struct job_batch {
	struct chacha20_job job[JOB_BATCH];
	size_t n;
};

static void batch_flush(struct job_batch *b)
{
	chacha20_jobs(b->job, b->n);
	b->n = 0;
}

/* Queues the lane's next block: len bytes of src XORed into dst. */
static void batch_add(struct job_batch *b, struct chacha20_lane *lane, uint8_t *dst,
		      const uint8_t *src, size_t len)
{
	struct chacha20_job *j = &b->job[b->n];

	j->key = lane->key;
	j->src = src;
	j->dst = dst;
	memcpy(j->iv, lane->iv, sizeof(j->iv));
	j->len = len;
	counter_next(lane->iv);
	if (++b->n == JOB_BATCH)
		batch_flush(b);
}

/* Whole blocks of one lane through the single-stream path. */
static void single_stream(struct chacha20_lane *lane, uint8_t *dst, const uint8_t *src,
			  size_t len)
{
	struct chacha20_ctx c;

	memcpy(c.state, sigma, sizeof(sigma));
	memcpy(c.state + 4, lane->key, sizeof(lane->key));
	memcpy(c.state + 12, lane->iv, sizeof(lane->iv));
	c.keystream_left = 0;
	chacha20_crypt(&c, dst, src, len);
	/* len is whole blocks: the counter moved on by exactly those, carry included. */
	memcpy(lane->iv, c.state + 12, sizeof(lane->iv));
	zinc_memzero(&c, sizeof(c));
}

static void lane_set(struct chacha20_lane *lane, const uint32_t key[8], const uint8_t iv[16])
{
	size_t i;

	memcpy(lane->key, key, sizeof(lane->key));
	for (i = 0; i < 4; i++)
		lane->iv[i] = zinc_load_le32(iv + 4 * i);
	lane->keystream_left = 0;
}

static void key_words(uint32_t words[8], const uint8_t key[CHACHA20_KEY_SIZE])
{
	size_t i;

	for (i = 0; i < 8; i++)
		words[i] = zinc_load_le32(key + 4 * i);
}

void chacha20_lanes_init(struct chacha20_lanes *ctx, const uint8_t key[CHACHA20_KEY_SIZE],
			 const uint8_t *const iv[], size_t n)
{
	uint32_t k[8];
	size_t i;

	key_words(k, key);
	ctx->n = n;
	for (i = 0; i < n; i++)
		lane_set(&ctx->lane[i], k, iv[i]);
	zinc_memzero(k, sizeof(k));
}

void chacha20_lanes_crypt(struct chacha20_lanes *ctx, uint8_t *const dst[],
			  const uint8_t *const src[], const size_t len[])
{
	struct job_batch batch;
	/* Lanes whose last block is partial: its keystream is in the lane, to XOR after the jobs. */
	size_t tail_lane[CHACHA20_LANES_MAX], tail_at[CHACHA20_LANES_MAX], tails = 0;
	size_t i, j;

	batch.n = 0;
	for (i = 0; i < ctx->n; i++) {
		struct chacha20_lane *lane = &ctx->lane[i];
		size_t off = 0, whole;

		if (len[i] == 0)
			continue;
		/* Keystream left from the last call first. */
		while (lane->keystream_left > 0 && off < len[i]) {
			dst[i][off] = src[i][off] ^
				      lane->keystream[CHACHA20_BLOCK_SIZE - lane->keystream_left];
			lane->keystream_left--;
			off++;
		}
		whole = (len[i] - off) / CHACHA20_BLOCK_SIZE * CHACHA20_BLOCK_SIZE;
		if (whole >= (size_t)SINGLE_STREAM_BLOCKS * CHACHA20_BLOCK_SIZE) {
			single_stream(lane, dst[i] + off, src[i] + off, whole);
			off += whole;
		}
		for (; len[i] - off >= CHACHA20_BLOCK_SIZE; off += CHACHA20_BLOCK_SIZE)
			batch_add(&batch, lane, dst[i] + off, src[i] + off, CHACHA20_BLOCK_SIZE);
		if (off < len[i]) {
			batch_add(&batch, lane, lane->keystream, zero_block, CHACHA20_BLOCK_SIZE);
			tail_lane[tails] = i;
			tail_at[tails++] = off;
		}
	}
	batch_flush(&batch);	/* (the jobs hold no secret: the lanes' keys stay in the lanes) */
	for (j = 0; j < tails; j++) {
		struct chacha20_lane *lane = &ctx->lane[tail_lane[j]];
		size_t t = tail_lane[j], k, n = len[t] - tail_at[j];

		for (k = 0; k < n; k++)
			dst[t][tail_at[j] + k] = src[t][tail_at[j] + k] ^ lane->keystream[k];
		lane->keystream_left = (unsigned int)(CHACHA20_BLOCK_SIZE - n);
	}
}

void chacha20_lanes_wipe(struct chacha20_lanes *ctx)
{
	zinc_memzero(ctx->lane, ctx->n * sizeof(ctx->lane[0]));
	ctx->n = 0;
}

/* ChaCha20-Poly1305 */

static size_t pad16(uint64_t len)
{
	return (size_t)((0x10 - len) & 0xf);
}

/* Every MAC step of the records: their Poly1305s side by side where a path can. */
static void mac_lanes(struct chacha20poly1305_lanes *ctx, const uint8_t *const in[],
		      const size_t len[])
{
	struct poly1305_ctx *poly[CHACHA20_LANES_MAX];
	size_t i;

	for (i = 0; i < ctx->chacha.n; i++)
		poly[i] = &ctx->lane[i].poly;
	poly1305_update_many(poly, in, len, ctx->chacha.n);
}

/* Block 0 of every record keys its Poly1305: all records' in one pass. */
static void poly_keys(struct chacha20poly1305_lanes *ctx)
{
	uint8_t block0[CHACHA20_LANES_MAX][CHACHA20_BLOCK_SIZE];
	struct job_batch batch;
	size_t i;

	batch.n = 0;
	for (i = 0; i < ctx->chacha.n; i++)
		batch_add(&batch, &ctx->chacha.lane[i], block0[i], zero_block, POLY1305_KEY_SIZE);
	batch_flush(&batch);
	for (i = 0; i < ctx->chacha.n; i++) {
		poly1305_init(&ctx->lane[i].poly, block0[i]);
		ctx->lane[i].ad_len = 0;
		ctx->lane[i].data_len = 0;
	}
	zinc_memzero(block0, ctx->chacha.n * sizeof(block0[0]));
}

/* Counter 0 (the Poly1305 key block) || nonce. */
static void aead_iv(uint8_t iv[CHACHA20_IV_SIZE], const uint8_t nonce[CHACHA20POLY1305_NONCE_SIZE])
{
	memset(iv, 0, 4);
	memcpy(iv + 4, nonce, CHACHA20POLY1305_NONCE_SIZE);
}

void chacha20poly1305_lanes_init(struct chacha20poly1305_lanes *ctx,
				 const uint8_t key[CHACHA20POLY1305_KEY_SIZE],
				 const uint8_t *const nonce[], size_t n)
{
	uint8_t iv[CHACHA20_IV_SIZE];
	uint32_t k[8];
	size_t i;

	ctx->chacha.n = n;
	if (n == 1) {
		chacha20poly1305_init(&ctx->one, key, nonce[0]);
		return;
	}
	key_words(k, key);
	for (i = 0; i < n; i++) {
		aead_iv(iv, nonce[i]);
		lane_set(&ctx->chacha.lane[i], k, iv);
	}
	zinc_memzero(k, sizeof(k));
	poly_keys(ctx);
}

/*
 * HChaCha20 is the ChaCha20 permutation without the final addition of the
 * input, so each record's subkey is its keystream block (key, nonce[0..15]
 * as words 12..15) less those input words: all subkeys in one pass.
 */
void xchacha20poly1305_lanes_init(struct chacha20poly1305_lanes *ctx,
				  const uint8_t key[CHACHA20POLY1305_KEY_SIZE],
				  const uint8_t *const nonce[], size_t n)
{
	uint8_t block[CHACHA20_LANES_MAX][CHACHA20_BLOCK_SIZE];
	uint8_t iv[CHACHA20_IV_SIZE] = { 0 };
	struct job_batch batch;
	uint32_t k[8];
	size_t i, w;

	ctx->chacha.n = n;
	if (n == 1) {
		xchacha20poly1305_init(&ctx->one, key, nonce[0]);
		return;
	}
	key_words(k, key);
	batch.n = 0;
	for (i = 0; i < n; i++) {
		struct chacha20_lane *lane = &ctx->chacha.lane[i];

		lane_set(lane, k, nonce[i]);	/* words 12..15: the first 16 bytes */
		batch_add(&batch, lane, block[i], zero_block, CHACHA20_BLOCK_SIZE);
	}
	batch_flush(&batch);
	for (i = 0; i < n; i++) {
		struct chacha20_lane *lane = &ctx->chacha.lane[i];
		uint32_t subkey[8];

		for (w = 0; w < 4; w++) {
			subkey[w] = zinc_load_le32(block[i] + 4 * w) - sigma[w];
			subkey[4 + w] = zinc_load_le32(block[i] + 48 + 4 * w) -
					zinc_load_le32(nonce[i] + 4 * w);
		}
		memcpy(iv + 8, nonce[i] + HCHACHA20_NONCE_SIZE, 8);
		lane_set(lane, subkey, iv);
		zinc_memzero(subkey, sizeof(subkey));
	}
	zinc_memzero(block, n * sizeof(block[0]));
	zinc_memzero(k, sizeof(k));
	poly_keys(ctx);
}

bool chacha20poly1305_lanes_ad(struct chacha20poly1305_lanes *ctx,
			       const uint8_t *const ad[], const size_t len[])
{
	size_t i;

	if (ctx->chacha.n == 1)
		return len[0] == 0 || chacha20poly1305_ad(&ctx->one, ad[0], len[0]);
	for (i = 0; i < ctx->chacha.n; i++)
		if (len[i] > 0 && ctx->lane[i].data_len > 0)
			return false;
	mac_lanes(ctx, ad, len);
	for (i = 0; i < ctx->chacha.n; i++)
		ctx->lane[i].ad_len += len[i];
	return true;
}

/*
 * Checks every record's length against the limit of one nonce; then pads
 * the AD of each record whose data starts now, and counts the data.
 */
static bool data_begin(struct chacha20poly1305_lanes *ctx, const size_t len[])
{
	size_t i;

	for (i = 0; i < ctx->chacha.n; i++)
		if ((uint64_t)len[i] > CHACHA20POLY1305_MAX_DATA - ctx->lane[i].data_len)
			return false;
	for (i = 0; i < ctx->chacha.n; i++) {
		struct chacha20poly1305_lane *lane = &ctx->lane[i];

		if (len[i] > 0 && lane->data_len == 0)
			poly1305_update(&lane->poly, zero_block, pad16(lane->ad_len));
		lane->data_len += len[i];
	}
	return true;
}

bool chacha20poly1305_lanes_encrypt_update(struct chacha20poly1305_lanes *ctx,
					   uint8_t *const dst[], const uint8_t *const src[],
					   const size_t len[])
{
	if (ctx->chacha.n == 1)
		return len[0] == 0 ||
		       chacha20poly1305_encrypt_update(&ctx->one, dst[0], src[0], len[0]);
	if (!data_begin(ctx, len))
		return false;
	chacha20_lanes_crypt(&ctx->chacha, dst, src, len);
	mac_lanes(ctx, (const uint8_t *const *)dst, len);
	return true;
}

/* The ciphertext is authenticated before dst, which may be src, is written. */
bool chacha20poly1305_lanes_decrypt_update(struct chacha20poly1305_lanes *ctx,
					   uint8_t *const dst[], const uint8_t *const src[],
					   const size_t len[])
{
	if (ctx->chacha.n == 1)
		return len[0] == 0 ||
		       chacha20poly1305_decrypt_update(&ctx->one, dst[0], src[0], len[0]);
	if (!data_begin(ctx, len))
		return false;
	mac_lanes(ctx, src, len);
	chacha20_lanes_crypt(&ctx->chacha, dst, src, len);
	return true;
}

void chacha20poly1305_lanes_final(struct chacha20poly1305_lanes *ctx,
				  uint8_t tag[][CHACHA20POLY1305_TAG_SIZE])
{
	/* The last padding and the lengths, in one Poly1305 call per record. */
	uint8_t tail[32] = { 0 };
	size_t i;

	if (ctx->chacha.n == 1) {
		chacha20poly1305_final(&ctx->one, tag[0]);	/* wipes ctx->one */
		chacha20_lanes_wipe(&ctx->chacha);
		return;
	}
	for (i = 0; i < ctx->chacha.n; i++) {
		struct chacha20poly1305_lane *lane = &ctx->lane[i];
		/* The AD's padding is still due if no data came. */
		const size_t pad = pad16(lane->data_len > 0 ? lane->data_len : lane->ad_len);

		zinc_store_le64(tail + 16, lane->ad_len);
		zinc_store_le64(tail + 24, lane->data_len);
		poly1305_update(&lane->poly, tail + 16 - pad, pad + 16);
		poly1305_final(&lane->poly, tag[i]);	/* wipes the lane's Poly1305 */
		zinc_memzero(lane, offsetof(struct chacha20poly1305_lane, poly));
	}
	chacha20_lanes_wipe(&ctx->chacha);
}

void chacha20poly1305_lanes_wipe(struct chacha20poly1305_lanes *ctx)
{
	if (ctx->chacha.n == 1)
		zinc_memzero(&ctx->one, sizeof(ctx->one));
	else
		zinc_memzero(ctx->lane, ctx->chacha.n * sizeof(ctx->lane[0]));
	chacha20_lanes_wipe(&ctx->chacha);
}

uint32_t chacha20poly1305_lanes_final_verify(struct chacha20poly1305_lanes *ctx,
					     const uint8_t *const tag[], size_t tag_len)
{
	uint8_t computed[CHACHA20_LANES_MAX][CHACHA20POLY1305_TAG_SIZE];
	const size_t n = ctx->chacha.n;
	uint32_t failed = 0;
	size_t i;

	chacha20poly1305_lanes_final(ctx, computed);
	for (i = 0; i < n; i++)
		if (tag_len < 1 || tag_len > CHACHA20POLY1305_TAG_SIZE ||
		    !zinc_memeq(computed[i], tag[i], tag_len))
			failed |= UINT32_C(1) << i;
	zinc_memzero(computed, sizeof(computed));
	return failed;
}
