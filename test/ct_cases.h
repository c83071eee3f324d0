/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The constant-time case catalogue, shared by every tracing driver: the
 * x86_64 ptrace driver (test/test_ct_ptrace.c) and the ARM guest driver
 * run under qemu.  Portable C, the primitives only (include/zinc), no
 * ptrace, no OpenSSL.
 *
 * A case is one public shape of work: a primitive call sequence and its
 * public parameters (lengths, nonces, counters, key length, whether a tag
 * is right or forged).  Within a case only secrets vary, drawn per
 * "secret set": set 0 is the reference, sets 1..nsets-1 are each compared
 * with it by the driver.  The low sets are edge classes (all-zero and
 * all-0xff keys, Poly1305 accumulators landing at or above p, X25519
 * low-order points, ...), the others random.
 *
 * A driver, for case c and set i, in a process of its own:
 *
 *	c->prepare(c, i);	fills the inputs (static buffers: the same
 *				addresses in every run of every set)
 *	rc = c->run(c);		ct_mark(); the calls; ct_mark();
 *				then checks the results: 0 if they are what
 *				the set expects, else nonzero
 *
 * and compares what ran between the two ct_mark() calls with set 0's.
 * ct_mark() is the driver's: the ptrace driver raises SIGSTOP, the guest
 * driver calls a noinline function its qemu plugin recognises.
 *
 * This API is stable: other branches build drivers on it.
 */
#ifndef ZINC_CT_CASES_H
#define ZINC_CT_CASES_H

#include <stddef.h>

/* The primitives whose implementation choice steers a case's path. */
enum ct_prim {
	CT_CHACHA20 = 1u << 0,
	CT_POLY1305 = 1u << 1,
	CT_BLAKE2S = 1u << 2,
	CT_CURVE25519 = 1u << 3
};

struct ct_case {
	const char *name;	/* unique, "CLASS/LENGTH" or "CLASS" */
	const char *cls;	/* the class: "poly1305", "x25519", ... */
	unsigned prims;		/* CT_* bits: the implementations it runs */
	size_t len;		/* the public length (class-specific meaning) */
	unsigned nsets;		/* secret sets: 0 the reference, then the others */
	void (*prepare)(const struct ct_case *c, unsigned set);
	int (*run)(const struct ct_case *c);
	int param;		/* class-specific public parameter */
};

/* Defined by the driver: called twice by run(), around the traced calls. */
void ct_mark(void);

/* The catalogue, in a fixed order. */
size_t ct_case_count(void);
const struct ct_case *ct_case_get(size_t index);

/* A CT_* bit's name ("chacha20", "poly1305", "blake2s", "curve25519"). */
const char *ct_prim_name(unsigned prim);

/* Whether set `set` of case c is an edge class (else random), and which. */
const char *ct_set_kind(const struct ct_case *c, unsigned set);

/* A case and one of its sets, as a traced child runs them. */
struct ct_run {
	const struct ct_case *c;
	unsigned set;
};

/* Prepares and runs a struct ct_run (given as void *, for ct_trace_run()). */
static inline int ct_run_set(void *arg)
{
	const struct ct_run *r = arg;

	r->c->prepare(r->c, r->set);
	return r->c->run(r->c);
}

#endif
