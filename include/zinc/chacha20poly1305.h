/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ChaCha20-Poly1305 (RFC 8439) and XChaCha20-Poly1305
 * (draft-irtf-cfrg-xchacha: HChaCha20 subkey, 24-byte nonce).
 */
#ifndef ZINC_CHACHA20POLY1305_H
#define ZINC_CHACHA20POLY1305_H

#include "zinc/chacha20.h"
#include "zinc/chacha20_lanes.h"
#include "zinc/poly1305.h"

enum {
	CHACHA20POLY1305_KEY_SIZE = 32,
	CHACHA20POLY1305_NONCE_SIZE = 12,
	XCHACHA20POLY1305_NONCE_SIZE = 24,
	CHACHA20POLY1305_TAG_SIZE = 16
};

/* The most data one nonce may protect: 2^32 - 1 blocks of 64 bytes. */
#define CHACHA20POLY1305_MAX_DATA ((UINT64_C(1) << 38) - 64)

/* One-shot.  encrypt writes src_len + 16 bytes (ciphertext || tag). */
void chacha20poly1305_encrypt(uint8_t *dst, const uint8_t *src, size_t src_len,
			      const uint8_t *ad, size_t ad_len,
			      const uint8_t nonce[CHACHA20POLY1305_NONCE_SIZE],
			      const uint8_t key[CHACHA20POLY1305_KEY_SIZE]);
/*
 * src is ciphertext || tag (src_len >= 16); writes src_len - 16 bytes.
 * Returns false, with dst wiped, if the tag does not verify.
 */
bool chacha20poly1305_decrypt(uint8_t *dst, const uint8_t *src, size_t src_len,
			      const uint8_t *ad, size_t ad_len,
			      const uint8_t nonce[CHACHA20POLY1305_NONCE_SIZE],
			      const uint8_t key[CHACHA20POLY1305_KEY_SIZE]);
void xchacha20poly1305_encrypt(uint8_t *dst, const uint8_t *src, size_t src_len,
			       const uint8_t *ad, size_t ad_len,
			       const uint8_t nonce[XCHACHA20POLY1305_NONCE_SIZE],
			       const uint8_t key[CHACHA20POLY1305_KEY_SIZE]);
bool xchacha20poly1305_decrypt(uint8_t *dst, const uint8_t *src, size_t src_len,
			       const uint8_t *ad, size_t ad_len,
			       const uint8_t nonce[XCHACHA20POLY1305_NONCE_SIZE],
			       const uint8_t key[CHACHA20POLY1305_KEY_SIZE]);

/*
 * Streaming: init, any number of ad() calls, any number of
 * encrypt_update() or decrypt_update() calls, then final() (encryption)
 * or final_verify() (decryption).
 */
enum {
	CHACHA20POLY1305_AD_BUFFER = 64,
	CHACHA20POLY1305_HOLD_MAX = 128
};

struct chacha20poly1305_ctx {
	struct chacha20_ctx chacha;
	uint64_t ad_len;
	uint64_t data_len;
	/*
	 * Until the first data (or final), AD up to CHACHA20POLY1305_AD_BUFFER
	 * bytes waits here and the Poly1305 key block is not computed yet, so
	 * that one ChaCha20 pass yields it together with the first data's
	 * keystream.  First data up to CHACHA20POLY1305_HOLD_MAX bytes then
	 * waits here too, its ciphertext after the padded AD (held bytes in
	 * all), so that final authenticates everything, padded, and the
	 * lengths block in one Poly1305 call.
	 */
	uint8_t mac_buf[CHACHA20POLY1305_AD_BUFFER + CHACHA20POLY1305_HOLD_MAX + 16];
	uint16_t held;
	bool poly_keyed;
	/* Last, so that final wipes everything before it in one call. */
	struct poly1305_ctx poly;
};

void chacha20poly1305_init(struct chacha20poly1305_ctx *ctx,
			   const uint8_t key[CHACHA20POLY1305_KEY_SIZE],
			   const uint8_t nonce[CHACHA20POLY1305_NONCE_SIZE]);
void xchacha20poly1305_init(struct chacha20poly1305_ctx *ctx,
			    const uint8_t key[CHACHA20POLY1305_KEY_SIZE],
			    const uint8_t nonce[XCHACHA20POLY1305_NONCE_SIZE]);
/* Returns false, changing nothing, once data has been processed. */
bool chacha20poly1305_ad(struct chacha20poly1305_ctx *ctx, const uint8_t *ad, size_t len);
/*
 * Return false, writing nothing, if the total data would pass
 * CHACHA20POLY1305_MAX_DATA.  dst may equal src.
 */
bool chacha20poly1305_encrypt_update(struct chacha20poly1305_ctx *ctx, uint8_t *dst,
				     const uint8_t *src, size_t len);
bool chacha20poly1305_decrypt_update(struct chacha20poly1305_ctx *ctx, uint8_t *dst,
				     const uint8_t *src, size_t len);
/* Writes the 16-byte tag and wipes ctx. */
void chacha20poly1305_final(struct chacha20poly1305_ctx *ctx,
			    uint8_t tag[CHACHA20POLY1305_TAG_SIZE]);
/*
 * Compares the first tag_len (1..16) bytes of the computed tag with tag in
 * constant time, wipes ctx, and returns true if they match.
 */
bool chacha20poly1305_final_verify(struct chacha20poly1305_ctx *ctx,
				   const uint8_t *tag, size_t tag_len);

/*
 * Many records under one key, side by side (OpenSSL's cipher pipelines;
 * chacha20poly1305_lanes.c): n records, each with its own nonce, AD, data
 * and tag, processed together at every step.  The steps are those of the
 * streaming API above, for all records at once: init, lanes_ad() calls,
 * encrypt_update or decrypt_update calls, then lanes_final() or
 * lanes_final_verify().  In every call, a record with len[i] == 0 is left
 * alone and its pointers are not read; dst[i] may equal src[i], but no
 * record's bytes may overlap another's.
 */
struct chacha20poly1305_lane {
	uint64_t ad_len;
	uint64_t data_len;
	struct poly1305_ctx poly;
};

struct chacha20poly1305_lanes {
	struct chacha20_lanes chacha;	/* chacha.n: the number of records */
	union {
		struct chacha20poly1305_lane lane[CHACHA20_LANES_MAX];
		/*
		 * A lone record gains nothing from lanes: it runs the
		 * streaming code above, which computes its Poly1305 key
		 * block in one pass with its first data.
		 */
		struct chacha20poly1305_ctx one;
	};
};

/* n is 1..CHACHA20_LANES_MAX; nonce[i] is record i's nonce. */
void chacha20poly1305_lanes_init(struct chacha20poly1305_lanes *ctx,
				 const uint8_t key[CHACHA20POLY1305_KEY_SIZE],
				 const uint8_t *const nonce[], size_t n);
void xchacha20poly1305_lanes_init(struct chacha20poly1305_lanes *ctx,
				  const uint8_t key[CHACHA20POLY1305_KEY_SIZE],
				  const uint8_t *const nonce[], size_t n);
/* Returns false, changing nothing, if a record given AD has had data. */
bool chacha20poly1305_lanes_ad(struct chacha20poly1305_lanes *ctx,
			       const uint8_t *const ad[], const size_t len[]);
/*
 * Return false, writing nothing, if a record's data would pass
 * CHACHA20POLY1305_MAX_DATA.
 */
bool chacha20poly1305_lanes_encrypt_update(struct chacha20poly1305_lanes *ctx,
					   uint8_t *const dst[], const uint8_t *const src[],
					   const size_t len[]);
bool chacha20poly1305_lanes_decrypt_update(struct chacha20poly1305_lanes *ctx,
					   uint8_t *const dst[], const uint8_t *const src[],
					   const size_t len[]);
/* Writes record i's tag to tag[i] and wipes ctx (as lanes_wipe). */
void chacha20poly1305_lanes_final(struct chacha20poly1305_lanes *ctx,
				  uint8_t tag[][CHACHA20POLY1305_TAG_SIZE]);
/*
 * Compares the first tag_len (1..16) bytes of each record's tag with
 * tag[i] in constant time and wipes ctx.  Returns the records that failed:
 * bit i set if record i's tag does not match (0 if all do).
 */
uint32_t chacha20poly1305_lanes_final_verify(struct chacha20poly1305_lanes *ctx,
					     const uint8_t *const tag[], size_t tag_len);
/* Wipes the records in use, for a pipeline abandoned before its final. */
void chacha20poly1305_lanes_wipe(struct chacha20poly1305_lanes *ctx);

#endif
