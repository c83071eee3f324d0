#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# ChaCha20 and HChaCha20 for ARMv7-A (provider/crypto/chacha20-armv4-glue.c).
# One source for ARM and Thumb-2 (unified syntax; the C compiler's mode picks).
#
#   void zinc_chacha20_armv7_1(uint8_t *dst, const uint8_t *src, size_t nblocks,
#                              const uint32_t state[16]);
#   void zinc_chacha20_armv7_neon(uint8_t *dst, const uint8_t *src, size_t nblocks,
#                                 const uint32_t state[16]);
#   void zinc_hchacha20_armv7(uint8_t out[32], const uint8_t nonce[16],
#                             const uint8_t key[32]);
#
# chacha20_armv7_*() XOR nblocks whole 64-byte blocks of keystream into src,
# writing dst (dst == src allowed, both may be unaligned), with the block
# counter state[12], state[12] + 1, ... (32-bit: the caller never lets it
# wrap within a call and advances state[12] itself; state is not written).
# chacha20_armv7_1 takes nblocks >= 1, chacha20_armv7_neon a multiple of 4
# (>= 4).  Little-endian only.  Data goes through ldr/str (unaligned word
# access is allowed on ARMv7 Linux) and vld1.8/vst1.8; ldm/stm/ldrd/strd
# only touch the stack and state[], which are word aligned.
#
# Scalar (chacha20_armv7_1, hchacha20_armv7): one block in r0-r12 and lr,
#   a row x0..x3  r0-r3       b row x4..x7    r4-r7
#   c row         r8, r9 hold x8,x9 or x10,x11; the other pair on the stack
#   d row x12..15 r10, r11, r12, lr
# 14 registers for 16 words: the c pair not in use lives in the frame and is
# swapped (strd + ldrd) once per "c += d; b ^= c" step, in the middle of it,
# so each half round does two swaps; the quarter rounds of the other steps
# run interleaved, and the "a += b; d ^= a" of the two quarter rounds done
# with their c step follows the first swap, hiding the ldrd latency.  Rotations are deferred into the barrel shifter:
# b and d are kept unrotated and the next instruction that reads them takes
# "ror #n" on its operand, so a quarter-round step is one add and one eor
# (8 instructions per quarter round).  Between quarter rounds b is pending
# ror 25 (rol 7) and d ror 24 (rol 8); the input is pre-rotated the other way
# so that every double round has the same code, and the feed-forward adds
# take the last pending rotation.  Thumb-2 allows shift-by-immediate
# operands on add/eor (not shift-by-register, which is not used).
#   Frame (sp):  0  state copy (counter word 12 advances per block)
#               64  x8,x9 slot   72  x10,x11 slot   80  round counter
#               88  dst  92  src  96  nblocks (pushed r0-r2), then r4-r11, lr
#
# NEON (chacha20_armv7_neon): four blocks "vertical", one q register per
# state word, lane j holding that word of block j, so quarter rounds need no
# shuffles: q0-q3 a row, q4-q7 b row, q8,q9 a c pair (as in the scalar
# code, the other pair in the frame, swapped in the middle of each c step),
# q10-q13 d row, q14,q15 temporaries.  Rotations: 16 by vrev32.16, 12, 8
# and 7 by vshl + vsri through a temporary.  The frame holds the state with
# each word replicated to four lanes (word 12 = counter + 0..3, advanced by
# 4 per pass), reloaded with vldm per pass and added back at the end; each
# group of four words is then transposed to blocks (vtrn.32 + vswp of
# d halves) and XORed with vld1.8/vst1.8 at a 64-byte stride.
#   Frame (sp): 0 replicated state (256 bytes), 256 x8,x9 slot, 288 x10,x11
#   slot; then d8-d15 (vpush) and r4-r10, lr.
# Both frames hold key material and are zeroed before returning.
#
# HChaCha20: the scalar rounds on (constants, key, nonce); out = words 0..3
# and 12..15, no feed-forward.
#
# Expected speed (ESTIMATES from the instruction counts of this code and
# published pipeline descriptions, not measurements: it only ran under qemu):
#   scalar, per block: a double round is 64 add/eor + 8 ldrd/strd, and the
#     loop (two double rounds per pass) 4 more: ~740 instructions for the
#     20 rounds, ~110 for setup, feed-forward and XOR: ~850 per block.
#     Cortex-A7 (in-order, dual issue of simple pairs only; shifted-operand
#     ALU ops assumed not to pair): ~1 per cycle, ~850 cycles, ~13 c/byte.
#     Cortex-A15 (3-wide out of order, 2 integer ALUs, ~2-cycle latency for
#     a shifted operand, 4 independent quarter rounds per step): ~2 per
#     cycle, ~430 cycles, ~6.7 c/byte.
#   NEON, per pass of 4 blocks: a double round is 120 q-register ops + 4
#     32-byte vld1/vst1 swaps (+4 for the c slots) and 2 loop instructions:
#     ~1300 for 20 rounds, ~110 for reload, feed-forward, transposes, XOR.
#     Cortex-A7 (64-bit NEON datapath: a q op issues in 2 cycles): ~2700
#     cycles per 256 bytes, ~10.5 c/byte.
#     Cortex-A15 (two NEON pipes, 3-wide front end shared with the integer
#     work, ~3-cycle integer latency, 2-4 independent chains): ~1 q op per
#     cycle, ~1400 cycles, ~5.5 c/byte.
#   So NEON takes the whole 4-block passes, and the 1..3 blocks left over
#   run scalar (a NEON pass costs the same for 1 block as for 4).
#
# Usage: perl -Iperlasm perlasm/chacha20-armv4.pl linux32 OUTPUT
use strict;
use warnings;
use zinc_arm;

die "$0: ARMv7 code: the flavour must be linux32\n" if ($ARGV[0] // '') ne 'linux32';
my $file = asm_open(@ARGV);

# ---- scalar -----------------------------------------------------------------

my @a = qw(r0 r1 r2 r3);
my @b = qw(r4 r5 r6 r7);
my @d = qw(r10 r11 r12 lr);
my ($c0, $c1) = qw(r8 r9);
my ($SLOT8, $SLOT10, $ROUNDS) = (64, 72, 80);
my ($DST, $SRC, $NBLK) = (88, 92, 96);
my $FRAME = 88;

# Quarter rounds as (a, b, c, d) word indices: column then diagonal.
my @col = ([0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]);
my @diag = ([0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]);

sub reg_a { $a[$_[0]] }
sub reg_b { $b[$_[0] - 4] }
sub reg_d { $d[$_[0] - 12] }
sub reg_c { $_[0] % 2 ? $c1 : $c0 }	# x8, x10 in r8; x9, x11 in r9

# "c += d; b ^= c" for the quarter rounds in @$qrs with d pending ror $rd
# and b pending ror $rb; b is left unrotated.
sub scalar_cstep {
	my ($qrs, $rd, $rb) = @_;
	my $s = '';
	for my $q (@$qrs) {
		my ($ia, $ib, $ic, $id) = @$q;
		$s .= "\tadd\t" . reg_c($ic) . ", " . reg_c($ic) . ", " . reg_d($id) . ", ror #$rd\n";
	}
	for my $q (@$qrs) {
		my ($ia, $ib, $ic, $id) = @$q;
		$s .= "\teor\t" . reg_b($ib) . ", " . reg_c($ic) . ", " . reg_b($ib) . ", ror #$rb\n";
	}
	return $s;
}

# "a += b; d ^= a" for the quarter rounds in @$qrs (no c involved).
sub scalar_astep {
	my ($qrs, $rb, $rd) = @_;
	my $s = '';
	for my $q (@$qrs) {
		my ($ia, $ib) = @$q;
		$s .= "\tadd\t" . reg_a($ia) . ", " . reg_a($ia) . ", " . reg_b($ib) . ", ror #$rb\n";
	}
	for my $q (@$qrs) {
		my ($ia, $ib, $ic, $id) = @$q;
		$s .= "\teor\t" . reg_d($id) . ", " . reg_a($ia) . ", " . reg_d($id) . ", ror #$rd\n";
	}
	return $s;
}

# Splits the quarter rounds by the c pair they use: ($first, $second) with
# $first using the pair $in (8 or 10) that is in registers.
sub split_c {
	my ($qrs, $in) = @_;
	my @f = grep { $_->[2] - $_->[2] % 2 == $in } @$qrs;
	my @s = grep { $_->[2] - $_->[2] % 2 != $in } @$qrs;
	return (\@f, \@s);
}

sub slot { $_[0] == 8 ? $SLOT8 : $SLOT10 }

# Stores the c pair $out, loads $in; $extra runs while r8, r9 are free.
sub scalar_swap {
	my ($out, $in, $extra) = @_;
	return "\tstrd\t$c0, $c1, [sp, #" . slot($out) . "]\n" . ($extra // '') .
	       "\tldrd\t$c0, $c1, [sp, #" . slot($in) . "]\n";
}

# One half round; the pair $in is in registers on entry, the other on exit.
# b pending ror 25, d pending ror 24 on entry and exit.  $extra: see swap.
sub scalar_half_round {
	my ($qrs, $in, $extra) = @_;
	my $other = $in == 8 ? 10 : 8;
	my ($f, $s) = split_c($qrs, $in);
	my $t = '';
	$t .= scalar_astep($qrs, 25, 24);			# d pending 16
	$t .= scalar_cstep($f, 16, 25);				# b pending 20
	$t .= scalar_swap($in, $other);
	$t .= scalar_astep($f, 20, 16);		# needs no c: covers the ldrd
	$t .= scalar_cstep($s, 16, 25);
	$t .= scalar_astep($s, 20, 16);				# d pending 24
	$t .= scalar_cstep($s, 24, 20);
	$t .= scalar_swap($other, $in, $extra);
	$t .= scalar_cstep($f, 24, 20);				# b pending 25
	return $t;
}

# The loop body: two double rounds, the round counter decremented in the
# last swap (while r8, r9 are free); add/eor leave the flags alone.
sub scalar_loop {
	my ($tag) = @_;
	my $loop = local_label("rounds_$tag");
	my $dec = "\tldr\t$c0, [sp, #$ROUNDS]\n\tsubs\t$c0, $c0, #1\n\tstr\t$c0, [sp, #$ROUNDS]\n";
	my $t = "$loop:\n";
	$t .= scalar_half_round(\@col, 8);
	$t .= scalar_half_round(\@diag, 8);
	$t .= scalar_half_round(\@col, 8);
	$t .= scalar_half_round(\@diag, 8, $dec);
	$t .= "\tbne\t$loop\n";
	return $t;
}

# Frame setup shared by both scalar functions.
sub scalar_prologue {
	return save_regs('r0-r2', 'r4-r11', 'lr') . stack_alloc($FRAME);
}

# Zeroes frame bytes [$from, $to) (8-byte aligned) with r0, r1, returns.
sub scalar_epilogue {
	my ($from, $to) = @_;
	my $t = "\tmov\tr0, #0\n\tmov\tr1, #0\n";
	for (my $o = $from; $o < $to; $o += 8) {
		$t .= "\tstrd\tr0, r1, [sp, #$o]\n";
	}
	$t .= "\tadd\tsp, sp, #$FRAME\n\tpop\t{r0-r2, r4-r11, pc}\n";
	return $t;
}

function_begin('zinc_chacha20_armv7_1');
code(scalar_prologue());
code(<<___);
	ldm	r3!, {r4-r11}		@ state copy in the frame
	stm	sp, {r4-r11}
	ldm	r3, {r4-r11}
	add	r12, sp, #32
	stm	r12, {r4-r11}
___
code(local_label('block_1') . ":\n");
code(<<___);
	mov	r0, #5
	str	r0, [sp, #$ROUNDS]
	ldrd	r10, r11, [sp, #40]	@ x10, x11 to their slot
	strd	r10, r11, [sp, #$SLOT10]
	ldm	sp, {r0-r9}
	ldr	r10, [sp, #48]
	ldr	r11, [sp, #52]
	ldr	r12, [sp, #56]
	ldr	lr, [sp, #60]
___
code("\tror\t$_, $_, #7\n") for @b;	# so that "ror #25" reads x4..x7
code("\tror\t$_, $_, #8\n") for @d;	# so that "ror #24" reads x12..x15
code(scalar_loop('1'));
code(<<___);
	strd	r8, r9, [sp, #$SLOT8]
	ldrd	r8, r9, [sp, #0]	@ feed-forward a, b, d
	add	r0, r0, r8
	add	r1, r1, r9
	ldrd	r8, r9, [sp, #8]
	add	r2, r2, r8
	add	r3, r3, r9
	ldrd	r8, r9, [sp, #16]
	add	r4, r8, r4, ror #25
	add	r5, r9, r5, ror #25
	ldrd	r8, r9, [sp, #24]
	add	r6, r8, r6, ror #25
	add	r7, r9, r7, ror #25
	ldrd	r8, r9, [sp, #48]
	add	r10, r8, r10, ror #24
	add	r11, r9, r11, ror #24
	ldrd	r8, r9, [sp, #56]
	add	r12, r8, r12, ror #24
	add	lr, r9, lr, ror #24
	ldr	r8, [sp, #$SRC]
___
for my $i (0 .. 7) {
	code("\tldr\tr9, [r8, #" . 4 * $i . "]\n\teor\t$a[$i % 4], $a[$i % 4], r9\n") if $i < 4;
	code("\tldr\tr9, [r8, #" . 4 * $i . "]\n\teor\t$b[$i % 4], $b[$i % 4], r9\n") if $i >= 4;
}
for my $i (0 .. 3) {
	code("\tldr\tr9, [r8, #" . (48 + 4 * $i) . "]\n\teor\t$d[$i], $d[$i], r9\n");
}
code("\tldr\tr9, [sp, #$DST]\n");
for my $i (0 .. 3) {
	code("\tstr\t$a[$i], [r9, #" . 4 * $i . "]\n");
	code("\tstr\t$b[$i], [r9, #" . (16 + 4 * $i) . "]\n");
	code("\tstr\t$d[$i], [r9, #" . (48 + 4 * $i) . "]\n");
}
code(<<___);
	ldrd	r0, r1, [sp, #$SLOT8]	@ c row: x8..x11 + input
	ldrd	r2, r3, [sp, #$SLOT10]
	ldrd	r4, r5, [sp, #32]
	ldrd	r6, r7, [sp, #40]
	add	r0, r0, r4
	add	r1, r1, r5
	add	r2, r2, r6
	add	r3, r3, r7
	ldr	r4, [r8, #32]
	ldr	r5, [r8, #36]
	ldr	r6, [r8, #40]
	ldr	r7, [r8, #44]
	eor	r0, r0, r4
	eor	r1, r1, r5
	eor	r2, r2, r6
	eor	r3, r3, r7
	str	r0, [r9, #32]
	str	r1, [r9, #36]
	str	r2, [r9, #40]
	str	r3, [r9, #44]
	add	r8, r8, #64
	add	r9, r9, #64
	str	r8, [sp, #$SRC]
	str	r9, [sp, #$DST]
	ldr	r0, [sp, #48]		@ next counter
	add	r0, r0, #1
	str	r0, [sp, #48]
	ldr	r1, [sp, #$NBLK]
	subs	r1, r1, #1
	str	r1, [sp, #$NBLK]
___
code("\tbne\t" . local_label('block_1') . "\n");
code(scalar_epilogue(0, $FRAME));
function_end('zinc_chacha20_armv7_1');

function_begin('zinc_hchacha20_armv7');
code(scalar_prologue());
code(<<___);
	mov	r3, #5
	str	r3, [sp, #$ROUNDS]
	ldr	r4, [r2, #0]		@ key: x4..x11
	ldr	r5, [r2, #4]
	ldr	r6, [r2, #8]
	ldr	r7, [r2, #12]
	ldr	r8, [r2, #16]
	ldr	r9, [r2, #20]
	ldr	r10, [r2, #24]
	ldr	r11, [r2, #28]
	strd	r10, r11, [sp, #$SLOT10]
	ldr	r10, [r1, #0]		@ nonce: x12..x15
	ldr	r11, [r1, #4]
	ldr	r12, [r1, #8]
	ldr	lr, [r1, #12]
	movw	r0, #0x7865		@ "expand 32-byte k"
	movt	r0, #0x6170
	movw	r1, #0x646e
	movt	r1, #0x3320
	movw	r2, #0x2d32
	movt	r2, #0x7962
	movw	r3, #0x6574
	movt	r3, #0x6b20
___
code("\tror\t$_, $_, #7\n") for @b;
code("\tror\t$_, $_, #8\n") for @d;
code(scalar_loop('h'));
code("\tldr\tr8, [sp, #$DST]\n");
for my $i (0 .. 3) {
	code("\tror\t$d[$i], $d[$i], #24\n");
}
for my $i (0 .. 3) {
	code("\tstr\t$a[$i], [r8, #" . 4 * $i . "]\n");
	code("\tstr\t$d[$i], [r8, #" . (16 + 4 * $i) . "]\n");
}
code(scalar_epilogue($SLOT8, $ROUNDS));
function_end('zinc_hchacha20_armv7');

# ---- NEON -------------------------------------------------------------------

my @qa = map { "q$_" } 0 .. 3;
my @qb = map { "q$_" } 4 .. 7;
my @qd = map { "q$_" } 10 .. 13;
my ($qc0, $qc1) = qw(q8 q9);
my @qt = qw(q14 q15);
my ($P8, $P10) = qw(r9 r10);	# slot pointers
my $NFRAME = 320;

sub qa { $qa[$_[0]] }
sub qb { $qb[$_[0] - 4] }
sub qd { $qd[$_[0] - 12] }
sub qc { $_[0] % 2 ? $qc1 : $qc0 }

# x = rol(t, n) with t = y ^ z, for up to two quarter rounds at once.
sub neon_xor_rol {
	my ($n, @ops) = @_;	# ops: [dest, y, z]
	my $s = '';
	$s .= "\tveor\t$qt[$_], $ops[$_][1], $ops[$_][2]\n" for 0 .. $#ops;
	$s .= "\tvshl.u32\t$ops[$_][0], $qt[$_], #$n\n" for 0 .. $#ops;
	$s .= "\tvsri.u32\t$ops[$_][0], $qt[$_], #" . (32 - $n) . "\n" for 0 .. $#ops;
	return $s;
}

# "c += d; b = rol(b ^ c, n)" for the (one or two) quarter rounds in @$qrs.
sub neon_cstep {
	my ($qrs, $n) = @_;
	my $s = '';
	$s .= "\tvadd.i32\t" . qc($_->[2]) . ", " . qc($_->[2]) . ", " . qd($_->[3]) . "\n" for @$qrs;
	$s .= neon_xor_rol($n, map { [qb($_->[1]), qb($_->[1]), qc($_->[2])] } @$qrs);
	return $s;
}

sub neon_swap {
	my ($out, $in) = @_;
	my %p = (8 => $P8, 10 => $P10);
	return "\tvst1.32\t{$qc0-$qc1}, [$p{$out}]\n\tvld1.32\t{$qc0-$qc1}, [$p{$in}]\n";
}

# "a += b; d = rol(d ^ a, 8)" for two quarter rounds.
sub neon_astep8 {
	my ($qrs) = @_;
	my $s = '';
	$s .= "\tvadd.i32\t" . qa($_->[0]) . ", " . qa($_->[0]) . ", " . qb($_->[1]) . "\n" for @$qrs;
	$s .= neon_xor_rol(8, map { [qd($_->[3]), qd($_->[3]), qa($_->[0])] } @$qrs);
	return $s;
}

sub neon_half_round {
	my ($qrs, $in) = @_;
	my $other = $in == 8 ? 10 : 8;
	my ($f, $s) = split_c($qrs, $in);
	my $t = '';
	$t .= "\tvadd.i32\t" . qa($_->[0]) . ", " . qa($_->[0]) . ", " . qb($_->[1]) . "\n" for @$qrs;
	$t .= "\tveor\t" . qd($_->[3]) . ", " . qd($_->[3]) . ", " . qa($_->[0]) . "\n" for @$qrs;
	$t .= "\tvrev32.16\t" . qd($_->[3]) . ", " . qd($_->[3]) . "\n" for @$qrs;
	$t .= neon_cstep($f, 12);
	$t .= neon_swap($in, $other);
	$t .= neon_astep8($f);			# needs no c: covers the vld1
	$t .= neon_cstep($s, 12);
	$t .= neon_astep8($s);
	$t .= neon_cstep($s, 7);
	$t .= neon_swap($other, $in);
	$t .= neon_cstep($f, 7);
	return $t;
}

# 4x4 transpose of 32-bit words: rows = words, columns = blocks in; after,
# register i holds the four words of block i.
sub transpose {
	my @q = map { /q(\d+)/; $1 } @_;
	return "\tvtrn.32\tq$q[0], q$q[1]\n\tvtrn.32\tq$q[2], q$q[3]\n" .
	       "\tvswp\td" . (2 * $q[0] + 1) . ", d" . (2 * $q[2]) . "\n" .
	       "\tvswp\td" . (2 * $q[1] + 1) . ", d" . (2 * $q[3]) . "\n";
}

# Feed-forward (from the replicated state at r4, advancing), transpose and
# XOR of one group of four words at byte offset $off of each block.
sub neon_group {
	my ($off, $t0, $t1, @g) = @_;
	my $s = '';
	for my $i (0, 2) {
		$s .= "\tvld1.32\t{$t0-$t1}, [r4]!\n";
		$s .= "\tvadd.i32\t$g[$i], $g[$i], $t0\n\tvadd.i32\t$g[$i + 1], $g[$i + 1], $t1\n";
	}
	$s .= transpose(@g);
	$s .= "\tadd\tr7, r1, #$off\n\tadd\tr8, r0, #$off\n";
	for my $i (0, 2) {
		$s .= "\tvld1.8\t{$t0}, [r7], r5\n\tvld1.8\t{$t1}, [r7], r5\n";
		$s .= "\tveor\t$g[$i], $g[$i], $t0\n\tveor\t$g[$i + 1], $g[$i + 1], $t1\n";
	}
	$s .= "\tvst1.8\t{$_}, [r8], r5\n" for @g;
	return $s;
}

function_begin('zinc_chacha20_armv7_neon');
code(save_regs('r4-r10', 'lr') . save_regs('d8-d15') . stack_alloc($NFRAME));
code(<<___);
	mov	r4, sp
___
for my $i (0 .. 15) {
	code("\tvld1.32\t{d0[], d1[]}, [r3]!\n\tvst1.32\t{q0}, [r4]!\n");
}
code(<<___);
	ldr	r5, [r3, #-16]		@ word 12: counter + lane
	add	r6, sp, #192
	str	r5, [r6]
	add	r5, r5, #1
	str	r5, [r6, #4]
	add	r5, r5, #1
	str	r5, [r6, #8]
	add	r5, r5, #1
	str	r5, [r6, #12]
	mov	r5, #64
	add	$P8, sp, #256
	add	$P10, sp, #288
___
code(local_label('neon_pass') . ":\n");
code(<<___);
	mov	r4, sp
	vldmia	r4!, {d0-d15}
	vldmia	r4!, {d16-d19}
	vld1.32	{d28-d31}, [r4]!
	vldmia	r4, {d20-d27}
	vst1.32	{d28-d31}, [$P10]
	mov	r6, #10
___
code(local_label('neon_rounds') . ":\n");
code(neon_half_round(\@col, 8));
code(neon_half_round(\@diag, 8));
code("\tsubs\tr6, r6, #1\n\tbne\t" . local_label('neon_rounds') . "\n");
code("\tmov\tr4, sp\n");
code(neon_group(0, @qt, @qa));
code(neon_group(16, @qt, @qb));
code("\tvld1.32\t{q0-q1}, [$P10]\n");
code(neon_group(32, @qt, $qc0, $qc1, 'q0', 'q1'));
code(neon_group(48, @qt, @qd));
code(<<___);
	add	r6, sp, #192		@ next four counters
	vld1.32	{q14}, [r6]
	vmov.i32	q15, #4
	vadd.i32	q14, q14, q15
	vst1.32	{q14}, [r6]
	add	r0, r0, #256
	add	r1, r1, #256
	subs	r2, r2, #4
___
code("\tbne\t" . local_label('neon_pass') . "\n");
code(<<___);
	vmov.i8	q0, #0
	vmov.i8	q1, #0
	mov	r4, sp
___
code("\tvst1.8\t{q0-q1}, [r4]!\n") for 1 .. $NFRAME / 32;
code(<<___);
	add	sp, sp, #$NFRAME
	vpop	{d8-d15}
	pop	{r4-r10, pc}
___
function_end('zinc_chacha20_armv7_neon');

asm_close($file);
