/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant time, second check: control flow traced natively with ptrace,
 * for the paths valgrind's CPU cannot run (AVX-512, ADX, ...), and every
 * other one.  test/test_ct_trace.sh runs it once per ZINC_CPU mask.
 *
 * Each case is one primitive call, or a short sequence of them, on
 * secrets drawn from a seed: keys, scalars, peer points, plaintext, AD,
 * ciphertext, tags and messages; nonces and lengths are public and fixed.
 * A forked child prepares its inputs, stops itself (SIGSTOP), makes the
 * call and stops again; the parent single-steps it in between
 * (PTRACE_SINGLESTEP), recording the address of every instruction executed.
 * A second child does the same with secrets from another seed.  Both are
 * forks of the same parent, so code and data lie at the same addresses:
 * the two address sequences must be identical, else some secret steered a
 * branch (a jump, a loop count, a call), and the first divergence is
 * reported.  The one-shot decrypt's wipe on a failed tag, which the verdict
 * steers, is compared like the rest: both runs verify, or both fail.
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
 *   test_ct_ptrace run [CLASS...]  trace each case twice and compare (TAP)
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
#include "ct_fill.h"
#include "skip.h"

#if !defined(__linux__) || !defined(__x86_64__)
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

#define MAXLEN 2049	/* the longest case */

/* Deterministic bytes (xorshift64*) from a seed. */
static uint64_t rng;

static void fill(void *buf, size_t len)
{
	ct_fill(&rng, buf, len);
}

/* Public data: the same in both runs, whatever the seed. */
static void fill_public(void *buf, size_t len, uint64_t tweak)
{
	uint64_t state = 0x5851f42d4c957f2du ^ tweak;

	ct_fill(&state, buf, len);
}

/* The tracer's markers: everything between them is traced. */
static void mark(void)
{
	raise(SIGSTOP);
}

static struct {
	uint8_t key[32], nonce[24], iv[16];
	uint8_t in[MAXLEN], out[MAXLEN + CHACHA20POLY1305_TAG_SIZE], back[MAXLEN];
	uint8_t ad[80];
} b;

/* One case: a class, a public length, and a variant (tag good or forged). */
struct tcase {
	const char *cls;
	void (*fn)(size_t len, int variant);
	size_t len;
	int variant;
};

/* --- the cases: inputs, mark(), the call(s), mark() ---------------------- */

static void c_chacha20(size_t len, int variant)
{
	struct chacha20_ctx ctx;

	(void)variant;
	fill(b.key, sizeof(b.key));
	fill(b.in, len);
	fill_public(b.iv, sizeof(b.iv), 1);
	mark();
	/* One-shot, then in two pieces through the buffered keystream. */
	chacha20_init(&ctx, b.key, b.iv);
	chacha20_crypt(&ctx, b.out, b.in, len);
	chacha20_init(&ctx, b.key, b.iv);
	chacha20_crypt(&ctx, b.back, b.in, len / 3);
	chacha20_crypt(&ctx, b.back + len / 3, b.in + len / 3, len - len / 3);
	mark();
}

static void c_hchacha20(size_t len, int variant)
{
	(void)len;
	(void)variant;
	fill(b.key, sizeof(b.key));
	fill_public(b.nonce, HCHACHA20_NONCE_SIZE, 2);
	mark();
	hchacha20(b.out, b.nonce, b.key);
	mark();
}

static void c_poly1305(size_t len, int variant)
{
	struct poly1305_ctx ctx;
	size_t cut = len / 3 + 1 > len ? len : len / 3 + 1;

	(void)variant;
	fill(b.key, sizeof(b.key));
	fill(b.in, len);
	mark();
	poly1305(b.out, b.in, len, b.key);
	poly1305_init(&ctx, b.key);
	poly1305_update(&ctx, b.in, cut);
	poly1305_update(&ctx, b.in + cut, len - cut);
	poly1305_final(&ctx, b.out + 16);
	mark();
}

static void c_blake2s(size_t len, int variant)
{
	struct blake2s_state state;
	uint8_t salt[BLAKE2S_SALT_SIZE], personal[BLAKE2S_PERSONAL_SIZE];

	(void)variant;
	fill(b.key, sizeof(b.key));
	fill(b.in, len);
	fill_public(salt, sizeof(salt), 3);
	fill_public(personal, sizeof(personal), 4);
	mark();
	/* Unkeyed one-shot; keyed with salt and personal in two pieces. */
	blake2s(b.out, b.in, NULL, BLAKE2S_HASH_SIZE, len, 0);
	blake2s_init_param(&state, 20, b.key, 17, salt, personal);
	blake2s_update(&state, b.in, len / 2);
	blake2s_update(&state, b.in + len / 2, len - len / 2);
	blake2s_final(&state, b.out + 32);
	mark();
}

/* AD length: public, short (waits for the key block) or long. */
static size_t ad_len_for(size_t len)
{
	return (len * 13) % sizeof(b.ad);
}

static void aead_seal(bool x, size_t len)
{
	size_t ad_len = ad_len_for(len);
	struct chacha20poly1305_ctx ctx;

	fill(b.key, sizeof(b.key));
	fill(b.in, len);
	fill(b.ad, ad_len);
	fill_public(b.nonce, sizeof(b.nonce), 5);
	mark();
	if (x) {
		xchacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, b.nonce, b.key);
		xchacha20poly1305_init(&ctx, b.key, b.nonce);
	} else {
		chacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, b.nonce, b.key);
		chacha20poly1305_init(&ctx, b.key, b.nonce);
	}
	chacha20poly1305_ad(&ctx, b.ad, ad_len / 2);
	chacha20poly1305_ad(&ctx, b.ad + ad_len / 2, ad_len - ad_len / 2);
	chacha20poly1305_encrypt_update(&ctx, b.back, b.in, len / 2);
	chacha20poly1305_encrypt_update(&ctx, b.back + len / 2, b.in + len / 2, len - len / 2);
	chacha20poly1305_final(&ctx, b.back + len);
	mark();
}

/* Variant 1: the tag forged in both runs (at a public position). */
static void aead_open(bool x, size_t len, int variant)
{
	size_t ad_len = ad_len_for(len);
	struct chacha20poly1305_ctx ctx;
	volatile bool v1, v2;

	fill(b.key, sizeof(b.key));
	fill(b.in, len);
	fill(b.ad, ad_len);
	fill_public(b.nonce, sizeof(b.nonce), 6);
	if (x)
		xchacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, b.nonce, b.key);
	else
		chacha20poly1305_encrypt(b.out, b.in, len, b.ad, ad_len, b.nonce, b.key);
	b.out[len + len % CHACHA20POLY1305_TAG_SIZE] ^= (uint8_t)variant;
	mark();
	if (x) {
		v1 = xchacha20poly1305_decrypt(b.back, b.out, len + CHACHA20POLY1305_TAG_SIZE,
					       b.ad, ad_len, b.nonce, b.key);
		xchacha20poly1305_init(&ctx, b.key, b.nonce);
	} else {
		v1 = chacha20poly1305_decrypt(b.back, b.out, len + CHACHA20POLY1305_TAG_SIZE,
					      b.ad, ad_len, b.nonce, b.key);
		chacha20poly1305_init(&ctx, b.key, b.nonce);
	}
	chacha20poly1305_ad(&ctx, b.ad, ad_len);
	chacha20poly1305_decrypt_update(&ctx, b.back, b.out, len / 3);
	chacha20poly1305_decrypt_update(&ctx, b.back + len / 3, b.out + len / 3, len - len / 3);
	v2 = chacha20poly1305_final_verify(&ctx, b.out + len, CHACHA20POLY1305_TAG_SIZE);
	mark();
	/* The verdicts are what the case says, else the case tests nothing. */
	if (v1 != !variant || v2 != !variant)
		_exit(3);
}

static void c_chacha20poly1305_seal(size_t len, int variant)
{
	(void)variant;
	aead_seal(false, len);
}

static void c_xchacha20poly1305_seal(size_t len, int variant)
{
	(void)variant;
	aead_seal(true, len);
}

static void c_chacha20poly1305_open(size_t len, int variant)
{
	aead_open(false, len, variant);
}

static void c_xchacha20poly1305_open(size_t len, int variant)
{
	aead_open(true, len, variant);
}

static void c_x25519(size_t len, int variant)
{
	uint8_t s[CURVE25519_KEY_SIZE], u[CURVE25519_KEY_SIZE];

	(void)len;
	(void)variant;
	fill(s, sizeof(s));
	fill(u, sizeof(u));
	mark();
	(void)curve25519(b.out, s, u);
	mark();
}

static void c_x25519_keygen(size_t len, int variant)
{
	uint8_t s[CURVE25519_KEY_SIZE];

	(void)len;
	(void)variant;
	fill(s, sizeof(s));
	mark();
	curve25519_clamp_secret(s);
	curve25519_generate_public(b.out, s);
	mark();
}

/* Unequal at a secret position: an early exit would show. */
static void c_memeq(size_t len, int variant)
{
	uint8_t pos;
	volatile bool v;

	(void)variant;
	fill(b.in, len);
	memcpy(b.back, b.in, len);
	fill(&pos, 1);
	b.back[pos % len] ^= 1;
	mark();
	v = zinc_memeq(b.in, b.back, len);
	mark();
	(void)v;
}

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

static void c_leaky(size_t len, int variant)
{
	(void)variant;
	fill(b.key, len);
	mark();
	leaky_branch(b.key);
	mark();
}

/*
 * The lengths, public: block and lane boundaries +-1 and one past the
 * AVX-512 pass of 32 blocks for the stream and the MAC.  Fewer elsewhere, a
 * step costing some 30 us here: the AEADs' own code (AD buffering, the key
 * block, the fused pass) at a few; BLAKE2s, whose scalar rounds cost a
 * thousand steps a block; XChaCha20 adds only HChaCha20 to ChaCha20-Poly1305.
 */
static const size_t stream_lengths[] = { 0, 1, 63, 64, 65, 255, 256, 257, 2049 };
static const size_t seal_lengths[] = { 0, 1, 64, 65, 257, 2049 };
static const size_t open_lengths[] = { 0, 65 };
static const size_t forged_lengths[] = { 1, 65 };
static const size_t x_lengths[] = { 257 };
static const size_t blake2s_lengths[] = { 0, 1, 64, 65, 200 };
static const size_t one_length[] = { 0 };
static const size_t memeq_lengths[] = { 16, 64 };

/*
 * deps: the primitives whose implementations choose the class's path
 * (test_ct_trace.sh traces a class once per set of them).  The AEADs' is
 * ChaCha20's: their Poly1305 calls are the poly1305 class's, which runs on
 * every Poly1305 implementation.  variant: a forged tag (1) or not.
 */
static const struct {
	const char *cls, *deps;
	void (*fn)(size_t len, int variant);
	const size_t *lengths;
	size_t nlengths;
	int variant;
} classes[] = {
#define L(a) (a), sizeof(a) / sizeof((a)[0])
	{ "chacha20", "chacha20", c_chacha20, L(stream_lengths), 0 },
	{ "hchacha20", "chacha20", c_hchacha20, L(one_length), 0 },
	{ "poly1305", "poly1305", c_poly1305, L(stream_lengths), 0 },
	{ "blake2s", "blake2s", c_blake2s, L(blake2s_lengths), 0 },
	{ "chacha20poly1305-seal", "chacha20", c_chacha20poly1305_seal,
	  L(seal_lengths), 0 },
	{ "chacha20poly1305-open", "chacha20", c_chacha20poly1305_open,
	  L(open_lengths), 0 },
	{ "chacha20poly1305-forged", "chacha20", c_chacha20poly1305_open,
	  L(forged_lengths), 1 },
	{ "xchacha20poly1305-seal", "chacha20", c_xchacha20poly1305_seal,
	  L(x_lengths), 0 },
	{ "xchacha20poly1305-open", "chacha20", c_xchacha20poly1305_open,
	  L(x_lengths), 0 },
	{ "xchacha20poly1305-forged", "chacha20", c_xchacha20poly1305_open,
	  L(x_lengths), 1 },
	{ "x25519", "curve25519", c_x25519, L(one_length), 0 },
	{ "x25519-keygen", "curve25519", c_x25519_keygen, L(one_length), 0 },
	{ "zinc_memeq", "", c_memeq, L(memeq_lengths), 0 },
#undef L
};
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

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
static int trace_case(const struct tcase *c, uint64_t seed, struct trace *t,
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
		rng = seed;
		c->fn(c->len, c->variant);
		_exit(0);
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
				snprintf(why, whysize, "the tag verdict is not what the case expects");
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

/* The two runs' seeds: secrets A and B. */
static const uint64_t seeds[2] = { 0x9e3779b97f4a7c15u, 0xd1b54a32d192ed03u };

/* Traces c with two seeds; true if both runs took the same path. */
static bool compare(const struct tcase *c, size_t *steps, char *why, size_t whysize)
{
	static struct trace ref;
	struct divergence d;
	char sa[64], sb[64];

	ref.n = 0;
	*steps = 0;
	if (trace_case(c, seeds[0], &ref, NULL, &d, why, whysize) != 0 ||
	    trace_case(c, seeds[1], NULL, &ref, &d, why, whysize) != 0)
		return false;
	*steps = ref.n;
	if (d.step == SIZE_MAX)
		return true;
	describe(d.a, sa, sizeof(sa));
	describe(d.b, sb, sizeof(sb));
	snprintf(why, whysize, "paths differ at step %zu of %zu: %s vs %s", d.step, ref.n,
		 d.a ? sa : "end", d.b ? sb : "end");
	return false;
}

/* All the cases of a class; one TAP line. */
static void run_class(size_t k)
{
	struct tcase c = { classes[k].cls, classes[k].fn, 0, classes[k].variant };
	char why[256] = "", lens[256] = "";
	size_t i, steps = 0, total = 0, pos = 0;
	bool good = true;

	for (i = 0; i < classes[k].nlengths && good; i++) {
		c.len = classes[k].lengths[i];
		good = compare(&c, &steps, why, sizeof(why));
		total += steps;
		if (pos < sizeof(lens))
			pos += (size_t)snprintf(lens + pos, sizeof(lens) - pos, "%s%zu",
						i ? "," : "", c.len);
	}
	tap_n++;
	if (good) {
		printf("ok %d - %s: same path for both secrets (lengths %s; %zu steps)\n",
		       tap_n, c.cls, lens, total);
	} else {
		tap_failed++;
		printf("not ok %d - %s: length %zu\n# %s\n", tap_n, c.cls, c.len, why);
	}
	fflush(stdout);
}

/* Whether this system lets a child be traced and single-stepped. */
static bool ptrace_works(char *why, size_t whysize)
{
	struct tcase c = { "leaky", c_leaky, 1, 0 };
	struct trace t = { NULL, 0, 0 };
	struct divergence d;
	bool works = trace_case(&c, 1, &t, NULL, &d, why, whysize) == 0 && t.n > 0;

	free(t.rip);
	return works;
}

static int leaky(bool full)
{
	struct tcase c = { "leaky", c_leaky, 1, 0 };
	char why[256] = "";
	size_t steps;
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
	if (compare(&c, &steps, why, sizeof(why)) || strncmp(why, "paths differ", 12) != 0) {
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

int main(int argc, char **argv)
{
	/* Alone (make check), only the proof: test_ct_trace.sh runs the rest. */
	const char *mode = argc > 1 ? argv[1] : "";
	char why[256] = "";
	size_t k;
	int i;

	zinc_init();
	if (strcmp(mode, "classes") == 0) {
		for (k = 0; k < NCLASSES; k++)
			printf("%s %s\n", classes[k].cls, classes[k].deps);
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
	if (strcmp(mode, "run") != 0 && strcmp(mode, "leaky") != 0 && *mode) {
		fprintf(stderr, "usage: test_ct_ptrace [run [CLASS...]|classes|info|leaky]\n");
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
	for (k = 0; k < NCLASSES; k++) {
		bool wanted = argc <= 2;

		for (i = 2; i < argc; i++)
			wanted |= strcmp(argv[i], classes[k].cls) == 0;
		if (wanted)
			run_class(k);
	}
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
#endif
