/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zinc: common declarations of the primitive API.
 *
 * The primitives are plain functions over caller-owned state: none of them
 * allocates, and none knows anything of OpenSSL.  Each primitive has one
 * dispatch point, chosen once by zinc_init() from the CPU's features.
 */
#ifndef ZINC_ZINC_H
#define ZINC_ZINC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Reads the CPU's features and lets every primitive choose its
 * implementation.  Call once before any primitive; later calls are no-ops.
 * Thread-safe.
 */
void zinc_init(void);

/* A space-separated list of the CPU features zinc detected and uses. */
const char *zinc_cpu_features_string(void);

/* The primitives, in the order zinc reports them. */
enum zinc_primitive {
	ZINC_CHACHA20,
	ZINC_POLY1305,
	ZINC_BLAKE2S,
	ZINC_CURVE25519,
	ZINC_PRIMITIVE_COUNT
};

/* "chacha20", "poly1305", "blake2s", "curve25519": the self-test's names. */
const char *zinc_primitive_name(enum zinc_primitive p);

/* The implementation zinc_init() chose, e.g. "x86_64 AVX-512". */
const char *zinc_primitive_implementation(enum zinc_primitive p);

/*
 * The load-time self-test zinc_init() runs on every path it may choose
 * (a failing path gives way to the next one).  zinc_selftest_passed(NULL)
 * is false if even a portable C failed (zinc must not be used), and
 * zinc_selftest_passed("chacha20") is one primitive's result;
 * zinc_selftest_note("chacha20") is "" or, to follow the implementation's
 * name, " (NAME failed its self-test, ...)".
 */
bool zinc_selftest_passed(const char *primitive);
const char *zinc_selftest_note(const char *primitive);

/* Overwrites len bytes at p with zeros in a way the compiler cannot elide. */
void zinc_memzero(void *p, size_t len);

/* Compares len bytes in time independent of their contents; true if equal. */
bool zinc_memeq(const void *a, const void *b, size_t len);

#endif
