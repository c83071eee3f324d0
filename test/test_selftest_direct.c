/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The load-time self-test (provider/crypto/selftest.c) through the
 * primitives' API, in one process, so that it also runs where only the C
 * programs run (a cross build, under the emulator): with no path made to
 * fail, none fails, so that a broken path cannot hide behind its fallback;
 * each primitive's first path made to fail (ZINC_SELFTEST_FAIL) gives way
 * to another, which still gives the published answers, and the others keep
 * theirs; a failing portable C makes the self-test fail.  test_selftest.sh
 * checks which path comes next, the provider's buildinfo and its refusal.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "zinc/blake2s.h"
#include "zinc/chacha20poly1305.h"
#include "zinc/curve25519.h"
#include "zinc/poly1305.h"
#include "crypto/internal.h"
#include "testutil.h"

#define NPRIMITIVES ZINC_PRIMITIVE_COUNT

static bool equal_hex(const uint8_t *got, size_t len, const char *hex)
{
	size_t n;
	unsigned char *want = zt_unhex(hex, &n);
	bool eq = want != NULL && n == len && memcmp(got, want, n) == 0;

	free(want);
	return eq;
}

/* One published answer per primitive, on whatever path is chosen now. */
static bool published(enum zinc_primitive prim)
{
	static const char sunscreen[] = "Ladies and Gentlemen of the class of '99: If I could "
		"offer you only one tip for the future, sunscreen would be it.";
	static const uint8_t poly_key[32] = {
		0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5,
		0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf,
		0x41, 0x49, 0xf5, 0x1b
	};
	uint8_t key[32], out[sizeof(sunscreen) - 1 + 16], u[32] = { 9 };
	uint8_t nonce[12] = { 7, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47 };
	uint8_t ad[12] = { 0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7 };
	size_t i;

	switch (prim) {
	case ZINC_CHACHA20:	/* RFC 8439 2.8.2: the tag covers the whole ciphertext */
		for (i = 0; i < 32; i++)
			key[i] = (uint8_t)(0x80 + i);
		chacha20poly1305_encrypt(out, (const uint8_t *)sunscreen, sizeof(sunscreen) - 1,
					 ad, sizeof(ad), nonce, key);
		return equal_hex(out + sizeof(sunscreen) - 1, 16, "1ae10b594f09e26a7e902ecbd0600691");
	case ZINC_POLY1305:	/* RFC 8439 2.5.2 */
		poly1305(out, (const uint8_t *)"Cryptographic Forum Research Group", 34, poly_key);
		return equal_hex(out, 16, "a8061dc1305136c6c22b8baf0c0127a9");
	case ZINC_BLAKE2S:	/* RFC 7693 appendix A */
		blake2s(out, (const uint8_t *)"abc", NULL, 32, 3, 0);
		return equal_hex(out, 32, "508c5e8c327c14e2e1a72ba34eeb452f"
				 "37458b209ed63a294d999b4c86675982");
	default: /* ZINC_CURVE25519, RFC 7748 5.2: X25519(9, 9) */
		curve25519(out, u, u);
		return equal_hex(out, 32, "422c8e7a6227d7bca1350b3e2bb7279f"
				 "7897b87bb6854b783c60e80311ae3079");
	}
}

int main(void)
{
	const char *first[NPRIMITIVES];
	char want[512];
	enum zinc_primitive i, j;
	bool others;

	zinc_init();
	if (getenv("ZINC_SELFTEST_FAIL") != NULL) {
		zt_skip("ZINC_SELFTEST_FAIL is set: this test sets it itself");
		return zt_done();
	}
	zt_ok(zinc_selftest_passed(NULL), "the self-test passed at zinc_init()");
	for (i = 0; i < NPRIMITIVES; i++) {
		first[i] = zinc_primitive_implementation(i);
		zt_ok(*zinc_selftest_note(zinc_primitive_name(i)) == '\0',
		      "%s: %s, no path failed its self-test%s", zinc_primitive_name(i), first[i],
		      zinc_selftest_note(zinc_primitive_name(i)));
	}

	for (i = 0; i < NPRIMITIVES; i++) {
		const char *name = zinc_primitive_name(i), *now;

		setenv("ZINC_SELFTEST_FAIL", name, 1);
		if (strncmp(first[i], "portable C", 10) == 0) {
			zt_ok(!zinc_selftest(zinc_cpu_features) && !zinc_selftest_passed(name),
			      "%s: the portable C made to fail, the self-test fails", name);
			continue;
		}
		zt_ok(zinc_selftest(zinc_cpu_features) && zinc_selftest_passed(NULL),
		      "%s: its first path made to fail, the self-test still passes", name);
		now = zinc_primitive_implementation(i);
		snprintf(want, sizeof(want), " (%s failed its self-test)", first[i]);
		zt_ok(strcmp(now, first[i]) != 0 && strcmp(zinc_selftest_note(name), want) == 0,
		      "%s: %s%s instead of %s", name, now, zinc_selftest_note(name), first[i]);
		zt_ok(published(i), "%s: %s gives the published answer", name, now);
		others = true;
		for (j = 0; j < NPRIMITIVES; j++)
			if (j != i && strcmp(zinc_primitive_implementation(j), first[j]) != 0)
				others = false;
		zt_ok(others, "%s: the other primitives keep their paths", name);

		snprintf(want, sizeof(want), "%s:c", name);
		setenv("ZINC_SELFTEST_FAIL", want, 1);
		zt_ok(!zinc_selftest(zinc_cpu_features) && !zinc_selftest_passed(name) &&
		      !zinc_selftest_passed(NULL),
		      "%s: its portable C made to fail, the self-test fails", name);
	}

	unsetenv("ZINC_SELFTEST_FAIL");
	zt_ok(zinc_selftest(zinc_cpu_features), "again without failures: the self-test passes");
	for (i = 0; i < NPRIMITIVES; i++)
		zt_ok(strcmp(zinc_primitive_implementation(i), first[i]) == 0 && published(i),
		      "%s: back on %s, which gives the published answer", zinc_primitive_name(i),
		      first[i]);
	return zt_done();
}
