#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Poly1305 (RFC 8439) for AArch64, driven by provider/crypto/poly1305-armv8-glue.c.
#
# State (uint64_t st[48], the context's opaque words), shared by both paths:
#   st[0..2]   h, the accumulator, radix 2^64 (h2 holds a few bits only)
#   st[3..4]   r, clamped; st[5] = s1 = r1 + (r1 >> 2) = 5 * r1 / 4
#   st[6]      1 once the NEON table below is valid, else 0
#   st[8..17]  the NEON table, 80 bytes: for each 26-bit limb j = 0..4 of
#              the powers of r, four 32-bit words (r^4_j, r^3_j, r^2_j, r^1_j)
# The NEON code converts h to radix 2^26 on entry and back on exit, so a
# context can switch between scalar and NEON calls at any time.
#
# Paths:
#   zinc_poly1305_blocks_armv8   radix 2^64, MUL/UMULH; one block at a time
#   zinc_poly1305_blocks_neon    radix 2^26, 4 blocks an iteration (below)
#   zinc_poly1305_powers_neon    r^2, r^3, r^4 with the scalar multiply, split
#                                into 26-bit limbs: the NEON table
#   zinc_poly1305_emit_armv8     final reduction (constant time) + s
# Little-endian AArch64 only (LDP/LD4 read the message and key as such).
# The glue runs the scalar code for short input and tails, NEON for whole
# 64-byte batches from 256 bytes on (128 once the table exists).
#
#   void zinc_poly1305_init_armv8(uint64_t st[48], const uint8_t key[16]);
#   void zinc_poly1305_blocks_{armv8,neon}(uint64_t st[48], const uint8_t *in,
#                        size_t len, uint32_t padbit);  len % 16 (NEON: 64) == 0
#   void zinc_poly1305_powers_neon(uint64_t st[48]);
#   void zinc_poly1305_emit_armv8(const uint64_t st[48], uint8_t mac[16],
#                                 const uint32_t nonce[4]);
#
# NEON design: two lanes (A, B) of the 2x32-bit halves, each carrying every
# other block.  An iteration loads 4 blocks m1..m4 with LD4, which
# de-interleaves their words so that one .4s register L holds the same limb
# of all four blocks (lanes 0..3 = m1..m4).  The accumulator H sits in the
# .2s lanes 0 and 1; X = H + L there gives (A + m1, B + m2).  With a power
# register P = (p, q, u, v) per limb,
#   UMULL2/UMLAL2  D.2d, L.4s, P.4s   lanes 0,1:  m3 u,        m4 v
#   UMLAL          D.2d, X.2s, P.2s   lanes 0,1:  (A + m1) p,  (B + m2) q
# so each lane gets A' = (A + m1) p + m3 u.  Every iteration but the last
# uses P = (r^4, r^4, r^2, r^2); the last uses (r^4, r^3, r^2, r^1), after
# which A + B is the whole sum, added across the lanes with ADDP.  That is
# 25 UMULL2/UMLAL2 and 25 UMLAL (5x5 limb products, the wrap-around ones
# times 5 * r) and one lazy carry pass per 64 bytes.  The products of m3
# and m4 do not wait for H: they go first and overlap the previous
# iteration's carry chain.
#
# Bounds: H limbs < 2^26 + 2^12 after the lazy carry (limb 4 up to 2^27 on
# entry from radix 2^64), message limbs < 2^26, power limbs < 2^26.4 (the
# scalar multiply reduces only partially), so X < 2^27.3, 5 * P < 2^28.7 and
# a lane's sum of 10 products < 2^59.3; the two lanes' sum < 2^60.3.
#
# Register map
#   scalar:  x0 st, x1 in, x2 len, x3 padbit, x4-x6 h0-h2, x7 r0, x8 r1,
#            x9 s1, x10-x17 message words and partial products
#   NEON:    v0-v3 the words of 4 blocks (LD4), L0-L4 = v4-v7, v3 their
#            limbs (v4, v5 then the carries), v16-v20 D0-D4 (64-bit sums),
#            v21-v25 H0-H4 / X0-X4, v26-v30 P0-P4 (powers), v8-v11
#            5*P1..5*P4, v31 2^26-1 in each 32-bit lane, v12 2^26-1 in each
#            64-bit lane, v13 padbit << 24.  d8-d13 are callee-saved: kept
#            on the stack (the caller's values, no secret) and restored.
#
# Expected cycles: ESTIMATES from instruction counts and the latency and
# throughput figures of the cores' software optimization guides (as far as
# we know them); nothing was measured on hardware: the code was tested under
# qemu, which says nothing about speed.
#   Cortex-A72: its one integer multiply pipe takes a 64-bit MUL every 3
#     cycles and a UMULH every 4: the scalar block's 6 MUL + 4 UMULH keep it
#     busy ~34 cycles per 16 bytes, ~2.1-2.3 cycles/byte.  NEON: the 50
#     UMULL/UMLAL(2) per 64 bytes issue one a cycle on F0, the ~40 other
#     vector ops (LD4 split, adds, carries) mostly on F1 beside them; the
#     carry chain (~30 cycles of latency) overlaps the next 25 products:
#     ~55-65 cycles per 64 bytes, ~0.9-1.0 cycles/byte.
#   Neoverse N1: MUL and UMULH one a cycle (2-3 cycles latency): 10
#     multiplies and a dependent chain of ~13 cycles per block, ~0.8-0.9
#     cycles/byte; NEON: the 50 multiplies on V0, the rest on V1, ~0.85-0.95
#     cycles/byte.  There the two are close: NEON mostly frees the integer
#     pipes.
#   Fixed costs: the table (3 scalar multiplies + splitting, ~130 cycles on
#   A72, once a context) and NEON entry/exit (~50 cycles: conversions,
#   table loads, d8-d13, the lane sum): the glue's thresholds follow.
use strict;
use warnings;
use zinc_arm;

my $file = asm_open(@ARGV);

# --- scalar, radix 2^64 --------------------------------------------------------
#
# h = h + m + padbit * 2^128, then h = h * r, reduced partially:
#   h * r = (h0 + h1 2^64 + h2 2^128) (r0 + r1 2^64), and since 4 | r1,
#   h1 r1 2^128 = h1 (r1/4) 2^130 == 5 h1 (r1/4) = h1 s1 (mod 2^130 - 5),
#   h2 r1 2^192 == h2 s1 2^64.  So
#   t0 + t1 2^64 + t2 2^128 = h0 r0 + h1 s1 + (h0 r1 + h1 r0 + h2 s1) 2^64
#                             + h2 r0 2^128
# and the bits of t2 above 2 fold back times 5: h2 ends <= 4.  h2 <= 6 on
# entry keeps h2 s1 and h2 r0 below 2^64 (r0, r1 < 2^60, s1 < 1.25 * 2^60).

my ($st, $inp, $len, $padbit) = map("x$_", 0..3);
my ($h0, $h1, $h2, $r0, $r1, $s1) = map("x$_", 4..9);
my ($m0, $m1, $t0, $t1, $t2, $a, $b, $c) = map("x$_", 10..17);

# h = h * r (partially reduced); clobbers m0, m1 and the temporaries.
sub mul_r {
	code(<<___);
	mul	$t0, $h0, $r0
	umulh	$t1, $h0, $r0
	mul	$a, $h1, $s1
	umulh	$b, $h1, $s1
	mul	$m0, $h2, $s1
	mul	$m1, $h2, $r0
	adds	$t0, $t0, $a
	adc	$t1, $t1, $b
	mul	$a, $h0, $r1
	umulh	$b, $h0, $r1
	mul	$c, $h1, $r0
	umulh	$t2, $h1, $r0
	adds	$t1, $t1, $a
	adc	$t2, $t2, $b
	adds	$t1, $t1, $c
	adc	$t2, $t2, $m1
	adds	$t1, $t1, $m0
	adc	$t2, $t2, xzr
	and	$a, $t2, #-4
	and	$h2, $t2, #3
	add	$a, $a, $t2, lsr #2
	adds	$h0, $t0, $a
	adcs	$h1, $t1, xzr
	adc	$h2, $h2, xzr
___
}

function_begin('zinc_poly1305_init_armv8');
code(<<___);
	ldp	x4, x5, [x1]
	and	x6, x4, #0x0ffffffc0ffffffc
	and	x4, x4, #3
	orr	x4, x4, x6			// r0 = k0 & 0x0ffffffc0fffffff
	and	x5, x5, #0x0ffffffc0ffffffc	// r1
	add	x6, x5, x5, lsr #2		// s1
	stp	xzr, xzr, [x0]
	stp	xzr, x4, [x0, #16]
	stp	x5, x6, [x0, #32]
	str	xzr, [x0, #48]
	ret
___
function_end('zinc_poly1305_init_armv8');

my $scalar_loop = local_label('poly1305_scalar_loop');
my $scalar_done = local_label('poly1305_scalar_done');
function_begin('zinc_poly1305_blocks_armv8');
code(<<___);
	lsr	$len, $len, #4
	cbz	$len, $scalar_done
	ldp	$h0, $h1, [$st]
	ldp	$h2, $r0, [$st, #16]
	ldp	$r1, $s1, [$st, #32]
	mov	w3, w3				// padbit, zero-extended
$scalar_loop:
	ldp	$m0, $m1, [$inp], #16
	adds	$h0, $h0, $m0
	adcs	$h1, $h1, $m1
	adc	$h2, $h2, $padbit
___
mul_r();
code(<<___);
	subs	$len, $len, #1
	b.ne	$scalar_loop
	stp	$h0, $h1, [$st]
	str	$h2, [$st, #16]
$scalar_done:
	ret
___
function_end('zinc_poly1305_blocks_armv8');

# (h + s) mod 2^128, h reduced mod p in constant time: fold the bits of h2
# above 2 (h < 2^130 + 5 afterwards), then g = h + 5 reaches 2^130 exactly
# when h >= p, and g's low 128 bits are then those of h - p.
function_begin('zinc_poly1305_emit_armv8');
code(<<___);
	ldp	x4, x5, [x0]
	ldr	x6, [x0, #16]
	lsr	x7, x6, #2
	and	x6, x6, #3
	add	x7, x7, x7, lsl #2
	adds	x4, x4, x7
	adcs	x5, x5, xzr
	adc	x6, x6, xzr
	adds	x8, x4, #5
	adcs	x9, x5, xzr
	adc	x10, x6, xzr
	tst	x10, #4
	csel	x4, x8, x4, ne
	csel	x5, x9, x5, ne
	ldp	x11, x12, [x2]
	adds	x4, x4, x11
	adc	x5, x5, x12
	stp	x4, x5, [x1]
	ret
___
function_end('zinc_poly1305_emit_armv8');

# --- the NEON table ------------------------------------------------------------

# The 26-bit limbs of h (h2 small: limb 4 keeps its bits above 26) into w10-w14.
sub split26 {
	code(<<___);
	and	x10, $h0, #0x3ffffff
	ubfx	x11, $h0, #26, #26
	extr	x12, $h1, $h0, #52
	and	x12, x12, #0x3ffffff
	ubfx	x13, $h1, #14, #26
	extr	x14, $h2, $h1, #40
___
}

# Stores limb j of power k (word k of each 16-byte row: 0 = r^4 .. 3 = r^1).
sub store_power {
	my ($k) = @_;
	for my $j (0..4) {
		my $off = 64 + 16 * $j + 4 * $k;
		code("\tstr\tw" . (10 + $j) . ", [$st, #$off]\n");
	}
}

function_begin('zinc_poly1305_powers_neon');
code(<<___);
	ldp	$r0, $r1, [$st, #24]
	ldr	$s1, [$st, #40]
	mov	$h0, $r0
	mov	$h1, $r1
	mov	$h2, xzr
___
split26();
store_power(3);
for my $k (2, 1, 0) {
	mul_r();
	split26();
	store_power($k);
}
code(<<___);
	mov	x4, #1
	str	x4, [$st, #48]
	ret
___
function_end('zinc_poly1305_powers_neon');

# --- NEON, radix 2^26, 4 blocks an iteration -------------------------------------

my @D = map("v$_", 16..20);
my @X = map("v$_", 21..25);
my @P = map("v$_", 26..30);
my @S = (undef, map("v$_", 8..11));	# S[j] = 5 * P[j]
my ($m32, $m64, $pad) = ('v31', 'v12', 'v13');

# The limbs of the next 4 blocks into L0..L4 = v4, v5, v6, v7, v3 (lane k:
# block k + 1), and X = H + L in lanes 0 and 1.
my @L = ('v4', 'v5', 'v6', 'v7', 'v3');
sub load_blocks {
	code(<<___);
	ld4	{v0.4s, v1.4s, v2.4s, v3.4s}, [$inp], #64
	and	v4.16b, v0.16b, $m32.16b
	ushr	v5.4s, v0.4s, #26
	ushr	v6.4s, v1.4s, #20
	ushr	v7.4s, v2.4s, #14
	sli	v5.4s, v1.4s, #6
	sli	v6.4s, v2.4s, #12
	sli	v7.4s, v3.4s, #18
	ushr	v3.4s, v3.4s, #8
	and	v5.16b, v5.16b, $m32.16b
	and	v6.16b, v6.16b, $m32.16b
	and	v7.16b, v7.16b, $m32.16b
	orr	v3.16b, v3.16b, $pad.16b
___
}

# D = (X * P) lanes 0, 1 + (L * P) lanes 2, 3.  The blocks m3, m4 (lanes 2,
# 3 of L) do not depend on H: their 25 products go first, so that they
# overlap the previous iteration's carry chain.
sub multiply {
	for my $j (0..4) {
		for my $i (0..4) {
			my $p = $j <= $i ? $P[$i - $j] : $S[$i - $j + 5];
			my $op = $j == 0 ? 'umull2' : 'umlal2';
			code("\t$op\t$D[$i].2d, $L[$j].4s, $p.4s\n");
		}
	}
	code("\tadd\t$X[$_].2s, $X[$_].2s, $L[$_].2s\n") for 0..4;
	for my $j (0..4) {
		for my $i (0..4) {
			my $p = $j <= $i ? $P[$i - $j] : $S[$i - $j + 5];
			code("\tumlal\t$D[$i].2d, $X[$j].2s, $p.2s\n");
		}
	}
}

# Lazy carry: D limbs to < 2^26 (limbs 1 and 4: + a few bits), into X.
sub carry {
	my @c = ('v4', 'v5');
	my $step = sub {
		my ($from, $to, $k) = @_;
		code("\tushr\t$c[$k].2d, $D[$from].2d, #26\n");
		code("\tand\t$D[$from].16b, $D[$from].16b, $m64.16b\n");
		if ($to == 0) {
			code("\tadd\t$D[0].2d, $D[0].2d, $c[$k].2d\n");
			code("\tshl\t$c[$k].2d, $c[$k].2d, #2\n");
		}
		code("\tadd\t$D[$to].2d, $D[$to].2d, $c[$k].2d\n");
	};
	# two chains: 0 -> 1 -> 2 -> 3 -> 4 and 3 -> 4 -> 0 -> 1
	$step->(0, 1, 0); $step->(3, 4, 1);
	$step->(1, 2, 0); $step->(4, 0, 1);
	$step->(2, 3, 0); $step->(0, 1, 1);
	$step->(3, 4, 0);
	code("\txtn\t$X[$_].2s, $D[$_].2d\n") for 0..4;
}

# P (and S) from the table: (r^4, r^3, r^2, r^1) each; with $spread,
# (r^4, r^4, r^2, r^2).
sub load_powers {
	my ($spread) = @_;
	code(<<___);
	add	x5, $st, #64
	ld1	{$P[0].4s, $P[1].4s, $P[2].4s, $P[3].4s}, [x5], #64
	ld1	{$P[4].4s}, [x5]
___
	if ($spread) {
		code("\ttrn1\t$P[$_].4s, $P[$_].4s, $P[$_].4s\n") for 0..4;
	}
	for my $j (1..4) {
		code("\tshl\t$S[$j].4s, $P[$j].4s, #2\n");
		code("\tadd\t$S[$j].4s, $S[$j].4s, $P[$j].4s\n");
	}
}

my $neon_loop = local_label('poly1305_neon_loop');
my $neon_last = local_label('poly1305_neon_last');
my @neon_saved = map { "d$_" } 8 .. 13;
function_begin('zinc_poly1305_blocks_neon');
code(save_regs(@neon_saved));
code(<<___);
	movi	$m64.2d, #-1
	ushr	$m32.4s, $m64.4s, #6
	ushr	$m64.2d, $m64.2d, #38
	lsl	w3, w3, #24
	dup	$pad.4s, w3
	ldp	$h0, $h1, [$st]
	ldr	$h2, [$st, #16]
___
split26();
code("\tfmov\t" . ($X[$_] =~ s/v/s/r) . ", w" . (10 + $_) . "\n") for 0..4;
code(<<___);
	cmp	$len, #64
	b.ls	$neon_last
___
load_powers(1);
code("$neon_loop:\n");
load_blocks();
multiply();
carry();
code(<<___);
	sub	$len, $len, #64
	cmp	$len, #64
	b.hi	$neon_loop
$neon_last:
___
load_powers(0);
load_blocks();
multiply();
# A + B, then carry fully in the integer registers and repack in radix 2^64.
code("\taddp\t" . ($D[$_] =~ s/v/d/r) . ", $D[$_].2d\n") for 0..4;
code("\tfmov\tx" . (10 + $_) . ", " . ($D[$_] =~ s/v/d/r) . "\n") for 0..4;
code(restore_regs(@neon_saved));
code(<<___);
	add	x11, x11, x10, lsr #26
	and	x10, x10, #0x3ffffff
	add	x12, x12, x11, lsr #26
	and	x11, x11, #0x3ffffff
	add	x13, x13, x12, lsr #26
	and	x12, x12, #0x3ffffff
	add	x14, x14, x13, lsr #26
	and	x13, x13, #0x3ffffff
	lsr	x15, x14, #26
	and	x14, x14, #0x3ffffff
	add	x15, x15, x15, lsl #2
	add	x10, x10, x15
	add	x11, x11, x10, lsr #26
	and	x10, x10, #0x3ffffff
	add	$h0, x10, x11, lsl #26
	adds	$h0, $h0, x12, lsl #52
	lsr	x12, x12, #12
	add	x12, x12, x13, lsl #14
	lsl	x15, x14, #40
	adcs	$h1, x12, x15
	lsr	$h2, x14, #24
	adc	$h2, $h2, xzr
	stp	$h0, $h1, [$st]
	str	$h2, [$st, #16]
	ret
___
function_end('zinc_poly1305_blocks_neon');

asm_close($file);
