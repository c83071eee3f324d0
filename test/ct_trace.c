/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86_64 ptrace tracer of the constant-time checks: see ct_trace.h.
 */
#include "config.h"	/* _GNU_SOURCE: ptrace's requests, dladdr, process_vm_readv */
#if defined(__linux__) && defined(__x86_64__) && defined(HAVE_CAPSTONE)
#include <capstone/capstone.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ct_trace.h"

void ct_mark(void);

/* --- the markers ------------------------------------------------------------ */

static volatile sig_atomic_t traced;

/* The driver's marker (ct_cases.h): a stop for the tracer, when traced. */
void ct_mark(void)
{
	if (traced)
		raise(SIGSTOP);
}

/* --- decoding: one instruction per address, once ------------------------------ */

/* The general registers, numbered as x86 encodes them: rax rcx rdx rbx rsp ... r15. */
enum { R_RSP = 4, R_RBP = 5, R_RIP = 16, R_NONE = -1 };

static uint64_t reg_value(const struct user_regs_struct *r, int i)
{
	switch (i) {
	case 0: return r->rax;
	case 1: return r->rcx;
	case 2: return r->rdx;
	case 3: return r->rbx;
	case 4: return r->rsp;
	case 5: return r->rbp;
	case 6: return r->rsi;
	case 7: return r->rdi;
	case 8: return r->r8;
	case 9: return r->r9;
	case 10: return r->r10;
	case 11: return r->r11;
	case 12: return r->r12;
	case 13: return r->r13;
	case 14: return r->r14;
	case 15: return r->r15;
	case R_RIP: return r->rip;
	default: return 0;
	}
}

/*
 * A capstone register as a general register number (any width: a write
 * to eax or al changes rax), R_RIP, or R_NONE.  *bits: its width.
 */
static int reg_number(x86_reg reg, int *bits)
{
	static const struct {
		x86_reg r;
		int n, bits;
	} map[] = {
		{ X86_REG_RAX, 0, 64 }, { X86_REG_EAX, 0, 32 }, { X86_REG_AX, 0, 16 },
		{ X86_REG_AL, 0, 8 }, { X86_REG_AH, 0, 8 },
		{ X86_REG_RCX, 1, 64 }, { X86_REG_ECX, 1, 32 }, { X86_REG_CX, 1, 16 },
		{ X86_REG_CL, 1, 8 }, { X86_REG_CH, 1, 8 },
		{ X86_REG_RDX, 2, 64 }, { X86_REG_EDX, 2, 32 }, { X86_REG_DX, 2, 16 },
		{ X86_REG_DL, 2, 8 }, { X86_REG_DH, 2, 8 },
		{ X86_REG_RBX, 3, 64 }, { X86_REG_EBX, 3, 32 }, { X86_REG_BX, 3, 16 },
		{ X86_REG_BL, 3, 8 }, { X86_REG_BH, 3, 8 },
		{ X86_REG_RSP, 4, 64 }, { X86_REG_ESP, 4, 32 }, { X86_REG_SP, 4, 16 },
		{ X86_REG_SPL, 4, 8 },
		{ X86_REG_RBP, 5, 64 }, { X86_REG_EBP, 5, 32 }, { X86_REG_BP, 5, 16 },
		{ X86_REG_BPL, 5, 8 },
		{ X86_REG_RSI, 6, 64 }, { X86_REG_ESI, 6, 32 }, { X86_REG_SI, 6, 16 },
		{ X86_REG_SIL, 6, 8 },
		{ X86_REG_RDI, 7, 64 }, { X86_REG_EDI, 7, 32 }, { X86_REG_DI, 7, 16 },
		{ X86_REG_DIL, 7, 8 },
		{ X86_REG_R8, 8, 64 }, { X86_REG_R8D, 8, 32 }, { X86_REG_R8W, 8, 16 },
		{ X86_REG_R8B, 8, 8 },
		{ X86_REG_R9, 9, 64 }, { X86_REG_R9D, 9, 32 }, { X86_REG_R9W, 9, 16 },
		{ X86_REG_R9B, 9, 8 },
		{ X86_REG_R10, 10, 64 }, { X86_REG_R10D, 10, 32 }, { X86_REG_R10W, 10, 16 },
		{ X86_REG_R10B, 10, 8 },
		{ X86_REG_R11, 11, 64 }, { X86_REG_R11D, 11, 32 }, { X86_REG_R11W, 11, 16 },
		{ X86_REG_R11B, 11, 8 },
		{ X86_REG_R12, 12, 64 }, { X86_REG_R12D, 12, 32 }, { X86_REG_R12W, 12, 16 },
		{ X86_REG_R12B, 12, 8 },
		{ X86_REG_R13, 13, 64 }, { X86_REG_R13D, 13, 32 }, { X86_REG_R13W, 13, 16 },
		{ X86_REG_R13B, 13, 8 },
		{ X86_REG_R14, 14, 64 }, { X86_REG_R14D, 14, 32 }, { X86_REG_R14W, 14, 16 },
		{ X86_REG_R14B, 14, 8 },
		{ X86_REG_R15, 15, 64 }, { X86_REG_R15D, 15, 32 }, { X86_REG_R15W, 15, 16 },
		{ X86_REG_R15B, 15, 8 },
		{ X86_REG_RIP, R_RIP, 64 }, { X86_REG_EIP, R_RIP, 32 },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].r == reg) {
			*bits = map[i].bits;
			return map[i].n;
		}
	}
	*bits = 0;
	return R_NONE;
}

enum { BR_NONE, BR_JMP, BR_JCC, BR_CALL, BR_RET };

/* One memory access: base + index * scale + disp (+ a segment base). */
struct mref {
	int8_t base, index;	/* register numbers, or R_NONE */
	uint8_t scale;
	uint8_t seg;		/* 0, 'f' or 'g' */
	uint8_t addr32;		/* a 32-bit address (67h prefix) */
	int64_t disp;
};

#define MAXMEM 4

struct insn {
	uint64_t addr;
	uint8_t size, nmem;
	bool term;		/* single-stepped: ends a block */
	bool vindex;		/* a vector index: gather/scatter, unsupported */
	bool unsupported;	/* an address this tracer cannot compute */
	bool rsp_lost;		/* writes rsp other than by a known amount */
	int32_t rsp_delta;	/* what it adds to rsp, otherwise */
	uint32_t writes;	/* general registers written, rsp excluded */
	uint8_t br;		/* BR_*: a branch the tracer may emulate */
	uint8_t br_kind;	/* its target: 1 immediate, 2 register, 3 memory (mem[0]) */
	int8_t br_reg;
	unsigned br_id;		/* the capstone id, for a jcc's condition */
	uint64_t br_target;
	struct mref mem[MAXMEM];
	char text[200];	/* mnemonic and operands */
};

static csh cs;
static bool cs_open_done;

bool ct_trace_init(char *why, size_t whysize)
{
	if (cs_open_done)
		return true;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		snprintf(why, whysize, "capstone: cs_open failed");
		return false;
	}
	if (cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK) {
		snprintf(why, whysize, "capstone: no instruction details");
		cs_close(&cs);
		return false;
	}
	cs_open_done = true;
	return true;
}

/* Hash tables keyed by address, open addressing. */
struct table {
	uint64_t *keys;
	void **vals;
	size_t cap, n;
};

static size_t slot_of(const struct table *t, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15u) >> 20) & (t->cap - 1);

	while (t->keys[i] && t->keys[i] != key)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static void *table_get(const struct table *t, uint64_t key)
{
	size_t i;

	if (!t->cap)
		return NULL;
	i = slot_of(t, key);
	return t->keys[i] == key ? t->vals[i] : NULL;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fputs("Bail out! out of memory\n", stdout);
		exit(1);
	}
	return p;
}

static void table_put(struct table *t, uint64_t key, void *val)
{
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		struct table bigger = { NULL, NULL, t->cap ? 2 * t->cap : 4096, 0 };

		bigger.keys = xcalloc(bigger.cap, sizeof(uint64_t));
		bigger.vals = xcalloc(bigger.cap, sizeof(void *));
		for (i = 0; i < t->cap; i++)
			if (t->keys[i])
				table_put(&bigger, t->keys[i], t->vals[i]);
		free(t->keys);
		free(t->vals);
		*t = bigger;
	}
	i = slot_of(t, key);
	if (!t->keys[i])
		t->n++;
	t->keys[i] = key;
	t->vals[i] = val;
}

static struct table insns;

static bool is_string_op(unsigned id)
{
	switch (id) {
	case X86_INS_MOVSB: case X86_INS_MOVSW: case X86_INS_MOVSD: case X86_INS_MOVSQ:
	case X86_INS_STOSB: case X86_INS_STOSW: case X86_INS_STOSD: case X86_INS_STOSQ:
	case X86_INS_LODSB: case X86_INS_LODSW: case X86_INS_LODSD: case X86_INS_LODSQ:
	case X86_INS_SCASB: case X86_INS_SCASW: case X86_INS_SCASD: case X86_INS_SCASQ:
	case X86_INS_CMPSB: case X86_INS_CMPSW: case X86_INS_CMPSD: case X86_INS_CMPSQ:
		return true;
	default:
		return false;
	}
}

static void add_mref(struct insn *in, int base, int index, int scale, int64_t disp, int seg,
		     bool addr32)
{
	struct mref *m;

	if (in->nmem == MAXMEM) {
		in->unsupported = true;
		return;
	}
	m = &in->mem[in->nmem++];
	m->base = (int8_t)base;
	m->index = (int8_t)index;
	m->scale = (uint8_t)scale;
	m->disp = disp;
	m->seg = (uint8_t)seg;
	m->addr32 = addr32;
}

/*
 * What capstone 4 cannot decode: some VEX and EVEX instructions (AVX-512's
 * vprold, kmovq from a general register, ...).  Their layout is regular:
 * prefixes, the VEX or EVEX bytes, the opcode, ModRM, SIB, displacement,
 * an immediate by opcode map.  Decodes that much into in: the length and
 * the memory operand.  An EVEX displacement of one byte is scaled by a
 * size that depends on the instruction (disp8*N): such an operand is
 * marked unsupported (the run fails, saying so) unless it is a full
 * vector's.  The general registers it may write are all taken as written.
 */
static bool decode_fallback(const uint8_t *code, size_t len, struct insn *in)
{
	size_t i = 0;
	int seg = 0, map, opcode, mod, reg_field, rm, base = R_NONE, index = R_NONE, scale = 1;
	bool addr32 = false, evex, rex_x, rex_b, vsib = false;
	int64_t disp = 0;
	unsigned ll = 0, w = 0, bcast = 0;

	for (; i < len; i++) {
		if (code[i] == 0x64)
			seg = 'f';
		else if (code[i] == 0x65)
			seg = 'g';
		else if (code[i] == 0x67)
			addr32 = true;
		else if (code[i] != 0x2e && code[i] != 0x3e && code[i] != 0x26 && code[i] != 0x36)
			break;
	}
	if (i + 5 > len)
		return false;
	if (code[i] == 0xc5) {
		evex = false;
		rex_x = false;
		rex_b = false;
		map = 1;
		i += 2;
	} else if (code[i] == 0xc4) {
		evex = false;
		rex_x = !(code[i + 1] & 0x40);
		rex_b = !(code[i + 1] & 0x20);
		map = code[i + 1] & 0x1f;
		w = code[i + 2] >> 7;
		i += 3;
	} else if (code[i] == 0x62) {
		evex = true;
		rex_x = !(code[i + 1] & 0x40);
		rex_b = !(code[i + 1] & 0x20);
		map = code[i + 1] & 0x07;
		w = code[i + 2] >> 7;
		ll = (code[i + 3] >> 5) & 3;
		bcast = (code[i + 3] >> 4) & 1;
		i += 4;
	} else {
		return false;
	}
	if (map < 1 || map > 3 || i + 2 > len)
		return false;
	opcode = code[i++];
	mod = code[i] >> 6;
	reg_field = (code[i] >> 3) & 7;
	rm = code[i] & 7;
	i++;
	(void)reg_field;
	/* Gathers and scatters: a vector index (VSIB). */
	if (map == 2 && ((opcode >= 0x90 && opcode <= 0x93) || (opcode >= 0xa0 && opcode <= 0xa3) ||
			 opcode == 0xc6 || opcode == 0xc7))
		vsib = true;
	if (mod != 3) {
		if (rm == 4) {
			int sib;

			if (i >= len)
				return false;
			sib = code[i++];
			scale = 1 << (sib >> 6);
			index = ((sib >> 3) & 7) | (rex_x ? 8 : 0);
			if (index == 4 && !vsib)
				index = R_NONE;
			base = (sib & 7) | (rex_b ? 8 : 0);
			if ((sib & 7) == 5 && mod == 0) {
				base = R_NONE;
				mod = 2;	/* a disp32, no base */
			}
		} else if (rm == 5 && mod == 0) {
			base = R_RIP;
			mod = 2;
		} else {
			base = rm | (rex_b ? 8 : 0);
		}
		if (mod == 1) {
			if (i >= len)
				return false;
			disp = (int8_t)code[i++];
			if (evex) {
				/*
				 * A full-vector operand: N the vector's size, or
				 * with a broadcast the element's (W: 8, else 4).
				 */
				disp *= bcast ? (w ? 8 : 4) : 16 << ll;
			}
		} else if (mod == 2) {
			int32_t d;

			if (i + 4 > len)
				return false;
			d = (int32_t)((uint32_t)code[i] | (uint32_t)code[i + 1] << 8 |
				      (uint32_t)code[i + 2] << 16 | (uint32_t)code[i + 3] << 24);
			disp = d;
			i += 4;
		}
	}
	if (map == 3 || (map == 1 && ((opcode >= 0x70 && opcode <= 0x73) || opcode == 0xc2 ||
				      (opcode >= 0xc4 && opcode <= 0xc6))))
		i++;
	if (i > len || i > 15)
		return false;
	in->size = (uint8_t)i;
	if (mod != 3) {
		if (vsib) {
			in->vindex = true;
		} else {
			add_mref(in, base, index, scale, disp, seg, addr32);
			/*
			 * A one-byte displacement is scaled as a full vector's
			 * only where that is known to be right: vmovdqu*,
			 * vpro[lr]d/q, vpsrl/vpsll by immediate, vpmadd52[lh]uq;
			 * with a broadcast, by the element's size, always right.
			 * Another's: refuse.
			 */
			if (evex && mod == 1 && !bcast &&
			    !(map == 1 && (opcode == 0x6f || opcode == 0x7f ||
					   (opcode >= 0x71 && opcode <= 0x73))) &&
			    !(map == 2 && (opcode == 0xb4 || opcode == 0xb5)))
				in->unsupported = true;
		}
	}
	in->writes = 0xffff & ~(1u << R_RSP);
	snprintf(in->text, sizeof(in->text), "(capstone 4 cannot decode: %s opcode 0x%02x, map %d)",
		 evex ? "EVEX" : "VEX", opcode, map);
	return true;
}

/*
 * The instruction at addr, decoded from this process's own memory (the
 * traced children are its forks: the same code at the same addresses,
 * and never the breakpoints written into them).
 */
static struct insn *decode(uint64_t addr)
{
	struct insn *in = table_get(&insns, addr);
	uint8_t code[16];
	struct iovec local = { code, sizeof(code) }, remote = { (void *)(uintptr_t)addr, sizeof(code) };
	ssize_t got;
	cs_insn *ci;
	cs_x86 *x;
	cs_regs rr, rw;
	uint8_t nr = 0, nw = 0, i, g;
	int bits;
	bool vindex = false;

	if (in)
		return in;
	/* process_vm_readv of ourselves: a short read at a mapping's end, no fault. */
	got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	if (got <= 0)
		return NULL;
	in = xcalloc(1, sizeof(*in));
	in->addr = addr;
	if (cs_disasm(cs, code, (size_t)got, addr, 1, &ci) != 1) {
		if (!decode_fallback(code, (size_t)got, in)) {
			free(in);
			return NULL;
		}
		table_put(&insns, addr, in);
		return in;
	}
	in->addr = addr;
	in->size = (uint8_t)ci->size;
	snprintf(in->text, sizeof(in->text), "%s %s", ci->mnemonic, ci->op_str);
	x = &ci->detail->x86;
	for (g = 0; g < ci->detail->groups_count; g++) {
		switch (ci->detail->groups[g]) {
		case X86_GRP_JUMP: case X86_GRP_CALL: case X86_GRP_RET: case X86_GRP_INT:
		case X86_GRP_IRET:
			in->term = true;
			break;
		default:
			break;
		}
	}
	switch (ci->id) {
	case X86_INS_SYSCALL: case X86_INS_SYSENTER: case X86_INS_INT3: case X86_INS_UD2:
	case X86_INS_HLT:
		in->term = true;
		break;
	default:
		if (is_string_op(ci->id))
			in->term = true;	/* rep: one step an iteration */
		break;
	}
	/* Explicit memory operands; lea and nop compute or name, not access. */
	if (ci->id != X86_INS_LEA && ci->id != X86_INS_NOP) {
		for (i = 0; i < x->op_count; i++) {
			const cs_x86_op *op = &x->operands[i];
			int base, index, ib;
			int seg = 0;

			if (op->type != X86_OP_MEM)
				continue;
			base = reg_number(op->mem.base, &bits);
			if (op->mem.base != X86_REG_INVALID && base == R_NONE)
				in->unsupported = true;
			index = reg_number(op->mem.index, &ib);
			if (op->mem.index != X86_REG_INVALID && index == R_NONE) {
				/* xmm/ymm/zmm: a gather or scatter, unless capstone erred. */
				vindex = true;
				continue;
			}
			if (op->mem.segment == X86_REG_FS)
				seg = 'f';
			else if (op->mem.segment == X86_REG_GS)
				seg = 'g';
			if ((base != R_NONE && bits != 64 && bits != 32) ||
			    (index != R_NONE && ib != 64 && ib != 32))
				in->unsupported = true;
			add_mref(in, base, index, op->mem.scale, op->mem.disp, seg,
				 (base != R_NONE && bits == 32) || (index != R_NONE && ib == 32));
		}
	}
	/*
	 * Capstone 4 reads EVEX.V' as a vector index for some instructions
	 * with a memory operand (vporq -8(%rsp){1to8}, %zmm19, %zmm19 comes out
	 * as [rsp + xmm4 - 8]): where the encoding is no gather or scatter,
	 * the memory operand is taken from this tracer's own decoder.
	 */
	if (vindex) {
		struct insn own;

		memset(&own, 0, sizeof(own));
		if (decode_fallback(code, (size_t)got, &own) && !own.vindex && own.nmem == 1 &&
		    own.size == in->size) {
			in->mem[in->nmem++] = own.mem[0];
			in->unsupported |= own.unsupported;
		} else {
			in->vindex = true;
		}
	}
	/* Branches the tracer may emulate rather than step. */
	switch (ci->id) {
	case X86_INS_JMP:
		in->br = BR_JMP;
		break;
	case X86_INS_CALL:
		in->br = BR_CALL;
		break;
	case X86_INS_RET:
		in->br = x->op_count == 0 ? BR_RET : BR_NONE;
		break;
	case X86_INS_JO: case X86_INS_JNO: case X86_INS_JB: case X86_INS_JAE:
	case X86_INS_JE: case X86_INS_JNE: case X86_INS_JBE: case X86_INS_JA:
	case X86_INS_JS: case X86_INS_JNS: case X86_INS_JP: case X86_INS_JNP:
	case X86_INS_JL: case X86_INS_JGE: case X86_INS_JLE: case X86_INS_JG:
		in->br = BR_JCC;
		break;
	default:
		break;
	}
	in->br_id = ci->id;
	if (in->br && in->br != BR_RET) {
		const cs_x86_op *op = &x->operands[0];

		if (x->op_count != 1) {
			in->br = BR_NONE;
		} else if (op->type == X86_OP_IMM) {
			in->br_kind = 1;
			in->br_target = (uint64_t)op->imm;
		} else if (op->type == X86_OP_REG && reg_number(op->reg, &bits) >= 0 &&
			   reg_number(op->reg, &bits) < 16 && bits == 64) {
			in->br_kind = 2;
			in->br_reg = (int8_t)reg_number(op->reg, &bits);
		} else if (op->type == X86_OP_MEM && in->nmem >= 1 && !in->unsupported) {
			in->br_kind = 3;
		} else {
			in->br = BR_NONE;
		}
		if (in->br == BR_JCC && in->br_kind != 1)
			in->br = BR_NONE;
	}
	/* The stack's implicit accesses, at rsp. */
	switch (ci->id) {
	case X86_INS_PUSH: case X86_INS_PUSHFQ: case X86_INS_CALL:
		add_mref(in, R_RSP, R_NONE, 1, -8, 0, false);
		in->rsp_delta = -8;
		break;
	case X86_INS_POP: case X86_INS_POPFQ:
		add_mref(in, R_RSP, R_NONE, 1, 0, 0, false);
		in->rsp_delta = 8;
		break;
	case X86_INS_RET:
		add_mref(in, R_RSP, R_NONE, 1, 0, 0, false);
		in->rsp_lost = true;
		break;
	case X86_INS_LEAVE:
		add_mref(in, R_RBP, R_NONE, 1, 0, 0, false);
		in->rsp_lost = true;
		break;
	default:
		break;
	}
	/* The registers it writes: addresses after it in a block need them fresh. */
	if (cs_regs_access(cs, ci, rr, &nr, rw, &nw) != CS_ERR_OK) {
		in->term = true;	/* unknown: step it and start afresh */
	} else {
		for (i = 0; i < nw; i++) {
			int n = reg_number((x86_reg)rw[i], &bits);

			if (n == R_RSP) {
				bool known = in->rsp_delta != 0;

				if ((ci->id == X86_INS_ADD || ci->id == X86_INS_SUB) &&
				    x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
				    x->operands[0].reg == X86_REG_RSP &&
				    x->operands[1].type == X86_OP_IMM) {
					in->rsp_delta = (int32_t)(ci->id == X86_INS_ADD ?
						x->operands[1].imm : -x->operands[1].imm);
					known = true;
				}
				if (!known)
					in->rsp_lost = true;
			} else if (n >= 0 && n < 16) {
				in->writes |= 1u << n;
			}
		}
	}
	cs_free(ci, 1);
	table_put(&insns, addr, in);
	return in;
}

/* The address of m, from registers r (rsp plus rsp_off). */
static uint64_t mref_address(const struct insn *in, const struct mref *m,
			     const struct user_regs_struct *r, int64_t rsp_off)
{
	uint64_t a = (uint64_t)m->disp;

	if (m->base == R_RIP)
		a += in->addr + in->size;
	else if (m->base != R_NONE)
		a += reg_value(r, m->base) + (m->base == R_RSP ? (uint64_t)rsp_off : 0);
	if (m->index != R_NONE && m->index != R_RIP)
		a += reg_value(r, m->index) * m->scale;
	if (m->addr32)
		a &= 0xffffffffu;
	if (m->seg == 'f')
		a += r->fs_base;
	else if (m->seg == 'g')
		a += r->gs_base;
	return a;
}

/* --- blocks: straight-line runs whose addresses follow from their start ------ */

#define MAXBLOCK 4096

struct block {
	uint32_t n;		/* the last one is single-stepped */
	struct insn **ins;
	int32_t *rsp_off;	/* rsp at each, minus rsp at the start */
};

static struct table blocks;

static bool computable(const struct insn *in, uint32_t dirty, bool rsp_known)
{
	int k;

	for (k = 0; k < in->nmem; k++) {
		const struct mref *m = &in->mem[k];
		int r;

		for (r = 0; r < 2; r++) {
			int n = r ? m->index : m->base;

			if (n == R_RSP && !rsp_known)
				return false;
			if (n >= 0 && n < 16 && n != R_RSP && (dirty & (1u << n)))
				return false;
		}
	}
	return true;
}

static struct block *block_at(uint64_t start)
{
	struct block *b = table_get(&blocks, start);
	struct insn *tmp[MAXBLOCK];
	int32_t off[MAXBLOCK];
	uint64_t a = start;
	uint32_t dirty = 0;
	int32_t rsp = 0;
	bool rsp_known = true;

	if (b)
		return b;
	b = xcalloc(1, sizeof(*b));
	for (;;) {
		struct insn *in = decode(a);

		if (!in) {
			free(b);
			return NULL;
		}
		tmp[b->n] = in;
		off[b->n] = rsp;
		b->n++;
		if (in->term || b->n == MAXBLOCK || !computable(in, dirty, rsp_known))
			break;
		dirty |= in->writes;
		if (in->rsp_lost)
			rsp_known = false;
		else
			rsp += in->rsp_delta;
		a += in->size;
	}
	/*
	 * The last one is stepped from exact registers; an earlier one that
	 * is not computable ended the block above, so all before it are.
	 */
	b->ins = xcalloc(b->n, sizeof(*b->ins));
	b->rsp_off = xcalloc(b->n, sizeof(*b->rsp_off));
	memcpy(b->ins, tmp, b->n * sizeof(*tmp));
	memcpy(b->rsp_off, off, b->n * sizeof(*off));
	table_put(&blocks, start, b);
	return b;
}

/* --- the trace: recorded, or compared with the recording as it comes --------- */

static uint64_t filter_lo, filter_hi;

void ct_trace_filter(uint64_t lo, uint64_t hi)
{
	filter_lo = lo;
	filter_hi = hi;
}

static bool in_filter(uint64_t addr)
{
	return !filter_hi || (addr >= filter_lo && addr < filter_hi);
}

static struct {
	uint64_t *v;
	size_t n, cap;
	size_t insns;
} ref;

/* The run in progress. */
static struct {
	bool reference;
	size_t pos, insns, stops;
	bool differ, failed;
	char *why;
	size_t whysize;
	const char *label;
} cur;

static void push_ref(uint64_t v)
{
	if (ref.n == ref.cap) {
		ref.cap = ref.cap ? 2 * ref.cap : 1 << 20;
		ref.v = realloc(ref.v, ref.cap * sizeof(*ref.v));
		if (!ref.v) {
			fputs("Bail out! out of memory\n", stdout);
			exit(1);
		}
	}
	ref.v[ref.n++] = v;
}

static void report_insn_diff(uint64_t ra, uint64_t rb)
{
	char da[160], db[160];
	struct insn *ia = ra ? decode(ra) : NULL, *ib = rb ? decode(rb) : NULL;

	if (ra)
		ct_describe(ra, da, sizeof(da));
	if (rb)
		ct_describe(rb, db, sizeof(db));
	snprintf(cur.why, cur.whysize,
		 "%s: paths differ at instruction %zu: reference %s `%s`, this run %s `%s`",
		 cur.label, cur.insns, ra ? da : "(end)", ia ? ia->text : "",
		 rb ? db : "(end)", ib ? ib->text : "");
	cur.differ = true;
}

/* One executed instruction and its memory addresses. */
static void emit(const struct insn *in, const struct user_regs_struct *r, int64_t rsp_off)
{
	uint64_t addr[MAXMEM];
	int k;

	if (cur.differ || cur.failed)
		return;
	if (!in_filter(in->addr))
		return;
	if (in->vindex || in->unsupported) {
		char d[160];

		ct_describe(in->addr, d, sizeof(d));
		snprintf(cur.why, cur.whysize, "%s: %s `%s`: %s: not supported", cur.label, d,
			 in->text, in->vindex ? "a vector-indexed memory access (gather/scatter)"
					      : "an address this tracer cannot compute");
		cur.failed = true;
		return;
	}
	for (k = 0; k < in->nmem; k++)
		addr[k] = mref_address(in, &in->mem[k], r, rsp_off);
	if (cur.reference) {
		push_ref(in->addr);
		for (k = 0; k < in->nmem; k++)
			push_ref(addr[k]);
		cur.insns++;
		return;
	}
	if (cur.pos >= ref.n || ref.v[cur.pos] != in->addr) {
		report_insn_diff(cur.pos < ref.n ? ref.v[cur.pos] : 0, in->addr);
		return;
	}
	for (k = 0; k < in->nmem; k++) {
		if (ref.v[cur.pos + 1 + k] != addr[k]) {
			char d[160];

			ct_describe(in->addr, d, sizeof(d));
			snprintf(cur.why, cur.whysize,
				 "%s: memory addresses differ at instruction %zu, %s `%s`, "
				 "operand %d: reference 0x%llx, this run 0x%llx",
				 cur.label, cur.insns, d, in->text, k,
				 (unsigned long long)ref.v[cur.pos + 1 + k],
				 (unsigned long long)addr[k]);
			cur.differ = true;
			return;
		}
	}
	cur.pos += 1 + (size_t)in->nmem;
	cur.insns++;
}

/* --- breakpoints in the child ---------------------------------------------- */

static struct table bps;	/* installed in the current child: addr -> 1 */

static bool poke_byte(pid_t pid, uint64_t addr, uint8_t byte)
{
	long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)(uintptr_t)addr, NULL);
	if (errno)
		return false;
	word = (long)(((unsigned long)word & ~0xfful) | byte);
	return ptrace(PTRACE_POKETEXT, pid, (void *)(uintptr_t)addr, (void *)word) == 0;
}

static uint8_t own_byte(uint64_t addr)
{
	return *(const volatile uint8_t *)(uintptr_t)addr;
}

static bool bp_set(pid_t pid, uint64_t addr)
{
	if (table_get(&bps, addr))
		return true;
	if (!poke_byte(pid, addr, 0xcc))
		return false;
	table_put(&bps, addr, (void *)1);
	return true;
}

/* Every breakpoint out of the child, so that it may run on untraced. */
static bool bp_clear_all(pid_t pid)
{
	size_t i;
	bool good = true;

	for (i = 0; i < bps.cap; i++) {
		if (bps.keys[i] && bps.vals[i]) {
			good &= poke_byte(pid, bps.keys[i], own_byte(bps.keys[i]));
			bps.vals[i] = NULL;
		}
	}
	return good;
}

static void bp_forget(void)
{
	if (bps.cap) {
		memset(bps.keys, 0, bps.cap * sizeof(*bps.keys));
		memset(bps.vals, 0, bps.cap * sizeof(*bps.vals));
		bps.n = 0;
	}
}

/* --- the run ----------------------------------------------------------------- */

static bool fail(const char *what)
{
	if (!cur.failed && !cur.differ)
		snprintf(cur.why, cur.whysize, "%s: %s: %s", cur.label, what, strerror(errno));
	cur.failed = true;
	return false;
}

/* Waits for the child's next stop: 1 a SIGTRAP, 0 a SIGSTOP (the end), -1 else. */
static int wait_stop(pid_t pid, struct user_regs_struct *r)
{
	int status;

	cur.stops++;
	if (waitpid(pid, &status, __WALL) != pid)
		return fail("waitpid"), -1;
	if (!WIFSTOPPED(status)) {
		snprintf(cur.why, cur.whysize, "%s: the child ended inside the trace (status 0x%x)",
			 cur.label, status);
		cur.failed = true;
		return -1;
	}
	if (ptrace(PTRACE_GETREGS, pid, NULL, r) != 0)
		return fail("PTRACE_GETREGS"), -1;
	if (WSTOPSIG(status) == SIGSTOP)
		return 0;
	if (WSTOPSIG(status) != SIGTRAP) {
		snprintf(cur.why, cur.whysize, "%s: the child stopped by signal %d at 0x%llx",
			 cur.label, WSTOPSIG(status), (unsigned long long)r->rip);
		cur.failed = true;
		return -1;
	}
	return 1;
}

/* Capstone knows no instruction at addr (or one in the block from there). */
static void undecodable(uint64_t addr)
{
	char d[160], hex[3 * 16 + 1] = "";
	uint8_t code[16];
	struct iovec local = { code, sizeof(code) }, remote = { (void *)(uintptr_t)addr, sizeof(code) };
	ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0), i;

	for (i = 0; i < got; i++)
		snprintf(hex + 3 * i, 4, " %02x", code[i]);
	ct_describe(addr, d, sizeof(d));
	snprintf(cur.why, cur.whysize, "%s: capstone cannot decode the instruction at %s:%s",
		 cur.label, d, hex);
	cur.failed = true;
}

/*
 * Single-steps the instruction at r->rip (restoring and then putting back
 * a breakpoint there, if any); emits it if it ran.  Returns as wait_stop.
 */
static int step_one(pid_t pid, struct user_regs_struct *r, bool set_regs)
{
	struct insn *in = decode(r->rip);
	struct user_regs_struct before = *r;
	bool bp = table_get(&bps, r->rip) != NULL;
	int s;

	if (!in) {
		undecodable(r->rip);
		return -1;
	}
	if (bp && !poke_byte(pid, before.rip, own_byte(before.rip)))
		return fail("PTRACE_POKETEXT"), -1;
	if (set_regs && ptrace(PTRACE_SETREGS, pid, NULL, &before) != 0)
		return fail("PTRACE_SETREGS"), -1;
	if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) != 0)
		return fail("PTRACE_SINGLESTEP"), -1;
	s = wait_stop(pid, r);
	if (s < 0)
		return s;
	/* A SIGSTOP pending from the marker's syscall may stop it before it ran. */
	if (s == 1 || r->rip != before.rip)
		emit(in, &before, 0);
	if (bp && !poke_byte(pid, before.rip, 0xcc))
		return fail("PTRACE_POKETEXT"), -1;
	return s;
}

/*
 * The reference single-steps every instruction it records; the others go
 * a block at a time, from the registers at its start (so does the
 * reference outside the filter, where nothing is recorded).
 */
/* Whether a jcc jumps, by the flags; -1 for no jcc. */
static int jcc_taken(unsigned id, uint64_t f)
{
	bool cf = f & 0x1, pf = f & 0x4, zf = f & 0x40, sf = f & 0x80, of = f & 0x800;

	switch (id) {
	case X86_INS_JO: return of;
	case X86_INS_JNO: return !of;
	case X86_INS_JB: return cf;
	case X86_INS_JAE: return !cf;
	case X86_INS_JE: return zf;
	case X86_INS_JNE: return !zf;
	case X86_INS_JBE: return cf || zf;
	case X86_INS_JA: return !cf && !zf;
	case X86_INS_JS: return sf;
	case X86_INS_JNS: return !sf;
	case X86_INS_JP: return pf;
	case X86_INS_JNP: return !pf;
	case X86_INS_JL: return sf != of;
	case X86_INS_JGE: return sf == of;
	case X86_INS_JLE: return zf || sf != of;
	case X86_INS_JG: return !zf && sf == of;
	default: return -1;
	}
}

/*
 * A jump, jcc, call or ret done here instead of stepped (a stop saved):
 * its target from the registers (and the memory for an indirect one or a
 * ret), the return address pushed for a call.  Emits it.  1 done, 0 not
 * such a branch, -1 an error.
 */
static int emulate(pid_t pid, const struct insn *in, struct user_regs_struct *r)
{
	uint64_t next = in->addr + in->size, target = 0, slot;
	long word;
	int taken;

	if (!in->br)
		return 0;
	if (in->br_kind == 1) {
		target = in->br_target;
	} else if (in->br_kind == 2) {
		target = reg_value(r, in->br_reg);
	} else if (in->br_kind == 3 || in->br == BR_RET) {
		slot = in->br == BR_RET ? r->rsp : mref_address(in, &in->mem[0], r, 0);
		errno = 0;
		word = ptrace(PTRACE_PEEKDATA, pid, (void *)(uintptr_t)slot, NULL);
		if (errno)
			return fail("PTRACE_PEEKDATA"), -1;
		target = (uint64_t)word;
	}
	if (in->br == BR_JCC) {
		taken = jcc_taken(in->br_id, r->eflags);
		if (taken < 0)
			return 0;
		if (!taken)
			target = next;
	}
	emit(in, r, 0);
	if (in->br == BR_CALL) {
		if (ptrace(PTRACE_POKEDATA, pid, (void *)(uintptr_t)(r->rsp - 8),
			   (void *)(uintptr_t)next) != 0)
			return fail("PTRACE_POKEDATA"), -1;
		r->rsp -= 8;
	} else if (in->br == BR_RET) {
		r->rsp += 8;
	}
	r->rip = target;
	return 1;
}

static bool bp_remove(pid_t pid, uint64_t addr)
{
	size_t i;

	if (!bps.cap)
		return true;
	i = slot_of(&bps, addr);
	if (bps.keys[i] != addr || !bps.vals[i])
		return true;
	bps.vals[i] = NULL;
	return poke_byte(pid, addr, own_byte(addr));
}

/*
 * The reference single-steps every instruction it records; the others go
 * a block at a time, from the registers at its start (so does the
 * reference outside the filter, where nothing is recorded): to a
 * breakpoint at its end, which then starts the next block with exact
 * registers; a branch alone is emulated.
 */
static void run_blocks(pid_t pid, struct user_regs_struct *r)
{
	bool dirty = false;	/* r changed here: the child's must be set */

	while (!cur.failed && !cur.differ) {
		struct block *b = block_at(r->rip);
		struct user_regs_struct start = *r;
		uint64_t last;
		uint32_t j;
		int s;

		if (!b) {
			undecodable(r->rip);
			return;
		}
		if (cur.reference && in_filter(start.rip)) {
			if (step_one(pid, r, dirty) != 1)
				return;
			dirty = false;
			continue;
		}
		if (b->n == 1) {
			s = emulate(pid, b->ins[0], r);
			if (s < 0)
				return;
			if (s == 1) {
				dirty = true;
				continue;
			}
			if (step_one(pid, r, dirty) != 1)
				return;
			dirty = false;
			continue;
		}
		/* Another block's end here: not needed while this one runs. */
		if (!bp_remove(pid, start.rip)) {
			fail("PTRACE_POKETEXT");
			return;
		}
		last = b->ins[b->n - 1]->addr;
		if (!bp_set(pid, last)) {
			fail("PTRACE_POKETEXT");
			return;
		}
		if (dirty && ptrace(PTRACE_SETREGS, pid, NULL, r) != 0) {
			fail("PTRACE_SETREGS");
			return;
		}
		dirty = false;
		if (ptrace(PTRACE_CONT, pid, NULL, NULL) != 0) {
			fail("PTRACE_CONT");
			return;
		}
		s = wait_stop(pid, r);
		if (s < 0)
			return;
		/* Stopped at a breakpoint (rip past its int3), or by the marker. */
		if (s == 1)
			r->rip--;
		for (j = 0; j < b->n && b->ins[j]->addr != r->rip; j++)
			;
		if (j == b->n || (s == 1 && !table_get(&bps, r->rip))) {
			snprintf(cur.why, cur.whysize,
				 "%s: the child stopped at 0x%llx, off the block from 0x%llx",
				 cur.label, (unsigned long long)r->rip,
				 (unsigned long long)start.rip);
			cur.failed = true;
			return;
		}
		for (uint32_t k = 0; k < j; k++)
			emit(b->ins[k], &start, b->rsp_off[k]);
		if (s == 0)
			return;
		/* The breakpoint's instruction starts the next block, exactly. */
		if (!bp_remove(pid, r->rip)) {
			fail("PTRACE_POKETEXT");
			return;
		}
		dirty = true;
	}
}

/*
 * The runs are forks of one idle process, the zygote, forked once from
 * this one: every run starts from the same memory, heap included (this
 * process's own allocations go on between runs, and libcrypto's heap
 * addresses are compared inside zinc.so).  The tracer sends it a
 * function and its argument; it forks a run and answers with its pid;
 * the tracer attaches (PTRACE_SEIZE: the run is its descendant) and lets
 * the run go on, which then calls the function.
 */
struct zmsg {
	int (*fn)(void *);
	size_t argsize;
	unsigned char arg[CT_ARG_MAX];
};

static int zreq = -1, zresp = -1, zgo = -1;
static pid_t zygote = -1;

static bool read_full(int fd, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t got = read(fd, p, len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		p += got;
		len -= (size_t)got;
	}
	return true;
}

static bool write_full(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t put = write(fd, p, len);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return false;
		p += put;
		len -= (size_t)put;
	}
	return true;
}

static void __attribute__((noreturn)) zygote_main(int req, int resp, int go)
{
	static struct zmsg m;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = SA_NOCLDWAIT;	/* the runs reap themselves */
	sigaction(SIGCHLD, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (read_full(req, &m, sizeof(m))) {
		pid_t pid = fork();
		char c;

		if (pid == 0) {
			close(req);
			close(resp);
			if (!read_full(go, &c, 1))
				_exit(2);
			traced = 1;
			_exit(m.fn(m.arg) ? 3 : 0);
		}
		if (!write_full(resp, &pid, sizeof(pid)))
			break;
	}
	_exit(0);
}

static bool zygote_start(void)
{
	int a[2], b2[2], c[2];

	if (zygote > 0)
		return true;
	if (pipe(a) || pipe(b2) || pipe(c))
		return false;
	fflush(stdout);
	fflush(stderr);
	zygote = fork();
	if (zygote < 0)
		return false;
	if (zygote == 0) {
		close(a[1]);
		close(b2[0]);
		close(c[1]);
		zygote_main(a[0], b2[1], c[0]);
	}
	close(a[0]);
	close(b2[1]);
	close(c[0]);
	zreq = a[1];
	zresp = b2[0];
	zgo = c[1];
	return true;
}

/* A run of fn(arg), attached and let go; -1 with why set if not. */
static pid_t spawn(int (*fn)(void *), const void *arg, size_t argsize)
{
	struct zmsg m;
	pid_t pid;

	memset(&m, 0, sizeof(m));
	m.fn = fn;
	m.argsize = argsize;
	memcpy(m.arg, arg, argsize);
	if (!zygote_start()) {
		fail("starting the zygote");
		return -1;
	}
	if (!write_full(zreq, &m, sizeof(m)) || !read_full(zresp, &pid, sizeof(pid)) || pid < 0) {
		fail("the zygote's fork");
		return -1;
	}
	if (ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)PTRACE_O_EXITKILL) != 0) {
		int e = errno;

		kill(pid, SIGKILL);
		errno = e;
		fail(e == EPERM ? "PTRACE_SEIZE refused" : "PTRACE_SEIZE");
		return -1;
	}
	if (!write_full(zgo, "g", 1)) {
		kill(pid, SIGKILL);
		fail("letting the run go");
		return -1;
	}
	return pid;
}

enum ct_outcome ct_trace_run(int (*fn)(void *), const void *arg, size_t argsize, bool reference,
			     const char *label, struct ct_stats *stats, char *why, size_t whysize)
{
	struct user_regs_struct r;
	int status = 0;
	pid_t pid;

	memset(&cur, 0, sizeof(cur));
	cur.reference = reference;
	cur.why = why;
	cur.whysize = whysize;
	cur.label = label;
	if (reference) {
		ref.n = 0;
		ref.insns = 0;
	}
	bp_forget();
	if (argsize > CT_ARG_MAX) {
		snprintf(why, whysize, "%s: argument too large", label);
		return CT_FAILED;
	}
	pid = spawn(fn, arg, argsize);
	if (pid < 0)
		return CT_FAILED;
	/* The first marker. */
	if (waitpid(pid, &status, __WALL) != pid || !WIFSTOPPED(status) ||
	    WSTOPSIG(status) != SIGSTOP) {
		snprintf(why, whysize, "%s: the child did not reach its first marker "
			 "(status 0x%x)", label, status);
		kill(pid, SIGKILL);
		waitpid(pid, &status, __WALL);
		return CT_FAILED;
	}
	if (ptrace(PTRACE_GETREGS, pid, NULL, &r) != 0) {
		fail("PTRACE_GETREGS");
	} else {
		run_blocks(pid, &r);
	}
	if (!cur.failed && !cur.differ && !reference && cur.pos != ref.n)
		report_insn_diff(ref.v[cur.pos], 0);
	if (reference)
		ref.insns = cur.insns;
	if (stats) {
		stats->insns = cur.insns;
		stats->stops = cur.stops;
	}
	if (cur.failed || cur.differ) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, __WALL);
		return cur.failed ? CT_FAILED : CT_DIFFER;
	}
	/* Let it finish, untraced code and all: it checks its results. */
	if (!bp_clear_all(pid) || ptrace(PTRACE_CONT, pid, NULL, NULL) != 0 ||
	    waitpid(pid, &status, __WALL) != pid)
		status = -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
			snprintf(why, whysize, "%s: the results are not what the case expects",
				 label);
		else if (status != -1 && WIFSTOPPED(status) &&
			 ptrace(PTRACE_GETREGS, pid, NULL, &r) == 0)
			snprintf(why, whysize, "%s: the child stopped by signal %d after the trace, "
				 "at 0x%llx (flags 0x%llx)", label, WSTOPSIG(status),
				 (unsigned long long)r.rip, (unsigned long long)r.eflags);
		else
			snprintf(why, whysize, "%s: the child failed after the trace (status 0x%x)",
				 label, status);
		kill(pid, SIGKILL);
		waitpid(pid, &status, __WALL);
		return CT_FAILED;
	}
	return CT_SAME;
}

/* --- naming addresses: dladdr, then the object's own symbol table ------------ */

struct symfile {
	char path[256];
	Elf64_Sym *syms;
	size_t nsyms;
	const char *strs;
	void *map;
	size_t mapsize;
};

static struct symfile symfiles[8];
static size_t nsymfiles;

static struct symfile *symfile_for(const char *path)
{
	struct symfile *f;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct stat st;
	size_t i;
	int fd;

	for (i = 0; i < nsymfiles; i++)
		if (strcmp(symfiles[i].path, path) == 0)
			return &symfiles[i];
	if (nsymfiles == sizeof(symfiles) / sizeof(symfiles[0]))
		return NULL;
	f = &symfiles[nsymfiles++];
	snprintf(f->path, sizeof(f->path), "%s", path);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return f;
	if (fstat(fd, &st) == 0 && (size_t)st.st_size > sizeof(*eh)) {
		f->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (f->map == MAP_FAILED)
			f->map = NULL;
		else
			f->mapsize = (size_t)st.st_size;
	}
	close(fd);
	if (!f->map)
		return f;
	eh = f->map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > f->mapsize)
		return f;
	sh = (const Elf64_Shdr *)((const char *)f->map + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		if (sh[i].sh_offset + sh[i].sh_size > f->mapsize ||
		    sh[sh[i].sh_link].sh_offset + sh[sh[i].sh_link].sh_size > f->mapsize)
			continue;
		f->syms = (Elf64_Sym *)((char *)f->map + sh[i].sh_offset);
		f->nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
		f->strs = (const char *)f->map + sh[sh[i].sh_link].sh_offset;
	}
	return f;
}

void ct_describe(uint64_t addr, char *buf, size_t size)
{
	Dl_info info;
	const char *obj, *fn = NULL;
	uint64_t off, best = 0, fnoff = 0;
	struct symfile *f;
	size_t i;

	if (!dladdr((void *)(uintptr_t)addr, &info) || !info.dli_fname) {
		snprintf(buf, size, "0x%llx (in no loaded object)", (unsigned long long)addr);
		return;
	}
	off = addr - (uintptr_t)info.dli_fbase;
	obj = strrchr(info.dli_fname, '/') ? strrchr(info.dli_fname, '/') + 1 : info.dli_fname;
	if (info.dli_sname && info.dli_saddr) {
		fn = info.dli_sname;
		fnoff = addr - (uintptr_t)info.dli_saddr;
	}
	/* Hidden and local functions: only the symbol table has them. */
	f = symfile_for(*info.dli_fname ? info.dli_fname : "/proc/self/exe");
	for (i = 0; f && i < f->nsyms; i++) {
		const Elf64_Sym *s = &f->syms[i];

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_value > off)
			continue;
		if (s->st_size && off < s->st_value + s->st_size) {
			fn = f->strs + s->st_name;
			fnoff = off - s->st_value;
			break;
		}
		if (!s->st_size && s->st_value >= best && !info.dli_sname) {
			best = s->st_value;
			fn = f->strs + s->st_name;
			fnoff = off - s->st_value;
		}
	}
	if (fn)
		snprintf(buf, size, "%s+0x%llx (%s+0x%llx)", fn, (unsigned long long)fnoff, obj,
			 (unsigned long long)off);
	else
		snprintf(buf, size, "0x%llx (%s+0x%llx)", (unsigned long long)addr, obj,
			 (unsigned long long)off);
}
#else
/* Not Linux x86_64, or no capstone: the drivers say so and trace nothing. */
typedef int ct_trace_absent;
#endif
