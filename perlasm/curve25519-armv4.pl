#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# X25519 Montgomery ladder for ARMv7 with NEON, driven by
# provider/crypto/curve25519-armv4-glue.c.  One source for ARM and Thumb-2.
#
#   void zinc_x25519_ladder_neon(uint32_t xz[20], const uint8_t k[32],
#                                const uint32_t x1[10]);
#       Runs the 255 ladder steps (RFC 7748 section 5, bits 254..0) of the
#       CLAMPED scalar k on the u-coordinate x1 (10 limbs, radix 2^25.5,
#       each within its width, as the portable fe_frombytes makes them) and
#       writes x2 to xz[0..9] and z2 to xz[10..19], carried limbs of the
#       portable 32-bit field.  The glue then computes x2 / z2 with the
#       portable z^(p-2) inversion, fe_mul and fe_tobytes (full reduction,
#       encoding): only the ladder is assembly.
#
# Design, after the ideas of Bernstein and Schwabe, "NEON crypto" (CHES
# 2012), written from scratch here.  A field element has 10 limbs of
# alternately 26 and 25 bits (limb i at bit ceil(25.5 i)), as in the
# portable 32-bit field.  Two field elements travel together as a "pair":
# 10 doublewords, limb i of both in one D register, lane 0 (low word) the
# first element and lane 1 the second; a pair is 80 bytes on the stack.
# VMULL/VMLAL.U32 on D registers multiply both lanes at once into 64-bit
# lanes, so one pass of the schoolbook product computes two independent
# field multiplications.  The ladder state is kept as the pairs
# XZ2 = (x2 | z2) and XZ3 = (x3 | z3), and one step is
#
#   swap XZ2, XZ3 under a mask from the scalar bit      (VAND/VEOR, no branch)
#   AB = (x2 + z2 | x2 - z2),  DC = (x3 - z3 | x3 + z3)  (lane shuffles)
#   M1 = DC * AB = (DA | CB),  M2 = AB * AB = (AA | BB)
#   S  = (DA + CB | CB - DA),  M3 = S * S = (x3 | (DA - CB)^2)
#   L  = (AA | E),  R = (BB | AA + 121665 E),  E = AA - BB
#   XZ2 = L * R = (AA BB | E (AA + a24 E))
#   XZ3 = M3 * (1 | x1) = (x3 | x1 (DA - CB)^2)
#
# i.e. five paired operations for the nine products of a step: three
# multiplications and two squarings (M2, M3: 55 products per lane instead
# of 100, see fsq).  Differences add 2p first and take the opposite lane
# by VREV64 and XOR with a lane mask plus one (two's complement), so
# nothing wraps; operands of a multiplication stay within three times
# their nominal limb width, as in the portable code.
#
# Multiplication (both lanes): column k = sum f_i g_j over i + j = k and
# 19 f_i g_j over i + j = k + 10, doubled when i and j are both odd.  The
# f limbs (10) and 2 f_i for odd i (5) stay in d16-d30; the g limbs are
# streamed one per row with 19 g_j made by VMUL.I32 on the fly.  Ten 64-bit
# column accumulators do not fit next to f, so columns 0-4 are formed
# first (q0-q4, spilled to a scratch pair), then 5-9.  Carries then run as
# two interleaved chains, 0->1->..->5 and 5->6->..->9->0 (times 19, as
# c + 2c + 16c) and a last 5->6, 0->1, with VSRA/VAND; VMOVN narrows the
# 64-bit lanes back to a pair.  Bounds: columns below 2^62.2 (as in the
# portable fe_mul), every carried limb below 2^26 + 2^16.
#
# Register map (NEON):
#   multiplication   d16-d25 f limbs, d26-d30 doubled odd f limbs,
#                    d10 g_j (both lanes), d11 19 g_j, d14 {19, 19},
#                    q0-q4 column accumulators
#   squaring         as in fsq's comment; d10, d11, d14, q0-q4 as above
#   carry            q8-q12 columns 0-4, q0-q4 columns 5-9,
#                    q13 2^26-1, q14 2^25-1, q15 temporary
#   add/sub          q12 lane-1 mask, q13 lane-0 mask, q15 swap mask
# Integer: r0 out, r1 k, r8 bit index t (254 down to 0, public), r9 the
# previous scalar bit, r10 the constant table, r2-r7, r11, r12 pointers
# and temporaries.
#
# Constant time: the scalar bit only becomes a mask (0 - (bit ^ prev))
# duplicated into q15; the byte of k read at step t depends on t alone.
# The stack frame (11 pairs) and q0-q15 are zeroed before returning.
#
# Expected cycles: an ESTIMATE from this code's instruction counts and
# published NEON issue costs, not a measurement (qemu times nothing).
# One ladder step issues 420 VMULL/VMLAL.U32 (3 x 100 in the paired
# multiplications, 2 x 55 in the paired squarings, 10 for a24), 53
# VMUL.I32 (19 g_j, only for rows where a column wraps), 441 other NEON
# data-processing instructions (carries, narrowing, doublings, additions,
# swap), 245 NEON loads and stores and 56 integer instructions.
#   Cortex-A8: 32-bit VMULL/VMLAL and VMUL.I32 issue in 2 cycles, the rest
#     in 1; loads, stores and integer work pair with them.  About
#     840 + 106 + 441 = 1390 cycles, say 1470 with stalls on the loaded
#     g row: 255 steps about 375k cycles.
#   Cortex-A7: assumed the same issue costs without that pairing: about
#     1700 per step, 435k per ladder.
#   Cortex-A15: one 32-bit multiply-accumulate per cycle, two NEON ALU
#     pipes: about 800 per step (the carry chains' latency shows), 205k.
# The portable inversion and final multiplication (254 squarings and 12
# multiplications in C, UMULL/UMLAL) add about 70k (A8, A7) or 45k (A15):
# about 445k cycles per X25519 on the A8, 505k on the A7, 250k on the A15.
# Hand scheduling (loads and carries interleaved with independent
# multiplications, as Bernstein and Schwabe did) could hide more latency;
# this code favours being checkably right.
use strict;
use warnings;
use zinc_arm;

die "$0: ARMv7 code: the flavour must be linux32\n" if ($ARGV[0] // '') ne 'linux32';
my $file = asm_open(@ARGV);

# --- frame: pairs of field elements, 80 bytes each ----------------------------
my %slot;
{
	my $off = 0;
	for my $name (qw(XZ2 XZ3 X1ONE AB DC M1 M2 S L R SCR)) {
		$slot{$name} = $off;
		$off += 80;
	}
}
my $FRAME = 11 * 80;	# 880: an ARM and Thumb-2 immediate

# Constant table offsets (from r10).
my ($T_CL1, $T_CL0, $T_2P, $T_A24) = (0, 80, 160, 240);

my $out = '';
sub emit { $out .= join('', map { "\t$_\n" } @_); }

sub ptr {
	my ($reg, $name) = @_;
	die "no slot $name\n" unless defined $slot{$name};
	emit("add	$reg, sp, #$slot{$name}");
}

# The 64-bit accumulator of column n in the carry layout.
sub T { my ($n) = @_; return $n < 5 ? 'q' . (8 + $n) : 'q' . ($n - 5); }

# Carries q8-q12 (columns 0-4) and q0-q4 (columns 5-9), narrows them to a
# pair and stores it at [r7].
sub carry_store {
	emit("vmov.i64	q13, #0xffffffffffffffff",
	     "vshr.u64	q13, q13, #38",		# 2^26 - 1
	     "vshr.u64	q14, q13, #1");		# 2^25 - 1
	my $c = sub {
		my ($i) = @_;
		my ($w, $m) = ($i & 1) ? (25, 'q14') : (26, 'q13');
		if ($i == 9) {
			emit("vshr.u64	q15, " . T(9) . ", #25",
			     "vand	" . T(9) . ", " . T(9) . ", q14",
			     "vadd.i64	" . T(0) . ", " . T(0) . ", q15",
			     "vshl.u64	q15, q15, #1",
			     "vadd.i64	" . T(0) . ", " . T(0) . ", q15",
			     "vshl.u64	q15, q15, #3",
			     "vadd.i64	" . T(0) . ", " . T(0) . ", q15");
		} else {
			emit("vsra.u64	" . T($i + 1) . ", " . T($i) . ", #$w",
			     "vand	" . T($i) . ", " . T($i) . ", $m");
		}
	};
	$c->($_) for (0, 5, 1, 6, 2, 7, 3, 8, 4, 9, 5, 0);
	# Narrow: h0-h4 to d16-d20, h5-h9 to d0-d4 (each source is read
	# before the register holding it is overwritten).
	emit("vmovn.i64	d" . (16 + $_) . ", q" . (8 + $_)) for 0 .. 4;
	emit("vmovn.i64	d$_, q$_") for 0 .. 4;
	emit("vst1.64	{d16-d19}, [r7]!",
	     "vst1.64	{d20}, [r7]!",
	     "vst1.64	{d0-d3}, [r7]!",
	     "vst1.64	{d4}, [r7]");
}

# The columns of a product into the carry layout, then carry_store to dst:
# row j streams g_j (d10) and 19 g_j (d11, used where i + j >= 10) from
# the pair g; $fside->(i, j) names the f-side register of the term
# f_i g_j, or undef to leave the term out.
sub columns {
	my ($dst, $g, $fside) = @_;
	ptr('r5', $g);
	ptr('r6', 'SCR');
	for my $half (0, 1) {
		my @cols = $half ? (5 .. 9) : (0 .. 4);
		my %started;
		for my $j (0 .. 9) {
			my @terms;
			for my $k (@cols) {
				my $i = ($k - $j) % 10;
				my $fr = $fside->($i, $j);
				push @terms, [$k, $fr, $j > $k ? 'd11' : 'd10'] if defined $fr;
			}
			emit("vld1.64	{d10}, [r5]!");
			emit("vmul.i32	d11, d10, d14") if grep { $_->[2] eq 'd11' } @terms;
			for (@terms) {
				my ($k, $fr, $gr) = @$_;
				my $op = $started{$k}++ ? 'vmlal.u32' : 'vmull.u32';
				emit("$op	q" . ($k - $cols[0]) . ", $fr, $gr");
			}
		}
		die "column missing\n" unless keys %started == 5;
		if ($half == 0) {
			emit("vst1.64	{d0-d3}, [r6]!",
			     "vst1.64	{d4-d7}, [r6]!",
			     "vst1.64	{d8-d9}, [r6]",
			     "sub	r5, r5, #80",
			     "sub	r6, r6, #64");
		}
	}
	emit("vld1.64	{d16-d19}, [r6]!",
	     "vld1.64	{d20-d23}, [r6]!",
	     "vld1.64	{d24-d25}, [r6]");
	ptr('r7', $dst);
	carry_store();
}

# dst = f * g, both lanes; dst may be f or g.  f_i in d16-d25, 2 f_i for
# odd i in d26-d30 (products of two odd limbs count twice).
sub fmul {
	my ($dst, $f, $g) = @_;
	ptr('r4', $f);
	emit("vld1.64	{d16-d19}, [r4]!",
	     "vld1.64	{d20-d23}, [r4]!",
	     "vld1.64	{d24-d25}, [r4]",
	     "vmov.i32	d14, #19");
	emit("vadd.i32	d" . (26 + $_) . ", d" . (17 + 2 * $_) . ", d" . (17 + 2 * $_)) for 0 .. 4;
	columns($dst, $g, sub {
		my ($i, $j) = @_;
		return ($i & 1) && ($j & 1) ? 'd' . (26 + ($i - 1) / 2) : 'd' . (16 + $i);
	});
}

# dst = f^2, both lanes, 55 products instead of 100: row j (19 f_j where
# it wraps) meets only i <= j, a cross term (i < j) taking 2 f_i, or
# 4 f_i when both are odd, and the square term f_j (2 f_j for odd j).
# Registers: 2 f_i (i < 9) d16-d24, 4 f_i (i = 1, 3, 5, 7) d25-d28,
# f_i (even i) d29-d31, d12, d13, and 2 f_9 d15.
# Limbs of 2 f_i and 4 f_i stay below 2^32 for operands within three
# times their width; the columns are those of the portable fe_sq.
sub fsq {
	my ($dst, $f) = @_;
	my @f1 = ('d29', 'd30', 'd31', 'd12', 'd13');		# f_i, even i
	ptr('r4', $f);
	emit("vld1.64	{d0-d3}, [r4]!",
	     "vld1.64	{d4-d7}, [r4]!",
	     "vld1.64	{d8-d9}, [r4]",
	     "vmov.i32	d14, #19");
	emit("vadd.i32	d" . (16 + $_) . ", d$_, d$_") for 0 .. 8;	# 2 f_i, i < 9
	emit("vadd.i32	d15, d9, d9");				# 2 f_9
	emit("vadd.i32	d" . (25 + $_) . ", d" . (17 + 2 * $_) . ", d" . (17 + 2 * $_)) for 0 .. 3;
	emit("vmov	$f1[$_], d" . (2 * $_)) for 0 .. 4;
	columns($dst, $f, sub {
		my ($i, $j) = @_;
		return undef if $i > $j;
		if ($i == $j) {
			return $i == 9 ? 'd15' : ($i & 1) ? 'd' . (16 + $i) : $f1[$i / 2];
		}
		return ($i & 1) && ($j & 1) ? 'd' . (25 + ($i - 1) / 2) : 'd' . (16 + $i);
	});
}

# Swap XZ2 and XZ3 under the mask in q15, then
# AB = (x2 + z2 | x2 - z2 + 2p) and DC = (x3 - z3 + 2p | x3 + z3).
# With y = the lane-swapped x: AB = y + (x ^ m1) + (0 | 2p + 1) and
# DC = x + (y ^ m0) + (2p + 1 | 0), as ~a + 1 = -a.
sub swap_ab_dc {
	ptr('r4', 'XZ2');
	ptr('r5', 'XZ3');
	ptr('r6', 'AB');
	ptr('r7', 'DC');
	emit("add	r2, r10, #$T_CL1",
	     "add	r3, r10, #$T_CL0",
	     "vmov.i64	q12, #0xffffffff00000000",
	     "vmov.i64	q13, #0x00000000ffffffff");
	for (0 .. 4) {
		emit("vld1.64	{d0-d1}, [r4]!",
		     "vld1.64	{d2-d3}, [r5]!",
		     "vld1.64	{d4-d5}, [r2]!",
		     "vld1.64	{d6-d7}, [r3]!",
		     "veor	q8, q0, q1",
		     "vand	q8, q8, q15",
		     "veor	q0, q0, q8",
		     "veor	q1, q1, q8",
		     "veor	q9, q0, q12",
		     "vrev64.32	q0, q0",
		     "vadd.i32	q0, q0, q9",
		     "vadd.i32	q0, q0, q2",
		     "vrev64.32	q9, q1",
		     "veor	q9, q9, q13",
		     "vadd.i32	q1, q1, q9",
		     "vadd.i32	q1, q1, q3",
		     "vst1.64	{d0-d1}, [r6]!",
		     "vst1.64	{d2-d3}, [r7]!");
	}
}

# S = (DA + CB | CB - DA + 2p) from M1 = (DA | CB).
sub make_s {
	ptr('r4', 'M1');
	ptr('r6', 'S');
	emit("add	r2, r10, #$T_CL1",
	     "vmov.i64	q12, #0xffffffff00000000");
	for (0 .. 4) {
		emit("vld1.64	{d0-d1}, [r4]!",
		     "vld1.64	{d4-d5}, [r2]!",
		     "vrev64.32	q9, q0",
		     "veor	q9, q9, q12",
		     "vadd.i32	q0, q0, q9",
		     "vadd.i32	q0, q0, q2",
		     "vst1.64	{d0-d1}, [r6]!");
	}
}

# From M2 = (AA | BB): L = (AA | E) with E = AA - BB + 2p, and
# R = (BB | AA + 121665 E), carried.
sub make_lr {
	ptr('r4', 'M2');
	ptr('r6', 'L');
	ptr('r7', 'R');
	emit("add	r2, r10, #$T_2P",
	     "vmov.i64	q12, #0xffffffff00000000",
	     "vmov.i64	q13, #0x00000000ffffffff");
	# Pass 1: L, and (0 | E) parked in R.
	for (0 .. 4) {
		emit("vld1.64	{d0-d1}, [r4]!",
		     "vld1.64	{d4-d5}, [r2]!",
		     "vmov	q1, q0",
		     "vtrn.32	q0, q1",		# q0 = (AA | AA), q1 = (BB | BB)
		     "vsub.i32	q3, q0, q1",
		     "vadd.i32	q3, q3, q2",		# (E | E)
		     "vbif	q0, q3, q13",		# (AA | E)
		     "vand	q3, q3, q12",		# (0 | E)
		     "vst1.64	{d0-d1}, [r6]!",
		     "vst1.64	{d6-d7}, [r7]!");
	}
	# Pass 2: the 64-bit lanes (BB | AA) + 121665 (0 | E), then carry.
	ptr('r4', 'M2');
	ptr('r5', 'R');
	emit("add	r2, r10, #$T_A24",
	     "vld1.32	{d15[]}, [r2]");
	for my $i (0 .. 4) {
		my ($a, $b) = (T(2 * $i), T(2 * $i + 1));
		emit("vld1.64	{d12-d13}, [r4]!",
		     "vld1.64	{d10-d11}, [r5]!",
		     "vrev64.32	q6, q6",
		     "vmull.u32	$a, d10, d15[0]",
		     "vmull.u32	$b, d11, d15[0]",
		     "vaddw.u32	$a, $a, d12",
		     "vaddw.u32	$b, $b, d13");
	}
	ptr('r7', 'R');
	carry_store();
}

# --- constants ---------------------------------------------------------------
my @twop = map { $_ == 0 ? 2 * (2**26 - 19) : ($_ & 1) ? 2 * (2**25 - 1) : 2 * (2**26 - 1) } 0 .. 9;
my $table = local_label('x25519_neon_consts');
code(".p2align	4\n$table:\n");
code("\t.long\t0, " . ($twop[$_] + 1) . "\n") for 0 .. 9;	# CL1: (0 | 2p + 1)
code("\t.long\t" . ($twop[$_] + 1) . ", 0\n") for 0 .. 9;	# CL0: (2p + 1 | 0)
code("\t.long\t$twop[$_], $twop[$_]\n") for 0 .. 9;		# 2P
code("\t.long\t121665, 121665\n");				# A24

# --- the ladder --------------------------------------------------------------
my $loop = local_label('x25519_neon_step');
my $wipe = local_label('x25519_neon_wipe');

$out .= save_regs('r3-r11', 'lr') . save_regs('d8-d15') . stack_alloc($FRAME);
emit("adr	r10, $table");
# XZ2 = (1 | 0), XZ3 = (x1 | 1), X1ONE = (1 | x1).
emit("mov	r4, #0",
     "mov	r5, #1");
for my $i (0 .. 9) {
	my $o = 8 * $i;
	emit("ldr	r3, [r2, #" . (4 * $i) . "]",
	     "str	" . ($i ? 'r4' : 'r5') . ", [sp, #" . ($slot{XZ2} + $o) . "]",
	     "str	r4, [sp, #" . ($slot{XZ2} + $o + 4) . "]",
	     "str	r3, [sp, #" . ($slot{XZ3} + $o) . "]",
	     "str	" . ($i ? 'r4' : 'r5') . ", [sp, #" . ($slot{XZ3} + $o + 4) . "]",
	     "str	" . ($i ? 'r4' : 'r5') . ", [sp, #" . ($slot{X1ONE} + $o) . "]",
	     "str	r3, [sp, #" . ($slot{X1ONE} + $o + 4) . "]");
}
emit("mov	r8, #254",
     "mov	r9, #0");
$out .= "$loop:\n";
# bit = k[t >> 3] >> (t & 7) & 1; mask = 0 - (bit ^ previous bit).
emit("lsr	r3, r8, #3",
     "ldrb	r3, [r1, r3]",
     "and	r11, r8, #7",
     "lsr	r3, r3, r11",
     "and	r3, r3, #1",
     "eor	r11, r3, r9",
     "mov	r9, r3",
     "rsb	r11, r11, #0",
     "vdup.32	q15, r11");
swap_ab_dc();
fmul('M1', 'DC', 'AB');
fsq('M2', 'AB');
make_s();
fsq('M1', 'S');
make_lr();
fmul('XZ2', 'L', 'R');
fmul('XZ3', 'M1', 'X1ONE');
emit("subs	r8, r8, #1",
     "bpl	$loop");
# Bit 0 of a clamped scalar is 0: the final swap is the identity.
# Out: x2 = lane 0, z2 = lane 1.
ptr('r4', 'XZ2');
emit("vld1.64	{d0-d3}, [r4]!",
     "vld1.64	{d4-d7}, [r4]!",
     "vld1.64	{d8-d9}, [r4]");
emit("vst1.32	{d$_\[0]}, [r0]!") for 0 .. 9;
emit("vst1.32	{d$_\[1]}, [r0]!") for 0 .. 9;
# Wipe the frame and the NEON registers; d8-d15 are restored after.
emit("vmov.i32	q$_, #0") for 0 .. 15;
emit("mov	r4, sp",
     "mov	r3, #" . ($FRAME / 16));
$out .= "$wipe:\n";
emit("vst1.64	{d0-d1}, [r4]!",
     "subs	r3, r3, #1",
     "bne	$wipe",
     "add	sp, sp, #$FRAME",
     "vpop	{d8-d15}",
     "pop	{r3-r11, pc}");

function_begin('zinc_x25519_ladder_neon');
code($out);
function_end('zinc_x25519_ladder_neon');

asm_close($file);
