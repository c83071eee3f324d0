/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every test program shares: TAP output, library contexts with zinc
 * and with OpenSSL's default provider, deterministic random data, the
 * shared vector directory and a reader for OpenSSL's evp_test stanzas.
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
 *   zt_preferred_ctx()  zinc and default, default_properties "?provider=zinc"
 * Each exits the program with "Bail out!" if the provider cannot load.
 */
OSSL_LIB_CTX *zt_zinc_ctx(void);
OSSL_LIB_CTX *zt_default_ctx(void);
OSSL_LIB_CTX *zt_preferred_ctx(void);

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

/*
 * The shared vector suites: the path of a file under $ZINC_VECTORS (malloc'd),
 * or NULL, having printed a skip saying so, when it is absent.
 */
char *zt_vector_path(const char *relative);

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
