/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant time on ARM: the guest driver that test/test_ct_qemu_trace.sh runs
 * under qemu-user with test/ct_qemu_plugin.c, once per ZINC_CPU mask.
 *
 * It runs the case catalogue of test/ct_cases.h: for each case, every
 * secret set in turn, in this one process (the catalogue's buffers are
 * static and every set runs from the same frames, so code and data lie at
 * the same addresses).  The plugin sees three marker functions, each
 * recognised by its symbol:
 *
 *   ct_case_begin()  before a case's first set (the reference, set 0)
 *   ct_mark()        called twice by each set's run(), around the calls
 *   ct_case_end()    after its last set
 *
 * and compares every set's region (instructions executed, memory addresses
 * touched) with set 0's.  Before ct_case_begin() the case runs once
 * unmarked: lazy symbol binding, one-time initialisation and the like
 * happen there, not in the reference.  The driver itself checks each set's
 * results (run()'s verdict) and prints one TAP line a case, numbered as
 * the plugin numbers the cases; the script joins the two.
 *
 *   test_ct_qemu run [CLASS...]  the catalogue, or its classes named
 *   test_ct_qemu selftest        three cases of its own: no leak, a branch
 *                                on a secret, a load at a secret index
 *   test_ct_qemu list [CLASS...] case number, name, class, sets, primitives
 *   test_ct_qemu info            CPU features and implementation names
 *   test_ct_qemu                 run, then selftest (results only: make
 *                                check runs it without the plugin)
 *
 * Linked with the primitives only (no OpenSSL), like test_ct_ptrace.
 */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "zinc/zinc.h"
#include "zinc/blake2s.h"
#include "zinc/chacha20.h"
#include "zinc/curve25519.h"
#include "zinc/poly1305.h"
#include "ct_cases.h"
#include "ct_fill.h"

/*
 * The markers.  noipa (GCC): never inlined, cloned or merged with a
 * function of the same body (-fipa-icf would give two of them one address,
 * and the plugin one name); where there is no noipa (clang), noinline; the
 * bodies differ besides.  Global, so that they are in the symbol table qemu
 * reads.
 */
#if defined(__has_attribute)
#if __has_attribute(noipa)
#define CT_NOIPA __attribute__((noipa))
#endif
#endif
#ifndef CT_NOIPA
#define CT_NOIPA __attribute__((noinline))
#endif

void ct_case_begin(void);
void ct_case_end(void);

CT_NOIPA void ct_mark(void)
{
	__asm__ volatile("" ::: "memory");
}

CT_NOIPA void ct_case_begin(void)
{
	__asm__ volatile("nop" ::: "memory");
}

CT_NOIPA void ct_case_end(void)
{
	__asm__ volatile("nop\n\tnop" ::: "memory");
}

/* --- the self-test's cases: one clean, two leaks --------------------------- */

#define SELFTEST_SETS 64

static struct {
	uint8_t secret[16];
	uint8_t table[64];
} st;
static volatile uint8_t st_sink;

static void st_prepare(const struct ct_case *c, unsigned set)
{
	uint64_t state = 0x243f6a8885a308d3u + set;
	size_t i;

	(void)c;
	ct_fill(&state, st.secret, sizeof(st.secret));
	for (i = 0; i < sizeof(st.table); i++)
		st.table[i] = (uint8_t)(i * 7 + 1);
}

/* Secret bytes through arithmetic and a masked select: no leak. */
CT_NOIPA static uint8_t st_clean(const uint8_t *s, const uint8_t *table)
{
	uint8_t mask = (uint8_t)-(s[0] & 1);

	return (uint8_t)((table[5] & mask) | (table[9] & ~mask)) ^ s[1];
}

/* Work on one side of a branch on a secret bit. */
CT_NOIPA static uint8_t st_branch(const uint8_t *s, const uint8_t *table)
{
	uint8_t r = table[3];

	if (s[0] & 1) {
		st_sink = r;
		r = (uint8_t)(st_sink * 3);
	}
	return r;
}

/* A table entry at a secret index. */
CT_NOIPA static uint8_t st_index(const uint8_t *s, const uint8_t *table)
{
	return table[s[0] & 63];
}

static int st_run(const struct ct_case *c)
{
	static uint8_t (*const fn[])(const uint8_t *, const uint8_t *) = {
		st_clean, st_branch, st_index
	};
	uint8_t r;

	ct_mark();
	r = fn[c->param](st.secret, st.table);
	ct_mark();
	st_sink = r;
	return 0;
}

static const struct ct_case selftest_cases[] = {
	{ "selftest/clean", "selftest", 0, 0, SELFTEST_SETS, st_prepare, st_run, 0 },
	{ "selftest/branch", "selftest", 0, 0, SELFTEST_SETS, st_prepare, st_run, 1 },
	{ "selftest/index", "selftest", 0, 0, SELFTEST_SETS, st_prepare, st_run, 2 },
};

/* --- the driver ------------------------------------------------------------ */

static int tap_n, tap_failed;

/* Every set of one case, between the case markers; one TAP line. */
static void run_case(const struct ct_case *c)
{
	unsigned set, bad = 0, first_bad = 0;
	int rc;

	/* Unmarked: the plugin ignores ct_mark() outside a case. */
	c->prepare(c, 0);
	(void)c->run(c);
	ct_case_begin();
	for (set = 0; set < c->nsets; set++) {
		c->prepare(c, set);
		rc = c->run(c);
		if (rc != 0 && bad++ == 0)
			first_bad = set;
	}
	ct_case_end();
	tap_n++;
	if (bad == 0) {
		printf("ok %d - %s: %u secret sets, results as each expects\n", tap_n, c->name,
		       c->nsets);
	} else {
		const char *kind = strcmp(c->cls, "selftest") == 0 ? NULL
								   : ct_set_kind(c, first_bad);

		tap_failed++;
		printf("not ok %d - %s: %u of %u secret sets give wrong results, first set %u (%s)\n",
		       tap_n, c->name, bad, c->nsets, first_bad, kind ? kind : "random");
	}
	fflush(stdout);
}

static int wanted(const struct ct_case *c, int argc, char **argv)
{
	int i;

	if (argc <= 0)
		return 1;
	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], c->cls) == 0 || strcmp(argv[i], c->name) == 0)
			return 1;
	return 0;
}

static void prims(char *buf, size_t size, unsigned p)
{
	unsigned bit;
	size_t pos = 0;

	buf[0] = '\0';
	for (bit = 1; bit && bit <= p; bit <<= 1)
		if ((p & bit) && pos < size)
			pos += (size_t)snprintf(buf + pos, size - pos, "%s%s", pos ? "," : "",
						ct_prim_name(bit));
	if (pos == 0)
		snprintf(buf, size, "-");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	size_t k, n = ct_case_count();
	char buf[128];

	zinc_init();
	if (strcmp(mode, "info") == 0) {
		printf("cpu: %s\nchacha20: %s\npoly1305: %s\nblake2s: %s\ncurve25519: %s\n",
		       zinc_cpu_features_string(), chacha20_implementation(),
		       poly1305_implementation(), blake2s_implementation(),
		       curve25519_implementation());
		return 0;
	}
	if (strcmp(mode, "list") == 0) {
		for (k = 0; k < n; k++) {
			const struct ct_case *c = ct_case_get(k);

			if (!wanted(c, argc - 2, argv + 2))
				continue;
			prims(buf, sizeof(buf), c->prims);
			printf("%s %s %u %s\n", c->name, c->cls, c->nsets, buf);
		}
		return 0;
	}
	if (*mode && strcmp(mode, "run") != 0 && strcmp(mode, "selftest") != 0) {
		fprintf(stderr, "usage: test_ct_qemu [run [CLASS|CASE...]|selftest|list|info]\n");
		return 2;
	}
	printf("# cpu: %s\n# chacha20: %s; poly1305: %s; blake2s: %s; curve25519: %s\n",
	       zinc_cpu_features_string(), chacha20_implementation(), poly1305_implementation(),
	       blake2s_implementation(), curve25519_implementation());
	if (strcmp(mode, "selftest") != 0)
		for (k = 0; k < n; k++)
			if (wanted(ct_case_get(k), argc - 2, argv + 2))
				run_case(ct_case_get(k));
	if (strcmp(mode, "run") != 0)
		for (k = 0; k < sizeof(selftest_cases) / sizeof(selftest_cases[0]); k++)
			run_case(&selftest_cases[k]);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
