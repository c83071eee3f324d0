#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# X25519 (RFC 7748) for x86_64, driven by provider/crypto/curve25519-x86_64-glue.c.
#
#   void zinc_x25519_ladder_mulx(uint8_t out[32], const uint8_t scalar[32],
#                                const uint8_t u[32]);
#   void zinc_x25519_ladder_mul(...);                 the same without BMI2/ADX
#       out = X25519(scalar, u): clamps the scalar, ignores bit 255 of u,
#       writes the canonical (fully reduced) u-coordinate.
#   void zinc_x25519_base_mulx(uint8_t out[32], const int8_t digits[52]);
#   void zinc_x25519_base_mul(...);
#       out = X25519(k, 9) for k = sum digits[i] 32^i, -16 <= digits[i] <= 16
#       (the glue recodes the clamped scalar): k B on the twisted Edwards
#       curve -x^2 + y^2 = 1 + d x^2 y^2 birationally equivalent to
#       Curve25519, then u = (1 + y) / (1 - y).  The MULX one also uses
#       AVX2 (table selection).
#   void zinc_x25519_divide(uint8_t out[32], const uint8_t num[32],
#                           const uint8_t den[32]);
#       out = num / den mod p (0 if den = 0 mod p), below 2^256, not
#       fully reduced; plain x86_64.  The four functions above end with
#       it; exposed for the test.
#
# Field: p = 2^255 - 19, four 64-bit limbs, every value kept below 2^256
# (not necessarily below p) and fully reduced only for output.  A product
# of 512 bits folds its upper half times 38 (2^256 = 38 mod p) into the
# lower, then what is left above bit 255 times 19: products end below
# 2^255 + 2^23 ("bounded"), which lets a sum or difference of them fold
# its carry once instead of twice.  Each field operation is a Perl sub
# emitting inline code that reads its operands from the stack frame and
# writes its result there: no call per operation.  The MULX path keeps two
# carry chains in flight (ADCX on CF, ADOX on OF) and squares with 10
# products instead of 16; the MUL path uses MUL and one chain, and also
# squares with 10 products.
#
# Ladder: RFC 7748 section 5; 255 steps (bit 255 of the clamped scalar is
# 0, bit 254 is 1; bit 0 is 0, so the last swap is the identity).  The
# conditional swap is CMOV on the scalar bit (no branch, no index from it),
# applied to the results of the four additions and subtractions that read
# the swapped values (A with C, B with D: the step overwrites x2, z2, x3
# and z3 anyway).  The step's field operations are ordered so that
# independent work sits between a result and its use (several per cent
# faster here than the RFC's order).  Then x2 / z2 by zinc_x25519_divide.
# The step (about 235 cycles) is bound by throughput, not by the latency
# from one step to the next: five multiplications and four squarings at
# their independent rates (24, 18) plus the additions and the swap add up
# to it.  Measured (A/B, as in the table below): steps that read fixed
# inputs instead of the previous step's results gain only 1%; five other
# orders lose 0.8 to 1.6%;
# handing a result in registers to the multiplication after it (no store
# and reload) loses 1 to 4% with the orders that allows; two operations
# interleaved need more than 15 registers.  Timing-only ablations (wrong
# results): without the 8-instruction fold_top in the ten reductions the
# ladder takes 13% less, with those instructions kept but off the
# dependency chain 4.5% less; squaring by the multiplication costs 8%
# more.  So instructions and carry-chain latency inside an operation
# set the pace; the fold is already the shortest sequence found (IMUL
# for the two LEAs: no change; SHLD: 7% slower), and 121665 E + AA on
# two carry chains instead of one changed nothing.
#
# Division: Bernstein and Yang's constant-time gcd ("safegcd", 2019) with
# half-delta divsteps and a fixed 590 of them (Wuille's bound), in 10
# batches of 59 on the low 64 bits of f and g, the transition matrix
# packed two entries to a register (see the comment at
# zinc_x25519_divide).  About 3200 cycles against some 8000 for z^(p-2)
# by 254 dependent squarings (about 30 cycles of latency each here).
# Measured as the ladder below (the previous version and this one
# renamed, alternate batches of 16 calls on random inputs, 2001 batch
# pairs): 0.850 of the 600-step version in 7 runs out of 7 (0.8495 to
# 0.8509), of which 590 steps 1.3%, the SHL's flags instead of a TEST per
# step 3.4%, products by entries made non-negative (no absolute value and
# negation) 4%, the last batch without g and e 1%, f and g kept unshifted
# (no SAR on g's chain, 4 cycles of latency a step to 3) 6%.  The
# divsteps take about 2350 cycles (4.0 a step, bound by the throughput of
# their 23 instructions: 18 ALU, 5 MOV), the rest about 850, paced by
# neither the latency from a batch's f, g to the next batch (cut: 0.2%)
# nor its instruction count (38 fewer a batch: 0.2%).  Did not help: LEA
# for 2f (one MOV fewer: 0.7% slower), two batches a loop iteration on
# alternating slots instead of the copies (1.5% slower), the f row last
# (writing f in place: 0.5% slower), aligning the loop (0), the frame
# wiped by plain stores instead of REP STOSQ (under 1%, not kept).  Not
# tried: a MULX update (the update's instruction count does not set its
# pace); f, u and v packed in one register (a loop of such steps, 11 ALU
# instructions, takes 4.05 cycles a step with g shifted, and unshifted f
# would overflow into u).
#
# Fixed base: this script computes the table itself (Math::BigInt) at build
# time: T[i][j-1] = j 1024^i B for i < 26, 1 <= j <= 16, as (y+x, y-x,
# 2dxy), 39 KB.  k B = 32 (sum_i e[2i+1] T[i]) + sum_i e[2i] T[i]: 52
# mixed additions in extended coordinates (Hisil et al. 2008, a = -1: 7
# multiplications each) and 5 doublings, then u = (Z + Y) / (Z - Y).  A
# lookup reads all 16 entries of its row, selecting on |e| with AVX2
# blends under a compare mask (MULX path) or CMOV (MUL path: the load
# happens whatever the condition); a negative digit swaps y+x and y-x,
# and F and G of the addition (which negates 2dxy), with blends or CMOV.
# Radix 32 beats radix 16 (64 additions, 8-entry rows, 24 KB) by 6% on
# the MUL path and 8% on the MULX path here (at radix 16, AVX2 selection
# alone gained about 2%); with 16 MB written between calls (caches cold)
# either takes about 0.7 us more.
#
# Cycles per operation on the AMD EPYC (Zen 5, 2 vCPUs, shared) this was
# written on: ns per call through the primitive API (median of 7 runs,
# each the best of 7 batches) times 3.57 GHz, the rate at which a chain of
# dependent 1-cycle adds runs here (3.57 to 3.73 GHz on different runs;
# no cycle counters; /proc/cpuinfo says a nominal 2.1 GHz).  ZINC_CPU
# picks the path; "before" is this file with the z^(p-2) inversion and the
# radix-16 table, "then" this file before the CMOV in addsub.  "now": the
# ladders of "then" and of this file renamed, linked into one program and
# called alternately, 16 calls a batch, 1501 batch pairs: the median of
# the pairs' time ratios, 0.993 to 0.995 in 6 runs (MULX), 0.994 to
# 0.995 in 4 (MUL) (an identical pair gives 1.001 to 1.003), times
# "then"; each run's median batch is 63300 to 66000 cycles (MULX) at 3.5
# to 3.6 GHz, the adds' rate measured in the same program.  The public
# key's time did not change (0.996 to 1.001 the same way).
#
#   path (ZINC_CPU)                 X25519(k, u)            public key X25519(k, 9)
#                                   before   then    now    before   now
#   portable C, radix 2^51 (none)   145000  143000          146000  143000 (ladder)
#   MUL (ssse3)                      84000   77500   77100   28000   21200
#   MULX/ADX (ssse3,avx,avx2,bmi2,adx) 68000 63400   63100   23500   17500
#   zinc_x25519_divide (any)                 3800    3200
# (division "now": 0.850 of "then"; the public key's MULX path then takes
# 0.981 to 0.989 of its time above (A/B as the division, 5 runs), about
# 17200 cycles; X25519(k, u) did not measurably change.)
# MULX field operations, cycles of latency / per operation when four are
# independent: multiplication 34 / 24, squaring 30 / 18.  OpenSSL 3.0's
# default provider takes about 94000 for X25519(k, u) and, through EVP,
# about as much for a key pair.
use strict;
use warnings;
use Math::BigInt;
use zinc_x86_64;

my $flavour = $ARGV[0] // '';
my $file = asm_open(@ARGV);

# --- register map ------------------------------------------------------------
#
# Field operations use r8..r15 as the (up to eight) limbs of a result and
# rax, rbx, rcx, rbp as temporaries, rdx as MULX's implicit operand and
# MUL's high half; rsi and rdi survive them (loop counters, the scalar
# bit, table and digit pointers).
my @r = map { "%r$_" } 8 .. 15;
my ($t0, $t1, $t2, $zero) = ('%rax', '%rbx', '%rcx', '%rbp');

my $mulx;		# which path the subs below emit
my %slot;		# stack slot of each field element: name -> offset
my $label = 0;

sub L { return ".Lx25519_" . $label++; }

# Limb i of the field element in slot $s.
sub limb {
	my ($s, $i) = @_;
	die "no slot $s\n" unless defined $slot{$s};
	return ($slot{$s} + 8 * $i) . "(%rsp)";
}

sub frame {
	my (@names) = @_;
	my $off = 0;
	%slot = ();
	$slot{$_} = ($off += 32) - 32 for @names;
	return $off;
}

# The 32-bit name of a 64-bit register.
sub r32 {
	my ($reg) = @_;
	return $reg =~ /^%r\d+$/ ? "${reg}d" : $reg =~ s/^%r/%e/r;
}

sub store {
	my ($d) = @_;
	code("\tmovq\t$r[$_], " . limb($d, $_) . "\n") for 0 .. 3;
}

# r0..r3 + 2^256 r4 (r4 < 2^17) -> r0..r3 below 2^255 + 2^23: bit 255 and
# r4 fold in as 19 (2 r4 + bit 255), which leaves no carry out of 2^256.
# Every multiplication's result is so "bounded".
sub fold_top {
	code(<<___);
	btrq	\$63, $r[3]
	adcq	$r[4], $r[4]
	leaq	($r[4],$r[4],8), $t0
	leaq	($r[4],$t0,2), $r[4]
	addq	$r[4], $r[0]
	adcq	\$0, $r[1]
	adcq	\$0, $r[2]
	adcq	\$0, $r[3]
___
}

# r0..r7 (a 512-bit product) -> r0..r3 + 2^256 r4 = 38 r4..r7 + r0..r3,
# then bounded by fold_top.  (The XORs that clear CF and OF also cut the flags' dependency on the
# chain before: measured faster than relying on the chains ending clear.)
sub reduce {
	if ($mulx) {
		code(<<___);
	movl	\$38, %edx
	xorl	%ebp, %ebp
	mulxq	$r[4], $t0, $t1
	adcxq	$t0, $r[0]
	adoxq	$t1, $r[1]
	mulxq	$r[5], $t0, $t1
	adcxq	$t0, $r[1]
	adoxq	$t1, $r[2]
	mulxq	$r[6], $t0, $t1
	adcxq	$t0, $r[2]
	adoxq	$t1, $r[3]
	mulxq	$r[7], $t0, $r[4]
	adcxq	$t0, $r[3]
	adoxq	$zero, $r[4]
	adcxq	$zero, $r[4]
___
	} else {
		code(<<___);
	movl	\$38, %eax
	mulq	$r[4]
	addq	%rax, $r[0]
	adcq	\$0, %rdx
	movq	%rdx, $t2
___
		for my $i (1 .. 3) {
			code(<<___);
	movl	\$38, %eax
	mulq	$r[$i + 4]
	addq	%rax, $r[$i]
	adcq	\$0, %rdx
	addq	$t2, $r[$i]
	adcq	\$0, %rdx
___
			code("\tmovq\t%rdx, $t2\n") if $i < 3;
		}
		code("\tmovq\t%rdx, $r[4]\n");
	}
	fold_top();
}

# d = a b
sub fe_mul {
	my ($d, $a, $b) = @_;
	my @b = map { limb($b, $_) } 0 .. 3;
	if ($mulx) {
		code(<<___);
	movq	@{[limb($a, 0)]}, %rdx
	mulxq	$b[0], $r[0], $r[1]
	mulxq	$b[1], $t0, $r[2]
	addq	$t0, $r[1]
	mulxq	$b[2], $t0, $r[3]
	adcq	$t0, $r[2]
	mulxq	$b[3], $t0, $r[4]
	adcq	$t0, $r[3]
	adcq	\$0, $r[4]
___
		for my $i (1 .. 3) {
			code(<<___);
	movq	@{[limb($a, $i)]}, %rdx
	xorl	%ebp, %ebp
	mulxq	$b[0], $t0, $t1
	adcxq	$t0, $r[$i]
	adoxq	$t1, $r[$i + 1]
	mulxq	$b[1], $t0, $t1
	adcxq	$t0, $r[$i + 1]
	adoxq	$t1, $r[$i + 2]
	mulxq	$b[2], $t0, $t1
	adcxq	$t0, $r[$i + 2]
	adoxq	$t1, $r[$i + 3]
	mulxq	$b[3], $t0, $r[$i + 4]
	adcxq	$t0, $r[$i + 3]
	adoxq	$zero, $r[$i + 4]
	adcxq	$zero, $r[$i + 4]
___
		}
	} else {
		# Row i adds a_i b into r_i..r_{i+4}; t2 carries between columns.
		code(<<___);
	movq	@{[limb($a, 0)]}, $t1
	movq	$t1, %rax
	mulq	$b[0]
	movq	%rax, $r[0]
	movq	%rdx, $r[1]
___
		for my $j (1 .. 3) {
			code(<<___);
	movq	$t1, %rax
	mulq	$b[$j]
	addq	%rax, $r[$j]
	adcq	\$0, %rdx
	movq	%rdx, $r[$j + 1]
___
		}
		for my $i (1 .. 3) {
			code(<<___);
	movq	@{[limb($a, $i)]}, $t1
	movq	$t1, %rax
	mulq	$b[0]
	addq	%rax, $r[$i]
	adcq	\$0, %rdx
	movq	%rdx, $t2
___
			for my $j (1 .. 3) {
				code(<<___);
	movq	$t1, %rax
	mulq	$b[$j]
	addq	%rax, $r[$i + $j]
	adcq	\$0, %rdx
	addq	$t2, $r[$i + $j]
	adcq	\$0, %rdx
___
				code($j < 3 ? "\tmovq\t%rdx, $t2\n" : "\tmovq\t%rdx, $r[$i + 4]\n");
			}
		}
	}
	reduce();
	store($d);
}

# d = a^2: the six cross products once, doubled, plus the four squares.
sub fe_sq {
	my ($d, $a) = @_;
	my @a = map { limb($a, $_) } 0 .. 3;
	return fe_sq_mul($d, @a) unless $mulx;
	code(<<___);
	movq	$a[0], %rdx
	mulxq	$a[1], $r[1], $r[2]
	mulxq	$a[2], $t0, $r[3]
	addq	$t0, $r[2]
	mulxq	$a[3], $t0, $r[4]
	adcq	$t0, $r[3]
	adcq	\$0, $r[4]
	movq	$a[1], %rdx
	xorl	%ebp, %ebp
	mulxq	$a[2], $t0, $t1
	mulxq	$a[3], $t2, $r[5]
	adcxq	$t0, $r[3]
	adoxq	$t1, $r[4]
	adcxq	$t2, $r[4]
	adoxq	$zero, $r[5]
	adcxq	$zero, $r[5]
	movq	$a[2], %rdx
	mulxq	$a[3], $t0, $r[6]
	addq	$t0, $r[5]
	adcq	\$0, $r[6]
	xorl	%ebp, %ebp
	movq	$a[0], %rdx
	mulxq	%rdx, $r[0], $t0
	adcxq	$r[1], $r[1]
	adoxq	$t0, $r[1]
	movq	$a[1], %rdx
	mulxq	%rdx, $t0, $t1
	adcxq	$r[2], $r[2]
	adoxq	$t0, $r[2]
	adcxq	$r[3], $r[3]
	adoxq	$t1, $r[3]
	movq	$a[2], %rdx
	mulxq	%rdx, $t0, $t1
	adcxq	$r[4], $r[4]
	adoxq	$t0, $r[4]
	adcxq	$r[5], $r[5]
	adoxq	$t1, $r[5]
	movq	$a[3], %rdx
	mulxq	%rdx, $t0, $r[7]
	adcxq	$r[6], $r[6]
	adoxq	$t0, $r[6]
	adcxq	$zero, $r[7]
	adoxq	$zero, $r[7]
___
	reduce();
	store($d);
}

# The same with MUL: each square's carry ripples to the top (MUL clobbers
# the flags, so no chain can stay open across one); no partial sum
# exceeds the square, so the top never overflows.
sub fe_sq_mul {
	my ($d, @a) = @_;
	code(<<___);
	movq	$a[0], %rax
	mulq	$a[1]
	movq	%rax, $r[1]
	movq	%rdx, $r[2]
	movq	$a[0], %rax
	mulq	$a[2]
	addq	%rax, $r[2]
	adcq	\$0, %rdx
	movq	%rdx, $r[3]
	movq	$a[0], %rax
	mulq	$a[3]
	addq	%rax, $r[3]
	adcq	\$0, %rdx
	movq	%rdx, $r[4]
	movq	$a[1], %rax
	mulq	$a[2]
	addq	%rax, $r[3]
	adcq	\$0, %rdx
	movq	%rdx, $t2
	movq	$a[1], %rax
	mulq	$a[3]
	addq	%rax, $r[4]
	adcq	\$0, %rdx
	addq	$t2, $r[4]
	adcq	\$0, %rdx
	movq	%rdx, $r[5]
	movq	$a[2], %rax
	mulq	$a[3]
	addq	%rax, $r[5]
	adcq	\$0, %rdx
	movq	%rdx, $r[6]
	xorl	@{[r32($r[7])]}, @{[r32($r[7])]}
	addq	$r[1], $r[1]
	adcq	$r[2], $r[2]
	adcq	$r[3], $r[3]
	adcq	$r[4], $r[4]
	adcq	$r[5], $r[5]
	adcq	$r[6], $r[6]
	adcq	\$0, $r[7]
	movq	$a[0], %rax
	mulq	%rax
	movq	%rax, $r[0]
	addq	%rdx, $r[1]
___
	code("\tadcq\t\$0, $r[$_]\n") for 2 .. 7;
	for my $i (1 .. 3) {
		code(<<___);
	movq	$a[$i], %rax
	mulq	%rax
	addq	%rax, $r[2 * $i]
	adcq	%rdx, $r[2 * $i + 1]
___
		code("\tadcq\t\$0, $r[$_]\n") for 2 * $i + 2 .. 7;
	}
	reduce();
	store($d);
}

# d = 121665 a + b = (A - 2) / 4 a + b
sub fe_mul121665_add {
	my ($d, $a, $b) = @_;
	my @a = map { limb($a, $_) } 0 .. 3;
	if ($mulx) {
		code(<<___);
	movl	\$121665, %edx
	mulxq	$a[0], $r[0], $t0
	mulxq	$a[1], $r[1], $t1
	addq	$t0, $r[1]
	mulxq	$a[2], $r[2], $t0
	adcq	$t1, $r[2]
	mulxq	$a[3], $r[3], $r[4]
	adcq	$t0, $r[3]
	adcq	\$0, $r[4]
___
	} else {
		code(<<___);
	movl	\$121665, %eax
	mulq	$a[0]
	movq	%rax, $r[0]
	movq	%rdx, $r[1]
	movl	\$121665, %eax
	mulq	$a[1]
	addq	%rax, $r[1]
	adcq	\$0, %rdx
	movq	%rdx, $r[2]
	movl	\$121665, %eax
	mulq	$a[2]
	addq	%rax, $r[2]
	adcq	\$0, %rdx
	movq	%rdx, $r[3]
	movl	\$121665, %eax
	mulq	$a[3]
	addq	%rax, $r[3]
	adcq	\$0, %rdx
	movq	%rdx, $r[4]
___
	}
	code(<<___);
	addq	@{[limb($b, 0)]}, $r[0]
	adcq	@{[limb($b, 1)]}, $r[1]
	adcq	@{[limb($b, 2)]}, $r[2]
	adcq	@{[limb($b, 3)]}, $r[3]
	adcq	\$0, $r[4]
___
	fold_top();
	store($d);
}

# The registers @$x (< 2^256) plus or minus the slot b, into @$x: a carry
# (borrow) of 2^256 comes back as 38 (is paid back as 38).  A second one
# needs a sum of 2^257 - 38 or more (b above 2^256 - 38): pass $bounded
# where that cannot be, as when b is a product (below 2^255 + 2^23) and,
# for a sum, a below 2^256 + 2^255.  The 38 is a CMOV of a constant
# loaded before the chain (one cycle after the carry, against two for
# SBB and AND: about 0.6% faster per ladder); clobbers t0 and rdx.
sub addsub {
	my ($op, $x, $b, $bounded) = @_;
	my ($add, $adc) = $op eq 'add' ? ('addq', 'adcq') : ('subq', 'sbbq');
	code(<<___);
	xorl	@{[r32($t0)]}, @{[r32($t0)]}
	movl	\$38, %edx
	$add	@{[limb($b, 0)]}, $x->[0]
	$adc	@{[limb($b, 1)]}, $x->[1]
	$adc	@{[limb($b, 2)]}, $x->[2]
	$adc	@{[limb($b, 3)]}, $x->[3]
	cmovcq	%rdx, $t0
	$add	$t0, $x->[0]
	$adc	\$0, $x->[1]
	$adc	\$0, $x->[2]
	$adc	\$0, $x->[3]
___
	code(<<___) unless $bounded;
	movl	\$0, @{[r32($t0)]}
	cmovcq	%rdx, $t0
	$add	$t0, $x->[0]
___
}

# d = a + b, d = a - b
sub fe_add {
	my ($d, $a, $b, $bounded) = @_;
	code("\tmovq\t" . limb($a, $_) . ", $r[$_]\n") for 0 .. 3;
	addsub('add', \@r, $b, $bounded);
	store($d);
}

sub fe_sub {
	my ($d, $a, $b, $bounded) = @_;
	code("\tmovq\t" . limb($a, $_) . ", $r[$_]\n") for 0 .. 3;
	addsub('sub', \@r, $b, $bounded);
	store($d);
}

sub fe_set {
	my ($d, $v) = @_;
	code("\tmovq\t\$" . ($_ ? 0 : $v) . ", " . limb($d, $_) . "\n") for 0 .. 3;
}

# r0..r3 (any value below 2^256) -> the representative in [0, p), stored
# at the pointer in rdi: fold bit 255 (the value is then below 2p), then
# subtract p, i.e. add 19 and drop bit 255, exactly when the value plus 19
# reaches 2^255 (a carry chain through t0; MOV leaves the flags alone).
sub freeze_store {
	freeze();
	code("\tmovq\t$r[$_], " . 8 * $_ . "(%rdi)\n") for 0 .. 3;
}

# r0..r3 (below 2^256) -> the representative in [0, p), in place.
sub freeze {
	code(<<___);
	movq	$r[3], $t0
	shrq	\$63, $t0
	btrq	\$63, $r[3]
	imulq	\$19, $t0, $t0
	addq	$t0, $r[0]
	adcq	\$0, $r[1]
	adcq	\$0, $r[2]
	adcq	\$0, $r[3]
	movq	$r[0], $t0
	addq	\$19, $t0
	movq	$r[1], $t0
	adcq	\$0, $t0
	movq	$r[2], $t0
	adcq	\$0, $t0
	movq	$r[3], $t0
	adcq	\$0, $t0
	shrq	\$63, $t0
	imulq	\$19, $t0, $t0
	addq	$t0, $r[0]
	adcq	\$0, $r[1]
	adcq	\$0, $r[2]
	adcq	\$0, $r[3]
	btrq	\$63, $r[3]
___
}

sub prologue {
	my ($size) = @_;
	code(push_callee_saved() . stack_alloc($size));
}

# Wipes the frame (scalar, intermediate values) and returns.
sub epilogue {
	my ($size) = @_;
	code(<<___);
	xorl	%eax, %eax
	movq	%rsp, %rdi
	movl	\$@{[$size / 8]}, %ecx
	rep stosq
@{[stack_free($size) . pop_callee_saved()]}	ret
___
}

# --- division: safegcd (Bernstein and Yang 2019) ---------------------------------
#
# zinc_x25519_divide(out, num, den): out = num / den mod p (0 for den = 0),
# below 2^256, num and den below 2^256.  Plain x86_64 (no MULX): both paths
# call it once, for the ladder's x2 / z2 and the public key's (Z + Y) / (Z - Y).
#
# Half-delta divsteps ("hddivsteps", delta starting at 1/2), from f = p and
# g = den mod p: if delta > 0 and g is odd, (delta, f, g) <- (1 - delta, g,
# (g - f) / 2), else (1 + delta, f, (g + (g mod 2) f) / 2).  590 of them
# take any g in [0, p) to g = 0, f = +-1 (the bound Wuille computed for
# hddivsteps on inputs below 2^256 with his convex-hull method, tighter
# than the 2019 paper's; random inputs need about 530 at most); this runs
# exactly 10 batches of 59, a fixed count (past the end g stays 0 and f
# stays put).  A batch runs on the low 64 bits of f and g alone (scaled,
# see divstep), in registers, in halves of 30 and 29 steps whose
# transition matrices (u v; q r), scaled by 2^30 and 2^29, are packed two
# entries to a register (the first half's then unpacked to the frame),
# then multiplied into the batch's (|u| + |v|, |q| + |r| <=
# 2^59).  That matrix then updates the whole f, g (signed, 4 limbs) and
# d, e, with d den = 2^(59 k) num C f, e den = 2^(59 k) num C g mod p
# after k batches (C = 2^-590; d = 0, e = num C at the start): d and e
# stay unsigned residues below 2^256 (no division by 2^59 mod p: C takes
# it out once, in a multiplication that overlaps the divsteps).  The
# entries are stored plus 2^59, so not negative: u f + v g is (u + 2^59) f
# + (v + 2^59) g - 2^59 (f + g), by MUL with no sign handling, 2^59 (f + g)
# and 2^59 (d + e) computed once a batch.  The last batch leaves g and e
# alone (a branch on the count).  At the end f = +-1, so num / den = +-d.
# Every step is the same CMOV sequence whatever the data, unrolled.

my @HALF = (30, 29);
my $DIVSTEPS = $HALF[0] + $HALF[1];
my $BATCHES = 10;
my $divide_const;	# C as .quad operands, emitted with the table

sub divstep {
	my ($bit, $f, $g, $u, $q, $h, $hn, $t, $gd, $qd, $gs, $qs, $f2) = @_;
	# Step k (from 0 in the batch, $bit = k + 1) holds g times 2^(k + 1)
	# (bit k + 1 is g's parity, the bits below are 0) and f times 2^k:
	# no shift on g's chain (3 cycles of latency from g to g, against 4
	# with g halved each step), the new g is g + 2f (LEA's scale) or
	# g - 2f, and the new f is g or 2f.  h = -2 delta: delta > 0
	# is h < 0.  Differences and sums of the old values first (SUB
	# clobbers the flags; LEA does not); t = g << (63 - bit) sets ZF for g
	# even (no TEST), and CMOVZ keeps g (q) instead of the sum; then t &
	# h's sign = delta > 0 and g odd: CMOVS takes the differences and sets
	# (f, u) <- (g, q).  The new f, g and q are in f2's and the sums'
	# registers (the caller renames).  18 ALU instructions and 5 MOVs.
	code(<<___);
	movq	$f, $f2
	addq	$f2, $f2
	movq	$g, $gd
	subq	$f2, $gd
	movq	$q, $qd
	subq	$u, $qd
	movq	$h, $hn
	negq	$hn
	leaq	($g,$f,2), $gs
	leaq	($q,$u), $qs
	movq	$g, $t
	shlq	\$@{[63 - $bit]}, $t
	cmovzq	$g, $gs
	cmovzq	$q, $qs
	andq	$h, $t
	cmovsq	$gd, $gs
	cmovsq	$qd, $qs
	cmovsq	$g, $f2
	cmovsq	$q, $u
	cmovsq	$hn, $h
	addq	$u, $u
	subq	\$2, $h
___
}

# Half a batch: $n divsteps on f, g (low words) with the rows packed,
# u = (u, v) as u + 2^32 v and q = (q, r) as q + 2^32 r: every operation
# on them is linear (add, subtract, double, select), and after $n <= 30
# steps |u| + |v| <= 2^30 leaves each half its sign.  Returns the renamed
# registers.
sub divsteps_half {
	my ($k, $n, $f, $g, $u, $q, $h, $hn, @tmp) = @_;
	code("\tmovl\t\$1, @{[r32($u)]}\n\tmovl\t\$1, @{[r32($q)]}\n\tshlq\t\$32, $q\n");
	for my $i ($k .. $k + $n - 1) {
		divstep($i + 1, $f, $g, $u, $q, $h, $hn, @tmp);
		($f, $g, $q, $tmp[5], $tmp[3], $tmp[4]) = ($tmp[5], $tmp[3], $tmp[4], $f, $g, $q);
	}
	return ($f, $g, $q, @tmp);
}

# Unpacks x = a + 2^32 b (|a| < 2^31) into a and b.
sub unpack_row {
	my ($x, $a, $b) = @_;
	code("\tmovslq\t@{[r32($x)]}, $a\n\tmovq\t$x, $b\n\tsubq\t$a, $b\n\tsarq\t\$32, $b\n");
}

# @$a (5 limbs, two's complement) = or += m x (slot s), m at $m in
# [0, 2^63), the slot signed (f, g: limb 3 signed, by IMUL) or unsigned
# (d, e).
sub smul_acc {
	my ($a, $s, $m, $add, $signed) = @_;
	my @p = $add ? ('%r13', '%r14', '%r15', '%rbx', '%rcx') : @$a;
	my $am = '%rsi';
	code(<<___);
	movq	$m, $am
	movq	@{[limb($s, 0)]}, %rax
	mulq	$am
	movq	%rax, $p[0]
	movq	%rdx, $p[1]
___
	for my $i (1 .. 3) {
		my $mul = ($signed && $i == 3) ? 'imulq' : 'mulq';
		code(<<___);
	movq	@{[limb($s, $i)]}, %rax
	$mul	$am
	addq	%rax, $p[$i]
	adcq	\$0, %rdx
	movq	%rdx, $p[$i + 1]
___
	}
	if ($add) {
		code("\taddq\t$p[0], $a->[0]\n");
		code("\tadcq\t$p[$_], $a->[$_]\n") for 1 .. 4;
	}
}

# @$a (5 limbs, signed, |value| < 2^318) -> a0..a3 below 2^256, the same
# mod p: a4 2^256 = 38 a4, added sign-extended; the carry out (plus the
# sign) o in {-1, 0, 1} is o 2^256 = 38 o, which cannot carry again (o = 1
# leaves a small value, o = -1 a value near 2^256).
sub reduce_signed {
	my ($a) = @_;
	code(<<___);
	movq	$a->[4], %rax
	movq	\$38, %rdx
	imulq	%rdx
	movq	%rdx, %rsi
	sarq	\$63, %rsi
	addq	%rax, $a->[0]
	adcq	%rdx, $a->[1]
	adcq	%rsi, $a->[2]
	adcq	%rsi, $a->[3]
	adcq	\$0, %rsi
	imulq	\$38, %rsi, %rax
	sarq	\$63, %rsi
	addq	%rax, $a->[0]
	adcq	%rsi, $a->[1]
	adcq	%rsi, $a->[2]
	adcq	%rsi, $a->[3]
___
}

sub divide {
	my ($name) = @_;
	$mulx = 0;
	# fg: f + g; w and wh: 2^59 (d + e), 5 limbs.
	my $size = frame(qw(f g d e nf ng c mat m1 vars fg w wh));
	my %var = (out => 0, count => 8, h => 16);
	my $v = sub { return ($slot{vars} + $var{$_[0]}) . "(%rsp)"; };
	my @m = map { limb('mat', $_) } 0 .. 3;		# u, v, q, r
	my $top = L();

	my $P = Math::BigInt->new(2)->bpow(255)->bsub(19);
	my $C = Math::BigInt->new(2)->bpow($DIVSTEPS * $BATCHES)->bmodinv($P);
	$divide_const = quads($C);

	function_begin($name);
	prologue($size);
	# g = den mod p; f = p; c = C; e = num C; d = 0.
	code("\tmovq\t%rdi, " . $v->('out') . "\n");
	code("\tmovq\t" . 8 * $_ . "(%rdx), $r[$_]\n") for 0 .. 3;
	freeze();
	store('g');
	code(<<___);
	movq	\$-19, @{[limb('f', 0)]}
	movq	\$-1, @{[limb('f', 1)]}
	movq	\$-1, @{[limb('f', 2)]}
	movabsq	\$0x7fffffffffffffff, %rax
	movq	%rax, @{[limb('f', 3)]}
___
	for my $i (0 .. 3) {
		code("\tmovq\tx25519_divide_c+" . 8 * $i . "(%rip), %rax\n");
		code("\tmovq\t%rax, " . limb('c', $i) . "\n");
		code("\tmovq\t" . 8 * $i . "(%rsi), %rax\n\tmovq\t%rax, " . limb('d', $i) . "\n");
	}
	fe_mul('e', 'd', 'c');
	fe_set('d', 0);
	code(<<___);
	movq	\$-1, @{[$v->('h')]}
	movl	\$$BATCHES, @{[$v->('count')]}
$top:
___
	my ($f, $g, $u, $q, $h, $hn) = map { "%r$_" } 8 .. 13;
	my @tmp = ('%rax', '%rbx', '%rcx', '%rdx', '%rsi', '%r14');	# t gd qd gs qs f2
	my @m1 = map { limb('m1', $_) } 0 .. 3;		# the first half's u, v, q, r
	code(<<___);
	movq	@{[limb('f', 0)]}, $f
	movq	@{[limb('g', 0)]}, $g
	addq	$g, $g
	movq	@{[$v->('h')]}, $h
___
	($f, $g, $q, @tmp) = divsteps_half(0, $HALF[0], $f, $g, $u, $q, $h, $hn, @tmp);
	unpack_row($u, '%r15', '%rdi');
	code("\tmovq\t%r15, $m1[0]\n\tmovq\t%rdi, $m1[1]\n");
	unpack_row($q, '%r15', '%rdi');
	code("\tmovq\t%r15, $m1[2]\n\tmovq\t%rdi, $m1[3]\n");
	($f, $g, $q, @tmp) = divsteps_half($HALF[0], $HALF[1], $f, $g, $u, $q, $h, $hn, @tmp);
	code("\tmovq\t$h, " . $v->('h') . "\n");
	# The batch's matrix: the second half's times the first's.
	my @m2 = ('%rax', '%rbx', '%rcx', '%rdx');
	unpack_row($u, @m2[0, 1]);
	unpack_row($q, @m2[2, 3]);
	code("\tmovabsq\t\$@{[1 << $DIVSTEPS]}, %r10\n");
	for my $e ([0, 0, 2], [1, 1, 3], [2, 0, 2], [3, 1, 3]) {
		my ($k, $c0, $c1) = @$e;
		my $row = $k < 2 ? 0 : 2;
		code(<<___);
	movq	$m2[$row], %r8
	imulq	$m1[$c0], %r8
	movq	$m2[$row + 1], %r9
	imulq	$m1[$c1], %r9
	addq	%r9, %r8
	addq	%r10, %r8
	movq	%r8, $m[$k]
___
	}
	# (f, g) <- (u f + v g, q f + r g) / 2^$DIVSTEPS; (d, e) <- (u d + v e, q d + r e),
	# with the entries plus 2^59 (added above): (u f + v g) / 2^59 is
	# ((u + 2^59) f + (v + 2^59) g) / 2^59 - (f + g), taken mod 2^256 (the
	# result fits); u d + v e is (u + 2^59) d + (v + 2^59) e - 2^59 (d + e).
	my @a = map { "%r$_" } 8 .. 12;
	code("\tmovq\t" . limb('f', $_) . ", $a[$_]\n") for 0 .. 3;
	code("\taddq\t" . limb('g', 0) . ", $a[0]\n");
	code("\tadcq\t" . limb('g', $_) . ", $a[$_]\n") for 1 .. 3;
	code("\tmovq\t$a[$_], " . limb('fg', $_) . "\n") for 0 .. 3;
	# The last batch skips g and e (not read after it): a branch on the
	# batch count only.
	my $skip_g = L();
	for my $row ([0, 'nf'], [2, 'ng']) {
		my ($k, $dst) = @$row;
		code("\tcmpl\t\$1, " . $v->('count') . "\n\tje\t$skip_g\n") if $k;
		smul_acc(\@a, 'f', $m[$k], 0, 1);
		smul_acc(\@a, 'g', $m[$k + 1], 1, 1);
		code("\tshrdq\t\$$DIVSTEPS, $a[$_ + 1], $a[$_]\n") for 0 .. 3;
		code("\tsubq\t" . limb('fg', 0) . ", $a[0]\n");
		code("\tsbbq\t" . limb('fg', $_) . ", $a[$_]\n") for 1 .. 3;
		code("\tmovq\t$a[$_], " . limb($dst, $_) . "\n") for 0 .. 3;
	}
	code("$skip_g:\n");
	for my $i (0 .. 3) {
		code("\tmovq\t" . limb('nf', $i) . ", %rax\n\tmovq\t%rax, " . limb('f', $i) . "\n");
		code("\tmovq\t" . limb('ng', $i) . ", %rax\n\tmovq\t%rax, " . limb('g', $i) . "\n");
	}
	code("\tmovq\t" . limb('d', $_) . ", $a[$_]\n") for 0 .. 3;
	code("\txorl\t@{[r32($a[4])]}, @{[r32($a[4])]}\n");
	code("\taddq\t" . limb('e', 0) . ", $a[0]\n");
	code("\tadcq\t" . limb('e', $_) . ", $a[$_]\n") for 1 .. 3;
	code("\tadcq\t\$0, $a[4]\n");
	code("\tshldq\t\$$DIVSTEPS, $a[$_ - 1], $a[$_]\n") for reverse 1 .. 4;
	code("\tshlq\t\$$DIVSTEPS, $a[0]\n");
	code("\tmovq\t$a[$_], " . limb('w', $_) . "\n") for 0 .. 4;
	my $skip_e = L();
	for my $row ([0, 'nf'], [2, 'e']) {
		my ($k, $dst) = @$row;
		code("\tcmpl\t\$1, " . $v->('count') . "\n\tje\t$skip_e\n") if $k;
		smul_acc(\@a, 'd', $m[$k], 0, 0);
		smul_acc(\@a, 'e', $m[$k + 1], 1, 0);
		code("\tsubq\t" . limb('w', 0) . ", $a[0]\n");
		code("\tsbbq\t" . limb('w', $_) . ", $a[$_]\n") for 1 .. 4;
		reduce_signed(\@a);
		code("\tmovq\t$a[$_], " . limb($dst, $_) . "\n") for 0 .. 3;
	}
	code("$skip_e:\n");
	code("\tmovq\t" . limb('nf', $_) . ", %rax\n\tmovq\t%rax, " . limb('d', $_) . "\n") for 0 .. 3;
	code("\tdecl\t" . $v->('count') . "\n\tjnz\t$top\n");
	# out = d or -d as f = 1 or -1: d below 2^255 + 19 (bit 255 folded),
	# so 2p - d is not negative.
	code("\tmovq\t" . limb('d', $_) . ", $r[$_]\n") for 0 .. 3;
	code(<<___);
	movq	$r[3], %rax
	shrq	\$63, %rax
	btrq	\$63, $r[3]
	imulq	\$19, %rax, %rax
	addq	%rax, $r[0]
	adcq	\$0, $r[1]
	adcq	\$0, $r[2]
	adcq	\$0, $r[3]
	movq	\$-38, $r[4]
	movq	\$-1, $r[5]
	movq	\$-1, $r[6]
	movq	\$-1, $r[7]
	subq	$r[0], $r[4]
	sbbq	$r[1], $r[5]
	sbbq	$r[2], $r[6]
	sbbq	$r[3], $r[7]
	movq	@{[$v->('out')]}, %rdi
	movq	@{[limb('f', 3)]}, %rax
	testq	%rax, %rax
___
	code("\tcmovsq\t$r[$_ + 4], $r[$_]\n") for 0 .. 3;
	code("\tmovq\t$r[$_], " . 8 * $_ . "(%rdi)\n") for 0 .. 3;
	epilogue($size);
	function_end($name);
}

# d = num / den (slots), by a call.
sub divide_call {
	my ($d, $num, $den) = @_;
	code(<<___);
	leaq	$slot{$d}(%rsp), %rdi
	leaq	$slot{$num}(%rsp), %rsi
	leaq	$slot{$den}(%rsp), %rdx
	call	@{[$flavour eq 'macosx' ? '_' : '']}zinc_x25519_divide
___
}

# --- the ladder ----------------------------------------------------------------

sub ladder {
	my ($name) = @_;
	my $size = frame(qw(x1 x2 z2 x3 z3 a aa b bb e c d k q out)) - 8;

	function_begin($name);
	prologue($size);
	# Clamped scalar, u without bit 255.
	code(<<___);
	movq	%rdi, @{[limb('out', 0)]}
	movq	0(%rsi), %rax
	movq	8(%rsi), %rbx
	movq	16(%rsi), %rcx
	movq	24(%rsi), %rbp
	andq	\$-8, %rax
	btrq	\$63, %rbp
	btsq	\$62, %rbp
	movq	%rax, @{[limb('k', 0)]}
	movq	%rbx, @{[limb('k', 1)]}
	movq	%rcx, @{[limb('k', 2)]}
	movq	%rbp, @{[limb('k', 3)]}
___
	for my $i (0 .. 3) {
		code("\tmovq\t" . 8 * $i . "(%rdx), %rax\n");
		code("\tbtrq\t\$63, %rax\n") if $i == 3;
		code("\tmovq\t%rax, " . limb('x1', $i) . "\n\tmovq\t%rax, " . limb('x3', $i) . "\n");
	}
	fe_set('x2', 1);
	fe_set('z2', 0);
	fe_set('z3', 1);
	my $top = L();
	# rsi: the bit index t, 254 down to 0 (public); rdi: the previous bit.
	code(<<___);
	movl	\$254, %esi
	xorl	%edi, %edi
$top:
	movl	%esi, %ecx
	shrl	\$6, %ecx
	movq	$slot{k}(%rsp,%rcx,8), %rax
	movl	%esi, %ecx
	shrq	%cl, %rax
	andl	\$1, %eax
	xorq	%rax, %rdi
___
	# A = x2 + z2, B = x2 - z2, C = x3 + z3, D = x3 - z3 after the swap
	# of (x2, z2) and (x3, z3) if rdi: the same as swapping A with C and
	# B with D computed before it (the step overwrites all four of x2, z2,
	# x3, z3), which moves half as much.  The bit waits in a spare quadword
	# of "out" (the additions use rax); then rdi = the bit.
	code("\tmovq\t%rax, " . limb('out', 1) . "\n");
	for my $op ([qw(add a c)], [qw(sub b d)]) {
		my ($add, $lo, $hi) = @$op;
		code("\tmovq\t" . limb('x2', $_) . ", $r[$_]\n") for 0 .. 3;
		addsub($add, [@r[0 .. 3]], 'z2', 1);
		code("\tmovq\t" . limb('x3', $_) . ", $r[$_ + 4]\n") for 0 .. 3;
		addsub($add, [@r[4 .. 7]], 'z3', 1);
		code("\ttestq\t%rdi, %rdi\n");
		code("\tmovq\t$r[$_], %rbx\n\tcmovnzq\t$r[$_ + 4], $r[$_]\n\tcmovnzq\t%rbx, $r[$_ + 4]\n")
		    for 0 .. 3;
		code("\tmovq\t$r[$_], " . limb($lo, $_) . "\n\tmovq\t$r[$_ + 4], " . limb($hi, $_) . "\n")
		    for 0 .. 3;
	}
	code("\tmovq\t" . limb('out', 1) . ", %rdi\n");
	# In an order that puts independent work between a result and its use.
	fe_sq('aa', 'a');		# AA
	fe_mul('d', 'd', 'a');		# DA
	fe_sq('bb', 'b');		# BB
	fe_mul('c', 'c', 'b');		# CB
	fe_sub('e', 'aa', 'bb', 1);	# E = AA - BB
	fe_mul('x2', 'aa', 'bb');	# x2 = AA BB
	fe_add('a', 'd', 'c', 1);	# DA + CB
	fe_sub('b', 'd', 'c', 1);	# DA - CB
	fe_mul121665_add('c', 'e', 'aa');	# AA + a24 E
	fe_sq('x3', 'a');		# x3 = (DA + CB)^2
	fe_sq('b', 'b');
	fe_mul('z2', 'e', 'c');		# z2 = E (AA + a24 E)
	fe_mul('z3', 'x1', 'b');	# z3 = x1 (DA - CB)^2
	code("\tdecl\t%esi\n\tjns\t$top\n");

	divide_call('q', 'x2', 'z2');
	code("\tmovq\t" . limb('q', $_) . ", $r[$_]\n") for 0 .. 3;
	code("\tmovq\t" . limb('out', 0) . ", %rdi\n");
	freeze_store();
	epilogue($size);
	function_end($name);
}

# --- the fixed-base multiplication ------------------------------------------------

# The table, as rows of 8 entries of 3 x 4 quadwords.
# Signed radix 2^W digits in [-2^(W-1), 2^(W-1)], DIGITS of them (the
# glue recodes); row i of the table holds j 2^(2 W i) B, 1 <= j <= 2^(W-1).
my $W = 5;
my $DIGITS = 52;
my $ROWS = $DIGITS / 2;
my $ENTRIES = 1 << ($W - 1);
my $ENTRY = 96;
my $ROW = $ENTRIES * $ENTRY;

# Selection: rcx = |e|; the identity (1, 1, 0) unless |e| matches an
# entry.  Every entry of the row at rdi is read whatever |e| is.  A
# negative digit: -(x, y) = (-x, y) swaps y+x and y-x (here) and negates
# 2dxy, which swaps F and G in the addition.
sub lookup_cmov {
	my ($sign) = @_;
	my @acc = (@r, '%rax', '%rbx', '%rbp', '%rdx');
	code("\txorl\t" . r32($_) . ", " . r32($_) . "\n") for @acc;
	code("\tmovl\t\$1, $r[0]d\n\tmovl\t\$1, $r[4]d\n");
	for my $j (1 .. $ENTRIES) {
		code("\tcmpq\t\$$j, %rcx\n");
		code("\tcmoveq\t" . (($j - 1) * $ENTRY + 8 * $_) . "(%rdi), $acc[$_]\n") for 0 .. 11;
	}
	code("\tcmpq\t\$0, $sign\n");
	code("\tmovq\t$r[$_], %rcx\n\tcmovnzq\t$r[$_ + 4], $r[$_]\n\tcmovnzq\t%rcx, $r[$_ + 4]\n")
	    for 0 .. 3;
	for my $k (0 .. 11) {
		code("\tmovq\t$acc[$k], " . limb((qw(ypx ymx t2d))[$k >> 2], $k & 3) . "\n");
	}
}

# The same with AVX2 (the MULX path's CPUs have it; the glue checks):
# each entry is three 32-byte loads blended in under a VPCMPEQQ mask of
# |e| = j (a quarter of the loads of the CMOV selection).
sub lookup_avx2 {
	my ($sign) = @_;
	code(<<___);
	movl	\$1, %eax
	vmovq	%rax, %xmm0
	vpbroadcastq	%xmm0, %ymm5
	vmovdqa	%ymm0, %ymm1
	vpxor	%xmm2, %xmm2, %xmm2
	vmovq	%rcx, %xmm3
	vpbroadcastq	%xmm3, %ymm3
	vmovdqa	%ymm5, %ymm4
___
	for my $j (1 .. $ENTRIES) {
		my $o = ($j - 1) * $ENTRY;
		code(<<___);
	vpcmpeqq	%ymm3, %ymm4, %ymm6
	vpblendvb	%ymm6, $o(%rdi), %ymm0, %ymm0
	vpblendvb	%ymm6, @{[$o + 32]}(%rdi), %ymm1, %ymm1
	vpblendvb	%ymm6, @{[$o + 64]}(%rdi), %ymm2, %ymm2
	vpaddq	%ymm5, %ymm4, %ymm4
___
	}
	code(<<___);
	vpbroadcastq	$sign, %ymm7
	vpblendvb	%ymm7, %ymm1, %ymm0, %ymm8
	vpblendvb	%ymm7, %ymm0, %ymm1, %ymm1
	vmovdqu	%ymm8, $slot{ypx}(%rsp)
	vmovdqu	%ymm1, $slot{ymx}(%rsp)
	vmovdqu	%ymm2, $slot{t2d}(%rsp)
___
}

sub base {
	my ($name) = @_;
	# Slots: the point (X, Y, Z, T), the entry chosen (ypx, ymx, t2d),
	# 0, temporaries, then 8-byte variables in "vars" (and "vars2").
	my $size = frame(qw(X Y Z T ypx ymx t2d zero A B C D E F G H vars vars2));
	my %var = (out => 0, digits => 8, dptr => 16, pass => 24, sign => 32);
	my $v = sub { return ($slot{vars} + $var{$_[0]}) . "(%rsp)"; };
	my ($outer, $inner, $dbl, $done) = (L(), L(), L(), L());

	function_begin($name);
	prologue($size);
	code("\tmovq\t%rdi, " . $v->('out') . "\n\tmovq\t%rsi, " . $v->('digits') . "\n");
	fe_set('X', 0);
	fe_set('Y', 1);
	fe_set('Z', 1);
	fe_set('T', 0);
	fe_set('zero', 0);
	# Pass 1: the odd digits; then W doublings; pass 0: the even digits.
	# rdi walks the table, rsi counts its rows.
	code(<<___);
	movq	\$1, @{[$v->('pass')]}
$outer:
	movq	@{[$v->('digits')]}, %rax
	addq	@{[$v->('pass')]}, %rax
	movq	%rax, @{[$v->('dptr')]}
	leaq	x25519_base_table(%rip), %rdi
	movl	\$$ROWS, %esi
$inner:
	movq	@{[$v->('dptr')]}, %rax
	movsbq	(%rax), %rcx
	addq	\$2, %rax
	movq	%rax, @{[$v->('dptr')]}
	movq	%rcx, %rax
	sarq	\$63, %rax
	xorq	%rax, %rcx
	subq	%rax, %rcx
	movq	%rax, @{[$v->('sign')]}
___
	if ($mulx) {
		lookup_avx2($v->('sign'));
	} else {
		lookup_cmov($v->('sign'));
	}
	code("\taddq\t\$$ROW, %rdi\n");
	# (X, Y, Z, T) += (ypx, ymx, t2d); every operand is a product or the
	# sum of two, so one fold suffices in additions and subtractions.
	fe_sub('A', 'Y', 'X', 1);
	fe_add('B', 'Y', 'X', 1);
	fe_add('D', 'Z', 'Z', 1);
	fe_mul('C', 'T', 't2d');
	fe_mul('A', 'A', 'ymx');
	fe_mul('B', 'B', 'ypx');
	# F = D - C in r8..r11, G = D + C in r12..r15, swapped for a negative digit.
	code("\tmovq\t" . limb('D', $_) . ", $r[$_]\n\tmovq\t$r[$_], $r[$_ + 4]\n") for 0 .. 3;
	addsub('sub', [@r[0 .. 3]], 'C', 1);
	addsub('add', [@r[4 .. 7]], 'C', 1);
	code("\tcmpq\t\$0, " . $v->('sign') . "\n");
	code("\tmovq\t$r[$_], %rcx\n\tcmovnzq\t$r[$_ + 4], $r[$_]\n\tcmovnzq\t%rcx, $r[$_ + 4]\n")
	    for 0 .. 3;
	code("\tmovq\t$r[$_], " . limb('F', $_) . "\n\tmovq\t$r[$_ + 4], " . limb('G', $_) . "\n")
	    for 0 .. 3;
	fe_sub('E', 'B', 'A', 1);
	fe_add('H', 'B', 'A', 1);
	fe_mul('Z', 'F', 'G');
	fe_mul('X', 'E', 'F');
	fe_mul('T', 'E', 'H');
	fe_mul('Y', 'G', 'H');
	code(<<___);
	decl	%esi
	jnz	$inner
	cmpq	\$0, @{[$v->('pass')]}
	je	$done
	movq	\$0, @{[$v->('pass')]}
	movl	\$$W, %edi
$dbl:
___
	# (X, Y, Z, T) = 2 (X, Y, Z): rdi counts.
	fe_sq('A', 'X');
	fe_sq('B', 'Y');
	fe_sq('C', 'Z');
	fe_add('C', 'C', 'C');		# C = 2 Z^2
	fe_add('H', 'X', 'Y');
	fe_sq('E', 'H');
	fe_add('H', 'A', 'B');		# A + B
	fe_sub('E', 'E', 'H');		# E = (X + Y)^2 - A - B
	fe_sub('H', 'zero', 'H');	# H = -A - B
	fe_sub('G', 'B', 'A');		# G = B - A
	fe_sub('F', 'G', 'C');		# F = G - C
	fe_mul('X', 'E', 'F');
	fe_mul('Y', 'G', 'H');
	fe_mul('T', 'E', 'H');
	fe_mul('Z', 'F', 'G');
	code(<<___);
	decl	%edi
	jnz	$dbl
	jmp	$outer
$done:
___
	# u = (Z + Y) / (Z - Y)
	fe_add('A', 'Z', 'Y');
	fe_sub('B', 'Z', 'Y');
	divide_call('C', 'A', 'B');
	code("\tmovq\t" . limb('C', $_) . ", $r[$_]\n") for 0 .. 3;
	code("\tmovq\t" . $v->('out') . ", %rdi\n");
	freeze_store();
	code("\tvzeroall\n") if $mulx;	# the entries chosen, and clean upper state
	epilogue($size);
	function_end($name);
}

divide('zinc_x25519_divide');
for my $path (['mulx', 1], ['mul', 0]) {
	$mulx = $path->[1];
	ladder("zinc_x25519_ladder_$path->[0]");
	base("zinc_x25519_base_$path->[0]");
}

# --- the table ---------------------------------------------------------------------
#
# Affine arithmetic on -x^2 + y^2 = 1 + d x^2 y^2 with Math::BigInt: slow
# but run once per build (a second or two).

my $p = Math::BigInt->new(2)->bpow(255)->bsub(19);
my $one = Math::BigInt->bone;
sub fm { return $_[0]->copy->bmul($_[1])->bmod($p); }
sub fa { return $_[0]->copy->badd($_[1])->bmod($p); }
sub fs { return $_[0]->copy->bsub($_[1])->bmod($p); }
sub fi { return $_[0]->copy->bmodinv($p); }

my $d = fs(Math::BigInt->bzero, fm(Math::BigInt->new(121665), fi(Math::BigInt->new(121666))));
my $d2 = fa($d, $d);

sub on_curve {
	my ($x, $y) = @_;
	my ($xx, $yy) = (fm($x, $x), fm($y, $y));
	return fs($yy, $xx) == fa($one, fm($d, fm($xx, $yy)));
}

# The base point: u = 9 is y = (u - 1) / (u + 1) = 4/5; x^2 = (y^2 - 1) / (d y^2 + 1).
my $by = fm(Math::BigInt->new(4), fi(Math::BigInt->new(5)));
my $xx = fm(fs(fm($by, $by), $one), fi(fa(fm($d, fm($by, $by)), $one)));
my $bx = $xx->copy->bmodpow(scalar($p->copy->badd(3)->bdiv(8)), $p);
if (fm($bx, $bx) != $xx) {
	my $sqrtm1 = Math::BigInt->new(2)->bmodpow(scalar($p->copy->bsub(1)->bdiv(4)), $p);
	$bx = fm($bx, $sqrtm1);
}
die "no square root\n" unless fm($bx, $bx) == $xx;
# A point's u is (1 + y) / (1 - y): B's must be 9.
die "bad base point\n" unless on_curve($bx, $by) && fm(fa($one, $by), fi(fs($one, $by))) == 9;

sub padd {
	my ($x1, $y1, $x2, $y2) = @_;
	my $t = fm($d, fm(fm($x1, $x2), fm($y1, $y2)));
	my $x3 = fm(fa(fm($x1, $y2), fm($y1, $x2)), fi(fa($one, $t)));
	my $y3 = fm(fa(fm($y1, $y2), fm($x1, $x2)), fi(fs($one, $t)));
	die "sum off the curve\n" unless on_curve($x3, $y3);
	return ($x3, $y3);
}

sub quads {
	my ($v) = @_;
	my $h = substr($v->as_hex, 2);
	$h = ('0' x (64 - length $h)) . $h;
	return join(', ', map { '0x' . substr($h, 48 - 16 * $_, 16) } 0 .. 3);
}

code($flavour eq 'macosx' ? ".section\t__TEXT,__const\n" : ".section\t.rodata\n");
code(".p2align\t5\nx25519_divide_c:\n\t.quad\t$divide_const\n");
code(".p2align\t6\nx25519_base_table:\n");
my ($px, $py) = ($bx, $by);
for my $i (0 .. $ROWS - 1) {
	my ($qx, $qy) = ($px, $py);
	for my $j (1 .. $ENTRIES) {
		code("\t.quad\t" . quads(fa($qy, $qx)) . "\n");
		code("\t.quad\t" . quads(fs($qy, $qx)) . "\n");
		code("\t.quad\t" . quads(fm($d2, fm($qx, $qy))) . "\n");
		($qx, $qy) = padd($qx, $qy, $px, $py) if $j < $ENTRIES;
	}
	# The next row's P: 2^(2 W) P = 2^(W + 1) (2^(W - 1) P).
	($qx, $qy) = padd($qx, $qy, $qx, $qy) for 1 .. $W + 1;
	($px, $py) = ($qx, $qy);
}

asm_close($file);
