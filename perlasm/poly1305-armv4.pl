#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Poly1305 (RFC 8439) for ARMv7 (the "armv4" family), one source that
# assembles as ARM and as Thumb-2 (unified syntax), driven by
# provider/crypto/poly1305-armv4-glue.c.  Little-endian only (armhf, armel).
#
# State (uint32_t words of the context's opaque uint64_t[48]), shared by
# both paths:
#   w[0..4]    h, the accumulator, radix 2^32; w[4] holds the bits above
#              2^128 (at most 4 between calls)
#   w[5..8]    r0..r3, clamped: r0 < 2^28, r1..r3 < 2^28 and multiples of 4
#   w[9..11]   s1..s3, s_i = r_i + (r_i >> 2) = 5 r_i / 4 < 2^28.33
#   w[12..13]  non-zero once the table of powers below is valid (the glue
#              reads it as the uint64_t opaque[6])
#   w[16..25]  the NEON path's h, radix 2^26, two lanes: (A0,B0,...,A4,B4)
#   w[32..71]  r^1, r^2, r^3, r^4 (written by the glue in C, the first time
#              a context takes the NEON path), 10 words each, radix 2^26:
#              R0 R1 R2 R3 R4 S1 S2 S3 S4 0 with S_j = 5 R_j
# Between calls h is kept in radix 2^32, so the scalar code takes any run of
# blocks; the glue converts h to radix 2^26 before a NEON call and back
# after it (adding the two lanes), a few dozen cycles per call.
#
# Paths:
#   zinc_poly1305_init_armv4    clamp r, s_i, h = 0, powers invalid
#   zinc_poly1305_blocks_armv4  scalar, radix 2^32, one block at a time
#                               (UMULL/UMLAL, 19 64-bit multiplies a block)
#   zinc_poly1305_blocks_neon   NEON, radix 2^26, 4 blocks an iteration in
#                               two lanes; len a multiple of 64, padbit 1
#   zinc_poly1305_emit_armv4    final reduction (constant time) + s
#
#   void zinc_poly1305_init_armv4(uint32_t st[96], const uint8_t key[16]);
#   void zinc_poly1305_blocks_armv4(uint32_t st[96], const uint8_t *in,
#                                   size_t len, uint32_t padbit);  len % 16 == 0
#   void zinc_poly1305_blocks_neon(uint32_t st[96], const uint8_t *in,
#                                  size_t len);         len % 64 == 0, len > 0
#   void zinc_poly1305_emit_armv4(const uint32_t st[96], uint8_t mac[16],
#                                 const uint32_t nonce[4]);
#
# Input is read with LDR (unaligned access is allowed for LDR/STR and for
# VLDn without an alignment qualifier on ARMv7 Linux) and never with LDM or
# LDRD, which fault on unaligned addresses; st and nonce are word aligned.
#
# Expected speed: ESTIMATES from instruction counts and published timings,
# not measurements (qemu-user is all we have here).
#   Scalar: a block is 59 instructions: 19 UMULL/UMLAL + 1 MUL, 16 loads
#   and stores (input, r/s from the stack frame, the input pointer), 22
#   ALU ops and the branch.  Cortex-A15 (assumed: UMLAL issuing every 2
#   cycles on its one multiply pipe, the rest overlapping): ~45-50 cycles
#   a block, ~3 cycles/byte.  Cortex-A7 (in order, UMLAL ~2 issue cycles,
#   limited dual issue): ~70-80 cycles a block, ~4.5-5 cycles/byte.
#   NEON: 64 bytes are 101 instructions: 50 VMULL/VMLAL.U32 (2 lanes
#   each), 2 VLD4, 12 of radix conversion, 5 adds of h, 30 of carry
#   propagation and narrowing, the loop count.  Cortex-A15 (assumed:
#   VMLAL 1 a cycle, the rest dual issued beside it): ~60-70 cycles per
#   64 bytes, ~1-1.1 cycles/byte.
#   Cortex-A7 (64-bit NEON datapath, a VMULL/VMLAL .u32 on d registers
#   ~2 cycles): ~130-150 cycles per 64 bytes, ~2.1-2.4 cycles/byte.
#   Plus per NEON call: ~60 cycles of entry/exit (table loads, VPUSH/VPOP,
#   the glue's radix conversion) and, once per context, ~300-400 cycles
#   for r^2, r^3, r^4 in C.  Hence the thresholds in the glue.
use strict;
use warnings;
use zinc_arm;

my $file = asm_open(@ARGV);

# --- init --------------------------------------------------------------------

function_begin('zinc_poly1305_init_armv4');
code(save_regs('r4', 'lr'));
code(<<'___');
	ldr	r2, [r1]
	ldr	r3, [r1, #4]
	ldr	r12, [r1, #8]
	ldr	r4, [r1, #12]
	bic	r2, r2, #0xf0000000	@ r &= 0x0ffffffc0ffffffc0ffffffc0fffffff
	bic	r3, r3, #0xf0000000
	bic	r3, r3, #3
	bic	r12, r12, #0xf0000000
	bic	r12, r12, #3
	bic	r4, r4, #0xf0000000
	bic	r4, r4, #3
	str	r2, [r0, #20]
	str	r3, [r0, #24]
	str	r12, [r0, #28]
	str	r4, [r0, #32]
	add	r3, r3, r3, lsr #2	@ s_i = r_i + r_i / 4
	add	r12, r12, r12, lsr #2
	add	r4, r4, r4, lsr #2
	str	r3, [r0, #36]
	str	r12, [r0, #40]
	str	r4, [r0, #44]
	mov	r1, #0
	str	r1, [r0]
	str	r1, [r0, #4]
	str	r1, [r0, #8]
	str	r1, [r0, #12]
	str	r1, [r0, #16]
	str	r1, [r0, #48]
	str	r1, [r0, #52]
	pop	{r4, pc}
___
function_end('zinc_poly1305_init_armv4');

# --- scalar, radix 2^32 ---------------------------------------------------------
#
# h = h + m + padbit 2^128, then h = h r mod' p (partially reduced).  With
# h = h0 + h1 2^32 + h2 2^64 + h3 2^96 + h4 2^128 and r likewise (4 words),
# a product word of weight 2^(128 + 32k), k >= 1, times r_j (4 | r_j) is
# (r_j / 4) 2^130 2^(32(k-1)) == 5 (r_j / 4) = s_j at weight 2^(32(k-1)):
#   d0 = h0 r0 + h1 s3 + h2 s2 + h3 s1
#   d1 = h0 r1 + h1 r0 + h2 s3 + h3 s2 + h4 s1
#   d2 = h0 r2 + h1 r1 + h2 r0 + h3 s3 + h4 s2
#   d3 = h0 r3 + h1 r2 + h2 r1 + h3 r0 + h4 s3
#   d4 = h4 r0
# Bounds (no carry is lost in the 64-bit UMLAL sums): h0..h3 < 2^32 and
# h4 <= 6 (at most 4 between calls, plus padbit, plus the carry of adding
# m); r_j < 2^28, s_j < 2^28.33.  Each of d0..d3 is at most four products
# below 2^60.33, one h4 s_j below 2^31 and a carry below 2^31: < 2^62.4.
# d4 = h4 r0 + (d3 >> 32) < 6 2^28 + 2^30.4 < 2^32.  Then the bits of d4
# above 2 fold back times 5 (2^130 == 5): h4 ends at most 3 + 1.

my ($h0, $h1, $h2, $h3, $h4) = map("r$_", 4 .. 8);
my ($d0l, $d0h, $d1l, $d1h) = ('r0', 'r1', 'r2', 'r3');
my ($d2l, $d2h, $d3l, $d3h) = ('r9', 'r10', 'r11', 'r12');
my $t = 'lr';
# The frame: r0..r3, s1..s3 (copied from st: one register short of keeping
# them in registers), then in, end of input, padbit, st.
my %fr = (R0 => 0, R1 => 4, R2 => 8, R3 => 12, S1 => 16, S2 => 20, S3 => 24,
	  in => 28, end => 32, pad => 36, st => 40);
my $frame = 44;	# with the 9 registers pushed, sp stays 8-byte aligned

function_begin('zinc_poly1305_blocks_armv4');
code(save_regs('r4-r11', 'lr') . stack_alloc($frame));
code(<<___);
	add	r2, r1, r2		@ end of input
	str	r1, [sp, #$fr{in}]
	str	r2, [sp, #$fr{end}]
	str	r3, [sp, #$fr{pad}]
	str	r0, [sp, #$fr{st}]
	ldm	r0, {$h0-$h4}
	add	r12, r0, #20
	ldm	r12, {r0-r3, r9-r11}	@ r0..r3, s1..s3
	stm	sp, {r0-r3, r9-r11}
	ldr	$t, [sp, #$fr{in}]
@{[local_label('blocks_loop')]}:
	ldr	$d0l, [$t]
	ldr	$d0h, [$t, #4]
	ldr	$d1l, [$t, #8]
	ldr	$d1h, [$t, #12]
	add	$t, $t, #16
	ldr	$d2l, [sp, #$fr{pad}]
	str	$t, [sp, #$fr{in}]
	adds	$h0, $h0, $d0l
	adcs	$h1, $h1, $d0h
	adcs	$h2, $h2, $d1l
	adcs	$h3, $h3, $d1h
	adc	$h4, $h4, $d2l

	ldr	$t, [sp, #$fr{R0}]
	umull	$d0l, $d0h, $h0, $t
	umull	$d1l, $d1h, $h1, $t
	umull	$d2l, $d2h, $h2, $t
	umull	$d3l, $d3h, $h3, $t
	ldr	$t, [sp, #$fr{R1}]
	umlal	$d1l, $d1h, $h0, $t
	umlal	$d2l, $d2h, $h1, $t
	umlal	$d3l, $d3h, $h2, $t
	ldr	$t, [sp, #$fr{R2}]
	umlal	$d2l, $d2h, $h0, $t
	umlal	$d3l, $d3h, $h1, $t
	ldr	$t, [sp, #$fr{R3}]
	umlal	$d3l, $d3h, $h0, $t
	ldr	$t, [sp, #$fr{S1}]
	umlal	$d0l, $d0h, $h3, $t
	umlal	$d1l, $d1h, $h4, $t
	ldr	$t, [sp, #$fr{S2}]
	umlal	$d0l, $d0h, $h2, $t
	umlal	$d1l, $d1h, $h3, $t
	umlal	$d2l, $d2h, $h4, $t
	ldr	$t, [sp, #$fr{S3}]
	umlal	$d0l, $d0h, $h1, $t
	umlal	$d1l, $d1h, $h2, $t
	umlal	$d2l, $d2h, $h3, $t
	umlal	$d3l, $d3h, $h4, $t
	ldr	$t, [sp, #$fr{R0}]
	mul	$h4, $h4, $t

	adds	$d1l, $d1l, $d0h	@ carry the high words up
	adc	$d1h, $d1h, #0
	adds	$d2l, $d2l, $d1h
	adc	$d2h, $d2h, #0
	adds	$d3l, $d3l, $d2h
	adc	$d3h, $d3h, #0
	add	$h4, $h4, $d3h
	bic	$d0h, $h4, #3		@ 5 (d4 >> 2) = (d4 & ~3) + (d4 >> 2)
	add	$d0h, $d0h, $h4, lsr #2
	and	$h4, $h4, #3
	adds	$h0, $d0l, $d0h
	adcs	$h1, $d1l, #0
	adcs	$h2, $d2l, #0
	adcs	$h3, $d3l, #0
	adc	$h4, $h4, #0

	ldr	$t, [sp, #$fr{in}]
	ldr	$d0l, [sp, #$fr{end}]
	cmp	$t, $d0l
	bne	@{[local_label('blocks_loop')]}

	ldr	r0, [sp, #$fr{st}]
	stm	r0, {$h0-$h4}
	mov	r0, #0			@ wipe r and s from the frame
	mov	r1, #0
	mov	r2, #0
	mov	r3, #0
	stm	sp, {r0-r3}
	str	r0, [sp, #$fr{S1}]
	str	r0, [sp, #$fr{S2}]
	str	r0, [sp, #$fr{S3}]
	add	sp, sp, #$frame
	pop	{r4-r11, pc}
___
function_end('zinc_poly1305_blocks_armv4');

# --- emit ------------------------------------------------------------------------
#
# Fold h4 >> 2 back (times 5): h < 2^130 + 5 < 2p.  Then g = h + 5 reaches
# 2^130 exactly when h >= p, in which case h - p = g mod 2^128: pick by a
# mask made from bit 130 of g, then add s mod 2^128.

function_begin('zinc_poly1305_emit_armv4');
code(save_regs('r4-r10', 'lr'));
code(<<'___');
	ldm	r0, {r3-r7}		@ h0..h4
	bic	r8, r7, #3
	add	r8, r8, r7, lsr #2
	and	r7, r7, #3
	adds	r3, r3, r8
	adcs	r4, r4, #0
	adcs	r5, r5, #0
	adcs	r6, r6, #0
	adc	r7, r7, #0

	adds	r8, r3, #5		@ g = h + 5
	adcs	r12, r4, #0
	adcs	lr, r5, #0
	adcs	r0, r6, #0
	adc	r9, r7, #0
	lsr	r9, r9, #2
	rsb	r9, r9, #0		@ all ones when h >= p
	eor	r8, r8, r3
	eor	r12, r12, r4
	eor	lr, lr, r5
	eor	r0, r0, r6
	and	r8, r8, r9
	and	r12, r12, r9
	and	lr, lr, r9
	and	r0, r0, r9
	eor	r3, r3, r8
	eor	r4, r4, r12
	eor	r5, r5, lr
	eor	r6, r6, r0

	ldr	r7, [r2]
	ldr	r8, [r2, #4]
	ldr	r9, [r2, #8]
	ldr	r10, [r2, #12]
	adds	r3, r3, r7
	adcs	r4, r4, r8
	adcs	r5, r5, r9
	adc	r6, r6, r10
	str	r3, [r1]
	str	r4, [r1, #4]
	str	r5, [r1, #8]
	str	r6, [r1, #12]
	pop	{r4-r10, pc}
___
function_end('zinc_poly1305_emit_armv4');

# --- NEON, radix 2^26 ---------------------------------------------------------------
#
# Two lanes, A and B; each iteration takes 4 blocks m0..m3, m0 and m2 in
# lane A, m1 and m3 in lane B:
#   H = (H + (m0, m1)) (r^4, r^4) + (m2, m3) (r^2, r^2)
# which is two Horner steps of r^2 per lane: lane A gets each block's
# exponent right, lane B one too many.  So the last iteration multiplies by
# (r^4, r^3) and (r^2, r^1) instead, and then A + B is the Horner result of
# the whole run (the glue adds the lanes and returns to radix 2^32).  The
# main loop multiplies by scalars (VMLAL by lane) and keeps r^4 and r^2 in
# d0-d9; the last iteration multiplies by vectors built with VTRN from the
# table.
#
# Register map:
#   d0-d4     r^4 as scalars: d0 = (R0,R1), d1 = (R2,R3), d2 = (R4,S1),
#             d3 = (S2,S3), d4 = (S4,0); d5-d9 the same for r^2
#             (last iteration: lane vectors, see load_powers)
#   q5-q9     the message limbs l0..l4: low halves (d10,d12,..,d18) lanes
#             A,B of blocks m0,m1, high halves those of m2,m3; first the
#             four 32-bit words of each block (q5-q8, from VLD4)
#   q10-q14   the accumulators, 64 bits a lane (two lanes)
#   d30,d31,d20,d21,d22   H0..H4 (32 bits a lane) between iterations
#   q5-q7, q9 carry temporaries and the 2^26 - 1 mask (64-bit lanes)
#   r0 st, r1 in, r2 bytes left, r3 the table, r12 scratch
#
# Bounds: H limbs < 2^26 + 2^9 after the carry below (or < 2^26 + 2^24 on
# entry, from the glue), message limbs < 2^26, so H + m < 2^27.01; R_j <
# 2^26 + 2^9 and S_j < 2^28.34.  An accumulator sums 5 products of
# (H + m) by R or S (< 2^55.35 each) and 5 of m by R or S (< 2^54.34):
# < 2^58.3, no overflow.  The carry chain (0->1, 3->4, 1->2, 4->0 times 5,
# 2->3, 0->1, 3->4) leaves limbs 0, 2, 3 < 2^26, limb 1 < 2^26 + 2^9
# (a carry of at most (2^26 + 5 2^32.3) >> 26) and limb 4 < 2^26 + 2^7:
# lazily reduced, which the bounds above allow.

my @H = ('d30', 'd31', 'd20', 'd21', 'd22');
my @acc = map("q$_", 10 .. 14);

# The multipliers of one power: scalars of a packed table in d[base..base+4],
# or lane vectors after VTRN of d[base..base+4] with d[base+5..base+9].
sub operand {
	my ($base, $name, $vector) = @_;
	my %pos = (R0 => [0, 0], R1 => [0, 1], R2 => [1, 0], R3 => [1, 1], R4 => [2, 0],
		   S1 => [2, 1], S2 => [3, 0], S3 => [3, 1], S4 => [4, 0]);
	my ($reg, $idx) = @{$pos{$name}};
	return $vector ? 'd' . ($base + $reg + 5 * $idx) : 'd' . ($base + $reg) . "[$idx]";
}

# acc_k (+)= sum_i x_i M_(k-i), M_j = R_j, and S_(j+5) for j < 0.
sub mul {
	my ($x, $base, $vector, $first) = @_;
	my $s = '';
	for my $i (0 .. 4) {
		for my $k (0 .. 4) {
			my $j = $k - $i;
			my $m = operand($base, $j >= 0 ? "R$j" : 'S' . ($j + 5), $vector);
			my $op = ($first && $i == 0) ? 'vmull.u32' : 'vmlal.u32';
			$s .= "\t$op\t$acc[$k], $x->[$i], $m\n";
		}
	}
	return $s;
}

my @xa = map('d' . (10 + 2 * $_), 0 .. 4);	# lanes of m0, m1 (+ H)
my @xb = map('d' . (11 + 2 * $_), 0 .. 4);	# lanes of m2, m3

# Four blocks into limbs (with the 2^128 bit), H added to the first two.
sub load_convert {
	return <<___;
	vld4.32	{d10, d12, d14, d16}, [r1]!
	vld4.32	{d11, d13, d15, d17}, [r1]!
	vshr.u32	q9, q8, #8		@ l4 = w3 >> 8 | 2^24
	vshl.u32	q8, q8, #18
	vorr.i32	q9, #0x01000000
	vsri.32	q8, q7, #14		@ l3 = (w3 << 18 | w2 >> 14) & M
	vshl.u32	q7, q7, #12
	vbic.i32	q8, #0xfc000000
	vsri.32	q7, q6, #20		@ l2 = (w2 << 12 | w1 >> 20) & M
	vshl.u32	q6, q6, #6
	vbic.i32	q7, #0xfc000000
	vsri.32	q6, q5, #26		@ l1 = (w1 << 6 | w0 >> 26) & M
	vbic.i32	q5, #0xfc000000	@ l0 = w0 & M
	vbic.i32	q6, #0xfc000000
	vadd.i32	$xa[0], $xa[0], $H[0]
	vadd.i32	$xa[1], $xa[1], $H[1]
	vadd.i32	$xa[2], $xa[2], $H[2]
	vadd.i32	$xa[3], $xa[3], $H[3]
	vadd.i32	$xa[4], $xa[4], $H[4]
___
}

# The accumulators back to 26-bit limbs (lazily), narrowed into H.
sub carry {
	return <<___;
	vmov.i64	q9, #0xffffffff
	vshr.u64	q5, q10, #26
	vshr.u64	q6, q13, #26
	vshr.u64	q9, q9, #6		@ 2^26 - 1 in each 64-bit lane
	vand	q10, q10, q9
	vand	q13, q13, q9
	vadd.i64	q11, q11, q5
	vadd.i64	q14, q14, q6
	vshr.u64	q5, q11, #26
	vshr.u64	q6, q14, #26
	vand	q11, q11, q9
	vand	q14, q14, q9
	vadd.i64	q12, q12, q5
	vshl.u64	q7, q6, #2
	vadd.i64	q10, q10, q6
	vadd.i64	q10, q10, q7		@ + 5 (acc4 >> 26)
	vshr.u64	q5, q12, #26
	vshr.u64	q6, q10, #26
	vand	q12, q12, q9
	vand	q10, q10, q9
	vadd.i64	q13, q13, q5
	vadd.i64	q11, q11, q6
	vshr.u64	q5, q13, #26
	vand	q13, q13, q9
	vadd.i64	q14, q14, q5
	vmovn.i64	$H[0], q10
	vmovn.i64	$H[1], q11
	vmovn.i64	$H[2], q12
	vmovn.i64	$H[3], q13
	vmovn.i64	$H[4], q14
___
}

# Loads two powers (r^hi into d0-d4, r^lo into d5-d9) from the table at r3
# (offsets in bytes) and, for the last iteration, interleaves them into
# lane vectors: d0 = (R0 of r^hi, R0 of r^lo), d5 = (R1, R1), and so on.
sub load_powers {
	my ($hi, $lo, $vector) = @_;
	my $s = <<___;
	add	r12, r3, #$hi
	vld1.32	{d0-d3}, [r12]!
	vld1.32	{d4}, [r12]
	add	r12, r3, #$lo
	vld1.32	{d5-d8}, [r12]!
	vld1.32	{d9}, [r12]
___
	$s .= "\tvtrn.32\td$_, d" . ($_ + 5) . "\n" for $vector ? (0 .. 4) : ();
	return $s;
}

my %pw = (1 => 0, 2 => 40, 3 => 80, 4 => 120);	# byte offsets of r^k in the table
my $loop = local_label('neon_loop');
my $last = local_label('neon_last');

function_begin('zinc_poly1305_blocks_neon');
code(save_regs('d8-d15'));
code(<<___);
	add	r12, r0, #64
	add	r3, r0, #128
	vld1.32	{$H[0], $H[1]}, [r12]!
	vld1.32	{$H[2], $H[3], $H[4]}, [r12]
@{[load_powers($pw{4}, $pw{2}, 0)]}
	subs	r2, r2, #64
	beq	$last
$loop:
@{[load_convert()]}
@{[mul(\@xa, 0, 0, 1)]}
@{[mul(\@xb, 5, 0, 0)]}
@{[carry()]}
	subs	r2, r2, #64
	bne	$loop
$last:
@{[load_powers($pw{4}, $pw{3}, 1)]}
@{[load_convert()]}
@{[mul(\@xa, 0, 1, 1)]}
@{[load_powers($pw{2}, $pw{1}, 1)]}
@{[mul(\@xb, 0, 1, 0)]}
@{[carry()]}
	add	r12, r0, #64
	vst1.32	{$H[0], $H[1]}, [r12]!
	vst1.32	{$H[2], $H[3], $H[4]}, [r12]
	vpop	{d8-d15}
	bx	lr
___
function_end('zinc_poly1305_blocks_neon');

asm_close($file);
