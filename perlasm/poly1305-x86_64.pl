#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Poly1305 (RFC 8439) for x86_64, driven by provider/crypto/poly1305-x86_64-glue.c.
#
# State (uint64_t st[48], the context's opaque words), shared by every path:
#   st[0..2]   h, the accumulator, radix 2^64 (h2 holds a few bits only)
#   st[3..4]   r, clamped; st[5] = r1 + (r1 >> 2) = 5 * r1 / 4
#   st[6]      1 once the vector path's powers of r are valid, else 0
#   st[8..]    those powers, written by zinc_poly1305_powers_* the first
#              time a context takes the vector path; the table of the IFMA,
#              AVX-512F and AVX2 code is described with each (zinc_init()
#              fixes which runs)
# The vector code converts h to its radix on entry and back on exit, so a
# context can switch between scalar and vector calls at any time.
#
# Paths:
#   zinc_poly1305_blocks_x86_64       radix 2^64, MUL; one block at a time
#   zinc_poly1305_blocks_x86_64_bmi2  the same with MULX, ADCX and ADOX
#   zinc_poly1305_blocks_avx2         radix 2^26, AVX2, 8 blocks (2 x 4 lanes)
#   zinc_poly1305_blocks_avx512       radix 2^26, AVX-512F, 16 blocks (2 x 8)
#   zinc_poly1305_blocks_ifma         radix 2^44, AVX-512 IFMA, 16 blocks (2 x 8)
#   zinc_poly1305_powers_{avx2,avx512,ifma}  each one's table of powers of
#                                     r, several powers side by side in the
#                                     lanes: a tree three or four products deep
#   zinc_poly1305_emit_x86_64         final reduction and s in one:
#                                     h + s + 5 ((h + 5) >> 130), constant time
# The scalar code (the section "scalar, radix 2^64" below: the math, the
# bounds and the loop shape) keeps r0, r1, s1 in st[3..5] and multiplies
# from there, and pushes rbx and rbp only.  Register map: st rdi, in rsi,
# end pointer (in + len) rcx, padbit in the red zone; MUL: h0, h1, h2 =
# r8, r9, r10, product t0 = r8, t1 = r11, t2 = rbp, rbx between; MULX: h0 in
# rdx (MULX's implicit operand), h1, h2 = r8, r9, product t0, t1 = r10, r11,
# t2 = rbp, rbx between.
# The glue runs the scalar code for short input and tails, a vector path
# from 512 (AVX2, AVX-512F) or 256 (IFMA) bytes on, computing the powers of
# r the first time a context needs them (24-34 ns here, against 60-110 ns
# for the C this replaced); from 128 (IFMA) or 256 bytes on once they are
# there.
#
#   void zinc_poly1305_init_x86_64(uint64_t st[48], const uint8_t key[16]);
#   void zinc_poly1305_blocks_*(uint64_t st[48], const uint8_t *in,
#                               size_t len, uint32_t padbit);  len % 16 == 0
#   void zinc_poly1305_powers_*(uint64_t st[48]);
#   void zinc_poly1305_emit_x86_64(const uint64_t st[48], uint8_t mac[16],
#                                  const uint32_t nonce[4]);
#
# Cycles per byte, one-shot poly1305() (init, update, final) of a message
# with a new key each time, on the AMD EPYC (Zen 5, 2 vCPUs, shared) this
# was written on: median of 7 runs, each the best of 7; no cycle counters
# here, so ns/byte times the nominal 2.096 GHz of /proc/cpuinfo "cpu MHz"
# (the core boosts above it: a chain of dependent adds runs at about
# 3-3.4 GHz).  ZINC_CPU picks the path.  256 B and 1 KB include computing
# the powers of r where the vector path runs (256 B: IFMA only).
#
#   path (ZINC_CPU)                      64 B   256 B    1 KB   16 KB
#   portable C, radix 2^44 (none)        1.51    0.92    0.77    0.72
#   MUL (ssse3)                        * 0.96    0.61    0.52    0.49
#   MULX/ADX (bmi2,adx)                * 0.92    0.57    0.49    0.47
#   AVX2 (ssse3,avx,avx2)                0.89    0.60    0.37    0.23
#   AVX-512F (...,avx512f,vl,bw)         0.92    0.61    0.27    0.12
#   AVX-512 IFMA (all)                   0.90    0.54    0.20    0.08
# * Re-measured for the scalar code's rewrite, in another harness, so not
#   comparable with the other rows: a loop of poly1305() over one buffer
#   (a key byte changed each message) after a 200 ms warm-up (without it the
#   first sizes timed came out 1.5 times slower in some runs, old code and
#   new alike: the clock ramping up, most likely), median of 9
#   runs, each the best of 7, old and new code interleaved.  The code before
#   gave, in that harness, MUL 1.04 0.67 0.58 0.55 and MULX/ADX 1.02 0.65
#   0.57 0.54; 16 B, 2.51 -> 2.35 (MUL) and 2.38 -> 2.32 (MULX/ADX).  The
#   loop alone: 3.79 ns a block (MUL) and 3.59 (MULX/ADX), from 4.23 and 4.13.
# 64 B takes the scalar code on every path; MULX/ADX runs a little ahead of
# MUL, both bound by the latency of one block's multiply and fold.  Before
# zinc_poly1305_powers_* (the powers of r in C) and the vpmadd52luq folds,
# 1 KB took 0.51 (AVX2), 0.45 (AVX-512F) and 0.32 (IFMA), 16 KB 0.11 (IFMA).
use strict;
use warnings;
use zinc_x86_64;

my $file = asm_open(@ARGV);

# --- scalar, radix 2^64 --------------------------------------------------------
#
# h = h + m + padbit * 2^128, then h = h * r, reduced partially:
#   h * r = (h0 + h1 2^64 + h2 2^128) (r0 + r1 2^64), and since 4 | r1,
#   h1 r1 2^128 = h1 (r1/4) 2^130 == 5 h1 (r1/4) = h1 s1 (mod 2^130 - 5),
#   h2 r1 2^192 == h2 s1 2^64.  So
#   t0 + t1 2^64 + t2 2^128 = h0 r0 + h1 s1 + (h0 r1 + h1 r0 + h2 s1) 2^64
#                             + h2 r0 2^128
# and the bits of t2 above 2 fold back times 5 (2^130 == 5):
#   h = t0 + t1 2^64 + (t2 mod 4) 2^128 + 5 floor(t2 / 4).
#
# Bounds.  r0, r1 < 2^60 (the clamp), s1 = r1 + r1/4 < 1.25 2^60; h0, h1 <
# 2^64 and h2 <= 6 (below).  h0 r0 + h1 s1 < 2.25 2^124 < 2^126: its high
# word is below 2^62.  h0 r1 + h1 r0 + h2 s1 + that < 2^125 + 2^63 + 2^62 <
# 2^126: no carry out of t2.  t2 < 2^62 + 6 r0 < 10 2^60, so 5 floor(t2/4)
# <= t2 + t2/4 < 2^64 fits a word.  Between calls h2 = (t2 mod 4) + the
# carry of the fold <= 4, so h < 2^130 + 2^128 < 2p (what emit relies on);
# inside the loop the next block's m and padbit carry in too, so h2 <= 6.
#
# Loop shape (own design): the fold of t2 is merged with the next block's
# message add.  t0 and t1 are ready well before t2, so t + m starts early and
# only "+ 5 floor(t2/4)" waits for t2: the next h0 is ready two adds after
# 5 floor(t2/4) instead of three, h1 and h2 likewise one step earlier.  The
# code runs  h += m; t = h r;  then, while blocks are left,  h = fold(t) + m;
# t = h r  (one branch a block), and last  h = fold(t)  and the store.  The
# loop ends on an end pointer (in + len) compared with in, not a counter,
# and lies after the ret: a one-block call takes no branch.
#
# r0, r1 and s1 stay in st[3..5] and are multiplied from memory: the loads
# do not depend on h, so they issue early and cost no latency, and the three
# registers saved let both paths push only rbx and rbp (not six).  padbit
# (0 or 1) waits in the red zone at -8(%rsp) (leaf functions) and enters
# h2 by adc from there.  st[5] = s1 keeps the meaning init gives it.

my ($st, $inp, $len, $padbit, $padbit32) = ('%rdi', '%rsi', '%rdx', '%rcx', '%ecx');

function_begin('zinc_poly1305_init_x86_64');
code(<<___);
	# r = key & 0x0ffffffc0ffffffc0ffffffc0fffffff; the two words' masks
	# differ in their low two bits only
	movabsq	\$0x0ffffffc0fffffff, %rax
	movq	%rax, %rdx
	andq	0(%rsi), %rax
	andq	\$-4, %rdx
	andq	8(%rsi), %rdx
	movq	%rax, 24(%rdi)		# r0
	movq	%rdx, 32(%rdi)		# r1
	movq	%rdx, %rcx
	shrq	\$2, %rcx
	addq	%rdx, %rcx		# s1 = r1 + r1/4 (4 | r1)
	movq	%rcx, 40(%rdi)
	xorl	%eax, %eax
	movq	%rax, 0(%rdi)		# h = 0
	movq	%rax, 8(%rdi)
	movq	%rax, 16(%rdi)
	movq	%rax, 48(%rdi)		# no powers of r yet
	ret
___
function_end('zinc_poly1305_init_x86_64');

{
# Both paths: end pointer in rcx, t2 (the top word of the product) in rbp.
my $end = '%rcx';
my $pad = '-8(%rsp)';
my @saved = qw(rbx rbp);
my ($R0, $R1, $S1) = map { "$_($st)" } (24, 32, 40);

# In the prologue of either path: nothing to do for len == 0; padbit to the
# red zone, end = in + len; h from st, plus the first block.
sub scalar_prologue {
	my ($h0, $h1, $h2) = @_;
	code(<<___);
	testq	$len, $len
	jz	9f
@{[push_callee_saved(@saved)]}	movl	$padbit32, $padbit32
	movq	$padbit, $pad		# padbit, zero-extended
	leaq	($inp,$len), $end
	movq	0($st), $h0
	movq	8($st), $h1
	movq	16($st), $h2
	addq	0($inp), $h0
	adcq	8($inp), $h1
	adcq	$pad, $h2
	leaq	16($inp), $inp
___
}

# h = t0 + t1 2^64 + (t2 mod 4) 2^128 + 5 floor(t2 / 4) [+ the block at in,
# padbit]: 5 floor(t2/4) = (t2 & -4) + (t2 >> 2).  The flag-setting and/add
# come first so that the carry chains below are not cut.  t0 may already be
# h0's register.
sub scalar_fold {
	my ($h0, $h1, $h2, $t0, $t1, $t2, $msg) = @_;
	my $s = '';
	$s .= "\tmovq\t$t2, $h2\n\tandq\t\$3, $h2\n" .
	      "\tmovq\t$t2, %rax\n\tshrq\t\$2, %rax\n\tandq\t\$-4, $t2\n\taddq\t%rax, $t2\n";
	$s .= "\tmovq\t$t0, $h0\n" if $t0 ne $h0;
	if ($msg) {
		$s .= "\taddq\t0($inp), $h0\n\tmovq\t8($inp), $h1\n\tadcq\t$t1, $h1\n" .
		      "\tadcq\t$pad, $h2\n\tleaq\t16($inp), $inp\n";
		$s .= "\taddq\t$t2, $h0\n\tadcq\t\$0, $h1\n\tadcq\t\$0, $h2\n";
	} else {
		$s .= "\tmovq\t$t1, $h1\n\taddq\t$t2, $h0\n\tadcq\t\$0, $h1\n\tadcq\t\$0, $h2\n";
	}
	return $s;
}

# After the first block's product: more blocks go to the loop, which lies
# after the ret, so that a one-block call (a 16-byte message, the common
# ChaCha20-Poly1305 tail) takes no branch at all; else fold alone, store h
# and return.  The loop (fold the next block in, multiply, again while
# blocks are left) runs inside the frame: its CFI is the one before the
# epilogue, remembered and restored at the loop's first instruction.
sub scalar_blocks {
	my ($product, $h0, $h1, $h2, $t0, $t1, $t2) = @_;
	code($product . <<___);
	cmpq	$end, $inp
	jb	1f
2:
@{[cfi_remember_state()]}@{[scalar_fold($h0, $h1, $h2, $t0, $t1, $t2, 0)]}	movq	$h0, 0($st)
	movq	$h1, 8($st)
	movq	$h2, 16($st)
@{[pop_callee_saved(@saved)]}9:
	ret
.p2align 4
@{[cfi_restore_state()]}1:
@{[scalar_fold($h0, $h1, $h2, $t0, $t1, $t2, 1)]}$product	cmpq	$end, $inp
	jb	1b
	jmp	2b
___
}

# MUL (rdx:rax = rax * operand).  h0, h1, h2 = r8, r9, r10; the product
# lands in t0 = r8 (h0's register, free after its two products), t1 = r11,
# t2 = rbp, with rbx for the low word of h0 r1 until the sums.  The h0
# products go first: h0 is ready a step before h1 and two before h2.
{
my ($h0, $h1, $h2) = ('%r8', '%r9', '%r10');
my ($t1, $t2, $m1) = ('%r11', '%rbp', '%rbx');

function_begin('zinc_poly1305_blocks_x86_64');
scalar_prologue($h0, $h1, $h2);
my $product = <<___;
	movq	$R1, %rax
	mulq	$h0			# h0 r1
	movq	%rax, $m1
	movq	%rdx, $t2
	movq	$R0, %rax
	mulq	$h0			# h0 r0
	movq	%rax, $h0
	movq	%rdx, $t1
	movq	$S1, %rax
	mulq	$h1			# h1 s1
	addq	%rax, $h0
	adcq	%rdx, $t1		# < 2^62, no carry out
	movq	$R0, %rax
	mulq	$h1			# h1 r0
	addq	%rax, $m1
	adcq	%rdx, $t2
	movq	$S1, %rax
	imulq	$h2, %rax		# h2 s1 (h2 <= 6: one word)
	imulq	$R0, $h2		# h2 r0
	addq	%rax, $t1		# < 2^62 + 2^63: no carry out
	addq	$m1, $t1
	adcq	$h2, $t2
___
scalar_blocks($product, $h0, $h1, $h2, $h0, $t1, $t2);
function_end('zinc_poly1305_blocks_x86_64');
}

# MULX (rdx times the operand, flags untouched): h0 lives in rdx itself, so
# the first two products need no move; h1, h2 = r8, r9.  Two carry chains,
# ADCX (CF) for the low word and ADOX (OF) for the middle one, then one
# plain add joins them.  Product words: h0 r0 in r10:r11, h0 r1 in rbx:rbp,
# h1 s1 and h1 r0 in rax:r8 (h1's register, free once rdx holds h1).
{
my ($h0, $h1, $h2) = ('%rdx', '%r8', '%r9');
my ($t0, $t1, $m1, $t2) = ('%r10', '%r11', '%rbx', '%rbp');

function_begin('zinc_poly1305_blocks_x86_64_bmi2');
scalar_prologue($h0, $h1, $h2);
my $product = <<___;
	xorl	%eax, %eax		# CF = OF = 0
	mulx	$R0, $t0, $t1		# h0 r0
	mulx	$R1, $m1, $t2		# h0 r1
	movq	$h1, %rdx
	mulx	$S1, %rax, $h1		# h1 s1
	adcx	%rax, $t0
	adcx	$h1, $t1		# < 2^62, CF = 0
	mulx	$R0, %rax, $h1		# h1 r0
	adox	%rax, $m1
	adox	$h1, $t2		# OF = 0
	movq	$S1, %rdx
	imulq	$h2, %rdx		# h2 s1 (h2 <= 6: one word)
	imulq	$R0, $h2		# h2 r0
	addq	%rdx, $t1		# < 2^62 + 2^63: no carry out
	addq	$m1, $t1
	adcq	$h2, $t2
___
scalar_blocks($product, $h0, $h1, $h2, $t0, $t1, $t2);
function_end('zinc_poly1305_blocks_x86_64_bmi2');
}
}

# Final reduction, own formulation.  h < 2p, so h mod p is h, or h - p when
# h >= p; and h >= p exactly when h + 5 >= 2^130, i.e. when bit 2 of the top
# word of h + 5 is set (h + 5 < 2^131).  Then h - p = h + 5 - 2^130, whose
# low 128 bits are those of h + 5.  So the tag is
#   (h + s + 5 b) mod 2^128,  b = (h + 5) >> 130 in {0, 1},
# h + s summed while b is found; b enters as 5 b = lea (b, b, 4): constant
# time, no branch, no selection, no secret-dependent address.
function_begin('zinc_poly1305_emit_x86_64');
code(<<___);
	movq	0(%rdi), %rax
	movq	8(%rdi), %rcx
	movq	16(%rdi), %r8
	movq	%rax, %r9
	addq	\$5, %r9		# only the carries of h + 5 count
	movq	%rcx, %r9
	adcq	\$0, %r9
	adcq	\$0, %r8
	shrq	\$2, %r8		# b
	addq	0(%rdx), %rax		# h + s
	adcq	8(%rdx), %rcx
	leaq	(%r8,%r8,4), %r8	# 5 b
	addq	%r8, %rax
	adcq	\$0, %rcx
	movq	%rax, 0(%rsi)
	movq	%rcx, 8(%rsi)
	ret
___
function_end('zinc_poly1305_emit_x86_64');

# --- where the glue takes a vector path -----------------------------------------
#
# The vector code takes 128 (IFMA, AVX2) or 256 (AVX-512F) bytes at a time,
# the scalar code the rest.  Measured on the Zen 5 above (init, blocks and
# emit of one message, medians of 7 to 9 runs, lengths 64..2048 in steps of
# 64), the shortest length from which the vector path wins:
#   fresh context (its powers of r computed first, 24-34 ns):
#     IFMA 256 (63 ns against 74 scalar; 192: 72 against 59),
#     AVX-512F 512 (79 against 120; 448: 120 against 104),
#     AVX2 512 (105 against 119; 448: 116 against 105);
#   context holding its powers:
#     IFMA 128 (36 ns against 43), AVX-512F 256 (41 against 58),
#     AVX2 256 (45 against 59; 128: 33 against 29).
# Above them the vector path stays ahead at every length measured.

# --- AVX-512 IFMA, radix 2^44 ---------------------------------------------------
#
#   void zinc_poly1305_blocks_ifma(uint64_t st[48], const uint8_t *in,
#                                  size_t len, uint32_t padbit);
# len a non-zero multiple of 128 (a last 128 bytes take one set, below);
# st[6] == 1, and the table (radix 2^44,
# limb-major) holds
#   st[8 + 8 j + p]   limb j of r^(8,4,7,3,6,2,5,1)[p]
#   st[32 + j]        limb j of r^16
#
# 16 blocks an iteration in two sets A and B of eight lanes, one block per
# lane: A takes blocks 0..7 of each 256 bytes, B blocks 8..15.  Lane p of a
# set holds block (0,4,1,5,2,6,3,7)[p] (the order vpunpck{l,h}qdq leaves),
# so the powers vector holds r^(8,4,7,3,6,2,5,1) to match.  Between
# iterations both sets are multiplied by r^16; at the end
#   h = sum over lanes of (A r^8 + B) r^(8 - block).
# h enters lane 0 of A.  Limbs stay below 2^45 (2^43 for limb 2) after each
# partial reduction and 20 r below 2^49, inside the 52 bits vpmadd52 reads.
#
# A product of limbs i and j lands at weight 2^(44 (i + j)); beyond 2^130 it
# wraps times 5, and 2^132 == 20, hence s = 20 r.  The high half of a 52-bit
# multiply is worth 2^52 = 2^8 2^44 relative to its low half: it moves one
# limb up times 256, and limb 2's high half (weight 2^140 == 5 2^10) lands in
# limb 0 times 5120.  Those folds, and the 5 of the carry out of limb 2, are
# vpmadd52luq by a constant, one instruction each where shifts and adds take
# two to four (the code is bound by instruction throughput): the high halves
# stay below 2^41 (2^38 for limb 2), so the products fit the 52 bits.

{
my @A = map("%zmm$_", 0..2);
my @B = map("%zmm$_", 3..5);
my @R = map("%zmm$_", 6..8);
my @S = map("%zmm$_", 9..10);
my ($M44, $M42, $PAD) = map("%zmm$_", 11..13);
my @TA = map("%zmm$_", 14..19);
my @TB = map("%zmm$_", 20..25);
my ($g0, $g1, $g2, $m44) = ('%r8', '%r9', '%r10', '%r11');
# multipliers for mul_ops's folds, broadcast from the red zone (leaf functions)
my ($C256, $C5120, $C5) = map("-$_(%rsp){1to8}", 8, 16, 24);

sub fold_constants {
	code("\tmovq\t\$256, -8(%rsp)\n\tmovq\t\$5120, -16(%rsp)\n\tmovq\t\$5, -24(%rsp)\n");
}

# (o0, o1, o2) = (h0, h1, h2) (r0, r1, r2) mod 2^130 - 5, partially
# reduced; o is h unless given.
sub mul_ops {
	my ($h, $r, $s, $t, $o, $pre) = @_;
	$o //= $h;
	my ($lo0, $hi0, $lo1, $hi1, $lo2, $hi2) = @$t;
	# the low sums start at zero, or at the blocks load_limbs_ops left there
	my @o = map("vpxorq\t$_, $_, $_", $pre ? ($hi0, $hi1, $hi2) : @$t);
	# rows: for each h limb, the multiplier of d0, d1, d2
	my @mul = ([$$r[0], $$r[1], $$r[2]],
		   [$$s[1], $$r[0], $$r[1]],
		   [$$s[0], $$s[1], $$r[0]]);
	for my $i (0..2) {
		my @d = ([$lo0, $hi0], [$lo1, $hi1], [$lo2, $hi2]);
		for my $k (0..2) {
			push @o, "vpmadd52luq\t$mul[$i][$k], $$h[$i], $d[$k][0]";
			push @o, "vpmadd52huq\t$mul[$i][$k], $$h[$i], $d[$k][1]";
		}
	}
	push @o,
	    "vpmadd52luq\t$C256, $hi0, $lo1",
	    "vpmadd52luq\t$C256, $hi1, $lo2",
	    "vpmadd52luq\t$C5120, $hi2, $lo0",
	    # carries out of all three limbs at once
	    "vpsrlq\t\$44, $lo0, $hi0",
	    "vpsrlq\t\$44, $lo1, $hi1",
	    "vpsrlq\t\$42, $lo2, $hi2",
	    "vpandq\t$M44, $lo0, $$o[0]",
	    "vpandq\t$M44, $lo1, $$o[1]",
	    "vpandq\t$M42, $lo2, $$o[2]",
	    "vpaddq\t$hi0, $$o[1], $$o[1]",
	    "vpaddq\t$hi1, $$o[2], $$o[2]",
	    "vpmadd52luq\t$C5, $hi2, $$o[0]";
	return @o;
}

# h += the eight blocks at off(inp), padbit at 2^128.
sub load_ops {
	my ($h, $off, $t) = @_;
	my $off64 = $off + 64;
	return (
	    "vmovdqu64\t$off($inp), $$t[0]",
	    "vmovdqu64\t$off64($inp), $$t[1]",
	    "vpunpcklqdq\t$$t[1], $$t[0], $$t[2]",	# low halves
	    "vpunpckhqdq\t$$t[1], $$t[0], $$t[3]",	# high halves
	    "vpandq\t$M44, $$t[2], $$t[4]",
	    "vpsrlq\t\$44, $$t[2], $$t[2]",
	    "vpsllq\t\$20, $$t[3], $$t[5]",
	    "vpternlogq\t\$0xa8, $M44, $$t[5], $$t[2]",	# (t2 | t5) & M44
	    "vpsrlq\t\$24, $$t[3], $$t[3]",
	    "vpaddq\t$$t[4], $$h[0], $$h[0]",
	    "vpaddq\t$$t[2], $$h[1], $$h[1]",
	    "vporq\t$PAD, $$t[3], $$t[3]",
	    "vpaddq\t$$t[3], $$h[2], $$h[2]");
}

# The limbs of the eight blocks at off(inp), padbit at 2^128, into the low
# sums of mul_ops's temporaries @$t: h r + the blocks then costs no adds.
sub load_limbs_ops {
	my ($off, $t) = @_;
	my ($lo0, $hi0, $lo1, $hi1, $lo2, $hi2) = @$t;
	my $off64 = $off + 64;
	return (
	    "vmovdqu64\t$off($inp), $hi0",
	    "vmovdqu64\t$off64($inp), $hi1",
	    "vpunpcklqdq\t$hi1, $hi0, $lo1",
	    "vpunpckhqdq\t$hi1, $hi0, $lo2",
	    "vpandq\t$M44, $lo1, $lo0",
	    "vpsrlq\t\$44, $lo1, $lo1",
	    "vpsllq\t\$20, $lo2, $hi2",
	    "vpternlogq\t\$0xa8, $M44, $hi2, $lo1",
	    "vpsrlq\t\$24, $lo2, $lo2",
	    "vporq\t$PAD, $lo2, $lo2");
}

# The two sets' instructions alternately, for the out-of-order core.
sub interleave {
	my ($x, $y) = @_;
	my @o;
	while (@$x || @$y) {
		push @o, shift @$x if @$x;
		push @o, shift @$y if @$y;
	}
	code(join('', map("\t$_\n", @o)));
}

# s = 20 r for r1 and r2.
sub s_of_r {
	code(<<___);
	vpsllq	\$4, $R[1], $S[0]
	vpsllq	\$2, $R[1], $TA[0]
	vpsllq	\$4, $R[2], $S[1]
	vpsllq	\$2, $R[2], $TA[1]
	vpaddq	$TA[0], $S[0], $S[0]
	vpaddq	$TA[1], $S[1], $S[1]
___
}

# Sum of the qword lanes of a zmm or ymm register (a limb) into a general
# register, halving through ymm and xmm; $t names a free register below 16
# (vextracti128 is VEX-encoded).
sub lane_sum {
	my ($v, $gpr, $t) = @_;
	(my $y = $v) =~ s/zmm/ymm/;
	(my $x = $v) =~ s/[yz]mm/xmm/;
	code("\tvextracti64x4\t\$1, $v, %ymm$t\n\tvpaddq\t%ymm$t, $y, $y\n") if $v =~ /zmm/;
	code(<<___);
	vextracti128	\$1, $y, %xmm$t
	vpaddq	%xmm$t, $x, $x
	vpshufd	\$0x4e, $x, %xmm$t
	vpaddq	%xmm$t, $x, $x
	vmovq	$x, $gpr
___
}

function_begin('zinc_poly1305_blocks_ifma');
fold_constants();
code(<<___);
	movabsq	\$0xfffffffffff, $m44
	vpbroadcastq	$m44, $M44
	movq	$m44, %rax
	shrq	\$2, %rax
	vpbroadcastq	%rax, $M42
	movl	%ecx, %eax
	shlq	\$40, %rax
	vpbroadcastq	%rax, $PAD
	movl	%edx, %ecx
	andl	\$128, %ecx		# eight blocks after the 256-byte batches?
	shrq	\$8, $len

	# h, radix 2^64 -> 2^44, into lane 0 of A
	movq	0($st), $g0
	movq	8($st), $g1
	movq	16($st), $g2
	movq	$g0, %rax
	andq	$m44, %rax
	vmovq	%rax, %xmm0
	shrdq	\$44, $g1, $g0
	andq	$m44, $g0
	vmovq	$g0, %xmm1
	shrdq	\$24, $g2, $g1
	vmovq	$g1, %xmm2
	vpxorq	$B[0], $B[0], $B[0]
	vpxorq	$B[1], $B[1], $B[1]
	vpxorq	$B[2], $B[2], $B[2]
	testq	$len, $len
	jnz	5f
	# 128 bytes: h r^8 + the blocks, lane by lane, is (A + blocks) r^(8 - block)
___
interleave([load_ops(\@B, 0, \@TB)], []);
code(<<___);
	vpaddq	$A[0], $B[0], $B[0]
	vpaddq	$A[1], $B[1], $B[1]
	vpaddq	$A[2], $B[2], $B[2]
	jmp	3f
5:
	vpbroadcastq	256($st), $R[0]		# r^16
	vpbroadcastq	264($st), $R[1]
	vpbroadcastq	272($st), $R[2]
___
s_of_r();
interleave([load_ops(\@A, 0, \@TA)], [load_ops(\@B, 128, \@TB)]);
code(<<___);
	leaq	256($inp), $inp
	decq	$len
	jz	2f
.p2align 5
1:
___
interleave([load_limbs_ops(0, \@TA)], [load_limbs_ops(128, \@TB)]);
interleave([mul_ops(\@A, \@R, \@S, \@TA, \@A, 1)], [mul_ops(\@B, \@R, \@S, \@TB, \@B, 1)]);
code(<<___);
	leaq	256($inp), $inp
	decq	$len
	jnz	1b
2:
	vpbroadcastq	64($st), $R[0]		# r^8, the power of lane 0
	vpbroadcastq	128($st), $R[1]
	vpbroadcastq	192($st), $R[2]
___
s_of_r();
interleave([mul_ops(\@A, \@R, \@S, \@TA)], []);
code(<<___);
	vpaddq	$A[0], $B[0], $B[0]
	vpaddq	$A[1], $B[1], $B[1]
	vpaddq	$A[2], $B[2], $B[2]
	testl	%ecx, %ecx
	jz	3f
	# eight more blocks: ((A r^8 + B) r^8 + blocks) r^(8 - block)
___
interleave([mul_ops(\@B, \@R, \@S, \@TB)], []);
interleave([load_ops(\@B, 0, \@TB)], []);
code(<<___);
3:
	vmovdqu64	64($st), $R[0]
	vmovdqu64	128($st), $R[1]
	vmovdqu64	192($st), $R[2]
___
s_of_r();
interleave([mul_ops(\@B, \@R, \@S, \@TB)], []);
lane_sum($B[0], $g0, 14);
lane_sum($B[1], $g1, 14);
lane_sum($B[2], $g2, 14);
code(<<___);
@{[zmm_hi_wipe()]}	vzeroupper

	# carry the sums (< 2^48) and go back to radix 2^64
	movq	$g0, %rax
	shrq	\$44, %rax
	andq	$m44, $g0
	addq	%rax, $g1
	movq	$g1, %rax
	shrq	\$44, %rax
	andq	$m44, $g1
	addq	%rax, $g2
	movq	$g2, %rax
	shrq	\$42, %rax
	movq	$m44, %rcx
	shrq	\$2, %rcx
	andq	%rcx, $g2
	leaq	(%rax,%rax,4), %rax
	addq	%rax, $g0
	movq	$g0, %rax
	shrq	\$44, %rax
	andq	$m44, $g0
	addq	%rax, $g1

	movq	$g1, %rax
	shlq	\$44, %rax
	shrq	\$20, $g1
	movq	$g2, %rcx
	shlq	\$24, %rcx
	shrq	\$40, $g2
	addq	%rax, $g0
	adcq	%rcx, $g1
	adcq	\$0, $g2
	movq	$g0, 0($st)
	movq	$g1, 8($st)
	movq	$g2, 16($st)
	ret
___
function_end('zinc_poly1305_blocks_ifma');

#   void zinc_poly1305_powers_ifma(uint64_t st[48]);
# The table above from r (st[3..4]), and st[6] = 1.  A chain of sixteen
# products would cost sixteen multiply latencies; here each multiply works
# on eight lanes at once, four multiplies in all, the chain four deep:
#   1. r^2 = r r                                 (every lane)
#   2. (r^4, r^4, r^3, r^3, r^4, r^4, r^4, r^4)
#        = (r^2, r^2, r, r, r^2, r^2, r^2, r^2) r^2
#   3. t = (r^4, r^4, r^3, r^3, r^2, r^2, r, r), put together from 1 and 2,
#      times (r^4, 1, r^4, 1, ...) (r^4 from lane 4 of 2) gives the lanes
#      r^(8,4,7,3,6,2,5,1)
#   4. r^16 = r^8 r^8, r^8 from lane 0 of 3
# Multiplying by 1 (limbs 1, 0, 0) keeps a lane's power as it is.  Every
# product is mul_ops's, so the table's limbs have the bounds of h above.
{
my @X = map("%zmm$_", 0..2);	# r, then the multiplier of step 3
my @SX = map("%zmm$_", 3..4);
my @P2 = map("%zmm$_", 5..7);
my @SP2 = map("%zmm$_", 8..9);
my $ONE = '%zmm10';
my @H = map("%zmm$_", 26..28);	# steps 2 and 3: the lanes of the table
my @M = map("%zmm$_", 29..31);	# r^4, then r^8, r^16, in every lane

# s = 20 r, limbs 1 and 2
sub s20_ops {
	my ($r, $s) = @_;
	return map { ("vpsllq\t\$4, $$r[$_ + 1], $$s[$_]",
		      "vpsllq\t\$2, $$r[$_ + 1], $TB[$_]",
		      "vpaddq\t$TB[$_], $$s[$_], $$s[$_]") } 0..1;
}

sub ops { code(join('', map("\t$_\n", @_))); }

function_begin('zinc_poly1305_powers_ifma');
fold_constants();
code(<<___);
	movabsq	\$0xfffffffffff, $m44
	movq	24($st), %rax
	movq	32($st), %rdx
	movq	%rax, %rcx
	andq	$m44, %rcx
	shrdq	\$44, %rdx, %rax
	andq	$m44, %rax
	shrq	\$24, %rdx
	vpbroadcastq	%rcx, $X[0]
	vpbroadcastq	%rax, $X[1]
	vpbroadcastq	%rdx, $X[2]
	vpbroadcastq	$m44, $M44
	shrq	\$2, $m44
	vpbroadcastq	$m44, $M42
___
ops(s20_ops(\@X, \@SX));
interleave([mul_ops(\@X, \@X, \@SX, \@TA, \@P2)], []);
code(<<___);
	movl	\$0x0c, %eax
	kmovw	%eax, %k1
	movl	\$0x30, %eax
	kmovw	%eax, %k2
	movl	\$0xc0, %eax
	kmovw	%eax, %k3
	movl	\$0xaa, %eax
	kmovw	%eax, %k4
	movl	\$0x55, %eax
	kmovw	%eax, %k5
	vpternlogq	\$0xff, $ONE, $ONE, $ONE
	vpsrlq	\$63, $ONE, $ONE
___
ops(map("vpblendmq\t$X[$_], $P2[$_], $H[$_]\{%k1}", 0..2), s20_ops(\@P2, \@SP2));
interleave([mul_ops(\@H, \@P2, \@SP2, \@TA)], []);
ops(map("vshufi64x2\t\$0xaa, $H[$_], $H[$_], $M[$_]", 0..2),	# lane 4: r^4
    map("vmovdqa64\t$P2[$_], $H[$_]\{%k2}", 0..2),
    map("vmovdqa64\t$X[$_], $H[$_]\{%k3}", 0..2),
    "vpblendmq\t$ONE, $M[0], $X[0]\{%k4}",
    map("vmovdqa64\t$M[$_], $X[$_]\{%k5}\{z}", 1..2),
    s20_ops(\@X, \@SP2));
interleave([mul_ops(\@H, \@X, \@SP2, \@TA)], []);
ops(map("vmovdqu64\t$H[$_], " . (64 + 64 * $_) . "($st)", 0..2),
    map { (my $x = $H[$_]) =~ s/zmm/xmm/; "vpbroadcastq\t$x, $M[$_]" } 0..2);
ops(s20_ops(\@M, \@SX));
interleave([mul_ops(\@M, \@M, \@SX, \@TA)], []);
my @m = map { s/zmm/xmm/r } @M;
code(<<___);
	vmovq	$m[0], 256($st)
	vmovq	$m[1], 264($st)
	vmovq	$m[2], 272($st)
	movq	\$1, 48($st)
@{[zmm_hi_wipe()]}	vzeroupper
	ret
___
function_end('zinc_poly1305_powers_ifma');
}
}

# --- radix 2^26, shared by the AVX2 and AVX-512F code --------------------------
# h and r in general-purpose registers, five limbs of 26 bits.
my @g = ('%r8', '%r9', '%r10', '%r11', '%rax');

# h, radix 2^64 in st[0..2], to radix 2^26 in xmm0..4 (lane 0 of set A).
sub h_to_radix26 {
	code(<<___);
	# h, radix 2^64 -> 2^26, into lane 0 of A
	movq	0($st), %r8
	movq	8($st), %r9
	movq	16($st), %r10
	movq	%r8, %rax
	andl	\$0x3ffffff, %eax
	vmovq	%rax, %xmm0
	movq	%r8, %rax
	shrq	\$26, %rax
	andl	\$0x3ffffff, %eax
	vmovq	%rax, %xmm1
	movq	%r9, %rax
	shldq	\$12, %r8, %rax		# (h1 << 12) | (h0 >> 52)
	andl	\$0x3ffffff, %eax
	vmovq	%rax, %xmm2
	movq	%r9, %rax
	shrq	\$14, %rax
	andl	\$0x3ffffff, %eax
	vmovq	%rax, %xmm3
	shrdq	\$40, %r10, %r9		# (h1 >> 40) | (h2 << 24)
	vmovq	%r9, %xmm4
___
}

# Carries of limbs @_ of @g into the next (mask 2^26 - 1 in %rdx); no
# newline after the last line, which may take a comment.
sub carry26 {
	return join("\n", map("\tmovq\t$g[$_], %rcx\n\tshrq\t\$26, %rcx\n" .
				 "\tandq\t%rdx, $g[$_]\n\taddq\t%rcx, $g[$_ + 1]", @_));
}

# The lanes' sums in @g, each below 2^$bound, carried and stored back into
# st[0..2] in radix 2^64.
sub h_from_radix26 {
	my ($bound) = @_;
	code(<<___);

	# carry the sums (< 2^$bound) and go back to radix 2^64
	movl	\$0x3ffffff, %edx
@{[carry26(0, 1, 2, 3)]}
	movq	$g[4], %rcx
	shrq	\$26, %rcx
	andq	%rdx, $g[4]
	leaq	(%rcx,%rcx,4), %rcx
	addq	%rcx, $g[0]
@{[carry26(0)]}		# g1 <= 2^26

	shlq	\$26, $g[1]
	addq	$g[1], $g[0]		# g0 + g1 2^26 < 2^53
	movq	$g[2], %rcx
	shrq	\$12, %rcx
	shlq	\$52, $g[2]
	shlq	\$14, $g[3]
	addq	%rcx, $g[3]		# h1 so far, < 2^41
	movq	$g[4], %rdx
	shrq	\$24, %rdx
	shlq	\$40, $g[4]
	addq	$g[2], $g[0]
	adcq	$g[4], $g[3]
	adcq	\$0, %rdx
	movq	$g[0], 0($st)
	movq	$g[3], 8($st)
	movq	%rdx, 16($st)
___
}

# --- AVX2, radix 2^26 ------------------------------------------------------------
#
#   void zinc_poly1305_blocks_avx2(uint64_t st[48], const uint8_t *in,
#                                  size_t len, uint32_t padbit);
# len a non-zero multiple of 128; st[6] == 1.  Its own power table (a context
# runs either this or the IFMA code, fixed by zinc_init()):
#   st[8 + 4 j + p]   limb j of r^(4,2,3,1)[p], radix 2^26
#   st[28 + j]        limb j of r^8
# Eight blocks an iteration in two sets A and B of four lanes, one block a
# lane: A takes blocks 0..3 of each 128 bytes, B blocks 4..7; lane p holds
# block (0,2,1,3)[p] of its four (the order vpunpck{l,h}qdq leaves).  Both
# sets are multiplied by r^8 between iterations; at the end
#   h = sum over lanes of (A r^4 + B) r^(4 - block),
# h entering lane 0 of A.  The two sets are independent chains that the
# out-of-order core overlaps; with sixteen ymm registers, r^8, 5 r^8, the
# mask and padbit live in a stack frame as memory operands.  Limbs stay
# below 2^27 between multiplies, so vpmuludq (32 x 32 bits) and sums of five
# products (< 2^59) are exact.

{
my @HA = map("%ymm$_", 0..4);
my @HB = map("%ymm$_", 5..9);
my @D = map("%ymm$_", 10..14);
my $T = '%ymm15';
my @frame_r = map(32 * $_ . "(%rsp)", 0..4);
my @frame_s = (undef, map(32 * ($_ + 4) . "(%rsp)", 1..4));
my ($M26, $PAD) = ('288(%rsp)', '320(%rsp)');
my $frame = 352;

# h = h r, r and s = 5 r given as memory operands (s indexed 1..4).  The
# products go to D; h's registers serve as carry temporaries.
sub mul26 {
	my ($H, $r, $s) = @_;
	my @o;
	for my $i (0..4) {
		for my $k (0..4) {
			my $c = $k >= $i ? $$r[$k - $i] : $$s[$k - $i + 5];
			if ($i == 0) {
				push @o, "vpmuludq\t$c, $$H[0], $D[$k]";
			} else {
				push @o, "vpmuludq\t$c, $$H[$i], $T", "vpaddq\t$T, $D[$k], $D[$k]";
			}
		}
	}
	# carry: d0 -> d1 and d3 -> d4, d1 -> d2 and d4 -> d0 (times 5),
	# d2 -> d3 and d0 -> d1, d3 -> d4; limbs end below 2^26 + 2^10.
	push @o,
	    "vpsrlq\t\$26, $D[0], $$H[0]",
	    "vpsrlq\t\$26, $D[3], $$H[1]",
	    "vpand\t$M26, $D[0], $D[0]",
	    "vpand\t$M26, $D[3], $D[3]",
	    "vpaddq\t$$H[0], $D[1], $D[1]",
	    "vpaddq\t$$H[1], $D[4], $D[4]",
	    "vpsrlq\t\$26, $D[1], $$H[0]",
	    "vpsrlq\t\$26, $D[4], $$H[1]",
	    "vpand\t$M26, $D[1], $D[1]",
	    "vpand\t$M26, $D[4], $D[4]",
	    "vpaddq\t$$H[0], $D[2], $D[2]",
	    "vpsllq\t\$2, $$H[1], $$H[2]",
	    "vpaddq\t$$H[1], $D[0], $D[0]",
	    "vpaddq\t$$H[2], $D[0], $D[0]",
	    "vpsrlq\t\$26, $D[2], $T",
	    "vpsrlq\t\$26, $D[0], $$H[1]",
	    "vpand\t$M26, $D[2], $$H[2]",
	    "vpand\t$M26, $D[0], $$H[0]",
	    "vpaddq\t$T, $D[3], $D[3]",
	    "vpaddq\t$$H[1], $D[1], $$H[1]",
	    "vpsrlq\t\$26, $D[3], $T",
	    "vpand\t$M26, $D[3], $$H[3]",
	    "vpaddq\t$T, $D[4], $$H[4]";
	code(join('', map("\t$_\n", @o)));
}

# h += the four blocks at off(inp), padbit at 2^128.
sub load26 {
	my ($H, $off) = @_;
	my ($x, $y, $l, $h, $t) = @D;
	my $off32 = $off + 32;
	code(<<___);
	vmovdqu	$off($inp), $x
	vmovdqu	$off32($inp), $y
	vpunpcklqdq	$y, $x, $l
	vpunpckhqdq	$y, $x, $h
	vpand	$M26, $l, $t
	vpaddq	$t, $$H[0], $$H[0]
	vpsrlq	\$26, $l, $t
	vpand	$M26, $t, $t
	vpaddq	$t, $$H[1], $$H[1]
	vpsrlq	\$52, $l, $t
	vpsllq	\$12, $h, $T
	vpor	$T, $t, $t
	vpand	$M26, $t, $t
	vpaddq	$t, $$H[2], $$H[2]
	vpsrlq	\$14, $h, $t
	vpand	$M26, $t, $t
	vpaddq	$t, $$H[3], $$H[3]
	vpsrlq	\$40, $h, $t
	vpor	$PAD, $t, $t
	vpaddq	$t, $$H[4], $$H[4]
___
}

# The frame's r and s: limbs at byte offsets @$off of st, broadcast or
# (per lane) loaded.
sub frame_rs {
	my ($op, @off) = @_;
	for my $j (0..4) {
		code("\t$op\t$off[$j]($st), $T\n\tvmovdqa\t$T, $frame_r[$j]\n");
		next if $j == 0;
		code("\tvpsllq\t\$2, $T, $D[0]\n\tvpaddq\t$T, $D[0], $D[0]\n" .
		     "\tvmovdqa\t$D[0], $frame_s[$j]\n");
	}
}

function_begin('zinc_poly1305_blocks_avx2');
code(<<___);
	shrq	\$7, $len
	jz	9f
@{[realigned_frame_begin($frame, 32)]}	movl	\$0x3ffffff, %eax
	vmovq	%rax, %xmm15
	vpbroadcastq	%xmm15, $T
	vmovdqa	$T, $M26
	movl	%ecx, %eax
	shlq	\$24, %rax
	vmovq	%rax, %xmm15
	vpbroadcastq	%xmm15, $T
	vmovdqa	$T, $PAD
___
frame_rs('vpbroadcastq', map(224 + 8 * $_, 0..4));	# r^8
h_to_radix26();
code(join('', map("\tvpxor\t$_, $_, $_\n", @HB)));
load26(\@HA, 0);
load26(\@HB, 64);
code(<<___);
	leaq	128($inp), $inp
	decq	$len
	jz	2f
.p2align 5
1:
___
mul26(\@HA, \@frame_r, \@frame_s);
mul26(\@HB, \@frame_r, \@frame_s);
load26(\@HA, 0);
load26(\@HB, 64);
code(<<___);
	leaq	128($inp), $inp
	decq	$len
	jnz	1b
2:
___
frame_rs('vpbroadcastq', map(64 + 32 * $_, 0..4));	# r^4, lane 0's power
mul26(\@HA, \@frame_r, \@frame_s);
code(join('', map("\tvpaddq\t$HA[$_], $HB[$_], $HB[$_]\n", 0..4)));
frame_rs('vmovdqu', map(64 + 32 * $_, 0..4));		# each lane's power
mul26(\@HB, \@frame_r, \@frame_s);
for my $i (0..4) { lane_sum($HB[$i], $g[$i], 15); }
code("\tvpxor\t%ymm0, %ymm0, %ymm0\t\t# wipe the frame\n");
for my $j (0..$frame / 32 - 1) { code("\tvmovdqa\t%ymm0, " . 32 * $j . "(%rsp)\n"); }
code("\tvzeroupper\n" . realigned_frame_end());
h_from_radix26(29);
code("9:\n\tret\n");
function_end('zinc_poly1305_blocks_avx2');

#   void zinc_poly1305_powers_avx2(uint64_t st[48]);
# The table above from r, and st[6] = 1, in three products over four lanes:
#   1. r^2 = r r
#   2. (r^2, r^2, r, r) (r^2, 1, r^2, 1) = r^(4,2,3,1)
#   3. r^8 = r^4 r^4, r^4 from lane 0 of 2
# Multiplying by 1 (limbs 1, 0, 0, 0, 0) keeps a lane's power.  The
# multipliers live in the frame, as in the code above.
{

# the frame's multiplier (r, 5 r) = the registers @$x
sub frame_store {
	my ($x) = @_;
	for my $j (0..4) {
		code("\tvmovdqa\t$$x[$j], $frame_r[$j]\n");
		code("\tvpsllq\t\$2, $$x[$j], $T\n\tvpaddq\t$$x[$j], $T, $T\n" .
		     "\tvmovdqa\t$T, $frame_s[$j]\n") if $j;
	}
}

function_begin('zinc_poly1305_powers_avx2');
r_to_radix26();
code(<<___);
@{[realigned_frame_begin($frame, 32)]}	movl	\$0x3ffffff, %ecx
	vmovq	%rcx, %xmm15
	vpbroadcastq	%xmm15, $T
	vmovdqa	$T, $M26
___
for my $j (0..4) {
	(my $x = $HA[$j]) =~ s/ymm/xmm/;
	code("\tvmovq\t$g[$j], $x\n\tvpbroadcastq\t$x, $HA[$j]\n");
}
frame_store(\@HA);
mul26(\@HA, \@frame_r, \@frame_s);
# HB = (r^2, r^2, r, r); the first multiplier becomes (r^2, 1, r^2, 1)
code(join('', map("\tvpblendd\t\$0xf0, $frame_r[$_], $HA[$_], $HB[$_]\n", 0..4)));
code(<<___);
	vpcmpeqd	$D[4], $D[4], $D[4]
	vpsrlq	\$63, $D[4], $D[4]
	vpblendd	\$0xcc, $D[4], $HA[0], $D[0]
	vpxor	$D[4], $D[4], $D[4]
	vmovdqa	$D[0], $frame_r[0]
___
for my $j (1..4) {
	code(<<___);
	vpblendd	\$0xcc, $D[4], $HA[$j], $D[0]
	vpsllq	\$2, $D[0], $D[1]
	vpaddq	$D[0], $D[1], $D[1]
	vmovdqa	$D[0], $frame_r[$j]
	vmovdqa	$D[1], $frame_s[$j]
___
}
mul26(\@HB, \@frame_r, \@frame_s);
code(join('', map("\tvmovdqu\t$HB[$_], " . (64 + 32 * $_) . "($st)\n", 0..4)));
for my $j (0..4) {
	(my $x = $HB[$j]) =~ s/ymm/xmm/;
	code("\tvpbroadcastq\t$x, $HA[$j]\n");	# r^4, lane 0
}
frame_store(\@HA);
mul26(\@HA, \@frame_r, \@frame_s);
for my $j (0..4) {
	(my $x = $HA[$j]) =~ s/ymm/xmm/;
	code("\tvmovq\t$x, " . (224 + 8 * $j) . "($st)\n");
}
code("\tvpxor\t%ymm0, %ymm0, %ymm0\t\t# wipe the frame\n");
for my $j (0..$frame / 32 - 1) { code("\tvmovdqa\t%ymm0, " . 32 * $j . "(%rsp)\n"); }
code(<<___);
	movq	\$1, 48($st)
	vzeroupper
@{[realigned_frame_end()]}	ret
___
function_end('zinc_poly1305_powers_avx2');
}
}

# --- AVX-512F, radix 2^26 ---------------------------------------------------------
#
#   void zinc_poly1305_blocks_avx512(uint64_t st[48], const uint8_t *in,
#                                    size_t len, uint32_t padbit);
# For CPUs with AVX-512F but not IFMA.  len a non-zero multiple of 256;
# st[6] == 1 and its table holds
#   st[8 + 8 j + p]   limb j of r^(8,4,7,3,6,2,5,1)[p], radix 2^26
# The AVX2 code over eight lanes: sixteen blocks an iteration in two sets A
# and B, lane p holding block (0,4,1,5,2,6,3,7)[p] of its eight, multiplied
# by r^16 (computed here from lane 0's r^8) between iterations; at the end
#   h = sum over lanes of (A r^8 + B) r^(8 - block).
# Thirty-two registers hold r, 5 r and both sets; the bounds are the AVX2
# code's.

{
my @HA = map("%zmm$_", 0..4);
my @HB = map("%zmm$_", 5..9);
my @DA = map("%zmm$_", 10..14);
my @DB = map("%zmm$_", 15..19);
my @R = map("%zmm$_", 20..24);
my @S = (undef, map("%zmm$_", 25..28));
my ($TA, $TB, $M26) = ('%zmm29', '%zmm30', '%zmm31');
my $PAD = '-8(%rsp){1to8}';	# red zone: a leaf function

sub mul26z {
	my ($H, $D, $T) = @_;
	my @o;
	for my $i (0..4) {
		for my $k (0..4) {
			my $c = $k >= $i ? $R[$k - $i] : $S[$k - $i + 5];
			if ($i == 0) {
				push @o, "vpmuludq\t$c, $$H[0], $$D[$k]";
			} else {
				push @o, "vpmuludq\t$c, $$H[$i], $T", "vpaddq\t$T, $$D[$k], $$D[$k]";
			}
		}
	}
	push @o,
	    "vpsrlq\t\$26, $$D[0], $$H[0]",
	    "vpsrlq\t\$26, $$D[3], $$H[1]",
	    "vpandq\t$M26, $$D[0], $$D[0]",
	    "vpandq\t$M26, $$D[3], $$D[3]",
	    "vpaddq\t$$H[0], $$D[1], $$D[1]",
	    "vpaddq\t$$H[1], $$D[4], $$D[4]",
	    "vpsrlq\t\$26, $$D[1], $$H[0]",
	    "vpsrlq\t\$26, $$D[4], $$H[1]",
	    "vpandq\t$M26, $$D[1], $$D[1]",
	    "vpandq\t$M26, $$D[4], $$D[4]",
	    "vpaddq\t$$H[0], $$D[2], $$D[2]",
	    "vpsllq\t\$2, $$H[1], $$H[2]",
	    "vpaddq\t$$H[1], $$D[0], $$D[0]",
	    "vpaddq\t$$H[2], $$D[0], $$D[0]",
	    "vpsrlq\t\$26, $$D[2], $T",
	    "vpsrlq\t\$26, $$D[0], $$H[1]",
	    "vpandq\t$M26, $$D[2], $$H[2]",
	    "vpandq\t$M26, $$D[0], $$H[0]",
	    "vpaddq\t$T, $$D[3], $$D[3]",
	    "vpaddq\t$$H[1], $$D[1], $$H[1]",
	    "vpsrlq\t\$26, $$D[3], $T",
	    "vpandq\t$M26, $$D[3], $$H[3]",
	    "vpaddq\t$T, $$D[4], $$H[4]";
	return @o;
}

sub load26z {
	my ($H, $off, $D, $T) = @_;
	my ($x, $y, $l, $h, $t) = @$D;
	my $off64 = $off + 64;
	return (
	    "vmovdqu64\t$off($inp), $x",
	    "vmovdqu64\t$off64($inp), $y",
	    "vpunpcklqdq\t$y, $x, $l",
	    "vpunpckhqdq\t$y, $x, $h",
	    "vpandq\t$M26, $l, $t",
	    "vpaddq\t$t, $$H[0], $$H[0]",
	    "vpsrlq\t\$26, $l, $t",
	    "vpandq\t$M26, $t, $t",
	    "vpaddq\t$t, $$H[1], $$H[1]",
	    "vpsrlq\t\$52, $l, $t",
	    "vpsllq\t\$12, $h, $T",
	    "vpternlogq\t\$0xa8, $M26, $T, $t",	# (t | T) & M26
	    "vpaddq\t$t, $$H[2], $$H[2]",
	    "vpsrlq\t\$14, $h, $t",
	    "vpandq\t$M26, $t, $t",
	    "vpaddq\t$t, $$H[3], $$H[3]",
	    "vpsrlq\t\$40, $h, $t",
	    "vporq\t$PAD, $t, $t",
	    "vpaddq\t$t, $$H[4], $$H[4]");
}

# s = 5 r
sub s_of_r26 {
	code(join('', map("\tvpsllq\t\$2, $R[$_], $S[$_]\n\tvpaddq\t$R[$_], $S[$_], $S[$_]\n", 1..4)));
}

function_begin('zinc_poly1305_blocks_avx512');
code(<<___);
	shrq	\$8, $len
	jz	9f
	movl	\$0x3ffffff, %eax
	vpbroadcastq	%rax, $M26
	movl	%ecx, %eax
	shlq	\$24, %rax
	movq	%rax, -8(%rsp)
___
# r^16 = (r^8)^2, r^8 being lane 0's power, computed in HB and D
code(join('', map("\tvpbroadcastq\t" . (64 + 64 * $_) . "($st), $R[$_]\n", 0..4)));
s_of_r26();
code(join('', map("\tvmovdqa64\t$R[$_], $HB[$_]\n", 0..4)));
code(join('', map("\t$_\n", mul26z(\@HB, \@DB, $TB))));
code(join('', map("\tvmovdqa64\t$HB[$_], $R[$_]\n", 0..4)));
s_of_r26();
h_to_radix26();
code(join('', map("\tvpxorq\t$_, $_, $_\n", @HB)));
interleave([load26z(\@HA, 0, \@DA, $TA)], [load26z(\@HB, 128, \@DB, $TB)]);
code(<<___);
	leaq	256($inp), $inp
	decq	$len
	jz	2f
.p2align 5
1:
___
interleave([mul26z(\@HA, \@DA, $TA)], [mul26z(\@HB, \@DB, $TB)]);
interleave([load26z(\@HA, 0, \@DA, $TA)], [load26z(\@HB, 128, \@DB, $TB)]);
code(<<___);
	leaq	256($inp), $inp
	decq	$len
	jnz	1b
2:
___
code(join('', map("\tvpbroadcastq\t" . (64 + 64 * $_) . "($st), $R[$_]\n", 0..4)));
s_of_r26();
interleave([mul26z(\@HA, \@DA, $TA)], []);
code(join('', map("\tvpaddq\t$HA[$_], $HB[$_], $HB[$_]\n", 0..4)));
code(join('', map("\tvmovdqu64\t" . (64 + 64 * $_) . "($st), $R[$_]\n", 0..4)));
s_of_r26();
interleave([mul26z(\@HB, \@DB, $TB)], []);
for my $i (0..4) { lane_sum($HB[$i], $g[$i], 10); }
code(<<___);
@{[zmm_hi_wipe()]}	vzeroupper
___
h_from_radix26(30);
code("9:\n\tret\n");
function_end('zinc_poly1305_blocks_avx512');

# r, radix 2^64 in st[3..4], to radix 2^26 in r8, r9, r10, r11, rax.
sub r_to_radix26 {
	code(<<___);
	movq	24($st), %rcx
	movq	32($st), %rdx
	movl	\$0x3ffffff, %r8d
	andq	%rcx, %r8
	movq	%rcx, %r9
	shrq	\$26, %r9
	andl	\$0x3ffffff, %r9d
	movq	%rdx, %r10
	shldq	\$12, %rcx, %r10	# (r1 << 12) | (r0 >> 52)
	andl	\$0x3ffffff, %r10d
	movq	%rdx, %r11
	shrq	\$14, %r11
	andl	\$0x3ffffff, %r11d
	movq	%rdx, %rax
	shrq	\$40, %rax
___
}

#   void zinc_poly1305_powers_avx512(uint64_t st[48]);
# The table above from r, and st[6] = 1, in three products over eight lanes
# (as zinc_poly1305_powers_ifma, which also needs r^16):
#   1. r^2 = r r
#   2. (r^4, r^4, r^3, r^3, r^4, r^4, r^4, r^4)
#        = (r^2, r^2, r, r, r^2, r^2, r^2, r^2) r^2
#   3. (r^4, r^4, r^3, r^3, r^2, r^2, r, r) (r^4, 1, r^4, 1 ...)
# The third step's lanes 4..7 wait in the table's memory meanwhile.  Products
# are mul26z's, so the table's limbs have the bounds of h above.
function_begin('zinc_poly1305_powers_avx512');
r_to_radix26();
code(<<___);
	movl	\$0x3ffffff, %ecx
	vpbroadcastq	%rcx, $M26
	vpbroadcastq	%r8, $R[0]
	vpbroadcastq	%r9, $R[1]
	vpbroadcastq	%r10, $R[2]
	vpbroadcastq	%r11, $R[3]
	vpbroadcastq	%rax, $R[4]
	movl	\$0xcc, %eax
	kmovw	%eax, %k1
	movl	\$0xf0, %eax
	kmovw	%eax, %k2
	movl	\$0xaa, %eax
	kmovw	%eax, %k3
	movl	\$0x55, %eax
	kmovw	%eax, %k4
	movl	\$0x0c, %eax
	kmovw	%eax, %k5
	movl	\$1, %eax
___
s_of_r26();
code(join('', map("\tvmovdqa64\t$R[$_], $HB[$_]\n", 0..4)));
code(join('', map("\t$_\n", mul26z(\@HB, \@DB, $TB))));
# (r^2, r^2, r, r, r^2, r^2, r, r) waits in the table's place, HA is
# (r^2, r^2, r, r, r^2, r^2, r^2, r^2), r^2 the multiplier
code(join('', map("\tvpblendmq\t$R[$_], $HB[$_], $DA[$_]\{%k1}\n" .
		  "\tvmovdqu64\t$DA[$_], " . (64 + 64 * $_) . "($st)\n" .
		  "\tvpblendmq\t$R[$_], $HB[$_], $HA[$_]\{%k5}\n" .
		  "\tvmovdqa64\t$HB[$_], $R[$_]\n", 0..4)));
s_of_r26();
code(join('', map("\t$_\n", mul26z(\@HA, \@DA, $TA))));
code(join('', map("\tvshufi64x2\t\$0xaa, $HA[$_], $HA[$_], $HB[$_]\n", 0..4)));	# r^4
# HA = (r^4, r^4, r^3, r^3, r^2, r^2, r, r); the multiplier (r^4, 1, r^4, 1 ...)
code(join('', map("\tvmovdqu64\t" . (64 + 64 * $_) . "($st), $HA[$_]\{%k2}\n", 0..4)));
code("\tvpbroadcastq\t%rax, $R[0]\{%k3}\n\tvmovdqa64\t$HB[0], $R[0]\{%k4}\n");
code(join('', map("\tvmovdqa64\t$HB[$_], $R[$_]\{%k4}\{z}\n", 1..4)));
s_of_r26();
code(join('', map("\t$_\n", mul26z(\@HA, \@DA, $TA))));
code(join('', map("\tvmovdqu64\t$HA[$_], " . (64 + 64 * $_) . "($st)\n", 0..4)));
code(<<___);
	movq	\$1, 48($st)
@{[zmm_hi_wipe()]}	vzeroupper
	ret
___
function_end('zinc_poly1305_powers_avx512');
}

asm_close($file);
