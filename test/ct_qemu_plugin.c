/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant time under qemu-user: a TCG plugin for the ARM test driver
 * (test/test_ct_qemu.c), loaded by test/test_ct_qemu_trace.sh with
 *
 *   qemu-aarch64 -plugin ct_qemu_plugin.so,out=FILE test_ct_qemu run ...
 *
 * It is built for the machine qemu runs on (the build machine's compiler,
 * even in a cross build), never for the guest.
 *
 * The guest marks what to compare by calling three functions that do
 * nothing, found by their symbol names when qemu translates them:
 *
 *   ct_case_begin()   a case starts: its first region is the reference
 *   ct_mark()         a traced region starts; the next call ends it
 *   ct_case_end()     the case ends: one summary line for it
 *
 * Within a region every executed translation block (its instructions,
 * known from translation) and every memory access (virtual address, size,
 * load or store, and the instruction making it) is an event of 64 bits.
 * The first region of a case is stored, one event after another; each later
 * region is compared with it as it runs, without being stored, and its first
 * divergence is kept: the region, the instruction where the two runs part,
 * and the two addresses (the next instruction, or the memory address, of
 * the reference and of this run).  So the same secret-independent code must
 * execute the same instructions and touch the same addresses whatever the
 * secrets: a branch on a secret or a load at a secret index shows here.
 * Every region also gets a 64-bit hash of its events: the reference's is
 * printed, and the number of distinct ones, the paths the sets took.  One event a block, not one an instruction: a branch ends a
 * block, and a block, once entered, runs to its end (no signal or fault
 * interrupts the driver's calls), so the block sequence gives the
 * instruction sequence, at one callback a block.
 *
 * Output (to out=FILE, else stderr), one line a case and per divergence:
 *
 *   marker ct_mark 0x5500000a10
 *   case 3 regions 65 compared 64 differing 0 events 4521 insns 12210 loads 1602 stores 640 hash 0123456789abcdef paths 1
 *   diverge case 3 region 7 event 812 at 0x5500001234 <sym> ref 0x5500001240 <sym> (block) this 0x5500001238 <sym> (block)
 *   diverge case 4 region 2 event 90 at 0x5500001234 <sym> ref 0x5502811f4b (load 1) this 0x5502811f4e (load 1)
 *
 * What it cannot see: which way a predicated ARM instruction went, when it
 * neither branches nor accesses memory (qemu translates it into the block
 * either way), and any instruction whose time depends on its operands.
 *
 * Arguments: out=FILE (the report), mark=NAME, begin=NAME, end=NAME (the
 * marker functions' symbols), verbose=N (divergence lines per case, 1 by
 * default).
 *
 * Single-threaded guests only (the driver is one): state is global.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * --- The part of QEMU's plugin API (include/qemu/qemu-plugin.h) used here ---
 *
 * Debian ships no qemu-plugin.h, so what this uses is declared here, from
 * the API's documentation: QEMU 7.2's docs/devel/tcg-plugins.rst (versioning,
 * qemu_plugin_install, the life cycle) and the kernel-doc comments of
 * include/qemu/qemu-plugin.h at API version 1 (types, enum values,
 * signatures).  Checked against Debian 12's qemu-user 7.2 binaries as said
 * at each; the rest (layouts, enum values) is the documentation's word.
 */

/* The symbols QEMU looks up in the plugin must be visible (qemu-plugin.h's
 * QEMU_PLUGIN_EXPORT; docs: "All plugins need to declare a symbol which
 * exports the plugin API version"). */
#define CT_EXPORT __attribute__((visibility("default")))

/*
 * API version 1 (QEMU_PLUGIN_VERSION in 7.2's qemu-plugin.h; the minimum,
 * QEMU_PLUGIN_MIN_VERSION, is 0): the loader refuses a plugin whose
 * qemu_plugin_version lies outside the two (docs: "The core code will
 * refuse to load a plugin that doesn't export a qemu_plugin_version symbol
 * or if plugin version is outside of QEMU's supported range").  Checked on
 * qemu-aarch64 7.2: its strings hold "plugin requires API version %d, but
 * this QEMU supports only up to version %d"; this plugin built with 2 is
 * refused with "only up to version 1", with 0 or 1 it loads, and
 * qemu_plugin_install is told "api 0..1" (the report's first line).
 */
CT_EXPORT int qemu_plugin_version = 1;

/* typedef uint64_t qemu_plugin_id_t: the plugin's opaque ID. */
typedef uint64_t ct_plugin_id;

/*
 * struct qemu_info_t, passed to qemu_plugin_install: the target's name, the
 * minimum and current API versions, and whether this is system emulation
 * (followed by a union for system emulation, unused in user mode; declared
 * so that the layout is the documented one).
 */
struct ct_qemu_info {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	} u;
};

/* Opaque handles: a translation block, an instruction of one. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* enum qemu_plugin_cb_flags: QEMU_PLUGIN_CB_NO_REGS is 0 (the first). */
enum { CT_CB_NO_REGS = 0 };
/* enum qemu_plugin_mem_rw: QEMU_PLUGIN_MEM_R = 1, _W = 2, _RW = 3. */
enum { CT_MEM_RW = 3 };
/* typedef uint32_t qemu_plugin_meminfo_t: an access's size, sign, store. */
typedef uint32_t ct_meminfo;

/* Callback types (qemu_plugin_vcpu_tb_trans_cb_t, _vcpu_udata_cb_t,
 * _vcpu_mem_cb_t, _udata_cb_t). */
typedef void (*ct_tb_trans_cb)(ct_plugin_id id, struct qemu_plugin_tb *tb);
typedef void (*ct_vcpu_udata_cb)(unsigned int vcpu_index, void *userdata);
typedef void (*ct_vcpu_mem_cb)(unsigned int vcpu_index, ct_meminfo info, uint64_t vaddr,
			       void *userdata);
typedef void (*ct_udata_cb)(ct_plugin_id id, void *userdata);

/*
 * The functions, each exported by qemu-aarch64 and qemu-arm 7.2 (nm -D lists
 * it as T), with the documented signatures; the enum parameters (flags:
 * enum qemu_plugin_cb_flags, rw: enum qemu_plugin_mem_rw) are declared int,
 * which is how the C ABI passes those enums.
 */
void qemu_plugin_register_vcpu_tb_trans_cb(ct_plugin_id id, ct_tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, ct_vcpu_udata_cb cb,
					  int flags, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, ct_vcpu_mem_cb cb,
				      int flags, int rw, void *userdata);
void qemu_plugin_register_atexit_cb(ct_plugin_id id, ct_udata_cb cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
/* "Best effort symbol lookup": a static string, NULL where none is known
 * (qemu reads the guest binary's symbol table; on qemu-arm 7.2 it names
 * Thumb functions too, as test_ct_qemu_trace.sh's reports show). */
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
/* log2 of the access size in bytes. */
unsigned int qemu_plugin_mem_size_shift(ct_meminfo info);
bool qemu_plugin_mem_is_store(ct_meminfo info);

/* qemu_plugin_install: called once at load; 0 for success. */
CT_EXPORT int qemu_plugin_install(ct_plugin_id id, const struct ct_qemu_info *info, int argc,
				  char **argv);

/* --- translation: what a block holds ------------------------------------- */

struct tbinfo;

/* One instruction of a translated block (a memory callback's user data). */
struct insninfo {
	uint64_t vaddr;
	const char *sym;
	uint32_t idx;
};

enum marker { M_NONE, M_MARK, M_BEGIN, M_END, M_COUNT };

struct tbinfo {
	uint64_t vaddr;
	uint32_t n;
	enum marker marker;
	struct insninfo insn[];
};

static const char *marker_name[M_COUNT] = { NULL, "ct_mark", "ct_case_begin", "ct_case_end" };
/* Each marker's entry: the first block translated in that function. */
static uint64_t marker_entry[M_COUNT];

/* The latest translation of each block start: an open-addressing table. */
static struct tbinfo **blocks;
static size_t nblocks, blocks_cap;

static size_t block_slot(uint64_t vaddr)
{
	uint64_t h = vaddr * 0x9e3779b97f4a7c15u;

	return (size_t)(h >> 17) & (blocks_cap - 1);
}

static void oom(void)
{
	fputs("ct_qemu_plugin: out of memory\n", stderr);
	abort();
}

static void block_put(struct tbinfo *t)
{
	size_t i;

	if (2 * (nblocks + 1) > blocks_cap) {
		struct tbinfo **old = blocks;
		size_t oldcap = blocks_cap;

		blocks_cap = blocks_cap ? 2 * blocks_cap : 4096;
		blocks = calloc(blocks_cap, sizeof(*blocks));
		if (!blocks)
			oom();
		nblocks = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i])
				block_put(old[i]);
		free(old);
	}
	for (i = block_slot(t->vaddr); blocks[i]; i = (i + 1) & (blocks_cap - 1))
		if (blocks[i]->vaddr == t->vaddr) {
			/* A retranslation: the old one stays allocated (a
			 * callback of it may still be queued). */
			blocks[i] = t;
			return;
		}
	blocks[i] = t;
	nblocks++;
}

static const struct tbinfo *block_get(uint64_t vaddr)
{
	size_t i;

	if (!blocks_cap)
		return NULL;
	for (i = block_slot(vaddr); blocks[i]; i = (i + 1) & (blocks_cap - 1))
		if (blocks[i]->vaddr == vaddr)
			return blocks[i];
	return NULL;
}

/* --- the running comparison ---------------------------------------------- */

/*
 * An event: a block executed, (vaddr << 1) | 0; or a memory access,
 * (vaddr << 16) | (insn index in its block << 5) | (store << 4) |
 * (size shift << 1) | 1.  Guest addresses fit: 48 bits at most (AArch64
 * user space), and a block has at most 512 instructions (TCG_MAX_INSNS):
 * both are checked rather than assumed.
 */
#define MEM_VADDR_BITS 48
#define MAX_BLOCK_INSNS 1024

static FILE *out;
static unsigned verbose = 1;

static bool in_case, tracing;
static unsigned long case_no, region_no;
/* The reference region: every event, and what it counted. */
static uint64_t *ref;
static size_t ref_n, ref_cap;
static uint64_t ref_insns, ref_loads, ref_stores, ref_hash;
/* The region being run. */
static size_t pos;
static uint64_t hash, insns, loads, stores;
static const struct tbinfo *cur_tb;	/* the last block executed in it */
static bool region_diverged;
/* The case so far. */
static unsigned long compared, differing, reported;
/* The distinct region hashes of the case: how many paths its sets took. */
#define MAX_PATHS 1024
static uint64_t paths[MAX_PATHS];
static size_t npaths;
static bool failed;	/* something the report must fail on, beyond divergences */

static void hash_event(uint64_t ev)
{
	/* A multiply-rotate mix, order-dependent. */
	hash = (hash ^ ev) * 0xff51afd7ed558ccdu;
	hash = (hash << 29) | (hash >> 35);
}

static void describe(char *buf, size_t size, uint64_t vaddr)
{
	const struct tbinfo *t = block_get(vaddr);
	const char *sym = NULL;

	/* The symbol of a block start, or of an instruction within one. */
	if (t) {
		sym = t->insn[0].sym;
	} else {
		size_t i, j;

		for (i = 0; i < blocks_cap && !sym; i++)
			if (blocks[i] && vaddr >= blocks[i]->vaddr &&
			    vaddr <= blocks[i]->insn[blocks[i]->n - 1].vaddr)
				for (j = 0; j < blocks[i]->n; j++)
					if (blocks[i]->insn[j].vaddr == vaddr)
						sym = blocks[i]->insn[j].sym;
	}
	snprintf(buf, size, "0x%" PRIx64 " <%s>", vaddr, sym ? sym : "?");
}

/* "0x... <sym> (block)" or "0x... (load 8)" for an event; "end" past the end. */
static void describe_event(char *buf, size_t size, const uint64_t *ev)
{
	char where[256];

	if (!ev) {
		snprintf(buf, size, "end of region");
	} else if (!(*ev & 1)) {
		describe(where, sizeof(where), *ev >> 1);
		snprintf(buf, size, "%s (block)", where);
	} else {
		snprintf(buf, size, "0x%" PRIx64 " (%s %u)", *ev >> 16,
			 (*ev >> 4) & 1 ? "store" : "load", 1u << ((*ev >> 1) & 7));
	}
}

/* The instruction an event came from, given the block it ran in. */
static uint64_t event_insn(const struct tbinfo *t, uint64_t ev)
{
	if (!t)
		return 0;
	if (ev & 1)
		return t->insn[((ev >> 5) & (MAX_BLOCK_INSNS - 1)) % t->n].vaddr;
	return t->insn[t->n - 1].vaddr;
}

/* The first divergence of this region: event pos, reference r, this run e. */
static void diverge(const uint64_t *r, const uint64_t *e)
{
	char at[256], a[320], b[320];
	uint64_t insn;

	region_diverged = true;
	differing++;
	if (reported++ >= verbose)
		return;
	/*
	 * Where the runs part: at a memory access, its instruction; at a
	 * block, the last instruction of the block before (the branch or
	 * call that went elsewhere).
	 */
	if (e && (*e & 1))
		insn = event_insn(cur_tb, *e);
	else if (r && (*r & 1))
		insn = event_insn(cur_tb, *r);
	else
		insn = event_insn(cur_tb, 0);
	describe(at, sizeof(at), insn);
	describe_event(a, sizeof(a), r);
	describe_event(b, sizeof(b), e);
	fprintf(out, "diverge case %lu region %lu event %zu at %s ref %s this %s\n", case_no,
		region_no, pos, insn ? at : "region start", a, b);
}

static void event(uint64_t ev)
{
	hash_event(ev);
	if (region_no == 0) {
		if (ref_n == ref_cap) {
			ref_cap = ref_cap ? 2 * ref_cap : 1 << 16;
			ref = realloc(ref, ref_cap * sizeof(*ref));
			if (!ref)
				oom();
		}
		ref[ref_n++] = ev;
	} else if (!region_diverged) {
		if (pos >= ref_n)
			diverge(NULL, &ev);
		else if (ref[pos] != ev)
			diverge(&ref[pos], &ev);
	}
	pos++;
}

static void region_start(void)
{
	pos = 0;
	hash = 0x6a09e667f3bcc908u;
	insns = loads = stores = 0;
	cur_tb = NULL;
	region_diverged = false;
	if (region_no == 0)
		ref_n = 0;
}

static void region_end(void)
{
	size_t i;

	for (i = 0; i < npaths && paths[i] != hash; i++)
		;
	if (i == npaths && npaths < MAX_PATHS)
		paths[npaths++] = hash;
	if (region_no == 0) {
		ref_insns = insns;
		ref_loads = loads;
		ref_stores = stores;
		ref_hash = hash;
	} else {
		if (!region_diverged && pos < ref_n)
			diverge(&ref[pos], NULL);
		compared++;
	}
	region_no++;
}

static void case_begin(void)
{
	if (in_case) {
		fprintf(out, "error: case %lu begins inside case %lu\n", case_no + 1, case_no);
		failed = true;
	}
	in_case = true;
	tracing = false;
	case_no++;
	region_no = 0;
	compared = differing = reported = 0;
	npaths = 0;
}

static void case_end(void)
{
	if (!in_case || tracing) {
		fprintf(out, "error: case end %s\n", in_case ? "inside a region" : "outside a case");
		failed = true;
	}
	fprintf(out,
		"case %lu regions %lu compared %lu differing %lu events %zu insns %" PRIu64
		" loads %" PRIu64 " stores %" PRIu64 " hash %016" PRIx64 " paths %zu%s\n",
		case_no, region_no, compared, differing, ref_n, ref_insns, ref_loads, ref_stores,
		ref_hash, npaths, npaths == MAX_PATHS ? "+" : "");
	fflush(out);
	in_case = false;
	tracing = false;
}

/* --- callbacks ----------------------------------------------------------- */

static void on_block(unsigned int vcpu, void *userdata)
{
	const struct tbinfo *t = userdata;

	(void)vcpu;
	switch (t->marker) {
	case M_NONE:
		break;
	case M_BEGIN:
		case_begin();
		return;
	case M_END:
		case_end();
		return;
	case M_MARK:
		if (!in_case)
			return;
		if (tracing) {
			tracing = false;
			region_end();
			return;
		}
		tracing = true;
		region_start();
		break;	/* the marker's own block is the region's first event */
	case M_COUNT:
		break;
	}
	if (!tracing)
		return;
	event(t->vaddr << 1);
	cur_tb = t;
	insns += t->n;
}

static void on_mem(unsigned int vcpu, ct_meminfo info, uint64_t vaddr, void *userdata)
{
	const struct insninfo *in = userdata;
	bool store;

	(void)vcpu;
	if (!tracing)
		return;
	if (vaddr >> MEM_VADDR_BITS) {
		fprintf(out, "error: address 0x%" PRIx64 " wider than %d bits\n", vaddr,
			MEM_VADDR_BITS);
		failed = true;
	}
	store = qemu_plugin_mem_is_store(info);
	if (store)
		stores++;
	else
		loads++;
	event((vaddr << 16) | ((uint64_t)in->idx << 5) | ((uint64_t)store << 4) |
	      ((uint64_t)(qemu_plugin_mem_size_shift(info) & 7) << 1) | 1);
}

static void on_translate(ct_plugin_id id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct tbinfo *t;
	int m;

	(void)id;
	if (n == 0)
		return;
	if (n > MAX_BLOCK_INSNS) {
		fprintf(out, "error: a block of %zu instructions\n", n);
		failed = true;
		n = MAX_BLOCK_INSNS;
	}
	t = malloc(sizeof(*t) + n * sizeof(t->insn[0]));
	if (!t)
		oom();
	t->n = (uint32_t)n;
	t->marker = M_NONE;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		t->insn[i].vaddr = qemu_plugin_insn_vaddr(insn);
		t->insn[i].sym = qemu_plugin_insn_symbol(insn);
		t->insn[i].idx = (uint32_t)i;
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, CT_CB_NO_REGS, CT_MEM_RW,
						 &t->insn[i]);
	}
	t->vaddr = t->insn[0].vaddr;
	for (m = M_MARK; m < M_COUNT; m++) {
		if (!t->insn[0].sym || strcmp(t->insn[0].sym, marker_name[m]) != 0)
			continue;
		/* Its first block translated is its entry: it was called. */
		if (!marker_entry[m]) {
			marker_entry[m] = t->vaddr;
			fprintf(out, "marker %s 0x%" PRIx64 "\n", marker_name[m], t->vaddr);
		}
		if (t->vaddr == marker_entry[m])
			t->marker = (enum marker)m;
	}
	block_put(t);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, CT_CB_NO_REGS, t);
}

static void at_exit(ct_plugin_id id, void *userdata)
{
	(void)id;
	(void)userdata;
	if (in_case) {
		fprintf(out, "error: case %lu never ended\n", case_no);
		failed = true;
	}
	fprintf(out, "total cases %lu%s\n", case_no, failed ? " errors" : "");
	fflush(out);
	if (out != stderr)
		fclose(out);
}

CT_EXPORT int qemu_plugin_install(ct_plugin_id id, const struct ct_qemu_info *info, int argc,
				  char **argv)
{
	const char *path = NULL;
	int i;

	if (info->system_emulation) {
		fputs("ct_qemu_plugin: user-mode emulation only\n", stderr);
		return -1;
	}
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "out=", 4) == 0)
			path = a + 4;
		else if (strncmp(a, "mark=", 5) == 0)
			marker_name[M_MARK] = a + 5;
		else if (strncmp(a, "begin=", 6) == 0)
			marker_name[M_BEGIN] = a + 6;
		else if (strncmp(a, "end=", 4) == 0)
			marker_name[M_END] = a + 4;
		else if (strncmp(a, "verbose=", 8) == 0)
			verbose = (unsigned)strtoul(a + 8, NULL, 10);
		else {
			fprintf(stderr, "ct_qemu_plugin: unknown argument '%s'\n", a);
			return -1;
		}
	}
	out = stderr;
	if (path) {
		out = fopen(path, "w");
		if (!out) {
			perror(path);
			return -1;
		}
	}
	fprintf(out, "plugin target %s api %d..%d\n", info->target_name, info->version.min,
		info->version.cur);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
