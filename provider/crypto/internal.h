/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the primitives only: CPU features and the choice of each one's path. */
#ifndef ZINC_CRYPTO_INTERNAL_H
#define ZINC_CRYPTO_INTERNAL_H

#include <string.h>
#include "zinc/zinc.h"

/* CPU features, read once by zinc_init(). */
enum zinc_cpu_feature {
	ZINC_CPU_X86_SSSE3 = 1u << 0,
	ZINC_CPU_X86_AVX = 1u << 1,
	ZINC_CPU_X86_AVX2 = 1u << 2,
	ZINC_CPU_X86_BMI2 = 1u << 3,
	ZINC_CPU_X86_ADX = 1u << 4,
	ZINC_CPU_X86_AVX512F = 1u << 5,
	ZINC_CPU_X86_AVX512VL = 1u << 6,
	ZINC_CPU_X86_AVX512BW = 1u << 7,
	ZINC_CPU_X86_AVX512IFMA = 1u << 8,
	ZINC_CPU_X86_AVX512VBMI2 = 1u << 9,
	/* the scalar assembly (always there, but ZINC_CPU can leave it out) */
	ZINC_CPU_ARM_ASM = 1u << 10,
	ZINC_CPU_ARM_NEON = 1u << 11
};
extern unsigned int zinc_cpu_features;

/*
 * Sets zinc_cpu_features: what the CPU has, limited by ZINC_CPU (cpu.c).
 * zinc_init() calls it once, before the self-test.
 */
void zinc_cpu_read(void);

#if defined(ZINC_ASM_X86_64) || defined(ZINC_ASM_ARMV8) || defined(ZINC_ASM_ARMV4)
#define ZINC_HAVE_ASM 1
#endif

/*
 * Every arch glue is a table of its primitive's paths, fastest first, in
 * the primitive's own struct whose first member is a struct zinc_path; the
 * primitive's generic file defines that struct and states the contract
 * its functions keep.  A path needs all of its features; none are needed
 * by a path of the base architecture (the x86_64 MUL code).
 */
struct zinc_path {
	unsigned int needs;	/* CPU features */
	const char *name;	/* what zinc reports for the primitive */
};

/*
 * The first of count entries of size bytes at paths whose needs are all
 * among features; NULL (the portable C) if none is, and always for
 * features 0: ZINC_CPU=none promises the portable C.
 */
const void *zinc_choose_path(const void *paths, size_t count, size_t size,
			     unsigned int features);
#define ZINC_CHOOSE_PATH(paths, features)					\
	zinc_choose_path((paths), sizeof(paths) / sizeof((paths)[0]), sizeof((paths)[0]), \
			 (features))

/*
 * Each primitive's dispatch point: keeps the path of its table that the
 * given features (a subset of zinc_cpu_features) choose.
 */
void zinc_chacha20_choose(unsigned int features);
void zinc_poly1305_choose(unsigned int features);
void zinc_blake2s_choose(unsigned int features);
void zinc_curve25519_choose(unsigned int features);

/*
 * The load-time self-test (selftest.c), run by zinc_init() in place of the
 * four choose calls: each primitive keeps the first path, from the one the
 * features choose down to the portable C, that passes its known-answer
 * test.  False if a portable C failed its own (see zinc_selftest_passed()).
 */
bool zinc_selftest(unsigned int features);

/*
 * For AEAD starts, on a context with the counter at the Poly1305 key block:
 * stores that keystream block into first, then does chacha20_crypt(ctx,
 * dst, src, len), in one pass where the CPU allows.
 */
struct chacha20_ctx;
void chacha20_crypt_first(struct chacha20_ctx *ctx, uint8_t first[64], uint8_t *dst,
			  const uint8_t *src, size_t len);

/*
 * Little-endian words: on a little-endian host a memcpy, which compilers
 * turn into one load or store (GCC 12 left the byte-wise form of a 64-bit
 * store as some 40 shifts and ORs, and two stores a 16-byte load then
 * could not forward from); byte by byte elsewhere.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint32_t zinc_load_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t zinc_load_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void zinc_store_le32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline void zinc_store_le64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}
#else
static inline uint32_t zinc_load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t zinc_load_le64(const uint8_t *p)
{
	return (uint64_t)zinc_load_le32(p) | (uint64_t)zinc_load_le32(p + 4) << 32;
}

static inline void zinc_store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void zinc_store_le64(uint8_t *p, uint64_t v)
{
	zinc_store_le32(p, (uint32_t)v);
	zinc_store_le32(p + 4, (uint32_t)(v >> 32));
}
#endif

static inline uint32_t zinc_rol32(uint32_t v, unsigned int n)
{
	return (v << n) | (v >> (32 - n));
}

static inline uint32_t zinc_ror32(uint32_t v, unsigned int n)
{
	return (v >> n) | (v << (32 - n));
}

#endif
