/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant time, second check: control flow traced natively with ptrace,
 * for the paths valgrind's CPU cannot run (AVX-512, ADX, ...), and every
 * other one.  test/test_ct_trace.sh runs it once per ZINC_CPU mask.
 *
 * The cases are test/ct_cases.c's catalogue (shared with the ARM guest
 * driver): each is one public shape of work, run once per secret set.  A
 * forked child prepares set i's inputs, stops itself (ct_mark(): SIGSTOP),
 * makes the calls and stops again; the parent single-steps it in between
 * (PTRACE_SINGLESTEP), recording the address of every instruction executed.
 * Set 0's trace is the reference; every other set is compared with it as
 * it runs.  All are forks of the same parent, so code and data lie at the
 * same addresses: the sequences must be identical, else some secret
 * steered a branch (a jump, a loop count, a call), and the first
 * divergence is reported.  The one-shot decrypt's wipe on a failed tag,
 * which the verdict steers, is compared like the rest: all runs of a case
 * verify, or all fail.
 *
 * What this does not see: a memory address computed from a secret (a
 * table lookup) executes the same instructions.  memcheck catches those
 * (test/test_ct_memcheck.sh) on the paths valgrind runs; on the others it
 * rests on review: the x86_64 assembly's only indexed loads and stores
 * take public indices (the ladder's scalar word by bit number, the masked
 * tail of a partial block by length), and a fixed-base table entry is
 * selected with masks or cmov over its whole row.  Nor does it see
 * instructions whose timing depends on their operands (the assembly has no
 * division).
 *
 *   test_ct_ptrace run [CLASS|CASE...]  trace each case per secret set and
 *                                  compare (TAP; ZINC_CT_SETS=N: N sets only)
 *   test_ct_ptrace check           every case and set untraced: results
 *   test_ct_ptrace classes         the classes and the primitives they run
 *   test_ct_ptrace info            CPU features and implementation names
 *   test_ct_ptrace leaky           a branch on a secret: must be reported
 *   test_ct_ptrace                 the same proof, alone (make check)
 *
 * Linux x86_64 only (other systems skip); linked with the primitives only.
 */
#include "config.h"	/* _GNU_SOURCE: kill, ptrace's requests, dladdr */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zinc/blake2s.h"
#include "zinc/chacha20.h"
#include "zinc/chacha20poly1305.h"
#include "zinc/curve25519.h"
#include "zinc/poly1305.h"
#include "ct_cases.h"
#include "ct_fill.h"
#include "skip.h"

#if !defined(__linux__) || !defined(__x86_64__)
/* ct_cases.c calls the driver's marker: none here, but it must link. */
void ct_mark(void)
{
}

int main(void)
{
	puts("1..0 # SKIP the ptrace trace runs on Linux x86_64 only");
	return 0;
}
#else
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

/* Deterministic bytes (xorshift64*) from a seed: the leaky self-test's. */
static uint64_t rng;

static void fill(void *buf, size_t len)
{
	ct_fill(&rng, buf, len);
}

/* The leaky self-test's two seeds: secrets A and B. */
static const uint64_t seeds[2] = { 0x9e3779b97f4a7c15u, 0xd1b54a32d192ed03u };

/* The tracer's markers: everything between them is traced. */
static bool traced;

void ct_mark(void)
{
	if (traced)
		raise(SIGSTOP);
}

static struct {
	uint8_t key[32];
} b;

/* One traced run: a catalogue case and a secret set, or the leaky case. */
struct tcase {
	const struct ct_case *c;
	unsigned set;
};

/*
 * A branch on a secret bit, with work on one side only: must be reported.
 * The bit: one where the two runs' secrets differ.
 */
static volatile uint8_t sink;
static uint8_t leaky_bit;

static __attribute__((noinline)) void leaky_branch(const uint8_t *s)
{
	if (s[0] & leaky_bit) {
		sink = 1;
		sink = sink * 3;
	}
}

static void p_leaky(const struct ct_case *c, unsigned set)
{
	(void)c;
	rng = seeds[set];
	fill(b.key, 1);
}

static int r_leaky(const struct ct_case *c)
{
	(void)c;
	ct_mark();
	leaky_branch(b.key);
	ct_mark();
	return 0;
}

static const struct ct_case leaky_case = {
	"leaky", "leaky", 0, 1, 2, p_leaky, r_leaky, 0
};

/* --- the tracer ------------------------------------------------------------ */

struct trace {
	uint64_t *rip;
	size_t n, cap;
};

/* Where the second run first left the first's path. */
struct divergence {
	size_t step;
	uint64_t a, b;
};

static void describe(uint64_t addr, char *buf, size_t size)
{
	/*
	 * The offset in the object holding addr (the child is a fork: same
	 * mappings): addr2line -f -e OBJECT OFFSET names it.
	 */
	Dl_info info;

	if (dladdr((void *)(uintptr_t)addr, &info) && info.dli_fname != NULL)
		snprintf(buf, size, "0x%llx (%s+0x%llx)", (unsigned long long)addr,
			 strrchr(info.dli_fname, '/') ? strrchr(info.dli_fname, '/') + 1
						      : info.dli_fname,
			 (unsigned long long)(addr - (uintptr_t)info.dli_fbase));
	else
		snprintf(buf, size, "0x%llx (in no loaded object)", (unsigned long long)addr);
}

/*
 * Runs the case in a child with secrets from seed.  With ref NULL, records
 * the addresses into t; otherwise compares them with ref as they come.
 * Returns 0, or -1 with why set.
 */
static int trace_case(const struct tcase *c, struct trace *t,
		      const struct trace *ref, struct divergence *d, char *why, size_t whysize)
{
	int status, stops = 0;
	pid_t pid;
	long rip;
	size_t n = 0;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(why, whysize, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			_exit(2);
		traced = true;
		c->c->prepare(c->c, c->set);
		_exit(c->c->run(c->c) ? 3 : 0);
	}
	d->step = SIZE_MAX;
	for (;;) {
		if (waitpid(pid, &status, 0) != pid) {
			snprintf(why, whysize, "waitpid: %s", strerror(errno));
			kill(pid, SIGKILL);
			return -1;
		}
		if (!WIFSTOPPED(status))
			break;
		if (WSTOPSIG(status) == SIGSTOP) {
			/* The markers; the second ends the trace. */
			if (++stops == 2)
				break;
			(void)ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)PTRACE_O_EXITKILL);
		} else if (WSTOPSIG(status) != SIGTRAP || stops != 1) {
			snprintf(why, whysize, "child stopped by signal %d", WSTOPSIG(status));
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		} else {
			errno = 0;
			rip = ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user_regs_struct, rip), NULL);
			if (errno) {
				snprintf(why, whysize, "PTRACE_PEEKUSER: %s", strerror(errno));
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				return -1;
			}
			if (!ref) {
				if (t->n == t->cap) {
					t->cap = t->cap ? 2 * t->cap : 1 << 16;
					t->rip = realloc(t->rip, t->cap * sizeof(*t->rip));
					if (!t->rip) {
						fputs("Bail out! out of memory\n", stdout);
						exit(1);
					}
				}
				t->rip[t->n++] = (uint64_t)rip;
			} else if (d->step == SIZE_MAX &&
				   (n >= ref->n || ref->rip[n] != (uint64_t)rip)) {
				d->step = n;
				d->a = n < ref->n ? ref->rip[n] : 0;
				d->b = (uint64_t)rip;
			}
			n++;
		}
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) != 0) {
			snprintf(why, whysize, "PTRACE_SINGLESTEP: %s", strerror(errno));
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
	}
	if (stops == 2) {
		/* Let it finish: it checks its results after the trace. */
		if (ptrace(PTRACE_CONT, pid, NULL, NULL) != 0 || waitpid(pid, &status, 0) != pid)
			status = -1;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
				snprintf(why, whysize, "the results are not what the case expects");
			else
				snprintf(why, whysize, "child failed after the trace (status 0x%x)",
					 status);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		if (ref && d->step == SIZE_MAX && n != ref->n) {
			d->step = n;
			d->a = ref->rip[n];
			d->b = 0;
		}
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		snprintf(why, whysize, "PTRACE_TRACEME refused");
	else
		snprintf(why, whysize, "child ended before its second marker (status 0x%x)", status);
	return -1;
}

static int tap_n, tap_failed;

/* How many secret sets of a case to trace (ZINC_CT_SETS caps it). */
static unsigned sets_of(const struct ct_case *c)
{
	const char *cap = getenv("ZINC_CT_SETS");
	unsigned long n = cap ? strtoul(cap, NULL, 10) : 0;

	return n >= 2 && n < c->nsets ? (unsigned)n : c->nsets;
}

/*
 * Traces set 0 of c, then every other set against it; true if all took
 * the same path.  *pairs: the sets compared with the reference.
 */
static bool compare(const struct ct_case *c, unsigned nsets, size_t *steps, unsigned *pairs,
		    char *why, size_t whysize)
{
	static struct trace ref;
	struct divergence d;
	struct tcase t = { c, 0 };
	char sa[64], sb[64];
	unsigned set;

	ref.n = 0;
	*steps = 0;
	*pairs = 0;
	if (trace_case(&t, &ref, NULL, &d, why, whysize) != 0)
		return false;
	*steps = ref.n;
	for (set = 1; set < nsets; set++) {
		t.set = set;
		if (trace_case(&t, NULL, &ref, &d, why, whysize) != 0)
			return false;
		if (d.step != SIZE_MAX) {
			describe(d.a, sa, sizeof(sa));
			describe(d.b, sb, sizeof(sb));
			snprintf(why, whysize, "paths differ at step %zu of %zu (set %u): %s vs %s",
				 d.step, ref.n, set, d.a ? sa : "end", d.b ? sb : "end");
			return false;
		}
		++*pairs;
	}
	return true;
}

/* One case, all its secret sets: one TAP line. */
static void run_case(const struct ct_case *c)
{
	char why[256] = "";
	size_t steps = 0;
	unsigned pairs = 0;
	bool good = compare(c, sets_of(c), &steps, &pairs, why, sizeof(why));

	tap_n++;
	if (good) {
		printf("ok %d - %s: same path for %u secret pairs (%zu steps)\n", tap_n, c->name,
		       pairs, steps);
	} else {
		tap_failed++;
		printf("not ok %d - %s\n# %s\n", tap_n, c->name, why);
	}
	fflush(stdout);
}

/* Whether this system lets a child be traced and single-stepped. */
static bool ptrace_works(char *why, size_t whysize)
{
	struct tcase c = { &leaky_case, 1 };
	struct trace t = { NULL, 0, 0 };
	struct divergence d;
	bool works = trace_case(&c, &t, NULL, &d, why, whysize) == 0 && t.n > 0;

	free(t.rip);
	return works;
}

static int leaky(bool full)
{
	char why[256] = "";
	size_t steps;
	unsigned pairs;
	uint8_t first[2];
	int i;

	for (i = 0; i < 2; i++) {
		rng = seeds[i];
		fill(first + i, 1);
	}
	leaky_bit = (uint8_t)((first[0] ^ first[1]) & -(first[0] ^ first[1]));
	tap_n++;
	if (!leaky_bit) {
		printf("not ok %d - leaky: the two seeds agree on the first secret byte\n", tap_n);
		return 1;
	}
	if (compare(&leaky_case, 2, &steps, &pairs, why, sizeof(why)) ||
	    strncmp(why, "paths differ", 12) != 0) {
		printf("not ok %d - leaky: a branch on a secret bit is not reported (%s)\n",
		       tap_n, why);
		tap_failed++;
	} else {
		printf("ok %d - leaky: a branch on a secret bit is reported\n# %s\n", tap_n, why);
	}
	if (!full)
		puts("# test/test_ct_trace.sh traces the primitives under every CPU mask");
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
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

/* "CLASS DEP,DEP": each class once, with the primitives steering it. */
static void list_classes(void)
{
	size_t k, n = ct_case_count();
	const char *last = "";
	unsigned bit;

	for (k = 0; k < n; k++) {
		const struct ct_case *c = ct_case_get(k);
		const char *sep = "";

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

int main(int argc, char **argv)
{
	/* Alone (make check), only the proof: test_ct_trace.sh runs the rest. */
	const char *mode = argc > 1 ? argv[1] : "";
	char why[256] = "";
	size_t k;

	zinc_init();
	if (strcmp(mode, "classes") == 0) {
		list_classes();
		return 0;
	}
	if (strcmp(mode, "info") == 0) {
		printf("cpu: %s\nchacha20: %s\npoly1305: %s\nblake2s: %s\ncurve25519: %s\n",
		       zinc_cpu_features_string(), chacha20_implementation(),
		       poly1305_implementation(), blake2s_implementation(),
		       curve25519_implementation());
#if defined(__SANITIZE_ADDRESS__)
		puts("sanitizers: yes");
#endif
		return 0;
	}
	if (strcmp(mode, "check") == 0) {
		/* Every case and set untraced: the results each set expects. */
		unsigned set;
		int bad = 0;

		for (k = 0; k < ct_case_count(); k++) {
			const struct ct_case *c = ct_case_get(k);
			int rc = 0;

			for (set = 0; set < c->nsets && !rc; set++) {
				c->prepare(c, set);
				rc = c->run(c);
			}
			printf("%sok %zu - %s: %u sets give the results they expect%s\n",
			       rc ? "not " : "", k + 1, c->name, c->nsets, rc ? " (not all)" : "");
			if (rc) {
				printf("# set %u (%s): code %d\n", set - 1,
				       ct_set_kind(c, set - 1) ? ct_set_kind(c, set - 1) : "random",
				       rc);
				bad++;
			}
		}
		printf("1..%zu\n", ct_case_count());
		return bad != 0;
	}
	if (strcmp(mode, "run") != 0 && strcmp(mode, "leaky") != 0 && *mode) {
		fprintf(stderr, "usage: test_ct_ptrace [run [CLASS|CASE...]|check|classes|info|leaky]\n");
		return 2;
	}
	if (!ptrace_works(why, sizeof(why))) {
		/* Refused (a sandbox, a seccomp filter): skip; broken: fail. */
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
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
#endif
