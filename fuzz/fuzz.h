/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the libFuzzer targets share: zinc and OpenSSL's default provider in
 * two library contexts, a reader that turns the fuzzer's bytes into choices,
 * and update splits drawn from those bytes.
 *
 * Every target compares zinc with an oracle (the default provider, or
 * libsodium) and calls fz_fail() on any disagreement: libFuzzer then saves
 * the input as a crash artifact, the reproducer.
 */
#ifndef ZINC_FUZZ_H
#define ZINC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

/* zinc alone, and default alone; loaded once, on first use. */
OSSL_LIB_CTX *fz_zinc_ctx(void);
OSSL_LIB_CTX *fz_default_ctx(void);

/*
 * name fetched (fetch: EVP_CIPHER_fetch, EVP_MAC_fetch, EVP_MD_fetch) from
 * zinc into z and from default into d; aborts if either lacks it.
 */
#define FZ_FETCH_PAIR(fetch, name, z, d) do {					\
		(z) = fetch(fz_zinc_ctx(), (name), NULL);			\
		(d) = fetch(fz_default_ctx(), (name), NULL);			\
		if ((z) == NULL || (d) == NULL)					\
			fz_fail("cannot fetch %s", (name));			\
	} while (0)

/* Reports a disagreement (with OpenSSL's error queue) and aborts. */
void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
#define FZ_CHECK(cond, ...) do { if (!(cond)) fz_fail(__VA_ARGS__); } while (0)
/* len bytes of the heap (0 allowed: a distinct pointer), or abort. */
void *fz_malloc(size_t len);
/* Aborts if the two byte strings differ. */
void fz_check_eq(const void *a, size_t alen, const void *b, size_t blen, const char *what);

/* The fuzzer's input, consumed from the front; past its end every byte reads 0. */
struct fz {
	const uint8_t *p;
	size_t n;
};
uint8_t fz_u8(struct fz *in);
size_t fz_below(struct fz *in, size_t bound);	/* 0..bound-1, from two bytes */
void fz_take(struct fz *in, void *out, size_t len);
/* Up to max bytes of the input itself (fewer at its end); *len says how many. */
const uint8_t *fz_ref(struct fz *in, size_t max, size_t *len);

/*
 * Update splits: a generator seeded from eight input bytes that cuts a
 * message into pieces (empty ones too) around block boundaries and beyond.
 */
struct fz_split {
	uint64_t s;
};
void fz_split_init(struct fz_split *sp, struct fz *in);
size_t fz_split_next(struct fz_split *sp, size_t left);

/*
 * A MAC in zinc (in the pieces sp draws) and in default (in one piece), with
 * the same parameters, key and message: params either set before init or
 * given to it (set_first); the key given to init (may be NULL); a copy of
 * the context made after cut bytes finishes the message too; again: a
 * second init without a key, the message once more and final.  Aborts
 * unless both accept and refuse the same calls and give the same MACs.
 */
struct fz_mac {
	const OSSL_PARAM *params;
	int set_first;
	const uint8_t *key;
	size_t keylen;
	const uint8_t *msg;
	size_t len, cut;
	int again;
};
void fz_mac_compare(EVP_MAC *zinc, EVP_MAC *dflt, const struct fz_mac *job, struct fz_split *sp);

#endif
