/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zinc_init() and the load-time self-test it runs in place of choosing each
 * primitive's path outright; the table of primitives.
 *
 * For each primitive, the portable C (what the glue chooses with no
 * features) runs first: its first outputs must be the published answers
 * (RFC 8439, RFC 7693, RFC 7748, draft-irtf-cfrg-xchacha), and all of its
 * outputs are kept as the reference.  Then the path the CPU's features
 * choose runs the same calls, over lengths that cross every threshold of
 * the glues, and must give the same bytes.  A path that does not is
 * disabled: features are taken away, as few and the highest first, until
 * the glue chooses a path not yet failed, which is tested in turn, down to
 * the portable C (choose_next()).  The glues choose from the features
 * alone, so this needs no knowledge of which bits a path uses.  If a
 * portable C fails, there is nothing to fall back on: zinc_selftest()
 * returns false and the provider refuses to load.  It all takes about 1 ms
 * (x86_64, AVX-512 paths), most of it X25519.
 *
 * ZINC_SELFTEST_FAIL, for the tests only, makes paths fail on purpose (a
 * bit of their first output flipped), so that the fallback can be seen to
 * work: a comma-separated list of PRIMITIVE (chacha20, poly1305, blake2s,
 * curve25519, or all), each optionally followed by ":N" (the first N paths
 * tried fail, the portable C last; plain PRIMITIVE means ":1") or ":c"
 * (the portable C fails).  Unknown names are ignored.
 */
#include "config.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "zinc/blake2s.h"
#include "zinc/chacha20.h"
#include "zinc/chacha20poly1305.h"
#include "zinc/curve25519.h"
#include "zinc/poly1305.h"
#include "internal.h"

/*
 * Where a run's outputs go: recorded as the reference (the portable C) or
 * compared with it (a path under test).
 */
struct sink {
	uint8_t *ref;
	size_t pos, size;
	bool recording;
	bool fault;		/* flip a bit of the first output (ZINC_SELFTEST_FAIL) */
	bool failed;
};

static void emit(struct sink *s, const uint8_t *out, size_t n)
{
	uint8_t first;

	if (n == 0)
		return;
	/* More output than room: a bug here, which fails every path alike. */
	if (n > s->size - s->pos) {
		s->failed = true;
		return;
	}
	first = (uint8_t)(out[0] ^ (s->fault && s->pos == 0));
	if (s->recording) {
		memcpy(s->ref + s->pos, out, n);
		s->ref[s->pos] = first;
	} else if (s->ref[s->pos] != first || memcmp(s->ref + s->pos + 1, out + 1, n - 1) != 0) {
		s->failed = true;
	}
	s->pos += n;
}

static void emit_bool(struct sink *s, bool b)
{
	uint8_t v = b;

	emit(s, &v, 1);
}

static unsigned int hexval(char c)
{
	return c <= '9' ? (unsigned int)(c - '0') : (unsigned int)(c - 'a' + 10);
}

/* Test data is typed as lowercase hex; n bytes. */
static void unhex(uint8_t *out, const char *hex, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = (uint8_t)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
}

static bool hex_eq(const uint8_t *p, size_t len, const char *hex)
{
	size_t i, n = strlen(hex) / 2;

	if (len < n)
		return false;
	for (i = 0; i < n; i++)
		if (p[i] != (uint8_t)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1])))
			return false;
	return true;
}

static void counting(uint8_t *out, uint8_t start, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = (uint8_t)(start + i);
}

/* Message bytes with no period a path could hide a bug behind. */
enum { PATTERN_SIZE = 4096 };
static uint8_t pattern[PATTERN_SIZE];

static void make_pattern(void)
{
	uint32_t x = 0x2545f491;
	size_t i;

	for (i = 0; i < PATTERN_SIZE; i++) {
		x = x * 1664525u + 1013904223u;
		pattern[i] = (uint8_t)(x >> 24);
	}
}

/* --- ChaCha20, HChaCha20 and both AEADs ------------------------------------ */

static const char sunscreen[] =
	"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for "
	"the future, sunscreen would be it.";
#define SUNSCREEN_LEN (sizeof(sunscreen) - 1)

static const char chacha20_published[] =
	/* RFC 8439 2.3.2: the block at counter 1 */
	"10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
	"d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
	/* RFC 8439 2.4.2: encryption */
	"6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
	"f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
	"07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
	"5af90bbf74a35be6b40b8eedf2785e42874d"
	/* draft-irtf-cfrg-xchacha 2.2.1: HChaCha20 */
	"82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc"
	/* RFC 8439 2.8.2: ChaCha20-Poly1305 */
	"d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
	"3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
	"92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
	"3ff4def08e4b7a9de576d26586cec64b6116"
	"1ae10b594f09e26a7e902ecbd0600691"
	/* draft-irtf-cfrg-xchacha A.3.1: XChaCha20-Poly1305 */
	"bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
	"731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
	"2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
	"21f9664c97637da9768812f615c68b13b52e"
	"c0875924c1c7987947deafd8780acf49"
	/* RFC 8439 2.6.2: a Poly1305 key block, the first of chacha20_jobs() */
	"8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646";

/*
 * Block counts around each path's pass (SSSE3 4 blocks, AVX2 8, AVX-512
 * 32, NEON 4) and its scalar leftovers, with partial blocks either side.
 */
static const uint16_t chacha20_lengths[] = {
	1, 63, 64, 65, 127, 128, 129, 191, 255, 256, 257, 320, 384, 511, 512, 513,
	576, 1024, 1025, 2048, 2049, 2112
};
/* One stream in uneven calls, partial keystream carried between them. */
static const uint16_t chacha20_chunks[] = { 1, 62, 1, 64, 65, 127, 200, 600, 2100 };
static const uint16_t aead_lengths[] = { 0, 1, 63, 64, 65, 129, 256, 1100, 2100 };
enum { CHACHA20_MAX = 3220, AEAD_MAX = 2100 };
/*
 * Calls of 25, 9 and 5 jobs: on AVX-512 a partial 32-lane pass, a partial
 * 16-lane one and AVX2's 8 lanes; else passes of 8 or 4 lanes and 1 left.
 */
static const uint8_t chacha20_job_calls[] = { 25, 9, 5 };
enum { CHACHA20_JOBS = 39 };

/*
 * chacha20_jobs(): RFC 8439 2.6.2's Poly1305 key block (key2, 32 bytes),
 * then blocks of two keys, word 12 across 2^32, some partial.
 */
static void chacha20_jobs_run(struct sink *s, const uint8_t key[32], const uint8_t key2[32],
			      uint8_t buf[CHACHA20_JOBS * CHACHA20_BLOCK_SIZE])
{
	static const uint8_t zero[CHACHA20_BLOCK_SIZE];
	struct chacha20_job jobs[CHACHA20_JOBS];
	uint32_t words[2][8];
	size_t i, n;

	for (i = 0; i < 8; i++) {
		words[0][i] = zinc_load_le32(key2 + 4 * i);
		words[1][i] = zinc_load_le32(key + 4 * i);
	}
	for (i = 0; i < CHACHA20_JOBS; i++)
		jobs[i] = (struct chacha20_job){
			.key = words[i % 2], .src = pattern + CHACHA20_BLOCK_SIZE * i,
			.dst = buf + CHACHA20_BLOCK_SIZE * i,
			.iv = { 0xfffffff0u + (uint32_t)i, (uint32_t)i, 0x03020100, 0x07060504 },
			.len = i % 4 == 3 ? CHACHA20_BLOCK_SIZE - i : CHACHA20_BLOCK_SIZE
		};
	jobs[0].src = zero;
	jobs[0].iv[0] = 0;
	jobs[0].len = 32;
	for (i = 0, n = 0; i < sizeof(chacha20_job_calls); i++) {
		chacha20_jobs(jobs + n, chacha20_job_calls[i]);
		n += chacha20_job_calls[i];
	}
	for (i = 0; i < CHACHA20_JOBS; i++)
		emit(s, jobs[i].dst, jobs[i].len);
	zinc_memzero(words, sizeof(words));
}

static void chacha20_run(struct sink *s)
{
	static const uint8_t iv_block[CHACHA20_IV_SIZE] = { 1, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0x4a };
	static const uint8_t iv_enc[CHACHA20_IV_SIZE] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x4a };
	/* two blocks short of 2^32: the generic code splits the run there */
	static const uint8_t iv_wrap[CHACHA20_IV_SIZE] = { 0xfe, 0xff, 0xff, 0xff, 7 };
	static const uint8_t hnonce[HCHACHA20_NONCE_SIZE] = {
		0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0, 0x31, 0x41, 0x59, 0x27
	};
	static const uint8_t nonce[CHACHA20POLY1305_NONCE_SIZE] = {
		7, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47
	};
	static const uint8_t ad[12] = {
		0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7
	};
	static const uint8_t zero[CHACHA20_BLOCK_SIZE];
	const uint8_t *sun = (const uint8_t *)sunscreen;
	uint8_t key[32], key2[32], xnonce[XCHACHA20POLY1305_NONCE_SIZE];
	uint8_t buf[CHACHA20_MAX], back[AEAD_MAX];
	struct chacha20_ctx ctx;
	struct chacha20poly1305_ctx actx;
	size_t i, off;
	bool ok;

	counting(key, 0, sizeof(key));
	counting(key2, 0x80, sizeof(key2));
	counting(xnonce, 0x40, sizeof(xnonce));

	chacha20_init(&ctx, key, iv_block);
	chacha20_crypt(&ctx, buf, zero, sizeof(zero));
	emit(s, buf, sizeof(zero));
	chacha20_init(&ctx, key, iv_enc);
	chacha20_crypt(&ctx, buf, sun, SUNSCREEN_LEN);
	emit(s, buf, SUNSCREEN_LEN);
	hchacha20(buf, hnonce, key);
	emit(s, buf, HCHACHA20_KEY_SIZE);
	chacha20poly1305_encrypt(buf, sun, SUNSCREEN_LEN, ad, sizeof(ad), nonce, key2);
	emit(s, buf, SUNSCREEN_LEN + CHACHA20POLY1305_TAG_SIZE);
	xchacha20poly1305_encrypt(buf, sun, SUNSCREEN_LEN, ad, sizeof(ad), xnonce, key2);
	emit(s, buf, SUNSCREEN_LEN + CHACHA20POLY1305_TAG_SIZE);
	chacha20_jobs_run(s, key, key2, buf);

	/* The path's own lengths, fresh contexts, out of place. */
	for (i = 0; i < sizeof(chacha20_lengths) / sizeof(chacha20_lengths[0]); i++) {
		chacha20_init(&ctx, key2, iv_enc);
		chacha20_crypt(&ctx, buf, pattern, chacha20_lengths[i]);
		emit(s, buf, chacha20_lengths[i]);
	}
	/* One stream in uneven calls, in place. */
	memcpy(buf, pattern, CHACHA20_MAX);
	chacha20_init(&ctx, key, iv_enc);
	for (i = 0, off = 0; i < sizeof(chacha20_chunks) / sizeof(chacha20_chunks[0]); i++) {
		chacha20_crypt(&ctx, buf + off, buf + off, chacha20_chunks[i]);
		off += chacha20_chunks[i];
	}
	emit(s, buf, off);
	/* Across the 2^32 boundary of the block counter. */
	chacha20_init(&ctx, key, iv_wrap);
	chacha20_crypt(&ctx, buf, pattern, 100);
	chacha20_crypt(&ctx, buf + 100, pattern + 100, 540);
	emit(s, buf, 640);

	/* The AEAD's key block in one pass with the first data, where fused. */
	for (i = 0; i < sizeof(aead_lengths) / sizeof(aead_lengths[0]); i++) {
		chacha20poly1305_encrypt(buf, pattern, aead_lengths[i], ad, sizeof(ad), nonce, key);
		emit(s, buf, aead_lengths[i] + CHACHA20POLY1305_TAG_SIZE);
	}
	/* buf holds the last one: it must open, and a changed tag must not. */
	ok = chacha20poly1305_decrypt(back, buf, AEAD_MAX + CHACHA20POLY1305_TAG_SIZE, ad,
				      sizeof(ad), nonce, key);
	emit_bool(s, ok && memcmp(back, pattern, AEAD_MAX) == 0);
	buf[AEAD_MAX] ^= 0x80;
	emit_bool(s, chacha20poly1305_decrypt(back, buf, AEAD_MAX + CHACHA20POLY1305_TAG_SIZE,
					      ad, sizeof(ad), nonce, key));
	/* Streaming: AD in two calls, data in three (the key block with the first). */
	chacha20poly1305_init(&actx, key, nonce);
	chacha20poly1305_ad(&actx, ad, 5);
	chacha20poly1305_ad(&actx, ad + 5, sizeof(ad) - 5);
	chacha20poly1305_encrypt_update(&actx, buf, pattern, 1);
	chacha20poly1305_encrypt_update(&actx, buf + 1, pattern + 1, 99);
	chacha20poly1305_encrypt_update(&actx, buf + 100, pattern + 100, 1000);
	chacha20poly1305_final(&actx, buf + 1100);
	emit(s, buf, 1100 + CHACHA20POLY1305_TAG_SIZE);
	xchacha20poly1305_encrypt(buf, pattern, 300, ad, sizeof(ad), xnonce, key);
	emit(s, buf, 300 + CHACHA20POLY1305_TAG_SIZE);
	ok = xchacha20poly1305_decrypt(back, buf, 300 + CHACHA20POLY1305_TAG_SIZE, ad,
				       sizeof(ad), xnonce, key);
	emit_bool(s, ok && memcmp(back, pattern, 300) == 0);
}

/* --- Poly1305 ------------------------------------------------------------- */

static const char poly1305_published[] =
	/* RFC 8439 2.5.2 */
	"a8061dc1305136c6c22b8baf0c0127a9"
	/* RFC 8439 A.3 #5 and #6: h wrapping past 2^130 - 5 */
	"03000000000000000000000000000000"
	"03000000000000000000000000000000";

/* Around the vector paths' thresholds (128 to 512 bytes, 128 or 256 a pass). */
static const uint16_t poly1305_lengths[] = {
	0, 1, 15, 16, 17, 31, 32, 48, 63, 64, 127, 128, 129, 255, 256, 257, 383, 384,
	511, 512, 513, 767, 768, 1023, 1024, 2047, 2048, 2049, 4096
};
static const uint16_t poly1305_max_lengths[] = { 16, 256, 512, 1024, 2064 };
/* Streams whose later calls find the powers of r computed (the cached thresholds). */
static const uint16_t poly1305_chunks[2][5] = {
	{ 300, 256, 1, 1500, 128 },
	{ 1, 15, 600, 2000, 129 },
};

/*
 * 17 records in one poly1305_update_many (two batches of lanes), of
 * lengths taken across poly1305_lengths (below size - 1), keys differing in
 * their first byte, odd ones with a byte of msg buffered before.
 */
static void poly1305_many_run(struct sink *s, const uint8_t key[POLY1305_KEY_SIZE],
			      const uint8_t *msg, size_t size)
{
	enum { RECORDS = 17, LENGTHS = sizeof(poly1305_lengths) / sizeof(poly1305_lengths[0]) };
	struct poly1305_ctx c[RECORDS], *ctx[RECORDS];
	const uint8_t *in[RECORDS];
	size_t len[RECORDS], i;
	uint8_t k[POLY1305_KEY_SIZE], mac[POLY1305_MAC_SIZE];

	memcpy(k, key, sizeof(k));
	for (i = 0; i < RECORDS; i++) {
		k[0] = (uint8_t)(key[0] + i);
		poly1305_init(&c[i], k);
		poly1305_update(&c[i], msg, i & 1);
		ctx[i] = &c[i];
		in[i] = msg + (i & 1);
		len[i] = poly1305_lengths[i * 7 % LENGTHS] % (size - 1);
	}
	poly1305_update_many(ctx, in, len, RECORDS);
	for (i = 0; i < RECORDS; i++) {
		poly1305_final(&c[i], mac);
		emit(s, mac, sizeof(mac));
	}
}

static void poly1305_run(struct sink *s)
{
	static const uint8_t rfc_key[POLY1305_KEY_SIZE] = {
		0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe,
		0x42, 0xd5, 0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd,
		0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b
	};
	static const char rfc_msg[] = "Cryptographic Forum Research Group";
	uint8_t key[POLY1305_KEY_SIZE], ones[2064], msg[16], mac[POLY1305_MAC_SIZE];
	struct poly1305_ctx ctx;
	size_t i, j, off;

	poly1305(mac, (const uint8_t *)rfc_msg, sizeof(rfc_msg) - 1, rfc_key);
	emit(s, mac, sizeof(mac));
	memset(key, 0, sizeof(key));
	key[0] = 2;
	memset(msg, 0xff, sizeof(msg));
	poly1305(mac, msg, sizeof(msg), key);
	emit(s, mac, sizeof(mac));
	memset(key + 16, 0xff, 16);
	memset(msg, 0, sizeof(msg));
	msg[0] = 2;
	poly1305(mac, msg, sizeof(msg), key);
	emit(s, mac, sizeof(mac));

	memcpy(key, pattern + PATTERN_SIZE - POLY1305_KEY_SIZE, POLY1305_KEY_SIZE);
	for (i = 0; i < sizeof(poly1305_lengths) / sizeof(poly1305_lengths[0]); i++) {
		poly1305(mac, pattern, poly1305_lengths[i], key);
		emit(s, mac, sizeof(mac));
	}
	for (i = 0; i < 2; i++) {
		poly1305_init(&ctx, key);
		for (j = 0, off = 0; j < 5; j++) {
			poly1305_update(&ctx, pattern + off, poly1305_chunks[i][j]);
			off += poly1305_chunks[i][j];
		}
		poly1305_final(&ctx, mac);
		emit(s, mac, sizeof(mac));
	}
	poly1305_many_run(s, key, pattern, PATTERN_SIZE);
	/* All ones, key and message: the largest limbs every carry chain sees. */
	memset(key, 0xff, sizeof(key));
	memset(ones, 0xff, sizeof(ones));
	for (i = 0; i < sizeof(poly1305_max_lengths) / sizeof(poly1305_max_lengths[0]); i++) {
		poly1305(mac, ones, poly1305_max_lengths[i], key);
		emit(s, mac, sizeof(mac));
	}
	poly1305_many_run(s, key, ones, sizeof(ones));
}

/* --- BLAKE2s -------------------------------------------------------------- */

static const char blake2s_published[] =
	/* RFC 7693 appendix A: BLAKE2s-256("abc") */
	"508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982"
	/* RFC 7693 appendix E: the hash of 48 keyed and unkeyed hashes */
	"6a411f08ce25adcdfb02aba641451cec53c598b24f4fc787fbdc88797f4c1dfe"
	/* blake2s-kat.txt: key 00..1f, input 00..(n-1), n = 0 and 255 */
	"48a8997da407876b3d79c0d92325ad3b89cbb754d86ab71aee047ad345fd2c49"
	"3fb735061abc519dfe979e54c1ee5bfad0a9d858b3315bad34bde999efd724dd";

/* RFC 7693 appendix E's input generator (a Fibonacci sequence, seeded). */
static void rfc7693_sequence(uint8_t *out, size_t len, uint32_t seed)
{
	uint32_t a = 0xdead4badu * seed, b = 1;
	size_t i;

	for (i = 0; i < len; i++) {
		const uint32_t t = a + b;

		a = b;
		b = t;
		out[i] = (uint8_t)(t >> 24);
	}
}

static const uint16_t blake2s_lengths[] = { 1, 64, 65, 128, 129, 640, 2049, 4096 };
static const uint16_t blake2s_chunks[] = { 1, 63, 64, 65, 1000, 2000 };

static void blake2s_run(struct sink *s)
{
	static const uint8_t outlens[] = { 16, 20, 28, 32 };
	static const uint16_t inlens[] = { 0, 3, 64, 65, 255, 1024 };
	uint8_t in[1024], key[BLAKE2S_KEY_SIZE], md[BLAKE2S_HASH_SIZE];
	struct blake2s_state state, grand;
	size_t i, j, off;

	blake2s(md, (const uint8_t *)"abc", NULL, sizeof(md), 3, 0);
	emit(s, md, sizeof(md));
	blake2s_init(&grand, BLAKE2S_HASH_SIZE);
	for (i = 0; i < sizeof(outlens); i++) {
		for (j = 0; j < sizeof(inlens) / sizeof(inlens[0]); j++) {
			rfc7693_sequence(in, inlens[j], inlens[j]);
			blake2s(md, in, NULL, outlens[i], inlens[j], 0);
			blake2s_update(&grand, md, outlens[i]);
			rfc7693_sequence(key, outlens[i], outlens[i]);
			blake2s(md, in, key, outlens[i], inlens[j], outlens[i]);
			blake2s_update(&grand, md, outlens[i]);
		}
	}
	blake2s_final(&grand, md);
	emit(s, md, sizeof(md));
	counting(key, 0, sizeof(key));
	counting(in, 0, 255);
	blake2s(md, in, key, sizeof(md), 0, sizeof(key));
	emit(s, md, sizeof(md));
	blake2s(md, in, key, sizeof(md), 255, sizeof(key));
	emit(s, md, sizeof(md));

	/* Many blocks in one call of the path, and one stream in uneven calls. */
	for (i = 0; i < sizeof(blake2s_lengths) / sizeof(blake2s_lengths[0]); i++) {
		blake2s(md, pattern, NULL, sizeof(md), blake2s_lengths[i], 0);
		emit(s, md, sizeof(md));
	}
	blake2s_init_key(&state, sizeof(md), key, sizeof(key));
	for (i = 0, off = 0; i < sizeof(blake2s_chunks) / sizeof(blake2s_chunks[0]); i++) {
		blake2s_update(&state, pattern + off, blake2s_chunks[i]);
		off += blake2s_chunks[i];
	}
	blake2s_final(&state, md);
	emit(s, md, sizeof(md));
}

/* --- X25519 --------------------------------------------------------------- */

static const char curve25519_published[] =
	/* RFC 7748 5.2 */
	"c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"
	"95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"
	/* RFC 7748 5.2: X25519(9, 9), the first of the iterations */
	"422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079"
	/* RFC 7748 6.1: Alice's and Bob's public keys, their shared secret */
	"8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
	"de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
	"4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";

static void curve25519_run(struct sink *s)
{
	static const char *const rfc_inputs[] = {
		"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
		"e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
		"4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
		"e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
	};
	static const char alice[] =
		"77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
	static const char bob[] =
		"5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
	uint8_t k[CURVE25519_KEY_SIZE], u[CURVE25519_KEY_SIZE], out[CURVE25519_KEY_SIZE];
	uint8_t bob_pub[CURVE25519_KEY_SIZE];
	size_t i;

	for (i = 0; i < 4; i += 2) {
		unhex(k, rfc_inputs[i], sizeof(k));
		unhex(u, rfc_inputs[i + 1], sizeof(u));
		curve25519(out, k, u);
		emit(s, out, sizeof(out));
	}
	memset(u, 0, sizeof(u));
	u[0] = 9;
	curve25519(out, u, u);
	emit(s, out, sizeof(out));
	unhex(k, alice, sizeof(k));
	curve25519_generate_public(out, k);
	emit(s, out, sizeof(out));
	unhex(k, bob, sizeof(k));
	curve25519_generate_public(bob_pub, k);
	emit(s, bob_pub, sizeof(bob_pub));
	unhex(k, alice, sizeof(k));
	curve25519(out, k, bob_pub);
	emit(s, out, sizeof(out));

	/* u with its top bit set, u = 2^255 - 1 (not reduced), u = 0. */
	memcpy(k, pattern, sizeof(k));
	memcpy(u, pattern + 32, sizeof(u));
	u[31] |= 0x80;
	curve25519(out, k, u);
	emit(s, out, sizeof(out));
	memset(u, 0xff, sizeof(u));
	u[31] = 0x7f;
	curve25519(out, k, u);
	emit(s, out, sizeof(out));
	memset(u, 0, sizeof(u));
	emit_bool(s, curve25519(out, k, u));
	emit(s, out, sizeof(out));
	/* The fixed-base paths, with an unclamped secret and with all ones. */
	curve25519_generate_public(out, pattern + 64);
	emit(s, out, sizeof(out));
	memset(k, 0xff, sizeof(k));
	curve25519_generate_public(out, k);
	emit(s, out, sizeof(out));
}

/* --- the test ------------------------------------------------------------- */

struct primitive {
	const char *name;
	void (*choose)(unsigned int features);
	const char *(*implementation)(void);
	void (*run)(struct sink *s);
	const char *published;	/* hex: run()'s first outputs */
};

static const struct primitive primitives[ZINC_PRIMITIVE_COUNT] = {
	[ZINC_CHACHA20] = { "chacha20", zinc_chacha20_choose, chacha20_implementation,
			    chacha20_run, chacha20_published },
	[ZINC_POLY1305] = { "poly1305", zinc_poly1305_choose, poly1305_implementation,
			    poly1305_run, poly1305_published },
	[ZINC_BLAKE2S] = { "blake2s", zinc_blake2s_choose, blake2s_implementation,
			   blake2s_run, blake2s_published },
	[ZINC_CURVE25519] = { "curve25519", zinc_curve25519_choose, curve25519_implementation,
			      curve25519_run, curve25519_published },
};
#define NPRIMITIVES ZINC_PRIMITIVE_COUNT

/* Poly1305 first: the AEAD checks of chacha20_run() use the path it keeps. */
static const enum zinc_primitive test_order[NPRIMITIVES] = {
	ZINC_POLY1305, ZINC_CHACHA20, ZINC_BLAKE2S, ZINC_CURVE25519
};

const char *zinc_primitive_name(enum zinc_primitive p)
{
	return primitives[p].name;
}

const char *zinc_primitive_implementation(enum zinc_primitive p)
{
	return primitives[p].implementation();
}

/* ZINC_SELFTEST_FAIL, per primitive. */
struct fault {
	unsigned int first;	/* the first paths tried that fail */
	bool portable;		/* the portable C fails */
};

enum { MAX_FAILED = 16 };

struct result {
	const char *failed[MAX_FAILED];
	size_t nfailed;
	bool passed;		/* a path passed: the one chosen */
	char note[512];
};

static struct result results[NPRIMITIVES];

/*
 * The reference outputs of the primitive under test (chacha20_run() needs
 * some 24 KB): static, not on the stack of whichever thread loads zinc.
 */
static uint8_t reference[26 * 1024];

static const char *fault_variable(void)
{
#ifdef HAVE_SECURE_GETENV
	return secure_getenv("ZINC_SELFTEST_FAIL");
#else
	return getenv("ZINC_SELFTEST_FAIL");
#endif
}

static void read_faults(struct fault faults[NPRIMITIVES])
{
	const char *list = fault_variable();
	size_t i;

	memset(faults, 0, NPRIMITIVES * sizeof(faults[0]));
	if (list == NULL)
		return;
	while (*list != '\0') {
		size_t len = strcspn(list, ",");
		size_t name_len = strcspn(list, ":,");
		const char *arg = list + name_len;
		struct fault f = { 1, false };

		if (*arg == ':') {
			arg++;
			if (*arg == 'c')
				f = (struct fault){ 0, true };
			else
				f.first = (unsigned int)strtoul(arg, NULL, 10);
		}
		for (i = 0; i < NPRIMITIVES; i++) {
			if ((name_len == 3 && strncmp(list, "all", 3) == 0) ||
			    (strlen(primitives[i].name) == name_len &&
			     strncmp(primitives[i].name, list, name_len) == 0))
				faults[i] = f;
		}
		list += len;
		if (*list == ',')
			list++;
	}
}

static bool already_failed(const struct result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nfailed; i++)
		if (strcmp(r->failed[i], name) == 0)
			return true;
	return false;
}

static void failed(struct result *r, const char *name)
{
	if (r->nfailed < MAX_FAILED)
		r->failed[r->nfailed++] = name;
}

/*
 * Chooses a path not failed yet, with as few of the features taken away as
 * can be: first each one alone, the highest first, then each two, the
 * highest first, and so on, down to none left (the portable C).  Taking
 * away one feature the failed path needs and the next does not is enough;
 * two failed paths may need two taken away.
 */
static void choose_next(const struct primitive *p, unsigned int features,
			const struct result *r)
{
	unsigned int drop;
	int k;

	for (k = 1; k <= __builtin_popcount(features); k++) {
		/* The subsets of features, in decreasing order. */
		for (drop = features; drop != 0; drop = (drop - 1) & features) {
			if (__builtin_popcount(drop) != k)
				continue;
			p->choose(features & ~drop);
			if (!already_failed(r, p->implementation()))
				return;
		}
	}
}

/* Leaves chosen the fastest path that passed; false if none did. */
static bool test_primitive(const struct primitive *p, unsigned int features,
			   const struct fault *f, struct result *r)
{
	struct sink s = { reference, 0, sizeof(reference), true, f->portable, false };
	const char *portable;
	unsigned int tried = 0;

	p->choose(0);
	portable = p->implementation();
	p->run(&s);
	if (s.failed || !hex_eq(reference, s.pos, p->published)) {
		failed(r, portable);
		return false;
	}
	s.size = s.pos;
	s.recording = false;

	p->choose(features);
	for (;;) {
		const char *name = p->implementation();

		if (strcmp(name, portable) == 0) {
			if (tried >= f->first)
				return true;
			/* ZINC_SELFTEST_FAIL asked for more failures than there were paths. */
			failed(r, portable);
			return false;
		}
		s.pos = 0;
		s.failed = false;
		s.fault = tried < f->first;
		tried++;
		p->run(&s);
		if (!s.failed && s.pos == s.size)
			return true;
		failed(r, name);
		/* Each time another path; past the list's room, the portable C. */
		if (r->nfailed < MAX_FAILED)
			choose_next(p, features, r);
		else
			p->choose(0);
	}
}

static void make_note(struct result *r)
{
	size_t i, n = 0;

	r->note[0] = '\0';
	for (i = 0; i < r->nfailed && n < sizeof(r->note); i++)
		n += (size_t)snprintf(r->note + n, sizeof(r->note) - n, "%s%s failed its self-test%s",
				      i == 0 ? " (" : ", ", r->failed[i],
				      i + 1 == r->nfailed ? ")" : "");
}

bool zinc_selftest(unsigned int features)
{
	struct fault faults[NPRIMITIVES];
	bool passed = true;
	size_t i;

	read_faults(faults);
	make_pattern();
	memset(results, 0, sizeof(results));
	for (i = 0; i < NPRIMITIVES; i++) {
		const enum zinc_primitive p = test_order[i];

		results[p].passed = test_primitive(&primitives[p], features, &faults[p],
						   &results[p]);
		passed &= results[p].passed;
		make_note(&results[p]);
	}
	return passed;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* The CPU's features, then each primitive's path: the fastest that passes. */
static void init_once_fn(void)
{
	zinc_cpu_read();
	zinc_selftest(zinc_cpu_features);
}

void zinc_init(void)
{
	pthread_once(&init_once, init_once_fn);
}

static const struct result *result(const char *primitive)
{
	size_t i;

	for (i = 0; i < NPRIMITIVES; i++)
		if (strcmp(primitives[i].name, primitive) == 0)
			return &results[i];
	return NULL;
}

bool zinc_selftest_passed(const char *primitive)
{
	size_t i;

	if (primitive != NULL)
		return result(primitive) != NULL && result(primitive)->passed;
	for (i = 0; i < NPRIMITIVES; i++)
		if (!results[i].passed)
			return false;
	return true;
}

const char *zinc_selftest_note(const char *primitive)
{
	return result(primitive) != NULL ? result(primitive)->note : "";
}
