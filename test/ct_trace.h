/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86_64 ptrace tracer of the constant-time checks (test_ct_ptrace,
 * the primitives; test_ct_evp, zinc.so through EVP).  Linux x86_64 with
 * capstone only: the drivers test for that first.
 *
 * A traced run forks a child that calls fn(arg); fn stops itself twice
 * with ct_mark() (SIGSTOP while traced) around the calls of interest.  In
 * between, every instruction the child executes is recorded as its
 * address and the addresses of its memory operands (capstone decodes each
 * instruction once; base + index * scale + displacement from the child's
 * registers, RIP-relative, fs/gs bases; push, pop, call and ret as
 * accesses at rsp).  The reference run is single-stepped, each address
 * from the registers of its own step.  The others run a block at a time
 * to the next branch, or the next instruction whose address an earlier
 * one in the block changed (a breakpoint there, then that instruction is
 * single-stepped): the addresses in between follow from the registers at
 * the block's start.  Each is compared with the reference as it comes and
 * stopped at the first difference, which (the reference being exact)
 * also catches any mistake of that block analysis.  A vector-indexed
 * access (gather, scatter) is refused: a failure, not a silent gap.
 */
#ifndef ZINC_CT_TRACE_H
#define ZINC_CT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Opens capstone; false with why set if it cannot. */
bool ct_trace_init(char *why, size_t whysize);

/*
 * Only instructions whose address is in [lo, hi) are recorded and
 * compared (all when hi is 0); the others run all the same.
 */
void ct_trace_filter(uint64_t lo, uint64_t hi);

enum ct_outcome {
	CT_SAME,	/* the run matched the reference (or was recorded as one) */
	CT_DIFFER,	/* it did not: why says where */
	CT_FAILED	/* the run itself failed (ptrace, the child's checks) */
};

struct ct_stats {
	size_t insns;	/* instructions recorded in the last run */
	size_t stops;	/* times the child stopped for the tracer */
};

/*
 * Runs fn(a copy of arg's argsize bytes) in a traced child, a fork of a
 * process forked once at the first run, so that every run starts from the
 * same memory (its return value nonzero: its results are wrong, a
 * failure).  reference: records the trace all later runs
 * are compared with.  label names the run in why.
 */
enum ct_outcome ct_trace_run(int (*fn)(void *), const void *arg, size_t argsize, bool reference,
			     const char *label, struct ct_stats *stats, char *why, size_t whysize);

/* The largest argument ct_trace_run copies to the run. */
#define CT_ARG_MAX 64

/* "function+0xOFF (object+0xOFF)" for a code address of this process. */
void ct_describe(uint64_t addr, char *buf, size_t size);

#endif
