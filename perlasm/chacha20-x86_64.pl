#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# ChaCha20 and HChaCha20 for x86_64 (provider/crypto/chacha20-x86_64-glue.c).
#
#   void zinc_chacha20_ssse3(uint8_t *dst, const uint8_t *src, size_t nblocks,
#                            const uint32_t state[16]);
#   void zinc_chacha20_avx2(...);     same arguments
#   void zinc_chacha20_avx512(...);   same arguments
#   void zinc_chacha20_x64_1(...);    same arguments, one block at a time
#   void zinc_chacha20_avx512_bytes(uint8_t *dst, const uint8_t *src, size_t len,
#                                   const uint32_t state[16], uint8_t *first,
#                                   uint8_t tail[64]);
#   void zinc_chacha20_xor_partial_avx512(uint8_t *dst, const uint8_t *src,
#                                         const uint8_t ks[64], size_t len);
#   void zinc_hchacha20_x64(uint8_t out[32], const uint8_t nonce[16],
#                           const uint8_t key[32]);
#
# chacha20_*() XOR nblocks (>= 1) whole 64-byte blocks of keystream into src,
# writing dst, with the block counter state[12], state[12] + 1, ... (32-bit,
# the caller never lets it wrap within a call and advances state[12]).
#
# chacha20_avx512_bytes() (AVX-512 F, VL and BW), for len >= 1 (len == 0
# does nothing, first included): if first is not NULL, the keystream block
# at counter state[12] goes raw to first[0..63] and the data starts at the
# next block; len bytes of keystream are XORed into src, writing dst
# (dst == src allowed).  A partial last block is XORed under a byte mask, so
# nothing before dst or past src + len, dst + len is touched, and its whole
# keystream block goes raw to tail[0..63].  state is not written; the
# blocks used are (first != NULL) + ceil(len / 64).  The key block runs in
# the general-purpose registers during the first pass's vector rounds,
# which leave the integer ALUs idle: it costs almost nothing.
#
# Two layouts of the state:
#   vertical    one register per state word, lane j holding that word of
#               block j (4, 8 or 16 blocks in xmm, ymm or zmm), so the
#               quarter rounds need no shuffles; the keystream is transposed
#               back to blocks at the end.
#   horizontal  one register per row of four words (a block per 128-bit
#               lane), rows rotated by pshufd between column and diagonal
#               rounds; for the last few blocks, where a vertical pass
#               would compute mostly unused lanes.
# Rotations: vprold with AVX-512, pshufb for 16 and 8 and shifts for 12 and
# 7 otherwise.  16 ymm/xmm registers do not hold 16 words plus temporaries:
# the vertical SSSE3/AVX2 code keeps two of the words 8..11 on the stack.
# Each call computes at most one partial pass; the blocks of a pass are
# stored in order with an exit after the last wanted one (lengths are
# public: only they steer branches).
#
# Paths (nblocks = n):
#   chacha20_avx512  n >= 17: two vertical zmm sets per 32 (the last pass
#                    may be partial); 9..16 left: one vertical zmm set;
#                    5..8: vertical ymm (VL); 1..4: horizontal ymm.
#   chacha20_avx2    vertical ymm per 8 (5..8 left: one partial pass);
#                    1..4 left: horizontal ymm.
#   chacha20_ssse3   vertical xmm per 4; 1 left: horizontal xmm.
#   chacha20_avx512_bytes  as chacha20_avx512 by blocks used, except 1..4:
#                    one horizontal zmm group, 5..8: two (a zmm row holds
#                    four blocks, one per 128-bit lane).
#   chacha20_x64_1   one block in general-purpose registers (see there).
#   hchacha20_x64    the same rounds, no feed-forward.
# Zen 5 here: a zmm add or rotate has about 6x its throughput as latency,
# so the 16-block pass (four quarter rounds in flight) waits; from 17
# blocks on, chacha20_avx512 runs two 16-block sets side by side (32 per
# pass), about 1.5 times as fast per byte.
#
# Cycles per byte, one call of n blocks on a warm 16 KB buffer (AMD EPYC
# Zen 5, 2 vCPUs; no perf counters: ns/byte times the nominal 2.096 GHz of
# /proc/cpuinfo "cpu MHz", so the absolute figures are only comparable to
# each other; medians of 7 runs):
#
#   blocks    1     2     3     4     5     8     16    32    256
#   ssse3    4.53  2.91  1.95  1.47  2.11  1.45  1.43  1.42  1.41
#   avx2     4.45  2.27  1.76  1.33  1.16  0.74  0.72  0.71  0.71
#   avx512   3.45  1.75  1.42  1.07  0.98  0.62  0.31  0.21  0.20
#   x64_1    2.38  2.35
#
# The newer paths, same clock estimate, medians of 201 interleaved runs of
# 100 calls (2026-12-03, other jobs running), cycles per call:
#
#   one block    x64_1 152, ssse3 279, avx2 274, avx512 212
#   two blocks   x64_1 301, ssse3 358, avx2 278, avx512 217
#   HChaCha20    x64 144; the former xmm versions (removed): ssse3 258,
#                avx512vl (vprold) 201
#
#   key block + data bytes   0     16    64    256   1024  1420  2048  16384
#   chacha20_avx512_bytes   153*  231   230   232   317   395   398   3221
#   separate calls          216   432   427   479   527  1032   629   3651
#
# (* the glue's chacha20_x64_1; separate calls: chacha20_avx512 for the key
# block, the whole blocks and a partial block, as the C did before.)
#
# How the glue splits a call, from the same machine (nanoseconds, medians,
# 2026-12): one block alone takes 73 ns in chacha20_x64_1 against 101
# (AVX-512) to 133 (SSSE3) for a one-block vector pass; two blocks: scalar
# 144, SSSE3 171, AVX2 133, AVX-512 103.  Left over after full passes, one
# block (two with SSSE3) is faster scalar than a short vector pass: SSSE3
# 5 blocks 313 -> 243 ns, 6: 339 -> 315, AVX2 9: 312 -> 243, AVX-512 33:
# 308 -> 271.  HChaCha20: scalar 69 ns, AVX-512VL 96, SSSE3 123.  A lone
# partial block for chacha20_avx512_bytes: 73 ns scalar against 107 for a
# horizontal pass (80-93 with chacha20_xor_partial_avx512's masked XOR).
use strict;
use warnings;
use zinc_x86_64;

my $flavour = $ARGV[0] // '';
my $file = asm_open(@ARGV);

# System V arguments.
my ($dst, $src, $nblk, $state) = ('%rdi', '%rsi', '%rdx', '%rcx');
my $ctr = '%r8d';	# block counter of the next pass
my $rounds = '%eax';

my $isa;		# 'sse', 'avx2' or 'avx512'
my $bytes_mode = 0;	# zinc_chacha20_avx512_bytes stores (see there)
my @deferred;		# its out-of-line code
my $first = '%r10';	# its key block pointer
my $lbl = 0;
sub label { return '.Lchacha_' . $_[0] . '_' . $lbl++; }

# --- instruction helpers: dst op= src, three-operand where VEX allows ---
sub op3 {
	my ($op, $s2, $s1, $d) = @_;	# AT&T order: d = s1 op s2
	if ($isa eq 'sse') {
		die "op3 $op: $d is $s2" if $d eq $s2 && $s1 ne $d;
		code("\tmovdqa\t$s1, $d\n") if $s1 ne $d;
		code("\t$op\t$s2, $d\n");
	} else {
		code("\tv$op\t$s2, $s1, $d\n");
	}
}
sub vadd { op3('paddd', $_[0], $_[1], $_[1]); }
sub vxor {
	my ($s, $d) = @_;
	if ($isa eq 'avx512') { code("\tvpxord\t$s, $d, $d\n"); }
	else { op3('pxor', $s, $d, $d); }
}
sub vrol {
	my ($x, $n, $t) = @_;
	if ($isa eq 'avx512') {
		code("\tvprold\t\$$n, $x, $x\n");
	} elsif ($n == 16 || $n == 8) {
		op3('pshufb', "rol${n}_const(%rip)", $x, $x);
	} elsif ($isa eq 'sse') {
		code("\tmovdqa\t$x, $t\n\tpslld\t\$$n, $t\n\tpsrld\t\$" . (32 - $n) . ", $x\n\tpor\t$t, $x\n");
	} else {
		code("\tvpslld\t\$$n, $x, $t\n\tvpsrld\t\$" . (32 - $n) . ", $x, $x\n\tvpor\t$t, $x, $x\n");
	}
}
sub vmov {	# aligned register/stack moves
	my ($s, $d) = @_;
	my $m = $isa eq 'sse' ? 'movdqa' : $isa eq 'avx512' ? 'vmovdqa32' : 'vmovdqa';
	code("\t$m\t$s, $d\n");
}

# Ten double rounds of the vector code &$body.  In chacha20_avx512_bytes
# with a key block wanted, an out-of-line copy of the loop also runs the
# key block's rounds in the general-purpose registers (key_block_loop).
sub round_loop {
	my ($name, $body) = @_;
	my $loop = label($name);
	if ($bytes_mode) {
		my ($keyed, $after) = (label('keyed'), label('after'));
		code("\ttestq\t$first, $first\n\tjnz\t$keyed\n");
		push @deferred, "$keyed:\n" . capture(sub { key_block_loop($body) }) . "\tjmp\t$after\n";
		code("\tmovl\t\$10, $rounds\n$loop:\n");
		$body->();
		code("\tdecl\t$rounds\n\tjnz\t$loop\n$after:\n");
		return;
	}
	code("\tmovl\t\$10, $rounds\n$loop:\n");
	$body->();
	code("\tdecl\t$rounds\n\tjnz\t$loop\n");
}

# The text &$f emits, instead of emitting it.
sub capture {
	my ($f) = @_;
	my $buf = '';
	no warnings 'redefine';
	local *code = sub { $buf .= $_[0]; };
	$f->();
	return $buf;
}

# Quarter rounds on several [a, b, c, d] register quads, step by step so the
# quads' dependency chains interleave; $t->[i] is quad i's temporary.
sub quarter_rounds {
	my ($quads, $t) = @_;
	my @q = @$quads;
	for my $s ([16, 0, 1, 3], [12, 2, 3, 1], [8, 0, 1, 3], [7, 2, 3, 1]) {
		my ($n, $ia, $ib, $id) = @$s;	# x[ia] += x[ib]; x[id] ^= x[ia]; x[id] <<<= n
		vadd($_->[$ib], $_->[$ia]) for @q;
		vxor($_->[$ia], $_->[$id]) for @q;
		vrol($q[$_]->[$id], $n, $t->[$_]) for 0 .. $#q;
	}
}

# --- vertical: 16 words of 4, 8 or 16 blocks -------------------------------
#
# $x: the 16 word registers; with $spill, $x->[10] and $x->[11] are the same
# registers as $x->[8] and $x->[9] and words 10 and 11 live in $spill
# slots while 8 and 9 are in registers (and the other way round).
sub vertical_double_round {
	my ($x, $t, $spill) = @_;
	my @col = ([0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]);
	my @diag = ([0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]);
	my $quads = sub { [map { my $q = $_; [map { $x->[$_] } @$q] } @_] };
	if (!$spill) {
		quarter_rounds($quads->(@col), []);
		quarter_rounds($quads->(@diag), []);
		return;
	}
	my ($s8, $s9, $s10, $s11) = @$spill;
	quarter_rounds($quads->(@col[0, 1]), $t);
	vmov($x->[8], $s8); vmov($x->[9], $s9);
	vmov($s10, $x->[10]); vmov($s11, $x->[11]);
	quarter_rounds($quads->(@col[2, 3]), $t);
	quarter_rounds($quads->(@diag[0, 1]), $t);
	vmov($x->[10], $s10); vmov($x->[11], $s11);
	vmov($s8, $x->[8]); vmov($s9, $x->[9]);
	quarter_rounds($quads->(@diag[2, 3]), $t);
}

# 4x4 transpose of dwords within each 128-bit lane of a..d (into a..d), with
# two temporaries: lane element j of the result k is word k of block j.
sub transpose4 {
	my ($a, $b, $c, $d, $t0, $t1) = @_;
	op3('punpckldq', $b, $a, $t0);		# a0 b0 a1 b1
	op3('punpckhdq', $b, $a, $t1);		# a2 b2 a3 b3
	op3('punpckldq', $d, $c, $a);		# c0 d0 c1 d1
	op3('punpckhdq', $d, $c, $b);		# c2 d2 c3 d3
	op3('punpckhqdq', $a, $t0, $c);		# a1 b1 c1 d1
	op3('punpcklqdq', $a, $t0, $t0);	# a0 b0 c0 d0
	op3('punpckhqdq', $b, $t1, $d);		# a3 b3 c3 d3
	op3('punpcklqdq', $b, $t1, $t1);	# a2 b2 c2 d2
	vmov($t0, $a);
	vmov($c, $b);
	vmov($t1, $c);
}

# Stores block $k of the pass if wanted: XOR of 64 bytes from $parts
# [[reg, offset in block], ...], exit to $done after block $last.
sub store_block {
	my ($k, $parts, $tmp, $done, $exit) = @_;
	return store_block_bytes(@_) if $bytes_mode;
	for my $p (@$parts) {
		my ($r, $off) = @$p;
		my $o = 64 * $k + $off;
		if ($isa eq 'sse') {
			code("\tmovdqu\t$o($src), $tmp\n\tpxor\t$tmp, $r\n\tmovdqu\t$r, $o($dst)\n");
		} elsif ($isa eq 'avx512') {
			code("\tvpxord\t$o($src), $r, $r\n\tvmovdqu32\t$r, $o($dst)\n");
		} else {
			code("\tvpxor\t$o($src), $r, $r\n\tvmovdqu\t$r, $o($dst)\n");
		}
	}
	code("\tcmpq\t\$" . ($k + 1) . ", $nblk\n\tje\t$done\n") if $exit;
}

# --- horizontal: rows of $groups groups of one block per 128-bit lane ------
#
# The diagonal round lines up a[j-1], b[j], c[j+1], d[j+2] in lane j: b,
# the last row a quarter round finishes, is not rotated, which takes a
# shuffle off the dependency chain.
sub horizontal_rounds {
	my ($g, $t) = @_;	# $g: [[r0, r1, r2, r3], ...]
	my $shuf = sub {
		my ($i0, $i2, $i3) = @_;
		for my $q (@$g) {
			my $m = $isa eq 'sse' ? 'pshufd' : 'vpshufd';
			for ([0, $i0], [2, $i2], [3, $i3]) {
				my ($r, $imm) = ($q->[$_->[0]], $_->[1]);
				code("\t$m\t\$$imm, $r, $r\n");
			}
		}
	};
	quarter_rounds($g, $t);
	$shuf->(0x93, 0x39, 0x4e);
	quarter_rounds($g, $t);
	$shuf->(0x39, 0x93, 0x4e);
}

sub rodata {
	code($flavour eq 'macosx' ? ".section\t__TEXT,__const\n" : ".section\t.rodata\n");
	code(<<___);
.p2align	6
rol16_const:
	.byte	2,3,0,1, 6,7,4,5, 10,11,8,9, 14,15,12,13
	.byte	2,3,0,1, 6,7,4,5, 10,11,8,9, 14,15,12,13
rol8_const:
	.byte	3,0,1,2, 7,4,5,6, 11,8,9,10, 15,12,13,14
	.byte	3,0,1,2, 7,4,5,6, 11,8,9,10, 15,12,13,14
lanes_const:
	.long	0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
hlanes_const:			# horizontal: counters of the two lanes, then 2 more
	.long	0,0,0,0, 1,0,0,0, 2,0,0,0, 2,0,0,0
sixteen_const:
	.long	16
.p2align	6
hzlanes_const:			# horizontal zmm: counters of the four lanes, then 4 more
	.long	0,0,0,0, 1,0,0,0, 2,0,0,0, 3,0,0,0
	.long	4,0,0,0, 4,0,0,0, 4,0,0,0, 4,0,0,0
.text
___
}

# The frame for stack slots: rbp keeps the caller's rsp.
sub frame_begin {
	my ($size, $align) = @_;
	code(realigned_frame_begin($size, $align));
}
sub frame_end {	# wipes the slots, which held key material
	my ($size, $zreg) = @_;
	my $w = $isa eq 'sse' ? 16 : $isa eq 'avx512' ? 64 : 32;
	vxor($zreg, $zreg);
	vmov($zreg, "$_(%rsp)") for map { $_ * $w } 0 .. int($size / $w) - 1;
	code(realigned_frame_end());
}

# One horizontal pass of up to 2 * @groups blocks (ymm) or @groups (xmm),
# storing $nblk of them (1 <= $nblk <= that), counter in $ctr.
# Uses registers 0..4*groups-1 as rows, then the initial rows and temps.
sub horizontal_pass {
	my ($w, $ngroups, $t, $init, $done) = @_;	# $w: 'x' or 'y'
	my @g = map { my $b = 4 * $_; [map { "%${w}mm" . ($b + $_) } 0 .. 3] } 0 .. $ngroups - 1;
	my ($i0, $i1, $i2, $i3) = @$init;	# initial rows; $i3 is per group below
	my $per = $w eq 'y' ? 2 : 1;
	my $c = $t->[0];
	# counter: broadcast, plus 0 (and 1) in word 12 of each lane
	if ($isa eq 'sse') {
		code("\tmovdqu\t0($state), $i0\n\tmovdqu\t16($state), $i1\n\tmovdqu\t32($state), $i2\n");
		code("\tmovdqu\t48($state), $i3->[0]\n\tmovd\t$ctr, $c\n\tmovss\t$c, $i3->[0]\n");
		die "one xmm group only" if $ngroups != 1;
	} else {
		code("\tvbroadcasti128\t0($state), $i0\n\tvbroadcasti128\t16($state), $i1\n");
		code("\tvbroadcasti128\t32($state), $i2\n\tvbroadcasti128\t48($state), $i3->[0]\n");
		(my $cx = $c) =~ s/ymm/xmm/;
		code("\tvmovd\t$ctr, $cx\n\tvpbroadcastd\t$cx, $c\n");
		code("\tvpaddd\thlanes_const(%rip), $c, $c\n");
		code("\tvpblendd\t\$0x11, $c, $i3->[0], $i3->[0]\n");
		for my $k (1 .. $ngroups - 1) {
			code("\tvpaddd\thlanes_const+32(%rip), $i3->[0], $i3->[$k]\n");
		}
	}
	for my $k (0 .. $ngroups - 1) {
		vmov($i0, $g[$k]->[0]); vmov($i1, $g[$k]->[1]);
		vmov($i2, $g[$k]->[2]); vmov($i3->[$k], $g[$k]->[3]);
	}
	my $loop = label('hround');
	code("\tmovl\t\$10, $rounds\n$loop:\n");
	horizontal_rounds(\@g, $t);
	code("\tdecl\t$rounds\n\tjnz\t$loop\n");
	for my $k (0 .. $ngroups - 1) {
		vadd($i0, $g[$k]->[0]); vadd($i1, $g[$k]->[1]);
		vadd($i2, $g[$k]->[2]); vadd($i3->[$k], $g[$k]->[3]);
	}
	my $n = $ngroups * $per;
	for my $b (0 .. $n - 1) {
		my $q = $g[int($b / $per)];
		my $exit = $b < $n - 1;
		if ($w eq 'x') {
			store_block($b, [map { [$q->[$_], 16 * $_] } 0 .. 3], $t->[0], $done, $exit);
		} else {
			my $imm = $b % 2 ? '0x31' : '0x20';
			my ($t0, $t1) = @$t;
			code("\tvperm2i128\t\$$imm, $q->[1], $q->[0], $t0\n");
			code("\tvperm2i128\t\$$imm, $q->[3], $q->[2], $t1\n");
			store_block($b, [[$t0, 0], [$t1, 32]], undef, $done, $exit);
		}
	}
}

# --- SSSE3 and AVX2: vertical with two spilled words ----------------------
#
# Stack: 16 initial word vectors (word 12: counters of this pass), then
# the spill slots of words 8..11.
sub vertical_pass_16regs {
	my ($w, $done) = @_;	# 'x' (4 lanes) or 'y' (8 lanes)
	my $W = $w eq 'y' ? 32 : 16;
	my @r = map { "%${w}mm$_" } 0 .. 15;
	# words 0..7, 12..15 in r0..r7, r8..r11; 8/10 and 9/11 share r12, r13
	my @x = (@r[0 .. 7], @r[12, 13, 12, 13], @r[8 .. 11]);
	my @t = @r[14, 15];
	my $slot = sub { ($_[0] * $W) . '(%rsp)' };
	my @spill = map { $slot->(16 + $_) } 0 .. 3;

	# counters of this pass
	if ($isa eq 'sse') {
		code("\tmovd\t$ctr, $t[0]\n\tpshufd\t\$0, $t[0], $t[0]\n\tpaddd\tlanes_const(%rip), $t[0]\n");
	} else {
		code("\tvmovd\t$ctr, %xmm14\n\tvpbroadcastd\t%xmm14, $t[0]\n\tvpaddd\tlanes_const(%rip), $t[0], $t[0]\n");
	}
	vmov($t[0], $slot->(12));
	vmov($slot->($_), $x[$_]) for 0 .. 9, 12 .. 15;
	vmov($slot->(10), $t[0]); vmov($t[0], $spill[2]);
	vmov($slot->(11), $t[0]); vmov($t[0], $spill[3]);
	my $loop = label('vround');
	code("\tmovl\t\$10, $rounds\n$loop:\n");
	vertical_double_round(\@x, \@t, \@spill);
	code("\tdecl\t$rounds\n\tjnz\t$loop\n");

	# words 8, 9 to their slots; first half: words 0..7
	vmov($x[8], $spill[0]); vmov($x[9], $spill[1]);
	vadd($slot->($_), $x[$_]) for 0 .. 7;
	transpose4(@x[0 .. 3], @r[12, 13]);
	transpose4(@x[4 .. 7], @r[12, 13]);
	my $half2 = label('half2');
	if ($w eq 'x') {
		# the first 32 bytes of block k: words 0..3 in x[k], 4..7 in x[4+k]
		for my $k (0 .. 3) {
			store_block($k, [[$x[$k], 0], [$x[4 + $k], 16]], $t[0], $half2, $k < 3);
		}
	} else {
		for my $k (0 .. 7) {
			my $imm = $k >= 4 ? '0x31' : '0x20';
			code("\tvperm2i128\t\$$imm, $x[4 + $k % 4], $x[$k % 4], $t[0]\n");
			store_block($k, [[$t[0], 0]], undef, $half2, $k < 7);
		}
	}
	code("$half2:\n");
	# second half: words 8..11 into r0..r3, 12..15 in r8..r11
	for my $i (0 .. 3) {
		vmov($spill[$i], $r[$i]);
		vadd($slot->(8 + $i), $r[$i]);
		vadd($slot->(12 + $i), $x[12 + $i]);
	}
	transpose4(@r[0 .. 3], @r[12, 13]);
	transpose4(@x[12 .. 15], @r[12, 13]);
	if ($w eq 'x') {
		for my $k (0 .. 3) {
			store_block($k, [[$r[$k], 32], [$x[12 + $k], 48]], $t[0], $done, $k < 3);
		}
	} else {
		for my $k (0 .. 7) {
			my $imm = $k >= 4 ? '0x31' : '0x20';
			code("\tvperm2i128\t\$$imm, $x[12 + $k % 4], $r[$k % 4], $t[0]\n");
			store_block($k, [[$t[0], 32]], undef, $done, $k < 7);
		}
	}
}

# Broadcasts the state words into the initial slots (word 12 is set per pass).
sub broadcast_state {
	my ($w) = @_;
	my $W = $w eq 'y' ? 32 : 16;
	for my $i (0 .. 15) {
		next if $i == 12;
		if ($isa eq 'sse') {
			code("\tmovd\t" . (4 * $i) . "($state), %xmm0\n\tpshufd\t\$0, %xmm0, %xmm0\n");
			vmov('%xmm0', ($i * $W) . '(%rsp)');
		} else {
			code("\tvpbroadcastd\t" . (4 * $i) . "($state), %ymm0\n");
			vmov('%ymm0', ($i * $W) . '(%rsp)');
		}
	}
}

sub chacha20_16regs {
	my ($name, $w, $hmax) = @_;	# $hmax: most blocks left for the horizontal pass
	my $W = $w eq 'y' ? 32 : 16;
	my $lanes = $W / 4;
	my $frame = 20 * $W;
	my ($vloop, $tail, $done) = map { label($_) } qw(vloop tail done);
	function_begin($name);
	code("\tmovl\t48($state), $ctr\n");
	frame_begin($frame, $W);
	code("\tcmpq\t\$$hmax, $nblk\n\tjbe\t$tail\n");
	broadcast_state($w);
	code("$vloop:\n");
	vertical_pass_16regs($w, $done);
	code("\taddl\t\$$lanes, $ctr\n\taddq\t\$" . (64 * $lanes) . ", $src\n");
	code("\taddq\t\$" . (64 * $lanes) . ", $dst\n\tsubq\t\$$lanes, $nblk\n\tjbe\t$done\n");
	code("\tcmpq\t\$$hmax, $nblk\n\tja\t$vloop\n");
	code("$tail:\n");
	if ($w eq 'y') {
		# 1..2 blocks: one group; 3..4: two
		my $one = label('h1');
		my @init = ('%ymm8', '%ymm9', '%ymm10', ['%ymm11', '%ymm12']);
		code("\tcmpq\t\$2, $nblk\n\tjbe\t$one\n");
		horizontal_pass('y', 2, ['%ymm14', '%ymm15'], \@init, $done);
		code("\tjmp\t$done\n$one:\n");
		horizontal_pass('y', 1, ['%ymm14', '%ymm15'], \@init, $done);
	} else {
		die "one horizontal xmm block only" if $hmax != 1;
		my @init = ('%xmm8', '%xmm9', '%xmm10', ['%xmm11']);
		horizontal_pass('x', 1, ['%xmm14', '%xmm15'], \@init, $done);
	}
	code("$done:\n");
	frame_end($frame, $w eq 'y' ? '%ymm0' : '%xmm0');
	code("\tvzeroupper\n") if $isa ne 'sse';
	code("\tret\n");
	function_end($name);
}

# --- AVX-512: 32 registers, no spills -------------------------------------
sub vertical_pass_avx512 {
	my ($w, $done) = @_;	# 'z' (16 lanes) or 'y' (8 lanes, VL)
	my @x = map { "%${w}mm$_" } 0 .. 15;
	my @t = map { "%${w}mm$_" } 16 .. 23;
	my $cv = "%${w}mm30";
	code("\tvpbroadcastd\t$ctr, $cv\n\tvpaddd\tlanes_const(%rip), $cv, $cv\n");
	for my $i (0 .. 15) {
		if ($i == 12) { vmov($cv, $x[12]); next; }
		code("\tvpbroadcastd\t" . (4 * $i) . "($state), $x[$i]\n");
	}
	round_loop('zround', sub { vertical_double_round(\@x, [], undef); });
	my $b = $w eq 'z' ? '{1to16}' : '{1to8}';
	for my $i (0 .. 15) {
		if ($i == 12) { code("\tvpaddd\t$cv, $x[12], $x[12]\n"); next; }
		code("\tvpaddd\t" . (4 * $i) . "($state)$b, $x[$i], $x[$i]\n");
	}
	if ($w eq 'z') {
		transpose_store_z(\@x, \@t, 0, $done, 15);
	} else {
		transpose4(@x[4 * $_ .. 4 * $_ + 3], @t[0, 1]) for 0 .. 3;
		# block 4j + k: 128-bit lane j of x[k], x[4+k] | x[8+k], x[12+k]
		for my $k (0 .. 7) {
			my $imm = $k >= 4 ? 3 : 0;	# 128-bit lane of each source
			my $j = $k % 4;
			code("\tvshufi32x4\t\$$imm, $x[4 + $j], $x[$j], %ymm" . (24 + $k) . "\n");
		}
		for my $k (0 .. 7) {
			my $imm = $k >= 4 ? 3 : 0;
			my $j = $k % 4;
			code("\tvshufi32x4\t\$$imm, $x[12 + $j], $x[8 + $j], %ymm" . (16 + $k) . "\n");
		}
		store_block($_, [['%ymm' . (24 + $_), 0], ['%ymm' . (16 + $_), 32]], undef, $done, $_ < 7)
			for 0 .. 7;
	}
}

# 4x4 transpose of the 128-bit lanes of a..d (into a..d) with four
# temporaries: the result k is lane k of a, b, c, d.
sub lanes_to_blocks {
	my ($a, $b, $c, $d, @t) = @_;
	code("\tvshufi32x4\t\$0x44, $b, $a, $t[0]\n");	# a0 a1 b0 b1
	code("\tvshufi32x4\t\$0xee, $b, $a, $t[1]\n");	# a2 a3 b2 b3
	code("\tvshufi32x4\t\$0x44, $d, $c, $t[2]\n");	# c0 c1 d0 d1
	code("\tvshufi32x4\t\$0xee, $d, $c, $t[3]\n");	# c2 c3 d2 d3
	code("\tvshufi32x4\t\$0x88, $t[2], $t[0], $a\n");	# lanes 0
	code("\tvshufi32x4\t\$0xdd, $t[2], $t[0], $b\n");	# lanes 1
	code("\tvshufi32x4\t\$0x88, $t[3], $t[1], $c\n");	# lanes 2
	code("\tvshufi32x4\t\$0xdd, $t[3], $t[1], $d\n");	# lanes 3
}

# Transposes 16 zmm words (feed-forward done) to blocks $base..$base+15
# and stores them, with an exit after block $base + k if k < $last.
sub transpose_store_z {
	my ($xr, $tr, $base, $done, $last) = @_;
	my @x = @$xr;
	my @t = @$tr;
	transpose4(@x[4 * $_ .. 4 * $_ + 3], @t[0, 1]) for 0 .. 3;
	# block 4j + k: 128-bit lane j of x[k], x[4+k], x[8+k], x[12+k]
	lanes_to_blocks(@x[$_, 4 + $_, 8 + $_, 12 + $_], @t[0 .. 3]) for 0 .. 3;
	store_block($base + $_, [[$x[$_], 0]], undef, $done, $_ < $last) for 0 .. 15;
}

# 32 blocks: two sets of 16 zmm words, so that eight quarter rounds
# interleave (four leave the ALUs waiting on latency here).  Set B's last
# four words go to the stack while set A is transposed.
sub vertical_pass_z2 {
	my ($done) = @_;
	my @a = map { "%zmm$_" } 0 .. 15;
	my @b = map { "%zmm$_" } 16 .. 31;
	code("\tvpbroadcastd\t$ctr, $a[12]\n\tvpaddd\tlanes_const(%rip), $a[12], $a[12]\n");
	code("\tvpaddd\tsixteen_const(%rip){1to16}, $a[12], $b[12]\n");
	for my $i (0 .. 15) {
		next if $i == 12;
		code("\tvpbroadcastd\t" . (4 * $i) . "($state), $a[$i]\n");
		vmov($a[$i], $b[$i]);
	}
	my @col = ([0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]);
	my @diag = ([0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]);
	my $quads = sub { my $x = shift; map { my $q = $_; [map { $x->[$_] } @$q] } @_ };
	round_loop('z2round', sub {
		quarter_rounds([$quads->(\@a, @col), $quads->(\@b, @col)], []);
		quarter_rounds([$quads->(\@a, @diag), $quads->(\@b, @diag)], []);
	});
	vmov($b[12 + $_], (64 * $_) . '(%rsp)') for 0 .. 3;
	my $ff = sub {
		my ($x, $t, $off) = @_;
		for my $i (0 .. 15) {
			next if $i == 12;
			code("\tvpaddd\t" . (4 * $i) . "($state){1to16}, $x->[$i], $x->[$i]\n");
		}
		code("\tvpbroadcastd\t$ctr, $t\n\tvpaddd\tlanes_const(%rip), $t, $t\n");
		code("\tvpaddd\tsixteen_const(%rip){1to16}, $t, $t\n") if $off;
		code("\tvpaddd\t$t, $x->[12], $x->[12]\n");
	};
	$ff->(\@a, $b[12], 0);
	transpose_store_z(\@a, [@b[12 .. 15]], 0, $done, 16);
	vmov((64 * $_) . '(%rsp)', $b[12 + $_]) for 0 .. 3;
	$ff->(\@b, $a[0], 1);
	transpose_store_z(\@b, [@a[0 .. 3]], 16, $done, 15);
}

sub zinc_chacha20_avx512 {
	my $name = 'zinc_chacha20_avx512';
	my ($z2loop, $z2out, $z2done, $z, $y8, $h, $h1, $done) =
		map { label($_) } qw(z2loop z2out z2done z y8 h h1 done);
	function_begin($name);
	code("\tmovl\t48($state), $ctr\n");
	code("\tcmpq\t\$16, $nblk\n\tjbe\t$z\n");
	frame_begin(256, 64);
	code("$z2loop:\n");
	vertical_pass_z2($z2done);
	code("\taddl\t\$32, $ctr\n\taddq\t\$2048, $src\n\taddq\t\$2048, $dst\n");
	code("\tsubq\t\$32, $nblk\n\tcmpq\t\$16, $nblk\n\tja\t$z2loop\n");
	code(cfi_remember_state());
	frame_end(256, '%zmm0');
	code("\ttestq\t$nblk, $nblk\n\tjnz\t$z\n\tjmp\t$done\n");
	code(cfi_restore_state() . "$z2done:\n");
	frame_end(256, '%zmm0');
	code("\tjmp\t$done\n");
	code("$z:\n\tcmpq\t\$8, $nblk\n\tjbe\t$y8\n");
	vertical_pass_avx512('z', $done);
	code("\tjmp\t$done\n");
	code("$y8:\n\tcmpq\t\$4, $nblk\n\tjbe\t$h\n");
	vertical_pass_avx512('y', $done);
	code("\tjmp\t$done\n$h:\n");
	my @init = ('%ymm8', '%ymm9', '%ymm10', ['%ymm11', '%ymm12']);
	code("\tcmpq\t\$2, $nblk\n\tjbe\t$h1\n");
	horizontal_pass('y', 2, ['%ymm14', '%ymm15'], \@init, $done);
	code("\tjmp\t$done\n$h1:\n");
	horizontal_pass('y', 1, ['%ymm14', '%ymm15'], \@init, $done);
	code("$done:\n");
	code(zmm_hi_wipe());
	code("\tvzeroupper\n\tret\n");
	function_end($name);
}

# --- scalar: one block in general-purpose registers -------------------------
#
# Vector integer ops have up to twice the latency of scalar ones on Zen 5,
# and one block's 20 rounds are one long dependency chain: a block in 15
# GPRs plus one word on the stack takes 0.7 times as long as a horizontal
# vector pass.  The quarter-round ops are two-operand and in place, so no
# temporary is needed; the spilled word ($gspill) is used as a memory
# operand (measured: the same time whichever of words 8 and 11..15 it is).
# roll is one cycle already: rorx would not shorten the chain.  The
# pointers live on the stack during the rounds.
my @gpr = qw(%eax %ebx %ecx %edx %esi %edi %ebp %r8d %r9d %r10d %r11d
	     %r12d %r13d %r14d %r15d);
my $gspill = 11;	# word kept on the stack
my $gframe = 128;	# 0 dst, 8 src, 16 nblocks, 24 state, 32 rounds, 36 counter,
			# 64..127 the 16 words (only $gspill during the rounds)
my $gbase = 64;		# the word slots, and
my $grounds = '32(%rsp)';	# the rounds counter (zinc_chacha20_avx512_bytes moves them)
sub gword_slot { return ($gbase + 4 * $_[0]) . '(%rsp)'; }
sub gwords {	# word index -> operand
	my @w;
	my $k = 0;
	for my $i (0 .. 15) { $w[$i] = $i == $gspill ? gword_slot($i) : $gpr[$k++]; }
	return @w;
}
sub g64 { my ($r) = @_; $r =~ s/^%e(..)$/%r$1/ or $r =~ s/d$//; return $r; }

sub gquarter_rounds {
	my ($x, @quads) = @_;
	for my $s ([16, 0, 1, 3], [12, 2, 3, 1], [8, 0, 1, 3], [7, 2, 3, 1]) {
		my ($n, $ia, $ib, $id) = @$s;
		code("\taddl\t$x->[$_->[$ib]], $x->[$_->[$ia]]\n") for @quads;
		code("\txorl\t$x->[$_->[$ia]], $x->[$_->[$id]]\n") for @quads;
		code("\troll\t\$$n, $x->[$_->[$id]]\n") for @quads;
	}
}

sub gdouble_round {
	my ($x) = @_;
	gquarter_rounds($x, [0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]);
	gquarter_rounds($x, [0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]);
}

# Ten double rounds on the words in @$x.
sub gdouble_rounds {
	my ($x) = @_;
	my $loop = label('ground');
	code("\tmovl\t\$10, $grounds\n$loop:\n");
	gdouble_round($x);
	code("\tdecl\t$grounds\n\tjnz\t$loop\n");
}

sub gframe_begin {
	code(push_callee_saved() . stack_alloc($gframe));
}
sub gframe_end {	# wipes the words and the caller-saved registers
	code("\tmovq\t\$0, " . (64 + 8 * $_) . "(%rsp)\n") for 0 .. 7;
	code("\txorl\t$_, $_\n") for qw(%eax %ecx %edx %esi %edi %r8d %r9d %r10d %r11d);
	code(stack_free($gframe) . pop_callee_saved());
}

sub zinc_chacha20_x64_1 {
	my $name = 'zinc_chacha20_x64_1';
	my @x = gwords();
	my $block = label('gblock');
	function_begin($name);
	gframe_begin();
	code("\tmovq\t$dst, 0(%rsp)\n\tmovq\t$src, 8(%rsp)\n\tmovq\t$nblk, 16(%rsp)\n");
	code("\tmovq\t$state, 24(%rsp)\n\tmovl\t48($state), %eax\n\tmovl\t%eax, 36(%rsp)\n");
	code("$block:\n\tmovq\t24(%rsp), %rbp\n");
	code("\tmovl\t" . ($gspill == 12 ? "36(%rsp)" : (4 * $gspill) . "(%rbp)") . ", %eax\n\tmovl\t%eax, $x[$gspill]\n");
	for my $i (0 .. 15) {
		next if $i == $gspill || $x[$i] eq '%ebp';
		my $s = $i == 12 ? '36(%rsp)' : (4 * $i) . '(%rbp)';
		code("\tmovl\t$s, $x[$i]\n");
	}
	my ($bp) = grep { $x[$_] eq '%ebp' } 0 .. 15;
	code("\tmovl\t" . (4 * $bp) . "(%rbp), %ebp\n");
	gdouble_rounds(\@x);
	# Free three registers (the last three register words to their slots)
	# for the pointers.
	my @pw = (grep { $_ != $gspill } 0 .. 15)[12 .. 14];
	code("\tmovl\t$x[$_], " . gword_slot($_) . "\n") for @pw;
	my ($ps, $pi, $po) = map { g64($x[$_]) } @pw;
	code("\tmovq\t24(%rsp), $ps\n\tmovq\t8(%rsp), $pi\n\tmovq\t0(%rsp), $po\n");
	for my $i (0 .. 15) {
		my $r = $x[$i];
		if ($i == $gspill || grep { $_ == $i } @pw) {
			$r = $x[0];	# already stored
			code("\tmovl\t" . gword_slot($i) . ", $r\n");
		}
		my $s = $i == 12 ? '36(%rsp)' : (4 * $i) . "($ps)";
		code("\taddl\t$s, $r\n\txorl\t" . (4 * $i) . "($pi), $r\n\tmovl\t$r, " . (4 * $i) . "($po)\n");
	}
	code("\taddq\t\$64, 0(%rsp)\n\taddq\t\$64, 8(%rsp)\n\tincl\t36(%rsp)\n");
	code("\tdecq\t16(%rsp)\n\tjnz\t$block\n");
	gframe_end();
	code("\tret\n");
	function_end($name);
}

sub zinc_hchacha20_x64 {
	my $name = 'zinc_hchacha20_x64';
	my ($out, $nonce, $key) = ('%rdi', '%rsi', '%rdx');
	my @x = gwords();
	function_begin($name);
	gframe_begin();
	code("\tmovq\t$out, 0(%rsp)\n");
	# sigma, then key and nonce words; %rsi/%rdx are word registers too
	my @sigma = (0x61707865, 0x3320646e, 0x79622d32, 0x6b206574);
	# the words of %esi (nonce pointer), then %edx (key pointer) last
	my %rank = ('%esi' => 1, '%edx' => 2);
	my @order = sort { ($rank{$x[$a]} // 0) <=> ($rank{$x[$b]} // 0) } 0 .. 15;
	my ($dxw) = grep { $x[$_] eq '%edx' } 0 .. 15;
	die "zinc_hchacha20_x64: %edx word needs the nonce" if $dxw >= 12;
	# the spilled word first (through %eax, loaded again below)
	code("\tmovl\t" . ($gspill < 12 ? (4 * ($gspill - 4)) . "($key)" : (4 * ($gspill - 12)) . "($nonce)") .
	     ", %eax\n\tmovl\t%eax, $x[$gspill]\n") if $gspill >= 4;
	for my $i (@order) {
		next if $i == $gspill;
		my $s = $i < 4 ? sprintf('$0x%08x', $sigma[$i]) :
			$i < 12 ? (4 * ($i - 4)) . "($key)" : (4 * ($i - 12)) . "($nonce)";
		code("\tmovl\t$s, $x[$i]\n");
	}
	gdouble_rounds(\@x);
	my $o = g64($x[4]);	# words 4..11 are not output
	code("\tmovq\t0(%rsp), $o\n");
	for my $k (0 .. 7) {
		my $i = $k < 4 ? $k : 8 + $k;
		my $r = $x[$i];
		if ($i == $gspill) { code("\tmovl\t$r, $x[5]\n"); $r = $x[5]; }
		code("\tmovl\t$r, " . (4 * $k) . "($o)\n");
	}
	gframe_end();
	code("\tret\n");
	function_end($name);
}

# --- AVX-512 with byte lengths: chacha20_avx512_bytes ---------------------
#
# The same passes over the data blocks, but stores driven by the byte count
# ($nblk holds the bytes left).  A partial last block is XORed under a byte
# mask (k1) and its whole keystream block goes to $tail.  A key block
# ($first not NULL) runs in the GPRs beside the first pass's vector rounds
# (key_block_loop), and the data starts at state[12] + 1.  The out-of-line
# code (the keyed round loops, the stubs that hand a partial block to the
# shared tail code) collects in @deferred.
my $tail = '%r9';
my $partial_label;
# Frame: 0..255 the zmm slots of vertical_pass_z2, 256.. the registers
# key_block_loop saves, 384..447 its words, 448 its rounds counter.
my $bframe = 512;
my @bsaved = qw(rbx rcx rdx rsi rdi rbp r8 r9 r10 r12 r13 r14 r15);
sub bsaved_offset {
	my ($r) = @_;
	my ($i) = grep { $bsaved[$_] eq $r } 0 .. $#bsaved;
	return 256 + 8 * $i;
}
sub bsaved_slot { return bsaved_offset($_[0]) . '(%rsp)'; }

# Lines of $b spread evenly between the lines of $a.
sub merge_lines {
	my ($a, $b) = @_;
	my @a = split /^/m, $a;
	my @b = split /^/m, $b;
	my ($out, $j) = ('', 0);
	for my $i (0 .. $#a) {
		$out .= $a[$i];
		$out .= $b[$j++] while $j < int(($i + 1) * @b / @a);
	}
	return $out;
}

# The round loop with the key block (counter state[12]) in the GPRs beside
# the vector rounds, which leave those idle while they wait on latency:
# the key block comes almost free.  It goes raw to $first, then $first = 0.
sub key_block_loop {
	my ($body) = @_;
	my @x = gwords();
	code("\tmovq\t%$_, " . bsaved_slot($_) . "\n") for @bsaved;
	# rbp, the frame register, and the callee-saved registers are words
	# now: the unwinder finds them in their slots
	code(cfi_remember_state() . cfi_cfa_from_slot(bsaved_offset('rbp')));
	code(cfi_saved_in_slot($_, bsaved_offset($_))) for qw(rbx r12 r13 r14 r15);
	code("\tmovl\t" . (4 * $gspill) . "($state), %eax\n\tmovl\t%eax, $x[$gspill]\n");
	my ($cw) = grep { $x[$_] eq '%ecx' } 0 .. 15;	# %rcx is $state
	for my $i ((grep { $_ != $gspill && $_ != $cw } 0 .. 15), $cw) {
		code("\tmovl\t" . (4 * $i) . "($state), $x[$i]\n");
	}
	my $loop = label('kround');
	code("\tmovl\t\$10, $grounds\n$loop:\n");
	code(merge_lines(capture($body), capture(sub { gdouble_round(\@x) })));
	code("\tdecl\t$grounds\n\tjnz\t$loop\n");
	# two registers for the pointers; the words there and the spilled one
	# are added through %eax (word 0's register) once word 0 is stored
	my @pw = (grep { $_ != $gspill && $_ > 0 } 0 .. 15)[-2, -1];
	code("\tmovl\t$x[$_], " . gword_slot($_) . "\n") for @pw;
	my ($ps, $pf) = map { g64($x[$_]) } @pw;
	code("\tmovq\t" . bsaved_slot('rcx') . ", $ps\n\tmovq\t" . bsaved_slot('r10') . ", $pf\n");
	for my $i (0 .. 15) {
		my $r = $x[$i];
		if ($i == $gspill || grep { $_ == $i } @pw) {
			$r = '%eax';
			code("\tmovl\t" . gword_slot($i) . ", $r\n");
		}
		code("\taddl\t" . (4 * $i) . "($ps), $r\n\tmovl\t$r, " . (4 * $i) . "($pf)\n");
	}
	code("\tmovq\t" . bsaved_slot($_) . ", %$_\n") for @bsaved;
	code(cfi_restore_state());
	code("\txorl\t%eax, %eax\n\txorl\t%r11d, %r11d\n\txorl\t${first}d, ${first}d\n");
}

sub store_block_bytes {
	my ($k, $parts, undef, $done, $exit) = @_;
	die "bytes mode stores zmm blocks" unless @$parts == 1 && $parts->[0][0] =~ /zmm/;
	my $z = $parts->[0][0];
	my $o = 64 * $k;
	my $part = label('bpart');
	code("\tcmpq\t\$" . ($o + 64) . ", $nblk\n\tjb\t$part\n");
	code("\tvpxord\t$o($src), $z, $z\n\tvmovdqu32\t$z, $o($dst)\n");
	code("\tje\t$done\n") if $exit;
	push @deferred, "$part:\n" . ($z ne '%zmm31' ? "\tvmovdqa64\t$z, %zmm31\n" : '') .
		"\tmovl\t\$$o, %eax\n\tjmp\t$partial_label\n";
}

# Horizontal zmm pass: $ng groups of four blocks (one per 128-bit lane).
sub horizontal_pass_z {
	my ($ng, $done) = @_;
	my @g = map { my $b = 4 * $_; [map { "%zmm" . ($b + $_) } 0 .. 3] } 0 .. $ng - 1;
	my @i = map { "%zmm$_" } 16 .. 20;	# initial rows 0..2, row 3 per group
	code("\tvbroadcasti32x4\t0($state), $i[0]\n\tvbroadcasti32x4\t16($state), $i[1]\n");
	code("\tvbroadcasti32x4\t32($state), $i[2]\n\tvbroadcasti32x4\t48($state), $i[3]\n");
	code("\tmovl\t\$0x1111, %eax\n\tkmovw\t%eax, %k2\n\tvpbroadcastd\t$ctr, $i[3]\{%k2}\n");
	code("\tvpaddd\thzlanes_const(%rip), $i[3], $i[3]\n");
	code("\tvpaddd\thzlanes_const+64(%rip), $i[3], $i[4]\n") if $ng == 2;
	for my $k (0 .. $ng - 1) {
		vmov($i[$_], $g[$k]->[$_]) for 0 .. 2;
		vmov($i[3 + $k], $g[$k]->[3]);
	}
	round_loop('hzround', sub { horizontal_rounds(\@g, []); });
	for my $k (0 .. $ng - 1) {
		vadd($i[$_], $g[$k]->[$_]) for 0 .. 2;
		vadd($i[3 + $k], $g[$k]->[3]);
		lanes_to_blocks(@{$g[$k]}, map { "%zmm$_" } 24 .. 27);
	}
	for my $b (0 .. 4 * $ng - 1) {
		store_block($b, [[$g[int($b / 4)]->[$b % 4], 0]], undef, $done, $b < 4 * $ng - 1);
	}
}

sub zinc_chacha20_avx512_bytes {
	my $name = 'zinc_chacha20_avx512_bytes';
	my ($nofirst, $z2loop, $rest, $h8, $h4, $done, $ret) =
		map { label($_) } qw(nofirst z2loop rest h8 h4 done ret);
	$partial_label = label('partial');
	$bytes_mode = 1;
	@deferred = ();
	function_begin($name);
	my ($gbase0, $grounds0) = ($gbase, $grounds);
	($gbase, $grounds) = (384, '448(%rsp)');
	code("\tmovq\t%r8, $first\n\tmovl\t48($state), $ctr\n");
	code("\ttestq\t$nblk, $nblk\n\tjz\t$ret\n");
	# with a key block, the data starts at the next counter
	code("\ttestq\t$first, $first\n\tjz\t$nofirst\n\tincl\t$ctr\n$nofirst:\n");
	frame_begin($bframe, 64);
	code("\tcmpq\t\$1024, $nblk\n\tjbe\t$rest\n");
	code("$z2loop:\n");
	vertical_pass_z2($done);
	code("\taddl\t\$32, $ctr\n\taddq\t\$2048, $src\n\taddq\t\$2048, $dst\n");
	code("\tsubq\t\$2048, $nblk\n\tcmpq\t\$1024, $nblk\n\tja\t$z2loop\n");
	code("\ttestq\t$nblk, $nblk\n\tjz\t$done\n");
	code("$rest:\n\tcmpq\t\$512, $nblk\n\tjbe\t$h8\n");
	vertical_pass_avx512('z', $done);
	code("\tjmp\t$done\n$h8:\n\tcmpq\t\$256, $nblk\n\tjbe\t$h4\n");
	horizontal_pass_z(2, $done);
	code("\tjmp\t$done\n$h4:\n");
	horizontal_pass_z(1, $done);
	code("$done:\n" . cfi_remember_state());
	frame_end($bframe, '%zmm0');
	code(zmm_hi_wipe());
	code("\tvzeroupper\n$ret:\n\tret\n");
	# out of line, inside the frame: the partial last block (keystream in
	# zmm31, its offset in %rax), then @deferred
	code(cfi_restore_state() . "$partial_label:\n\tvmovdqu64\t%zmm31, ($tail)\n");
	code("\tmovq\t$nblk, %rcx\n\tsubq\t%rax, %rcx\n\tmovl\t\$1, %r11d\n\tshlq\t%cl, %r11\n");
	code("\tdecq\t%r11\n\tkmovq\t%r11, %k1\n\tvmovdqu8\t($src,%rax), %zmm30{%k1}{z}\n");
	code("\tvpxord\t%zmm31, %zmm30, %zmm30\n\tvmovdqu8\t%zmm30, ($dst,%rax){%k1}\n\tjmp\t$done\n");
	code($_) for @deferred;
	$bytes_mode = 0;
	($gbase, $grounds) = ($gbase0, $grounds0);
	function_end($name);
}

# void zinc_chacha20_xor_partial_avx512(uint8_t *dst, const uint8_t *src,
#                                       const uint8_t ks[64], size_t len);
# dst = src ^ ks for len < 64 bytes, through a byte mask (AVX-512BW): for a
# lone partial block whose keystream the scalar code made (faster than a
# vector pass here), without a byte loop and without touching past len.
sub zinc_chacha20_xor_partial_avx512 {
	my $name = 'zinc_chacha20_xor_partial_avx512';
	my ($d, $s, $ks, $len) = ('%rdi', '%rsi', '%rdx', '%rcx');
	function_begin($name);
	code(<<___);
	movl	\$1, %eax
	shlq	%cl, %rax
	decq	%rax
	kmovq	%rax, %k1
	vmovdqu8	($s), %zmm0{%k1}{z}
	vpxord	($ks), %zmm0, %zmm0
	vmovdqu8	%zmm0, ($d){%k1}
	vpxord	%xmm0, %xmm0, %xmm0
	vzeroupper
	ret
___
	function_end($name);
}

$isa = 'avx512';
zinc_chacha20_avx512();
zinc_chacha20_avx512_bytes();
zinc_chacha20_xor_partial_avx512();
$isa = 'avx2';
chacha20_16regs('zinc_chacha20_avx2', 'y', 4);
$isa = 'sse';
chacha20_16regs('zinc_chacha20_ssse3', 'x', 1);
zinc_chacha20_x64_1();
zinc_hchacha20_x64();
rodata();

asm_close($file);
