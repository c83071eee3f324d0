/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every test program shares: TAP output, library contexts with zinc
 * and with OpenSSL's default provider, deterministic random data, the
 * shared vector directory, hex, and the readers of its files: JSON (with
 * Wycheproof's test groups) and OpenSSL's evp_test stanzas.
 */
#ifndef ZINC_TESTUTIL_H
#define ZINC_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include "skip.h"

/*
 * TAP: one "ok"/"not ok" line per check; zt_done() prints the plan.
 * zt_ok(cond, fmt, ...) is cond, evaluated once, so that a test may stop on
 * a failed check; a macro, so that static analysers see that value.
 */
void zt_report(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define zt_ok(cond, ...) __extension__ ({				\
		const int zt_ok_cond_ = (cond);				\
		zt_report(zt_ok_cond_, __VA_ARGS__);			\
		zt_ok_cond_;						\
	})
void zt_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * A check skipped for want of a dependency (vectors, libsodium): a skip,
 * but under CI=true, which promises them all, a failure with the same text.
 */
void zt_missing(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void zt_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the plan, frees the contexts; returns the exit status. */
int zt_done(void);
/* Compares two buffers; on a mismatch prints both in hex as diagnostics. */
int zt_mem_eq(const void *got, size_t got_len, const void *want, size_t want_len,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * Library contexts, created on first use and freed by zt_done():
 *   zt_zinc_ctx()       zinc alone (from $ZINC_MODULE_DIR)
 *   zt_default_ctx()    OpenSSL's default provider alone: the oracle
 *   zt_preferred_ctx()  zinc and default, default_properties ZT_PREFER_ZINC
 * Each exits the program with "Bail out!" if the provider cannot load.
 */
OSSL_LIB_CTX *zt_zinc_ctx(void);
OSSL_LIB_CTX *zt_default_ctx(void);
OSSL_LIB_CTX *zt_preferred_ctx(void);
/* The default properties README recommends. */
#define ZT_PREFER_ZINC "?zinc.preferred"

/*
 * The running libcrypto is at least major.minor: for the expectations that
 * follow the default provider of that release (each use says why).
 */
int zt_openssl_at_least(unsigned int major, unsigned int minor);

/* The reason of the first error zinc queued, else NULL; clears the queue. */
const char *zt_zinc_reason(void);
/* Clears the error queue, printing it as diagnostics if not empty. */
void zt_clear_errors(void);

/* Deterministic pseudo-random test data; the seed is printed and $ZINC_TEST_SEED sets it. */
void zt_rand(void *buf, size_t len);
uint64_t zt_rand_u64(void);
size_t zt_rand_below(size_t n);	/* 0..n-1, n > 0 */

/*
 * A throwaway EC P-256 key and self-signed certificate made in libctx, for
 * a TLS server; 1 on success, else 0 with both freed and NULL.
 */
int zt_make_identity(OSSL_LIB_CTX *libctx, EVP_PKEY **key, X509 **cert);

/* Hex decoding into a malloc'd buffer (never NULL, even for ""); exits on bad hex. */
unsigned char *zt_unhex(const char *hex, size_t *len);
/* Into out: returns the length; exits on bad hex or more than max bytes. */
size_t zt_unhex_into(void *out, size_t max, const char *hex);
/* Into out, exactly len bytes; exits otherwise. */
void zt_unhex_exact(void *out, size_t len, const char *hex);

/*
 * The shared vector suites: the path of a file under $ZINC_VECTORS (malloc'd),
 * or NULL, having said so with zt_missing(), when it is absent.
 */
char *zt_vector_path(const char *relative);

/* A whole file, NUL-terminated and malloc'd; NULL (with a diagnostic) if unreadable. */
char *zt_read_file(const char *path, size_t *len);

/*
 * JSON (RFC 8259), parsed whole into a tree.  Strings are unescaped (\u
 * to UTF-8); numbers keep their text.  Members keep the file's order.
 */
enum zt_json_type {
	ZT_JSON_NULL, ZT_JSON_FALSE, ZT_JSON_TRUE, ZT_JSON_NUMBER, ZT_JSON_STRING,
	ZT_JSON_ARRAY, ZT_JSON_OBJECT
};
struct zt_json {
	enum zt_json_type type;
	char *name;		/* the member's name inside an object, else NULL */
	char *text;		/* a string's value, a number's text, else NULL */
	size_t len;		/* of text (a string may hold NULs) */
	struct zt_json *child;	/* an array's or object's first element */
	struct zt_json *next;	/* the following element of the same parent */
};
/* The file's value; NULL, with a diagnostic saying where, if unreadable or malformed. */
struct zt_json *zt_json_load(const char *path);
void zt_json_free(struct zt_json *j);
/* An object's member, or NULL if absent (or j is no object). */
const struct zt_json *zt_json_get(const struct zt_json *j, const char *name);
/* A string member's value, or NULL if absent or not a string. */
const char *zt_json_str(const struct zt_json *j, const char *name);
/* A number member's value, or -1 if absent or not an integer. */
long zt_json_long(const struct zt_json *j, const char *name);
/* A hex string member as malloc'd bytes, or NULL if absent; exits on bad hex. */
unsigned char *zt_json_hex(const struct zt_json *j, const char *name, size_t *len);

/*
 * Wycheproof's testGroups[].tests[]: the test after it->test (zero-initialise
 * it first), its group in it->group; NULL after the last.
 */
struct zt_wycheproof {
	const struct zt_json *group, *test;
};
const struct zt_json *zt_wycheproof_next(const struct zt_json *root, struct zt_wycheproof *it);

/*
 * OpenSSL evp_test stanzas: blank-line separated "Key = Value" lines.
 * Zero-initialise the struct before the first zt_stanza_next() on a file.
 */
#define ZT_STANZA_MAX 32
struct zt_stanza {
	int line;		/* where the stanza starts */
	int lines_read;
	size_t n;
	char *key[ZT_STANZA_MAX];
	char *value[ZT_STANZA_MAX];
};
/* Reads the next stanza; returns 0 at end of file.  Frees the previous contents. */
int zt_stanza_next(FILE *f, struct zt_stanza *s);
void zt_stanza_free(struct zt_stanza *s);
const char *zt_stanza_get(const struct zt_stanza *s, const char *key);
/* A value as bytes: hex, or ASCII in double quotes; NULL if the key is absent. */
unsigned char *zt_stanza_bytes(const struct zt_stanza *s, const char *key, size_t *len);

#endif
