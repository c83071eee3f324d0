/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant time, natively: every instruction and every memory address,
 * traced with ptrace, on every x86_64 path (test/test_ct_trace.sh runs
 * this once per ZINC_CPU mask; make check-ct runs that script).
 *
 * The cases are test/ct_cases.c's catalogue (shared with the ARM guest
 * driver): each is one public shape of work (a primitive's calls, its
 * lengths), run once per secret set.  A forked child prepares set i's
 * inputs, stops itself (ct_mark(): SIGSTOP), makes the calls and stops
 * again; test/ct_trace.c traces it in between, recording each executed
 * instruction's address and the addresses of its memory operands
 * (capstone decodes them).  Set 0's trace is the reference; every other
 * set is compared with it as it runs, up to its first difference.  All
 * are forks of one parent, so code and data lie at the same addresses:
 * the traces must be identical, else some secret steered a branch (a
 * jump, a loop count, a call) or an address (a table lookup), and the
 * first divergence is reported: the case, the set, the function and
 * offset, the instruction, and the two addresses.  The one-shot decrypt's
 * wipe on a failed tag, which the verdict steers, is compared like the
 * rest: all sets of a case verify, or all fail.
 *
 * What this does not see: instructions whose timing depends on their
 * operands' values (the assembly has no division; its multiplications'
 * latencies are fixed on the CPUs zinc targets), and any secret the
 * catalogue's sets do not vary.
 *
 *   test_ct_ptrace run [CLASS|CASE...]  trace each case per secret set and
 *                                  compare (TAP; ZINC_CT_SETS=N: N sets only)
 *   test_ct_ptrace check           every case and set untraced: results
 *   test_ct_ptrace classes         the classes and the primitives they run
 *   test_ct_ptrace cases           the cases: name, class, sets
 *   test_ct_ptrace info            CPU features and implementation names
 *   test_ct_ptrace leaky           a branch and a table lookup on a secret:
 *                                  each must be reported
 *   test_ct_ptrace                 the same proof, alone (make check)
 *
 * Linux x86_64 only (other systems skip); capstone needed (else a missing
 * dependency); linked with the primitives only.
 */
#include "config.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zinc/blake2s.h"
#include "zinc/chacha20.h"
#include "zinc/curve25519.h"
#include "zinc/poly1305.h"
#include "ct_cases.h"
#include "ct_fill.h"
#include "skip.h"

#if defined(__linux__) && defined(__x86_64__) && defined(HAVE_CAPSTONE)
#include "ct_trace.h"
#endif

static void info(void)
{
	printf("cpu: %s\nchacha20: %s\npoly1305: %s\nblake2s: %s\ncurve25519: %s\n",
	       zinc_cpu_features_string(), chacha20_implementation(), poly1305_implementation(),
	       blake2s_implementation(), curve25519_implementation());
#if defined(__SANITIZE_ADDRESS__)
	puts("sanitizers: yes");
#endif
}

/* Every case and set untraced: the results each set expects. */
static int check(void)
{
	size_t k;
	unsigned set;
	int bad = 0;

	for (k = 0; k < ct_case_count(); k++) {
		const struct ct_case *c = ct_case_get(k);
		int rc = 0;

		for (set = 0; set < c->nsets && !rc; set++) {
			c->prepare(c, set);
			rc = c->run(c);
		}
		printf("%sok %zu - %s: %u sets give the results they expect\n", rc ? "not " : "",
		       k + 1, c->name, rc ? set - 1 : c->nsets);
		if (rc) {
			printf("# set %u (%s): code %d\n", set - 1,
			       ct_set_kind(c, set - 1) ? ct_set_kind(c, set - 1) : "random", rc);
			bad++;
		}
	}
	printf("1..%zu\n", ct_case_count());
	return bad != 0;
}

/* "CLASS DEP,DEP": each class once, with the primitives steering it. */
static void list_classes(bool cases)
{
	size_t k, n = ct_case_count();
	const char *last = "";
	unsigned bit;

	for (k = 0; k < n; k++) {
		const struct ct_case *c = ct_case_get(k);
		const char *sep = "";

		if (cases) {
			printf("%s %s %u\n", c->name, c->cls, c->nsets);
			continue;
		}
		if (strcmp(c->cls, last) == 0)
			continue;
		last = c->cls;
		printf("%s ", c->cls);
		for (bit = 1; bit <= CT_CURVE25519; bit <<= 1) {
			if (c->prims & bit) {
				printf("%s%s", sep, ct_prim_name(bit));
				sep = ",";
			}
		}
		putchar('\n');
	}
}

/* The modes that trace nothing: their exit status, or -1 for another mode. */
static int untraced_mode(const char *mode)
{
	if (strcmp(mode, "info") == 0) {
		info();
		return 0;
	}
	if (strcmp(mode, "check") == 0)
		return check();
	if (strcmp(mode, "classes") == 0 || strcmp(mode, "cases") == 0) {
		list_classes(strcmp(mode, "cases") == 0);
		return 0;
	}
	return -1;
}

#if !defined(__linux__) || !defined(__x86_64__) || !defined(HAVE_CAPSTONE)
/* ct_cases.c's marker, never traced here. */
void ct_mark(void)
{
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int rc;

	zinc_init();
	rc = untraced_mode(mode);
	if (rc >= 0)
		return rc;
#if !defined(__linux__) || !defined(__x86_64__)
	puts("1..0 # SKIP the ptrace trace runs on Linux x86_64 only");
	return 0;
#else
	return zt_missing_all("built without capstone: no trace (install libcapstone-dev)");
#endif
}
#else

/* --- the self-test: leaks the tracer must report ------------------------- */

/* Deterministic bytes (xorshift64*) from a seed. */
static const uint64_t seeds[2] = { 0x9e3779b97f4a7c15u, 0xd1b54a32d192ed03u };
static uint8_t leaky_secret[1];
static volatile uint8_t sink;
static uint8_t leaky_bit;

/* A branch on a secret bit, with work on one side only. */
static __attribute__((noinline, noclone)) void leaky_branch(const uint8_t *s)
{
	if (s[0] & leaky_bit) {
		sink = 1;
		sink = sink * 3;
	}
}

/* A load from a table at a secret index: the same instructions. */
static const uint8_t leaky_table[256] = { 1, 2, 3 };

static __attribute__((noinline, noclone)) void leaky_table_lookup(const uint8_t *s)
{
	sink = leaky_table[s[0]];
}

static void p_leaky(const struct ct_case *c, unsigned set)
{
	uint64_t state = seeds[set];

	(void)c;
	ct_fill(&state, leaky_secret, 1);
}

static int r_leaky_branch(const struct ct_case *c)
{
	(void)c;
	ct_mark();
	leaky_branch(leaky_secret);
	ct_mark();
	return 0;
}

static int r_leaky_lookup(const struct ct_case *c)
{
	(void)c;
	ct_mark();
	leaky_table_lookup(leaky_secret);
	ct_mark();
	return 0;
}

static const struct ct_case leaky_cases[] = {
	{ "leaky-branch", "leaky", 0, 1, 2, p_leaky, r_leaky_branch, 0 },
	{ "leaky-lookup", "leaky", 0, 1, 2, p_leaky, r_leaky_lookup, 0 },
};

/* --- tracing the catalogue ------------------------------------------------ */

static int tap_n, tap_failed;
static size_t total_pairs;


/* How many secret sets of a case to trace (ZINC_CT_SETS caps it). */
static unsigned sets_of(const struct ct_case *c)
{
	const char *cap = getenv("ZINC_CT_SETS");
	unsigned long n = cap ? strtoul(cap, NULL, 10) : 0;

	return n >= 2 && n < c->nsets ? (unsigned)n : c->nsets;
}

/*
 * Traces set 0 of c, then every other set against it.  *pairs: the sets
 * found the same as the reference.
 */
static enum ct_outcome compare(const struct ct_case *c, unsigned nsets, size_t *insns,
			       size_t *stops, unsigned *pairs, char *why, size_t whysize)
{
	struct ct_run a = { c, 0 };
	struct ct_stats st;
	enum ct_outcome o;
	char label[160];

	*insns = *stops = 0;
	*pairs = 0;
	snprintf(label, sizeof(label), "%s, reference set 0", c->name);
	o = ct_trace_run(ct_run_set, &a, sizeof(a), true, label, &st, why, whysize);
	if (o != CT_SAME)
		return o;
	*insns = st.insns;
	*stops = st.stops;
	for (a.set = 1; a.set < nsets; a.set++) {
		const char *kind = strcmp(c->cls, "leaky") ? ct_set_kind(c, a.set) : NULL;

		snprintf(label, sizeof(label), "%s, set %u (%s)", c->name, a.set,
			 kind ? kind : "random");
		o = ct_trace_run(ct_run_set, &a, sizeof(a), false, label, &st, why, whysize);
		if (o != CT_SAME)
			return o;
		*stops += st.stops;
		++*pairs;
	}
	return CT_SAME;
}

/* One case, all its secret sets: one TAP line. */
static void run_case(const struct ct_case *c)
{
	char why[1024] = "";
	size_t insns, stops;
	unsigned pairs;
	enum ct_outcome o = compare(c, sets_of(c), &insns, &stops, &pairs, why, sizeof(why));

	tap_n++;
	total_pairs += pairs;
	if (o == CT_SAME) {
		printf("ok %d - %s: same instructions and memory addresses for %u secret pairs "
		       "(%zu instructions, %zu stops)\n", tap_n, c->name, pairs, insns, stops);
	} else {
		tap_failed++;
		printf("not ok %d - %s: %s after %u secret pairs\n# %s\n", tap_n, c->name,
		       o == CT_DIFFER ? "a divergence" : "the trace failed", pairs, why);
	}
	fflush(stdout);
}

/* Whether case c is among the names or classes asked for (all if none). */
static bool wanted(const struct ct_case *c, int argc, char **argv)
{
	int i;

	if (argc <= 2)
		return true;
	for (i = 2; i < argc; i++)
		if (strcmp(argv[i], c->cls) == 0 || strcmp(argv[i], c->name) == 0)
			return true;
	return false;
}

static int leaky(bool full)
{
	char why[1024];
	size_t insns, stops, i;
	unsigned pairs;
	static const char *const expect[] = { "paths differ", "memory addresses differ" };
	static const char *const fn[] = { " leaky_branch+", " leaky_table_lookup+" };

	if (!leaky_bit) {
		puts("not ok 1 - leaky: the two seeds agree on the secret byte\n1..1");
		return 1;
	}
	for (i = 0; i < 2; i++) {
		enum ct_outcome o;

		why[0] = '\0';
		o = compare(&leaky_cases[i], 2, &insns, &stops, &pairs, why, sizeof(why));
		tap_n++;
		if (o == CT_DIFFER && strstr(why, expect[i]) && strstr(why, fn[i])) {
			printf("ok %d - %s: the %s on a secret is reported, in %.*s\n# %s\n", tap_n,
			       leaky_cases[i].name, i ? "table lookup" : "branch",
			       (int)strlen(fn[i]) - 2, fn[i] + 1, why);
		} else {
			printf("not ok %d - %s: the %s on a secret must be reported in %.*s\n# %s\n",
			       tap_n, leaky_cases[i].name, i ? "table lookup" : "branch",
			       (int)strlen(fn[i]) - 2, fn[i] + 1, why);
			tap_failed++;
		}
	}
	if (!full)
		puts("# make check-ct traces the primitives under every CPU mask");
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

/* Whether this system lets a child be traced and single-stepped. */
static bool ptrace_works(char *why, size_t whysize)
{
	size_t insns, stops;
	unsigned pairs;

	return compare(&leaky_cases[0], 1, &insns, &stops, &pairs, why, whysize) == CT_SAME &&
	       insns > 0;
}

int main(int argc, char **argv)
{
	/* Alone (make check), only the proof: test_ct_trace.sh runs the rest. */
	const char *mode = argc > 1 ? argv[1] : "";
	char why[1024] = "";
	size_t k;
	uint8_t first[2];
	uint64_t state;
	int rc;

	zinc_init();
	rc = untraced_mode(mode);
	if (rc >= 0)
		return rc;
	if (strcmp(mode, "run") != 0 && strcmp(mode, "leaky") != 0 && *mode) {
		fprintf(stderr, "usage: test_ct_ptrace "
			"[run [CLASS|CASE...]|check|classes|cases|info|leaky]\n");
		return 2;
	}
	/*
	 * The leaky branch's bit: one where the two seeds' secrets differ.
	 * Set before the first run: the runs are forks of a process forked
	 * then (ct_trace.h).
	 */
	for (k = 0; k < 2; k++) {
		state = seeds[k];
		ct_fill(&state, first + k, 1);
	}
	leaky_bit = (uint8_t)((first[0] ^ first[1]) & -(first[0] ^ first[1]));
	(void)ct_case_count();	/* the catalogue built, for the same reason */
	if (!ct_trace_init(why, sizeof(why))) {
		printf("not ok 1 - %s\n1..1\n", why);
		return 1;
	}
	if (!ptrace_works(why, sizeof(why))) {
		/* Refused (a sandbox, a seccomp filter): missing; broken: fail. */
		if (strstr(why, "refused") || strstr(why, "not permitted") ||
		    strstr(why, "not implemented")) {
			char reason[sizeof(why) + 64];

			snprintf(reason, sizeof(reason),
				 "ptrace single-stepping not permitted here: %s", why);
			return zt_missing_all(reason);
		}
		printf("not ok 1 - tracing a child: %s\n1..1\n", why);
		return 1;
	}
	if (strcmp(mode, "run") != 0)
		return leaky(*mode != 0);
	printf("# cpu: %s\n# chacha20: %s; poly1305: %s; blake2s: %s; curve25519: %s\n",
	       zinc_cpu_features_string(), chacha20_implementation(),
	       poly1305_implementation(), blake2s_implementation(),
	       curve25519_implementation());
	for (k = 0; k < ct_case_count(); k++)
		if (wanted(ct_case_get(k), argc, argv))
			run_case(ct_case_get(k));
	printf("# %zu secret pairs traced in %d cases\n", total_pairs, tap_n);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
#endif
