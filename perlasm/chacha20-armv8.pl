#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# ChaCha20 and HChaCha20 for AArch64 (provider/crypto/chacha20-armv8-glue.c).
#
#   void zinc_chacha20_a64_1(uint8_t *dst, const uint8_t *src, size_t nblocks,
#                            const uint32_t state[16]);
#   void zinc_chacha20_neon(uint8_t *dst, const uint8_t *src, size_t nblocks,
#                           const uint32_t state[16], uint8_t *first,
#                           uint8_t *last);
#   void zinc_hchacha20_a64(uint8_t out[32], const uint8_t nonce[16],
#                           const uint8_t key[32]);
#
# chacha20_*() XOR nblocks (>= 1) whole 64-byte blocks of keystream into src,
# writing dst (dst == src allowed, both may be unaligned), with the block
# counter state[12], state[12] + 1, ... (32-bit: the caller never lets it
# wrap within a call, and advances state[12] itself; state is not written).
# chacha20_neon's first and last, when not NULL, take the first and/or the
# last of the nblocks raw (the keystream XORed with 64 zero bytes of .text)
# instead of dst, and consume no src/dst: the glue's one-pass API puts the
# AEAD key block in first and the keystream of a partial last block in last.
# Little-endian AArch64 only (AAPCS64 and Apple's arm64 ABI).
#
# Paths:
#   chacha20_a64_1   one block at a time in general-purpose registers: the
#                    16 words in w registers, rotations with ror, then the
#                    input added back and the block XORed 16 bytes at a time
#                    (ldp/stp of x registers, two words combined per x).
#   chacha20_neon    "vertical" NEON: one v register per state word, lane j
#                    holding that word of block j, so a quarter round needs
#                    no shuffles (rotations: 16 rev32 .8h, 8 tbl, 12 and 7
#                    shl + sri).  At the end the four blocks are transposed
#                    back with zip1/zip2 (.4s, then .2d) and 256 bytes are
#                    XORed with ld1/st1.  While nblocks >= 5, a fifth block
#                    runs in the general-purpose registers inside the same
#                    round loop (the scalar rounds are interleaved with the
#                    vector ones), so a pass makes 5 blocks: the NEON code
#                    leaves the integer pipes idle, and the scalar block is
#                    almost free where the core can issue both (see the
#                    estimates).  1..4 blocks left: one NEON pass that stores
#                    only those blocks (the glue gives 1 or 2 leftover
#                    blocks to chacha20_a64_1 instead).  Each block picks
#                    its source and destination with csel (raw block or
#                    data): 10 instructions per 64 bytes.
#   hchacha20_a64    the scalar rounds on (constants, key, nonce); out =
#                    words 0..3 and 12..15 without the feed-forward.
# Only lengths (nblocks) steer branches.  Nothing is spilled to the stack
# except the callee-saved registers of the caller (x19-x28, d8-d15).
#
# Register map (the variables at the top of the code are its only
# spelling; the generator dies if two roles live at the same time share a
# register, or if a function's saves differ from the callee-saved
# registers its code names):
#   x0 dst, x1 src, x2 nblocks left, x3 state (hchacha20_a64: x0 out,
#   x1 nonce, x2 key, and x3, which has no argument, is first the sigma
#   pointer, then the round counter)
#   scalar block: word i in w(4 + i) for i = 0..13, words 14, 15 in w19,
#   w20.  The words take the first free caller-saved registers, in order,
#   skipping x18 (the platform register on Apple: never used; x16/x17 are
#   free in leaf code), so every pair of words 2k, 2k + 1 (one ldp from
#   the state) sits in two neighbouring registers.  The feed-forward packs
#   word 2k + 1 into the top half of word 2k's x register (add x, x, x,
#   lsl #32); row r of the block (words 4r..4r + 3, 16 bytes: one ldp/stp
#   of x registers) is then words 4r and 4r + 2's x registers, and the
#   data goes through the registers of words 4r + 1 and 4r + 3, free by
#   then.  w21 the block counter; x22 the round counter, then the
#   feed-forward's temporary (the other one is word 13's register, which
#   words 12, 13 free first).  Callee-saved, only where the caller-saved
#   ones run out: chacha20_a64_1 needs 22 registers (x0-x3, 16 words,
#   counter, x22): x19-x22; hchacha20_a64 x19, x20 (its x3 does x22's work).
#   NEON: v0-v15 words 0..15 of blocks 0..3; v16-v19 quarter-round
#   temporaries (one per parallel quarter round), later input and
#   transpose temporaries; v20 the tbl index of the rotation by 8;
#   v21 counter step ({5,5,5,5}); v22 the counter words of the pass;
#   v23-v30 feed-forward / transpose temporaries; x22 also the state
#   pointer of ld4r (loads one word into all four lanes), outside the
#   round loop and before the blocks are stored; x23 first, x24 last
#   (moved from x4, x5, which are words 0, 1; first is cleared after the
#   first block), x25 the zero block, x26/x27 the source and destination
#   of the block being stored.  chacha20_neon saves x19-x27 and d8-d15.
#
# Expected speed: ESTIMATES from the instruction counts of this code and
# the pipeline figures of Arm's software optimization guides, not
# measurements (only qemu was available, which says nothing of timing).
#   Work per double round: scalar 8 quarter rounds x 12 ALU ops = 96 for
#   one block, a chain of 12 dependent ops per quarter round; NEON 8 x 14 =
#   112 vector ops (4 add, 4 eor, rev32, tbl, 2 shl, 2 sri) for four
#   blocks, a chain of 14 dependent ops per quarter round.  Per 4 + 1
#   pass beside the rounds (counted in the generated code): 82 vector ops
#   (ld4r, feed-forward, zip transpose, XOR) and 113 scalar ones, of which
#   57 load, feed forward and XOR the scalar block, 50 pick the 5 blocks'
#   sources and destinations, and the rest keep the loop.  Per call: the
#   callee-saved registers' saves and restores, 2 + 2 instructions in
#   chacha20_a64_1, 1 + 1 in hchacha20_a64, 9 + 9 in chacha20_neon.
#   Cortex-A72 (3-wide decode, 2 integer ALUs of latency 1, 2 ASIMD pipes
#   of latency 3 with shifts on one):
#     scalar   a half round is throughput-bound: 48 ops / 2 = 24 cycles;
#              ~520 cycles per block, ~8 cycles/byte
#     NEON     latency-bound: 14 x 3 = 42 cycles per half round (its 56 ops
#              need 28 issue cycles), ~940 cycles per 256 bytes, ~3.7 c/B
#     4 + 1    the scalar block's 48 ops per half round fill idle integer
#              pipes (104 instructions per 42 cycles, under 3-wide
#              decode): ~1000 cycles per 320 bytes, ~3.1 c/B
#   Neoverse N1 (4-wide, 3 integer ALUs, 2 ASIMD pipes of latency 2):
#     scalar   48 / 3 = 16 cycles per half round, ~360 per block, ~5.6 c/B
#     NEON     28 cycles per half round (latency and throughput alike),
#              ~620 cycles per 256 bytes, ~2.4 c/B
#     4 + 1    104 instructions per 28 cycles, near the 4-wide limit:
#              ~650 cycles per 320 bytes, ~2.0 c/B
#   So one block alone is scalar (A72 520 vs 940, N1 360 vs 620); two are
#   about even (A72 1040 vs 940, N1 720 vs 620); three or more favour a
#   NEON pass.  In-order cores (Cortex-A53/A55) should gain less from
#   NEON and nothing from a short vector pass; we have no trustworthy
#   figures for them.
#   One pass with raw blocks, e.g. ChaCha20-Poly1305 on 1420 bytes (key
#   block, 22 whole blocks, a partial one: 24 blocks): 4 passes of 4 + 1
#   and one of 4, ~4900 cycles on A72, against ~6100 for the key block and
#   the partial block scalar beside the 22 (4 x 5 + 2 scalar).
#   HChaCha20: one scalar permutation, ~500 cycles on A72, ~330 on N1.
use strict;
use warnings;
use zinc_arm;

my $file = asm_open(@ARGV);

my ($dst, $src, $nblk, $state) = ('x0', 'x1', 'x2', 'x3');
my ($arg_first, $arg_last) = ('x4', 'x5');	# chacha20_neon's 5th, 6th arguments
my ($out, $nonce, $key) = ('x0', 'x1', 'x2');	# hchacha20_a64's arguments
my @w = map { "w$_" } (4 .. 17, 19, 20);	# scalar words 0..15
my $sctr = 'w21';				# scalar block counter
my $rnd = 'x22';				# round counter, then feed-forward temporary
my $hrnd = 'x3';				# hchacha20_a64's sigma pointer, round counter
my ($first, $last, $zero) = ('x23', 'x24', 'x25');	# chacha20_neon's raw blocks
my ($bsrc, $bdst) = ('x26', 'x27');		# a block's source, destination
my $vptr = $rnd;				# chacha20_neon's ld4r pointer to the state
my @v = map { "v$_" } (0 .. 15);		# vector words 0..15 (ld4r: 4 in a row)
my @vt = map { "v$_" } (16 .. 19);		# quarter-round temporaries
my ($vrot8, $vstep, $vctr) = ('v20', 'v21', 'v22');
my @vf = map { "v$_" } (23 .. 30);		# feed-forward / transpose temporaries

# The four quarter rounds of a column round, then of a diagonal round.
my @halves = ([[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]],
	      [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]]);

sub w32 { my ($r) = @_; $r =~ s/^x/w/; return $r; }
sub x64 { my ($r) = @_; $r =~ s/^w/x/; return $r; }

# Dies unless the registers named (x and w of one register alike), all
# live at the same time, are distinct: the roles that share a register
# are the ones whose lifetimes do not meet.
sub distinct {
	my ($when, @regs) = @_;
	my %seen;
	for my $r (map { x64($_) } @regs) {
		die "$0: $r has two roles $when\n" if $seen{$r}++;
	}
}
distinct('in the scalar rounds', $dst, $src, $nblk, $state, @w, $sctr, $rnd);
distinct('in the 4 + 1 rounds', $dst, $src, $nblk, $state, $first, $last, $zero, @w, $sctr, $rnd);
distinct('in neon_load/neon_store', $dst, $src, $nblk, $state, $first, $last, $zero, @w, $sctr, $vptr);
distinct("in the fifth block's store", $dst, $src, $nblk, $state, $first, $last, $zero, @w, $sctr,
	 $bsrc, $bdst, $rnd);
distinct("in chacha20_neon's prologue", $dst, $src, $nblk, $state, $arg_first, $arg_last, $first, $last);
distinct("in chacha20_neon's prologue", $dst, $src, $nblk, $state, $first, $last, $vptr, $zero, $sctr);
distinct('in hchacha20_a64', $out, $nonce, $key, @w[0 .. 3], $hrnd);
distinct('in hchacha20_a64', $out, $nonce, $key, @w, $hrnd);

# The callee-saved registers among those named (x19-x28, and d8-d15 for
# v8-v15), each once: d first, then x, in ascending order.
sub callee_saved {
	my %s;
	for (@_) {
		my $r = /^[vdq](\d+)$/ ? "d$1" : x64($_);
		$s{$r} = 1 if $r =~ /^x(\d+)$/ ? $1 >= 19 && $1 <= 28 : $r =~ /^d(\d+)$/ && $1 >= 8 && $1 <= 15;
	}
	return sort { substr($a, 0, 1) cmp substr($b, 0, 1) || substr($a, 1) <=> substr($b, 1) } keys %s;
}

# Emits the function $name: the code that &$gen writes through code(),
# between save_regs(@$saved) and restore_regs(@$saved) (their CFI with
# them).  Dies unless @$saved names exactly the callee-saved registers
# that the code names (so a register that bypasses the map is caught), or
# if the code names x18 (the platform register on Apple), x29, x30 or sp.
sub leaf_function {
	my ($name, $saved, $gen) = @_;
	my $body = '';
	{
		no warnings 'redefine';
		local *code = sub { $body .= $_[0]; };
		$gen->();
	}
	my @named;
	while ($body =~ /\b([xwvqdsbh])(\d+)\b/g) {
		my ($k, $n) = ($1, $2);
		die "$0: $name names $k$n\n" if $k =~ /[xw]/ && ($n == 18 || $n >= 29);
		push @named, "$k$n";
	}
	die "$0: $name names sp\n" if $body =~ /\b(sp|wsp|fp|lr)\b/;
	my ($want, $got) = (join(' ', callee_saved(@$saved)), join(' ', callee_saved(@named)));
	die "$0: $name saves ($want) but uses ($got)\n" unless $want eq $got && @$saved == split(' ', $want);
	function_begin($name);
	code(save_regs(@$saved));
	code($body);
	code(restore_regs(@$saved) . "\tret\n");
	function_end($name);
}

# One double round on the scalar words, as a list of instructions: each
# half issues step by step across its four independent quarter rounds.
sub scalar_dround {
	my @ins;
	for my $h (@halves) {
		my @q = map { [map { $w[$_] } @$_] } @$h;
		for my $s ([0, 1, 3, 16], [2, 3, 1, 20], [0, 1, 3, 24], [2, 3, 1, 25]) {
			my ($x, $y, $z, $n) = @$s;	# x += y; z = ror(z ^ x, n)
			push @ins, map { "add\t$_->[$x], $_->[$x], $_->[$y]" } @q;
			push @ins, map { "eor\t$_->[$z], $_->[$z], $_->[$x]" } @q;
			push @ins, map { "ror\t$_->[$z], $_->[$z], #$n" } @q;
		}
	}
	return @ins;
}

# One double round on four blocks in the vector words v0-v15.
sub neon_dround {
	my @ins;
	for my $h (@halves) {
		my @q = map { [@v[@$_]] } @$h;
		my @t = @vt;
		my $each = sub { my ($f) = @_; push @ins, map { $f->(@{$q[$_]}, $t[$_]) } 0 .. 3; };
		$each->(sub { "add\t$_[0].4s, $_[0].4s, $_[1].4s" });
		$each->(sub { "eor\t$_[3].16b, $_[3].16b, $_[0].16b" });
		$each->(sub { "rev32\t$_[3].8h, $_[3].8h" });
		$each->(sub { "add\t$_[2].4s, $_[2].4s, $_[3].4s" });
		$each->(sub { "eor\t$_[4].16b, $_[1].16b, $_[2].16b" });
		$each->(sub { "shl\t$_[1].4s, $_[4].4s, #12" });
		$each->(sub { "sri\t$_[1].4s, $_[4].4s, #20" });
		$each->(sub { "add\t$_[0].4s, $_[0].4s, $_[1].4s" });
		$each->(sub { "eor\t$_[4].16b, $_[3].16b, $_[0].16b" });
		$each->(sub { "tbl\t$_[3].16b, {$_[4].16b}, $vrot8.16b" });
		$each->(sub { "add\t$_[2].4s, $_[2].4s, $_[3].4s" });
		$each->(sub { "eor\t$_[4].16b, $_[1].16b, $_[2].16b" });
		$each->(sub { "shl\t$_[1].4s, $_[4].4s, #7" });
		$each->(sub { "sri\t$_[1].4s, $_[4].4s, #25" });
	}
	return @ins;
}

# Emits list v with list s spread evenly through it (or s alone).
sub merge {
	my ($va, $sb) = @_;
	my $j = 0;
	for my $i (0 .. $#$va) {
		code("\t$va->[$i]\n");
		while ($j < @$sb && ($j + 1) * @$va <= ($i + 1) * @$sb) {
			code("\t$sb->[$j++]\n");
		}
	}
	code("\t$_\n") for @$sb[$j .. $#$sb];
}

# 10 double rounds: vector, scalar or both side by side, counted in $ctr
# ($rnd unless named).
sub round_loop {
	my ($name, $neon, $scalar, $ctr) = @_;
	$ctr //= $rnd;
	my $l = local_label($name);
	my @v = $neon ? neon_dround() : ();
	my @s = $scalar ? scalar_dround() : ();
	code("\tmov\t$ctr, #10\n$l:\n");
	merge(\@v, \@s);
	code("\tsubs\t$ctr, $ctr, #1\n\tb.ne\t$l\n");
}

# The scalar block's input: state with the counter in $sctr.
sub scalar_load {
	code(<<___);
	ldp	$w[0], $w[1], [$state]
	ldp	$w[2], $w[3], [$state, #8]
	ldp	$w[4], $w[5], [$state, #16]
	ldp	$w[6], $w[7], [$state, #24]
	ldp	$w[8], $w[9], [$state, #32]
	ldp	$w[10], $w[11], [$state, #40]
	mov	$w[12], $sctr
	ldr	$w[13], [$state, #52]
	ldp	$w[14], $w[15], [$state, #56]
___
}

# Adds the input back, then XORs the block into [$in], writing [$out] (both
# advance by 64).  Each pair of words 2k, 2k + 1 is packed into word 2k's
# x register (the w writes cleared the upper halves), which frees word
# 2k + 1's: words 12 and 13 go first (12 adds the counter from $sctr, 13
# needs one temporary, $rnd), then $rnd and word 13's register take the
# other pairs of the state.  Row r (words 4r..4r + 3, 16 bytes of the
# block) is then words 4r and 4r + 2's x registers, and its data goes
# through the freed registers of words 4r + 1 and 4r + 3.
sub scalar_store {
	my ($in, $out) = @_;
	my @x = map { x64($_) } @w;
	my @t = (w32($rnd), $w[13]);
	my $pack = sub { my ($k) = @_; code("\tadd\t$x[2 * $k], $x[2 * $k], $x[2 * $k + 1], lsl #32\n"); };
	code("\tadd\t$w[12], $w[12], $sctr\n\tldr\t$t[0], [$state, #52]\n\tadd\t$w[13], $w[13], $t[0]\n");
	$pack->(6);
	for my $k (0 .. 5, 7) {
		code("\tldp\t$t[0], $t[1], [$state, #" . 8 * $k . "]\n");
		code("\tadd\t$w[2 * $k], $w[2 * $k], $t[0]\n\tadd\t$w[2 * $k + 1], $w[2 * $k + 1], $t[1]\n");
		$pack->($k);
	}
	for my $r (0 .. 3) {
		my ($d0, $d1) = @x[4 * $r + 1, 4 * $r + 3];
		code(<<___);
	ldp	$d0, $d1, [$in], #16
	eor	$d0, $d0, $x[4 * $r]
	eor	$d1, $d1, $x[4 * $r + 2]
	stp	$d0, $d1, [$out], #16
___
	}
}

# chacha20_neon, around each block's store: x2 counts the blocks left,
# this one included.  The block is raw if it is the last (x2 == 1) and
# last is not NULL, or if first is not NULL (only ever for the first
# block): then it reads the zero block, writes to first or last, and
# src/dst stay put; the flags (ne: raw) live across the store.
sub block_begin {
	code(<<___);
	cmp	$nblk, #1
	ccmp	$last, #0, #4, eq
	csel	$bdst, $last, $first, ne
	cmp	$bdst, #0
	csel	$bsrc, $zero, $src, ne
	csel	$bdst, $bdst, $dst, ne
___
}

sub block_end {
	code(<<___);
	csel	$src, $src, $bsrc, ne
	csel	$dst, $dst, $bdst, ne
	mov	$first, xzr
	sub	$nblk, $nblk, #1
___
}

# ld4r's register list: four registers in a row.
sub ld4r_list { return '{' . join(', ', map { "$_.4s" } @_) . '}'; }

# The vector input: each state word in all four lanes, counters from $vctr.
sub neon_load {
	code("\tmov\t$vptr, $state\n");
	code("\tld4r\t" . ld4r_list(@v[4 * $_ .. 4 * $_ + 3]) . ", [$vptr], #16\n") for 0 .. 3;
	code("\tmov\t$v[12].16b, $vctr.16b\n");
}

# Feed-forward, transpose, and the stores of the four blocks (see
# block_begin); in the tail pass ($partial), an exit to $done once x2 is 0.
sub neon_store {
	my ($partial, $done) = @_;
	code("\tmov\t$vptr, $state\n");
	my @sets = ([@vt], [@vf[0 .. 3]], [@vf[4 .. 7]], [@vt]);
	for my $g (0 .. 3) {
		my @s = @{$sets[$g]};
		code("\tld4r\t" . ld4r_list(@s) . ", [$vptr], #16\n");
		for my $k (0 .. 3) {
			my $i = 4 * $g + $k;
			my $add = $i == 12 ? $vctr : $s[$k];
			code("\tadd\t$v[$i].4s, $v[$i].4s, $add.4s\n");
		}
	}
	for my $g (0 .. 3) {
		my @r = @v[4 * $g .. 4 * $g + 3];
		my @t = $g % 2 ? @vf[4 .. 7] : @vf[0 .. 3];
		code(<<___);
	zip1	$t[0].4s, $r[0].4s, $r[1].4s
	zip2	$t[1].4s, $r[0].4s, $r[1].4s
	zip1	$t[2].4s, $r[2].4s, $r[3].4s
	zip2	$t[3].4s, $r[2].4s, $r[3].4s
	zip1	$r[0].2d, $t[0].2d, $t[2].2d
	zip2	$r[1].2d, $t[0].2d, $t[2].2d
	zip1	$r[2].2d, $t[1].2d, $t[3].2d
	zip2	$r[3].2d, $t[1].2d, $t[3].2d
___
	}
	# Block j is now v(j), v(4 + j), v(8 + j), v(12 + j).
	my $in = '{' . join(', ', map { "$_.16b" } @vt) . '}';
	for my $j (0 .. 3) {
		code("\tcbz\t$nblk, $done\n") if $partial && $j > 0;
		block_begin();
		code("\tld1\t$in, [$bsrc], #64\n");
		code("\teor\t$vt[$_].16b, $vt[$_].16b, $v[4 * $_ + $j].16b\n") for 0 .. 3;
		code("\tst1\t$in, [$bdst], #64\n");
		block_end();
	}
}

# --- chacha20_a64_1 -----------------------------------------------------
{
	my $loop = local_label('chacha20_a64_1_loop');
	my @saved = callee_saved(@w, $sctr, $rnd);
	leaf_function('zinc_chacha20_a64_1', \@saved, sub {
		code(<<___);
	ldr	$sctr, [$state, #48]
$loop:
___
		scalar_load();
		round_loop('chacha20_a64_1_rounds', 0, 1);
		scalar_store($src, $dst);
		code(<<___);
	add	$sctr, $sctr, #1
	subs	$nblk, $nblk, #1
	b.ne	$loop
___
	});
}

# --- chacha20_neon ------------------------------------------------------
{
	my $consts = local_label('chacha20_consts');
	my $loop = local_label('chacha20_neon_loop5');
	my $tail = local_label('chacha20_neon_tail');
	my $done = local_label('chacha20_neon_done');
	my @saved = callee_saved(@v, @vt, $vrot8, $vstep, $vctr, @vf, @w, $sctr, $rnd, $first, $last,
				 $zero, $bsrc, $bdst, $vptr);
	leaf_function('zinc_chacha20_neon', \@saved, sub {
		code(<<___);
	mov	$first, $arg_first
	mov	$last, $arg_last
	adr	$vptr, $consts
	ld1	{$vrot8.16b}, [$vptr], #16
	ld1	{$vstep.4s}, [$vptr], #16
	mov	$zero, $vptr
	ldr	$sctr, [$state, #48]
	dup	$vctr.4s, $sctr
	add	$vctr.4s, $vctr.4s, $vstep.4s
	add	$sctr, $sctr, #4
	movi	$vstep.4s, #5
	cmp	$nblk, #5
	b.lo	$tail
$loop:
___
		neon_load();
		scalar_load();
		round_loop('chacha20_neon_rounds5', 1, 1);
		neon_store(0, $done);
		block_begin();
		scalar_store($bsrc, $bdst);
		block_end();
		code(<<___);
	add	$sctr, $sctr, #5
	add	$vctr.4s, $vctr.4s, $vstep.4s
	cmp	$nblk, #5
	b.hs	$loop
$tail:
	cbz	$nblk, $done
___
		neon_load();
		round_loop('chacha20_neon_rounds4', 1, 0);
		neon_store(1, $done);
		code("$done:\n");
	});

	# tbl index of a left rotation by 8 of each 32-bit lane; lane
	# numbers; the zero block that raw blocks are XORed with.
	code(<<___);
.p2align	4
$consts:
	.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
	.long	0, 1, 2, 3
	.space	64
___
}

# --- hchacha20_a64 ------------------------------------------------------
{
	my $sigma = local_label('hchacha20_sigma');
	my @saved = callee_saved(@w, $hrnd);
	leaf_function('zinc_hchacha20_a64', \@saved, sub {
		code(<<___);
	adr	$hrnd, $sigma
	ldp	$w[0], $w[1], [$hrnd]
	ldp	$w[2], $w[3], [$hrnd, #8]
	ldp	$w[4], $w[5], [$key]
	ldp	$w[6], $w[7], [$key, #8]
	ldp	$w[8], $w[9], [$key, #16]
	ldp	$w[10], $w[11], [$key, #24]
	ldp	$w[12], $w[13], [$nonce]
	ldp	$w[14], $w[15], [$nonce, #8]
___
		round_loop('hchacha20_rounds', 0, 1, $hrnd);
		code(<<___);
	stp	$w[0], $w[1], [$out]
	stp	$w[2], $w[3], [$out, #8]
	stp	$w[12], $w[13], [$out, #16]
	stp	$w[14], $w[15], [$out, #24]
___
	});
	code(<<___);
.p2align	4
$sigma:
	.long	0x61707865, 0x3320646e, 0x79622d32, 0x6b206574	// "expand 32-byte k"
___
}

asm_close($file);
