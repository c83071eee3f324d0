#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# X25519 (RFC 7748) for AArch64, driven by provider/crypto/curve25519-armv8-glue.c.
#
#   void zinc_x25519_ladder_armv8(uint8_t out[32], const uint8_t scalar[32],
#                                 const uint8_t u[32]);
#       out = X25519(scalar, u): clamps the scalar, ignores bit 255 of u,
#       writes the canonical (fully reduced) u-coordinate, little-endian.
#       The glue also computes public keys with it (u = 9).
#
# Field: p = 2^255 - 19 in four 64-bit limbs, every value kept below 2^256
# (not necessarily below p) and fully reduced only for output.  Each field
# operation is a Perl sub emitting inline code that loads its operands
# from the stack frame and stores its result there: no call per operation.
#   mul   schoolbook 4x4 with MUL/UMULH (16 + 16), one row of a[i] b at a
#         time: an ADDS/ADCS chain for the low halves, one for the high
#         halves; then the 512-bit product folds: lo + 38 hi (2^256 = 38
#         mod p, 4 MUL + 4 UMULH), the carry word times 38 once more, and
#         a last carry out (only when the sum wrapped, so its low limb is
#         tiny) adds 38 with CSEL: result < 2^256.
#   sq    the 6 cross products once (MUL/UMULH), doubled by an ADDS/ADCS
#         chain, plus the 4 squares: 10 + 10 instead of 16 + 16.
#   mul121665 (a24 = (A - 2) / 4): 4 + 4 products, then the same fold.
#   add   a carry out of 2^256 is worth 38: added with CSEL, twice (the
#         second can only happen after a wrap and then cannot carry again).
#   sub   the 2p bias applied on demand: a borrow means the difference
#         wrapped by 2^256; subtracting 38 more adds 2^256 - 38 = 2p in
#         all, twice at most (CSEL on the borrow, no branch).
# Final reduction (constant time): fold bit 255 (times 19), giving
# v < 2^255 + 19 < 2p; w = v + 19 has bit 255 set exactly when v >= p, and
# then w - 2^255 = v - p is selected with CSEL.
#
# Ladder: RFC 7748 section 5, 255 steps over bits 254..0 of the clamped
# scalar (bit 255 is 0, bit 254 is 1; bit 0 is 0, so the final swap is the
# identity and is left out).  The conditional swap of (x2, z2) and (x3, z3)
# is CSEL on "swap ^ bit" after one CMP: no branch, and the scalar word is
# loaded at an index from the public loop counter only.  Then
# z2^(p - 2) by the fixed addition chain (254 squarings, 11 multiplications,
# as the portable C), its squaring runs as counted loops (public counts),
# x2 * 1/z2, the final reduction, the store.  The stack frame (all field
# elements, the clamped scalar) is zeroed before returning.
#
# Register map
#   x0        out (kept to the end)
#   x1        ladder bit index / inversion loop counter, scratch
#   x2        the previous step's bit (swap state)
#   x3-x6     a0-a3, the first operand
#   x7-x10    b0-b3, the second operand (x7 = 121665 in mul121665)
#   x11-x17, x19   t0-t7, the product / result limbs
#   x20-x23   l0-l3, x24-x27 h0-h3: low and high product halves
#   x28       the constant 38
#   x30       frame base: sp + 512, so that LDP/STP's signed offsets
#             (-512..504) reach every slot
#   x18 is never touched (the platform register on Apple); x19-x28, x29,
#   x30 are saved and restored; sp stays 16-byte aligned.
#
# Expected cycles: an ESTIMATE for Cortex-A72, from the instruction counts
# below and the figures of its software optimization guide as far as we
# know them (one integer multiply pipe: a 64-bit MUL every 3 cycles, a
# UMULH every 4, latency 5 and 6); nothing was measured on hardware (the
# code was tested under qemu, which says nothing about speed).
#   mul: 21 MUL + 20 UMULH -> ~143 cycles of multiply pipe
#   sq:  15 MUL + 14 UMULH -> ~101;  mul121665: 5 MUL + 4 UMULH -> ~31
#   ladder step: 5 mul + 4 sq + 1 mul121665 = 170 MUL + 160 UMULH, about
#     1150 cycles of multiply pipe; the step is 950 instructions (counted
#     in the output), the ~500 adds/CSEL and 114 LDP/STP besides the
#     multiplies issue on the two integer and the load/store pipes beside
#     them (3-wide decode: ~320 cycles), so the step stays bound by the
#     multiplier: ~1150-1250 cycles.  A quarter of a sq's multiplies
#     and a fifth of a mul's are the 38 t_hi fold: shifts and adds there
#     would trade them for ALU work (not done).
#   255 steps ~ 295000-320000, inversion (254 sq + 11 mul) ~ 27000:
#   about 320000-350000 cycles per X25519 on Cortex-A72.  (On Neoverse N1,
#   where MUL and UMULH issue about one a cycle on its one multiply pipe,
#   as far as we know, the 330 multiplies and 950 instructions (4-wide)
#   of a step suggest ~350-450 cycles: ~100000-130000 per X25519.)
use strict;
use warnings;
use zinc_arm;

my $file = asm_open(@ARGV);

my ($out, $idx, $swap) = ('x0', 'x1', 'x2');
my @a = map { "x$_" } 3 .. 6;
my @b = map { "x$_" } 7 .. 10;
my @t = map { "x$_" } 11 .. 17, 19;
my @l = map { "x$_" } 20 .. 23;
my @h = map { "x$_" } 24 .. 27;
my ($k38, $base) = ('x28', 'x30');

# Stack frame: 32-byte slots from sp upwards; K (the clamped scalar) must
# be slot 0, as the ladder indexes it from sp.
my @slots = qw(K X1 X2 Z2 X3 Z3 A B C D AA BB E DA CB T Z11 Z9 IA IB IC);
my %slot;
$slot{$slots[$_]} = 32 * $_ - 512 for 0 .. $#slots;
my $frame = 32 * @slots;
die "frame too large\n" if $frame > 1024;

my $nlabel = 0;
sub L { return local_label("x25519_" . $nlabel++); }

# Little-endian data: AArch64 big-endian builds byte-reverse the words.
sub le_words {
	my (@regs) = @_;
	return "#if defined(__AARCH64EB__)\n" . join('', map { "\trev\t$_, $_\n" } @regs) . "#endif\n";
}

sub load {
	my ($r, $s) = @_;
	my $o = $slot{$s} // die "no slot $s\n";
	code("\tldp\t$r->[0], $r->[1], [$base, #$o]\n\tldp\t$r->[2], $r->[3], [$base, #" . ($o + 16) . "]\n");
}

sub store {
	my ($r, $s) = @_;
	my $o = $slot{$s} // die "no slot $s\n";
	code("\tstp\t$r->[0], $r->[1], [$base, #$o]\n\tstp\t$r->[2], $r->[3], [$base, #" . ($o + 16) . "]\n");
}

# t0..t3 += c * 38 for a small carry word c (in $c, clobbered), then the
# one possible carry out once more: < 2^256.
sub fold_carry {
	my ($c) = @_;
	code(<<___);
	mul	$c, $c, $k38
	adds	$t[0], $t[0], $c
	adcs	$t[1], $t[1], xzr
	adcs	$t[2], $t[2], xzr
	adcs	$t[3], $t[3], xzr
	csel	$c, $k38, xzr, cs
	add	$t[0], $t[0], $c
___
}

# t0..t7 (512 bits) -> t0..t3 = t_lo + 38 t_hi, below 2^256.
sub reduce {
	for my $i (0 .. 3) {
		code("\tmul\t$l[$i], $t[4 + $i], $k38\n\tumulh\t$h[$i], $t[4 + $i], $k38\n");
	}
	code(<<___);
	adds	$t[0], $t[0], $l[0]
	adcs	$t[1], $t[1], $l[1]
	adcs	$t[2], $t[2], $l[2]
	adcs	$t[3], $t[3], $l[3]
	adc	$h[3], $h[3], xzr
	adds	$t[1], $t[1], $h[0]
	adcs	$t[2], $t[2], $h[1]
	adcs	$t[3], $t[3], $h[2]
	adc	$h[3], $h[3], xzr
___
	fold_carry($h[3]);
}

# d = x * y
sub fmul {
	my ($d, $x, $y) = @_;
	load(\@a, $x);
	load(\@b, $y);
	# Row 0: t0..t4 = a0 b.
	code(<<___);
	mul	$t[0], $a[0], $b[0]
	umulh	$h[0], $a[0], $b[0]
	mul	$l[1], $a[0], $b[1]
	umulh	$h[1], $a[0], $b[1]
	mul	$l[2], $a[0], $b[2]
	umulh	$h[2], $a[0], $b[2]
	mul	$l[3], $a[0], $b[3]
	umulh	$t[4], $a[0], $b[3]
	adds	$t[1], $h[0], $l[1]
	adcs	$t[2], $h[1], $l[2]
	adcs	$t[3], $h[2], $l[3]
	adc	$t[4], $t[4], xzr
___
	# Rows 1..3: t[i..i+4] += a[i] b; the partial sum stays below
	# 2^(64 (i + 5)), so the high-half chain never carries out.
	for my $i (1 .. 3) {
		for my $j (0 .. 3) {
			code("\tmul\t$l[$j], $a[$i], $b[$j]\n\tumulh\t$h[$j], $a[$i], $b[$j]\n");
		}
		code(<<___);
	adds	$t[$i], $t[$i], $l[0]
	adcs	$t[$i + 1], $t[$i + 1], $l[1]
	adcs	$t[$i + 2], $t[$i + 2], $l[2]
	adcs	$t[$i + 3], $t[$i + 3], $l[3]
	adc	$t[$i + 4], xzr, xzr
	adds	$t[$i + 1], $t[$i + 1], $h[0]
	adcs	$t[$i + 2], $t[$i + 2], $h[1]
	adcs	$t[$i + 3], $t[$i + 3], $h[2]
	adc	$t[$i + 4], $t[$i + 4], $h[3]
___
	}
	reduce();
	store(\@t, $d);
}

# d = x^2
sub fsq {
	my ($d, $x) = @_;
	load(\@a, $x);
	# Cross products sum_{i<j} a_i a_j 2^(64 (i + j)) in t1..t6 (it is
	# below 2^448, so nothing carries out of t6).
	code(<<___);
	mul	$t[1], $a[0], $a[1]
	umulh	$t[2], $a[0], $a[1]
	mul	$l[0], $a[0], $a[2]
	umulh	$t[3], $a[0], $a[2]
	mul	$l[1], $a[0], $a[3]
	umulh	$t[4], $a[0], $a[3]
	mul	$l[2], $a[1], $a[3]
	umulh	$t[5], $a[1], $a[3]
	mul	$l[3], $a[2], $a[3]
	umulh	$t[6], $a[2], $a[3]
	mul	$h[0], $a[1], $a[2]
	umulh	$h[1], $a[1], $a[2]
	adds	$t[2], $t[2], $l[0]
	adcs	$t[3], $t[3], $l[1]
	adcs	$t[4], $t[4], $l[2]
	adcs	$t[5], $t[5], $l[3]
	adc	$t[6], $t[6], xzr
	adds	$t[3], $t[3], $h[0]
	adcs	$t[4], $t[4], $h[1]
	adcs	$t[5], $t[5], xzr
	adc	$t[6], $t[6], xzr
	adds	$t[1], $t[1], $t[1]
	adcs	$t[2], $t[2], $t[2]
	adcs	$t[3], $t[3], $t[3]
	adcs	$t[4], $t[4], $t[4]
	adcs	$t[5], $t[5], $t[5]
	adcs	$t[6], $t[6], $t[6]
	adc	$t[7], xzr, xzr
	mul	$t[0], $a[0], $a[0]
	umulh	$l[0], $a[0], $a[0]
	mul	$l[1], $a[1], $a[1]
	umulh	$l[2], $a[1], $a[1]
	mul	$l[3], $a[2], $a[2]
	umulh	$h[0], $a[2], $a[2]
	mul	$h[1], $a[3], $a[3]
	umulh	$h[2], $a[3], $a[3]
	adds	$t[1], $t[1], $l[0]
	adcs	$t[2], $t[2], $l[1]
	adcs	$t[3], $t[3], $l[2]
	adcs	$t[4], $t[4], $l[3]
	adcs	$t[5], $t[5], $h[0]
	adcs	$t[6], $t[6], $h[1]
	adc	$t[7], $t[7], $h[2]
___
	reduce();
	store(\@t, $d);
}

# d = x * 121665
sub fmul121665 {
	my ($d, $x) = @_;
	load(\@a, $x);
	code("\tmov\t$b[0], #0xdb41\n\tmovk\t$b[0], #0x1, lsl #16\n");
	code("\tmul\t$t[0], $a[0], $b[0]\n\tumulh\t$h[0], $a[0], $b[0]\n");
	for my $i (1 .. 3) {
		code("\tmul\t$l[$i], $a[$i], $b[0]\n\tumulh\t$h[$i], $a[$i], $b[0]\n");
	}
	code(<<___);
	adds	$t[1], $l[1], $h[0]
	adcs	$t[2], $l[2], $h[1]
	adcs	$t[3], $l[3], $h[2]
	adc	$h[3], $h[3], xzr
___
	fold_carry($h[3]);
	store(\@t, $d);
}

# d = x + y
sub fadd {
	my ($d, $x, $y) = @_;
	load(\@a, $x);
	load(\@b, $y);
	code(<<___);
	adds	$t[0], $a[0], $b[0]
	adcs	$t[1], $a[1], $b[1]
	adcs	$t[2], $a[2], $b[2]
	adcs	$t[3], $a[3], $b[3]
	csel	$l[0], $k38, xzr, cs
	adds	$t[0], $t[0], $l[0]
	adcs	$t[1], $t[1], xzr
	adcs	$t[2], $t[2], xzr
	adcs	$t[3], $t[3], xzr
	csel	$l[0], $k38, xzr, cs
	add	$t[0], $t[0], $l[0]
___
	store(\@t, $d);
}

# d = x - y
sub fsub {
	my ($d, $x, $y) = @_;
	load(\@a, $x);
	load(\@b, $y);
	code(<<___);
	subs	$t[0], $a[0], $b[0]
	sbcs	$t[1], $a[1], $b[1]
	sbcs	$t[2], $a[2], $b[2]
	sbcs	$t[3], $a[3], $b[3]
	csel	$l[0], $k38, xzr, cc
	subs	$t[0], $t[0], $l[0]
	sbcs	$t[1], $t[1], xzr
	sbcs	$t[2], $t[2], xzr
	sbcs	$t[3], $t[3], xzr
	csel	$l[0], $k38, xzr, cc
	sub	$t[0], $t[0], $l[0]
___
	store(\@t, $d);
}

# Swaps slots p and q when the flags say NE (constant time).
sub cswap {
	my ($p, $q) = @_;
	load(\@a, $p);
	load(\@b, $q);
	for my $i (0 .. 3) {
		code("\tcsel\t$t[$i], $b[$i], $a[$i], ne\n\tcsel\t$t[4 + $i], $a[$i], $b[$i], ne\n");
	}
	store([@t[0 .. 3]], $p);
	store([@t[4 .. 7]], $q);
}

# d = x squared n times; the loop count is public.
sub fsq_n {
	my ($d, $x, $n) = @_;
	fsq($d, $x);
	return if $n == 1;
	my $loop = L();
	code("\tmov\t$idx, #" . ($n - 1) . "\n$loop:\n");
	fsq($d, $d);
	code("\tsubs\t$idx, $idx, #1\n\tb.ne\t$loop\n");
}

# --- zinc_x25519_ladder_armv8 ----------------------------------------------

my @ladder_saved = ('x29', 'x30', map { "x$_" } 19 .. 28);
function_begin("zinc_x25519_ladder_armv8");
code(save_regs(@ladder_saved));
code(<<___);
	mov	x29, sp
@{[stack_alloc($frame)]}	add	$base, sp, #512
	mov	$k38, #38

	// The clamped scalar.
	ldp	$a[0], $a[1], [x1]
	ldp	$a[2], $a[3], [x1, #16]
___
code(le_words(@a));
code(<<___);
	and	$a[0], $a[0], #0xfffffffffffffff8
	and	$a[3], $a[3], #0x7fffffffffffffff
	orr	$a[3], $a[3], #0x4000000000000000
___
store(\@a, 'K');
code(<<___);
	// u without bit 255: x1 = x3 = u, x2 = 1, z2 = 0, z3 = 1.
	ldp	$a[0], $a[1], [x2]
	ldp	$a[2], $a[3], [x2, #16]
___
code(le_words(@a));
code("\tand\t$a[3], $a[3], #0x7fffffffffffffff\n");
store(\@a, 'X1');
store(\@a, 'X3');
code("\tmov\t$b[0], #1\n");
store([$b[0], 'xzr', 'xzr', 'xzr'], 'X2');
store([$b[0], 'xzr', 'xzr', 'xzr'], 'Z3');
store([('xzr') x 4], 'Z2');

my $ladder = L();
code(<<___);
	mov	$idx, #254
	mov	$swap, #0
$ladder:
	lsr	$t[0], $idx, #6
	ldr	$t[1], [sp, $t[0], lsl #3]
	lsr	$t[1], $t[1], $idx
	and	$t[1], $t[1], #1
	eor	$t[2], $swap, $t[1]
	mov	$swap, $t[1]
	cmp	$t[2], #0
___
cswap('X2', 'X3');
cswap('Z2', 'Z3');
fadd('A', 'X2', 'Z2');
fsub('B', 'X2', 'Z2');
fadd('C', 'X3', 'Z3');
fsub('D', 'X3', 'Z3');
fsq('AA', 'A');
fsq('BB', 'B');
fmul('DA', 'D', 'A');
fmul('CB', 'C', 'B');
fsub('E', 'AA', 'BB');
fadd('T', 'DA', 'CB');
fsq('X3', 'T');
fsub('T', 'DA', 'CB');
fsq('T', 'T');
fmul('Z3', 'X1', 'T');
fmul('X2', 'AA', 'BB');
fmul121665('T', 'E');
fadd('T', 'AA', 'T');
fmul('Z2', 'E', 'T');
code("\tsubs\t$idx, $idx, #1\n\tb.ge\t$ladder\n");

# 1 / z2 = z2^(p - 2) = z2^(2^255 - 21).
fsq('T', 'Z2');			# z^2
fsq_n('IA', 'T', 2);		# z^8
fmul('Z9', 'IA', 'Z2');		# z^9
fmul('Z11', 'Z9', 'T');		# z^11
fsq('IA', 'Z11');		# z^22
fmul('IA', 'IA', 'Z9');		# z^(2^5 - 1)
fsq_n('IB', 'IA', 5);
fmul('IA', 'IB', 'IA');		# z^(2^10 - 1)
fsq_n('IB', 'IA', 10);
fmul('IB', 'IB', 'IA');		# z^(2^20 - 1)
fsq_n('IC', 'IB', 20);
fmul('IB', 'IC', 'IB');		# z^(2^40 - 1)
fsq_n('IB', 'IB', 10);
fmul('IA', 'IB', 'IA');		# z^(2^50 - 1)
fsq_n('IB', 'IA', 50);
fmul('IB', 'IB', 'IA');		# z^(2^100 - 1)
fsq_n('IC', 'IB', 100);
fmul('IB', 'IC', 'IB');		# z^(2^200 - 1)
fsq_n('IB', 'IB', 50);
fmul('IB', 'IB', 'IA');		# z^(2^250 - 1)
fsq_n('IB', 'IB', 5);		# z^(2^255 - 2^5)
fmul('IB', 'IB', 'Z11');	# z^(2^255 - 21)
fmul('X2', 'X2', 'IB');

# Full reduction of x2 < 2^256 and the store.
load(\@t, 'X2');
code(<<___);
	lsr	$l[0], $t[3], #63
	and	$t[3], $t[3], #0x7fffffffffffffff
	mov	$l[1], #19
	mul	$l[0], $l[0], $l[1]
	adds	$t[0], $t[0], $l[0]
	adcs	$t[1], $t[1], xzr
	adcs	$t[2], $t[2], xzr
	adc	$t[3], $t[3], xzr
	adds	$h[0], $t[0], #19
	adcs	$h[1], $t[1], xzr
	adcs	$h[2], $t[2], xzr
	adc	$h[3], $t[3], xzr
	tst	$h[3], #0x8000000000000000
	and	$h[3], $h[3], #0x7fffffffffffffff
	csel	$t[0], $h[0], $t[0], ne
	csel	$t[1], $h[1], $t[1], ne
	csel	$t[2], $h[2], $t[2], ne
	csel	$t[3], $h[3], $t[3], ne
___
code(le_words(@t[0 .. 3]));
my $wipe = L();
code(<<___);
	stp	$t[0], $t[1], [$out]
	stp	$t[2], $t[3], [$out, #16]

	// Wipe the frame and the scratch registers: all secret-derived.
	mov	$idx, sp
	mov	$swap, #@{[$frame / 16]}
$wipe:
	stp	xzr, xzr, [$idx], #16
	subs	$swap, $swap, #1
	b.ne	$wipe
___
code(join('', map { "\tmov\tx$_, #0\n" } 1 .. 17));
code(stack_free($frame) . restore_regs(@ladder_saved) . "\tret\n");
function_end("zinc_x25519_ladder_armv8");

asm_close($file);
