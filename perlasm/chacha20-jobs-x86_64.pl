#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# chacha20_jobs() for x86_64 (provider/crypto/chacha20-x86_64-glue.c):
# one 64-byte ChaCha20 block per job, each job from a stream of its own
# (its own key pointer and state words 12..15), a job per 32-bit lane.
#
#   void zinc_chacha20_jobs_avx512(const struct chacha20_job *jobs, size_t n);
#   void zinc_chacha20_jobs_avx512vl(const struct chacha20_job *jobs, size_t n);
#   void zinc_chacha20_jobs_avx2(const struct chacha20_job *jobs, size_t n);
#   void zinc_chacha20_jobs_ssse3(const struct chacha20_job *jobs, size_t n);
#
# Any n (0 does nothing).  struct chacha20_job (include/zinc/chacha20.h) is
# read at the offsets below, which the glue checks at compile time.  Each
# job XORs len bytes (1..64) of its keystream block into src, writing dst;
# not a byte past dst + len is written nor past src + len read (len 0
# touches nothing, more than 64 counts as 64).  Lengths and pointers are
# public: only they steer branches.
#
# Word-sliced: register i holds state word i of every lane.  The lanes'
# blocks are loaded a job per register (key words, then words 12..15, in
# one register: key in 128-bit lanes 0..1, counter and nonce in lane 2)
# and transposed into words; after the rounds, transposed back into blocks.
# A pass short of jobs loads job 0 again into the missing lanes (no read
# past jobs[n - 1]) and stores only its own.
#
#   jobs_avx512   n >= 17: passes of 32 lanes (two sets of 16 zmm words,
#                 their quarter rounds interleaved: one set alone waits on
#                 latency); 1..16 left: one set.  Each job's bytes are
#                 XORed under a byte mask from len (AVX-512 BW).
#   jobs_avx2     passes of 8 lanes (ymm), jobs_ssse3 of 4 (xmm, the same
#                 code in two-operand forms); two of the words 8..11 live
#                 on the stack in turn, as 16 registers cannot hold 16
#                 words and the shift rotations' temporaries.  The
#                 keystream blocks go to the stack, and each job XORs len
#                 bytes from there: whole blocks a register at a time, a
#                 partial one by the bits of len (32, 16, 8, 4, 2, 1).
#   jobs_avx512vl the AVX2 code with vprold and words 10, 11 in ymm16,
#                 ymm17 (AVX-512 F and VL): for up to 8 jobs beside
#                 jobs_avx512, and on AVX-512 without BW.
#
# Loading the lanes (AVX-512, 16 jobs): two loads per job and a 16x16
# transpose (64 shuffles) make a 16-job pass take 235 ns; gathers instead
# (vpgatherdq of the key pointers, then vpgatherqd of each key word and
# vpgatherdd of each of words 12..15: 22 gathers) 272 ns.
#
# Nanoseconds per job, len 64, one key shared (AMD EPYC Zen 5, 2 vCPUs
# shared with other work; medians of 5 runs of medians of 11 x 20000
# calls, 2026-12-04):
#
#   jobs per call       1      8     16     17     32     64
#   jobs_avx512       212   28.5   14.5   22.6   12.7   12.5
#   jobs_avx512vl     128   16.8   16.5   22.8   16.4   16.3
#   jobs_avx2         157   20.1   19.8   27.4   19.5   19.4
#   jobs_ssse3        156   38.7   38.2   44.6   37.9   37.9
#   chacha20_jobs()   131   17.1   14.6   21.4   12.8   12.5  AVX-512 path
#   portable C        227   83.9   83.9   92.2   84.2   84.9  ZINC_CPU=none
#
# chacha20_jobs() on the AVX-512 path leaves up to 8 jobs past whole
# 16-lane passes to jobs_avx512vl (the glue).  For scale: one stream's blocks
# take 11.2 ns each in chacha20_avx512's 32-block passes and 19 in
# chacha20_avx2's (chacha20-x86_64.pl); the portable C took 120 ns a job
# one block at a time.  Two sets side by side gain little here (12.7
# against 14.5 ns a job): one set waits on latency, two on throughput.
# A pass of 4 (SSSE3) or 8 (AVX2) lanes takes 157 ns, of 8 ymm lanes with
# vprold 128, against 212 for 16 zmm lanes, with the same chain of
# dependent operations: xmm and ymm ones have the shorter latency, we take
# it (no performance counters here).
use strict;
use warnings;
use zinc_x86_64;

my $flavour = $ARGV[0] // '';
my $file = asm_open(@ARGV);

# --- register map ----------------------------------------------------------
my ($jobs, $n) = ('%rdi', '%rsi');	# the arguments; advanced per pass
my $m = '%rdx';				# jobs in this pass (1..lanes)
my ($jp, $kp) = ('%r8', '%r9');		# a job, its key
my ($jp2, $kp2) = ('%r10', '%r11');	# a second one (AVX2 loads two per register)
my ($src, $dst, $len) = ('%r9', '%r10', '%rcx');	# a job's, when storing
my $mask = '%rax';			# its byte mask (AVX-512), offset in the block (AVX2)
my $tmp = '%r11';			# the mask's upper part; data bytes (AVX2)
my $ks = '%r8';				# AVX2: the block's keystream on the stack
my $rounds = '%r11d';
# struct chacha20_job
my ($J_KEY, $J_SRC, $J_DST, $J_IV, $J_LEN, $J_SIZE) = (0, 8, 16, 24, 40, 48);
my @sigma = (0x61707865, 0x3320646e, 0x79622d32, 0x6b206574);

my $isa;	# 'avx512', 'avx2' or 'sse' (SSSE3)
my $lbl = 0;
sub label { return '.Ljobs_' . $_[0] . '_' . $lbl++; }

# --- vector instructions: AT&T order, dst last -------------------------------
# d = s1 op s2; SSE has d = d op s2 only: s1 copied first (d must not be s2).
sub op3 {
	my ($op, $s2, $s1, $d) = @_;
	if ($isa ne 'sse') {
		code("\tv$op\t$s2, $s1, $d\n");
		return;
	}
	die "op3 $op: $d is also the second source" if $d eq $s2 && $s1 ne $d;
	code("\tmovdqa\t$s1, $d\n") if $s1 ne $d;
	code("\t$op\t$s2, $d\n");
}
sub vadd { op3('paddd', $_[0], $_[1], $_[1]); }
sub vxor { op3($isa eq 'avx512' ? 'pxord' : 'pxor', $_[0], $_[1], $_[1]); }
sub vmov {
	my ($s, $d) = @_;
	code($isa eq 'avx512' ? "\tvmovdqa32\t$s, $d\n" : $isa eq 'avx2' ? "\tvmovdqa\t$s, $d\n" :
	     "\tmovdqa\t$s, $d\n");
}
sub vrol {
	my ($x, $r, $t) = @_;
	if ($isa eq 'avx512') {
		code("\tvprold\t\$$r, $x, $x\n");
	} elsif ($r % 8 == 0) {
		op3('pshufb', "jobs_rol${r}(%rip)", $x, $x);
	} else {
		op3('pslld', "\$$r", $x, $t);
		op3('psrld', '$' . (32 - $r), $x, $x);
		op3('por', $t, $x, $x);
	}
}

# One quarter round on every [a, b, c, d] of @$quads, step by step across
# the quads so that their dependency chains run side by side; the shift
# rotations take temporaries from @$t in turn.
sub quarter_round {
	my ($quads, $t) = @_;
	$t //= [];
	for my $step ([0, 1, 3, 16], [2, 3, 1, 12], [0, 1, 3, 8], [2, 3, 1, 7]) {
		my ($x, $y, $z, $r) = @$step;		# x += y; z ^= x; z <<<= r
		vadd($_->[$y], $_->[$x]) for @$quads;
		vxor($_->[$x], $_->[$z]) for @$quads;
		vrol($quads->[$_][$z], $r, @$t ? $t->[$_ % @$t] : undef) for 0 .. $#$quads;
	}
}
my @columns = ([0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]);
my @diagonals = ([0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]);
sub quads { my ($x, @q) = @_; return map { [@$x[@$_]] } @q; }

sub round_loop {
	my ($body) = @_;
	my $loop = label('round');
	code("\tmovl\t\$10, $rounds\n$loop:\n");
	$body->();
	code("\tdecl\t$rounds\n\tjnz\t$loop\n");
}

# A 4x4 transpose of a..d, in place, with two temporaries, in two stages of
# "interleave the low (high) halves of two registers": of dword pairs then
# qword pairs within each 128-bit lane (transpose4: element e of result k
# is element k of input e), or of 128-bit lanes then lane pairs
# (transpose_lanes: the same for whole 128-bit lanes of zmm registers).
sub transpose_stages {
	my ($ops, $a, $b, $c, $d, $t0, $t1) = @_;
	my ($lo1, $hi1, $lo2, $hi2) = @$ops;
	op3($lo1, $b, $a, $t0);		# a0 b0 a1 b1
	op3($hi1, $b, $a, $t1);		# a2 b2 a3 b3
	op3($lo1, $d, $c, $a);		# c0 d0 c1 d1
	op3($hi1, $d, $c, $b);		# c2 d2 c3 d3
	op3($lo2, $b, $t1, $c);		# a2 b2 c2 d2
	op3($hi2, $b, $t1, $d);		# a3 b3 c3 d3
	op3($hi2, $a, $t0, $b);		# a1 b1 c1 d1
	if ($isa eq 'sse') {		# a0 b0 c0 d0, through t0
		op3($lo2, $a, $t0, $t0);
		vmov($t0, $a);
	} else {
		op3($lo2, $a, $t0, $a);
	}
}
sub transpose4 { transpose_stages([qw(punpckldq punpckhdq punpcklqdq punpckhqdq)], @_); }
sub transpose_lanes {
	transpose_stages([map { "shufi32x4\t\$$_," } qw(0x44 0xee 0x88 0xdd)], @_);
}

# 16x16 transpose of dwords in 16 zmm registers, in place: element e of
# register r goes to element r of register e.
sub transpose16 {
	my ($r, $t0, $t1) = @_;
	transpose4(@$r[4 * $_ .. 4 * $_ + 3], $t0, $t1) for 0 .. 3;
	transpose_lanes(@$r[$_, 4 + $_, 8 + $_, 12 + $_], $t0, $t1) for 0 .. 3;
}

# $jp = job $j of the pass, or job 0 if the pass has no job $j.
sub job_pointer {
	my ($j, $reg) = @_;
	code("\tleaq\t" . ($J_SIZE * $j) . "($jobs), $reg\n");
	code("\tcmpq\t\$$j, $m\n\tcmovbeq\t$jobs, $reg\n") if $j > 0;
}

# Slots of 64 bytes in the AVX-512 frame.
sub slot { return (64 * $_[0]) . '(%rsp)'; }

# --- AVX-512: 16 jobs per set of zmm words ---------------------------------
#
# Jobs $base..$base+15 of the pass into @$x (word-sliced), through the 16
# registers @$r (a job each, transposed into words): elements 0..7 the key,
# 8..11 words 12..15, so $r->[e] becomes word e + 4 and the last four the
# constants.
sub load_set_z {
	my ($x, $r, $base, $t0, $t1) = @_;
	for my $j (0 .. 15) {
		(my $ry = $r->[$j]) =~ s/zmm/ymm/;
		job_pointer($base + $j, $jp);
		code("\tmovq\t$J_KEY($jp), $kp\n\tvmovdqu32\t($kp), $ry\n");
		code("\tvinserti32x4\t\$2, $J_IV($jp), $r->[$j], $r->[$j]\n");
	}
	transpose16($r, $t0, $t1);
}
sub sigma_z {
	my ($x) = @_;
	code("\tvpbroadcastd\tjobs_sigma+" . (4 * $_) . "(%rip), $x->[$_]\n") for 0 .. 3;
}
# The word registers of a set in its job registers: word i in $r[(i - 4) % 16].
sub words_of { my ($r) = @_; return [@$r[12 .. 15], @$r[0 .. 11]]; }

# XOR each job's block (its register in @$r, in job order after the
# transpose back) into its src, writing dst: len bytes under a byte mask.
# Jobs from $base of the pass; stop after the pass's last.
sub store_set_z {
	my ($r, $base, $t, $done) = @_;
	for my $j (0 .. 15) {
		my $k = $base + $j;
		code("\tcmpq\t\$$k, $m\n\tjbe\t$done\n") if $k > 0;
		my $o = $J_SIZE * $k;
		code("\tmovq\t" . ($o + $J_SRC) . "($jobs), $src\n\tmovq\t" . ($o + $J_DST) .
		     "($jobs), $dst\n\tmovq\t" . ($o + $J_LEN) . "($jobs), $len\n");
		byte_mask();
		code("\tkmovq\t$mask, %k1\n\tvmovdqu8\t($src), $t\{%k1}{z}\n");
		code("\tvpxord\t$t, $r->[$j], $t\n\tvmovdqu8\t$t, ($dst){%k1}\n");
	}
}

# $mask = the low len bits set: 0 for 0, all of them from 64 on (no BMI2;
# shlq counts by %cl, so len lives in %rcx).
sub byte_mask {
	die "byte_mask: len in %rcx, mask in %rax" unless $len eq '%rcx' && $mask eq '%rax';
	code("\tmovl\t\$1, %eax\n\tshlq\t%cl, $mask\n\tdecq\t$mask\n");
	code("\tcmpq\t\$64, $len\n\tcmc\n\tsbbq\t$tmp, $tmp\n\torq\t$tmp, $mask\n");
}

# Words 0..3 from the constants, 4..15 from @$init (registers or slots).
sub feed_forward_z {
	my ($x, $init) = @_;
	code("\tvpaddd\tjobs_sigma+" . (4 * $_) . "(%rip){1to16}, $x->[$_], $x->[$_]\n") for 0 .. 3;
	vadd($init->[$_ - 4], $x->[$_]) for 4 .. 15;
}

# Up to 16 jobs: the initial words 4..15 stay in zmm16..27.
sub pass_z16 {
	my ($done) = @_;
	my @r = map { "%zmm$_" } 0 .. 15;
	my $x = words_of(\@r);
	my @init = map { "%zmm$_" } 16 .. 27;
	load_set_z($x, \@r, 0, '%zmm28', '%zmm29');
	sigma_z($x);
	vmov($x->[4 + $_], $init[$_]) for 0 .. 11;
	round_loop(sub {
		quarter_round([quads($x, @columns)]);
		quarter_round([quads($x, @diagonals)]);
	});
	feed_forward_z($x, \@init);
	transpose16($x, '%zmm28', '%zmm29');
	store_set_z($x, 0, '%zmm30', $done);
}

# 17..32 jobs: two sets, A in zmm0..15 and B in zmm16..31, side by side.
# Frame: slots 0..11 A's initial words 4..15, 12..23 B's; while A is
# stored, B's words 4..15 wait in slots 0..11 and 0..3 in 24..27.
my $z32_slots = 28;
sub pass_z32 {
	my ($done) = @_;
	my @ra = map { "%zmm$_" } 0 .. 15;
	my @rb = map { "%zmm$_" } 16 .. 31;
	my ($xa, $xb) = (words_of(\@ra), words_of(\@rb));
	# B first, through A's registers, then moved; A then transposes with
	# two of B's constant registers, set after.
	load_set_z($xa, \@ra, 16, '%zmm16', '%zmm17');
	for my $i (4 .. 15) { vmov($xa->[$i], slot(12 + $i - 4)); vmov($xa->[$i], $xb->[$i]); }
	load_set_z($xa, \@ra, 0, $xb->[0], $xb->[1]);
	vmov($xa->[$_], slot($_ - 4)) for 4 .. 15;
	sigma_z($xa);
	sigma_z($xb);
	round_loop(sub {
		quarter_round([quads($xa, @columns), quads($xb, @columns)]);
		quarter_round([quads($xa, @diagonals), quads($xb, @diagonals)]);
	});
	# B waits in the slots A's initial words leave, and its feed-forward
	# runs in A's registers (test_ct_ptrace's capstone misreads an EVEX
	# memory operand beside a source register above zmm15 as an index)
	feed_forward_z($xa, [map { slot($_) } 0 .. 11]);
	my @wait = map { slot($_ < 4 ? 24 + $_ : $_ - 4) } 0 .. 15;
	vmov($xb->[$_], $wait[$_]) for 0 .. 15;
	transpose16($xa, '%zmm16', '%zmm17');
	store_set_z($xa, 0, '%zmm18', $done);
	vmov($wait[$_], $xa->[$_]) for 0 .. 15;
	feed_forward_z($xa, [map { slot($_) } 12 .. 23]);
	transpose16($xa, '%zmm16', '%zmm17');
	store_set_z($xa, 16, '%zmm18', $done);
}

sub wipe_slots {
	my ($count, $zero) = @_;
	vxor($zero, $zero);
	vmov($zero, slot($_)) for 0 .. $count - 1;
}

sub jobs_avx512 {
	my $name = 'zinc_chacha20_jobs_avx512';
	my ($loop32, $next32, $last16, $done16, $ret) = map { label($_) } qw(loop32 next32 last16 done16 ret);
	$isa = 'avx512';
	function_begin($name);
	code("\ttestq\t$n, $n\n\tjz\t$ret\n");
	code(realigned_frame_begin(64 * $z32_slots, 64));
	code("\tcmpq\t\$16, $n\n\tjbe\t$last16\n");
	code("$loop32:\n\tmovl\t\$32, %edx\n\tcmpq\t\$32, $n\n\tcmovbq\t$n, $m\n");
	pass_z32($next32);
	code("$next32:\n\taddq\t\$" . (32 * $J_SIZE) . ", $jobs\n\tsubq\t$m, $n\n");
	code("\tcmpq\t\$16, $n\n\tja\t$loop32\n\ttestq\t$n, $n\n\tjz\t$done16\n");
	code("$last16:\n\tmovq\t$n, $m\n");
	pass_z16($done16);
	code("$done16:\n");
	wipe_slots($z32_slots, '%zmm0');
	code(realigned_frame_end());
	code(zmm_hi_wipe() . "\tvzeroall\n$ret:\n\tret\n");
	function_end($name);
}

# --- AVX2, AVX-512VL and SSSE3: 8 or 4 jobs per pass, 16 registers ----------
#
# Registers: words 0..7 in 0..7, 12..15 in 8..11, 8 and 10 share 12, 9 and
# 11 share 13 (AVX-512VL: 10 and 11 in ymm16, ymm17); 14 and 15
# temporaries.  Frame (slots of a register's width): 0..11 the initial
# words 4..15, 12..15 words 8..11 while out of their register (AVX-512VL:
# 10 and 11 after the rounds), then the keystream blocks (64 bytes a job).
my (@y, @yx, @yt, $yw);		# the registers, words, temporaries; slot width
sub set_width {
	($yw) = @_;		# 32 (ymm) or 16 (xmm)
	my $k = $yw == 32 ? 'y' : 'x';
	@y = map { "%${k}mm$_" } 0 .. 15;
	@yx = (@y[0 .. 7], @y[12, 13, 12, 13], @y[8 .. 11]);
	@yx[10, 11] = ('%ymm16', '%ymm17') if $isa eq 'avx512';	# VL: 32 registers
	@yt = @y[14, 15];
}
sub yslot { return ($yw * $_[0]) . '(%rsp)'; }
sub yspill { return yslot(12 + $_[0]); }	# words 8..11: slots 12..15
sub yks { return 16 * $yw + $_[0]; }		# byte $_[0] of the keystream blocks
sub lanes { return $yw / 4; }
sub frame_16regs { return yks(64 * lanes()); }
sub movu { return $isa eq 'sse' ? 'movdqu' : 'vmovdqu'; }

# Job j's key in register j (words 4..7) and 4+j (8..11), its words 12..15
# in 8+j (AVX2: job 4+j's in the upper halves).  Then transposed into words.
sub load_16regs {
	for my $j (0 .. 3) {
		(my $lo = $y[$j]) =~ s/ymm/xmm/;
		(my $hi = $y[4 + $j]) =~ s/ymm/xmm/;
		(my $iv = $y[8 + $j]) =~ s/ymm/xmm/;
		job_pointer($j, $jp);
		code("\tmovq\t$J_KEY($jp), $kp\n");
		code("\t" . movu() . "\t($kp), $lo\n\t" . movu() . "\t16($kp), $hi\n");
		code("\t" . movu() . "\t$J_IV($jp), $iv\n");
		next if $isa eq 'sse';
		job_pointer($j + 4, $jp2);
		code("\tmovq\t$J_KEY($jp2), $kp2\n");
		code("\tvinserti128\t\$1, ($kp2), $y[$j], $y[$j]\n");
		code("\tvinserti128\t\$1, 16($kp2), $y[4 + $j], $y[4 + $j]\n");
		code("\tvinserti128\t\$1, $J_IV($jp2), $y[8 + $j], $y[8 + $j]\n");
	}
	transpose4(@y[4 * $_ .. 4 * $_ + 3], @yt) for 0 .. 2;
	# registers 0..3: words 4..7, 4..7: 8..11, 8..11: 12..15
	vmov($y[$_], yslot($_)) for 0 .. 11;
	vmov($y[4 + $_], $isa eq 'avx512' ? $yx[8 + $_] : yspill($_)) for 2, 3;
	vmov($y[4], $y[12]);	# word 8
	vmov($y[5], $y[13]);	# word 9
	vmov($y[$_], $y[4 + $_]) for 0 .. 3;
	vmov("jobs_sigma_rows+" . (32 * $_) . "(%rip)", $y[$_]) for 0 .. 3;
}

# Two quads in the registers at a time: words 10 and 11 take the places of
# 8 and 9 between the two halves of the column round and back after the
# first half of the diagonal round.
sub double_round_16regs {
	if ($isa eq 'avx512') {
		quarter_round([quads(\@yx, @columns)]);
		quarter_round([quads(\@yx, @diagonals)]);
		return;
	}
	quarter_round([quads(\@yx, @columns[0, 1])], \@yt);
	vmov($yx[8], yspill(0)); vmov($yx[9], yspill(1));
	vmov(yspill(2), $yx[10]); vmov(yspill(3), $yx[11]);
	quarter_round([quads(\@yx, @columns[2, 3])], \@yt);
	quarter_round([quads(\@yx, @diagonals[0, 1])], \@yt);
	vmov($yx[10], yspill(2)); vmov($yx[11], yspill(3));
	vmov(yspill(0), $yx[8]); vmov(yspill(1), $yx[9]);
	quarter_round([quads(\@yx, @diagonals[2, 3])], \@yt);
}

# Keystream words 8h..8h+7 (in @$w) of the pass's blocks to the frame.
sub store_keystream {
	my ($w, $h) = @_;
	transpose4(@$w[0 .. 3], @yt);
	transpose4(@$w[4 .. 7], @yt);
	for my $k (0 .. 3) {
		if ($isa eq 'sse') {	# block k: words 8h.. in w[k], 8h+4.. in w[4+k]
			vmov($w->[$k], yks(64 * $k + 32 * $h) . '(%rsp)');
			vmov($w->[4 + $k], yks(64 * $k + 32 * $h + 16) . '(%rsp)');
			next;
		}
		code("\tvperm2i128\t\$0x20, $w->[4 + $k], $w->[$k], $yt[0]\n");
		code("\tvperm2i128\t\$0x31, $w->[4 + $k], $w->[$k], $yt[1]\n");
		vmov($yt[0], yks(64 * $k + 32 * $h) . '(%rsp)');
		vmov($yt[1], yks(64 * ($k + 4) + 32 * $h) . '(%rsp)');
	}
}

# $bytes (a multiple of 16) of src ^ keystream to dst, from offset $off.
sub xor_vector {
	my ($bytes, $off) = @_;
	my $step = $bytes < $yw ? 16 : $yw;
	my $t = $yt[0];
	$t =~ s/ymm/xmm/ if $step == 16;
	for (my $o = 0; $o < $bytes; $o += $step) {
		code("\t" . movu() . "\t$o($src$off), $t\n");
		op3('pxor', "$o($ks$off)", $t, $t);
		code("\t" . movu() . "\t$t, $o($dst$off)\n");
	}
}

# Each job of the pass: len bytes of its block from the frame; $jobs
# advances past the pass's jobs.
sub store_16regs {
	my ($loop, $part, $next, $b16, $b8, $b4, $b2, $b1) =
		map { label($_) } qw(store part next b16 b8 b4 b2 b1);
	code("\tleaq\t" . yks(0) . "(%rsp), $ks\n");
	code("$loop:\n\tmovq\t$J_SRC($jobs), $src\n\tmovq\t$J_DST($jobs), $dst\n");
	code("\tmovq\t$J_LEN($jobs), $len\n\tcmpq\t\$64, $len\n\tjb\t$part\n");
	xor_vector(64, '');
	code("\tjmp\t$next\n$part:\n\txorl\t%eax, %eax\n");
	# by the bits of len: 32, 16, 8, 4, 2, 1 bytes at offset %rax
	(my $t32 = $tmp) =~ s/$/d/;
	(my $t16 = $tmp) =~ s/$/w/;
	(my $t8 = $tmp) =~ s/$/b/;
	my @steps = ([32, $b16], [16, $b8], [8, $b4, 'movq', $tmp], [4, $b2, 'movl', $t32],
		     [2, $b1, 'movw', $t16], [1, $next, 'movb', $t8]);
	for my $s (@steps) {
		my ($bytes, $skip, $mov, $t) = @$s;
		code("\ttestq\t\$$bytes, $len\n\tjz\t$skip\n");
		if ($bytes >= 16) {
			xor_vector($bytes, ',%rax');
		} else {
			(my $xor = $mov) =~ s/^mov/xor/;
			code("\t$mov\t($src,%rax), $t\n\t$xor\t($ks,%rax), $t\n\t$mov\t$t, ($dst,%rax)\n");
		}
		code("\taddq\t\$$bytes, %rax\n") if $bytes > 1;
		code("$skip:\n");
	}
	code("\taddq\t\$64, $ks\n\taddq\t\$$J_SIZE, $jobs\n\tdecq\t$m\n\tjnz\t$loop\n");
}

sub jobs_16regs {
	my ($name, $width) = @_;
	my ($loop, $ret) = map { label($_) } qw(loop ret);
	set_width($width);
	my $lanes = lanes();
	function_begin($name);
	code("\ttestq\t$n, $n\n\tjz\t$ret\n");
	code(realigned_frame_begin(frame_16regs(), $yw));
	code("$loop:\n\tmovl\t\$$lanes, %edx\n\tcmpq\t\$$lanes, $n\n\tcmovbq\t$n, $m\n");
	code("\tsubq\t$m, $n\n");
	load_16regs();
	round_loop(\&double_round_16regs);
	vmov($yx[10], yspill(2)) if $isa eq 'avx512';
	vmov($yx[11], yspill(3)) if $isa eq 'avx512';
	vadd("jobs_sigma_rows+" . (32 * $_) . "(%rip)", $y[$_]) for 0 .. 3;
	vadd(yslot($_ - 4), $yx[$_]) for 4 .. 9, 12 .. 15;
	store_keystream([@y[0 .. 7]], 0);
	# words 10 and 11 from their slots: the second half of the keystream
	vmov(yspill(2), $y[2]);
	vmov(yspill(3), $y[3]);
	vmov($y[12], $y[0]);
	vmov($y[13], $y[1]);
	vadd(yslot(6), $y[2]);
	vadd(yslot(7), $y[3]);
	store_keystream([@y[0 .. 3], @y[8 .. 11]], 1);
	store_16regs();
	code("\ttestq\t$n, $n\n\tjnz\t$loop\n");
	vxor($y[0], $y[0]);
	vmov($y[0], yslot($_)) for 0 .. frame_16regs() / $yw - 1;
	code(realigned_frame_end());
	if ($isa eq 'sse') {
		vxor($_, $_) for @y;
	} else {
		vxor($_, $_) for grep { /mm1[67]/ } @yx;
		code("\tvzeroall\n");
	}
	code("$ret:\n\tret\n");
	function_end($name);
}

sub rodata {
	code($flavour eq 'macosx' ? ".section\t__TEXT,__const\n" : ".section\t.rodata\n");
	my $rot = sub {	# pshufb indices rotating each dword left by $r bits
		my ($r) = @_;
		my @b = map { my $w = $_; map { 4 * $w + ($_ - $r / 8) % 4 } 0 .. 3 } 0 .. 3;
		return "\t.byte\t" . join(',', @b, @b) . "\n";
	};
	code(".p2align\t5\njobs_rol16:\n" . $rot->(16) . "jobs_rol8:\n" . $rot->(8));
	code("jobs_sigma_rows:\n");	# rows of 32 bytes: each word in 8 lanes
	code("\t.long\t" . join(',', (sprintf('0x%08x', $_)) x 8) . "\n") for @sigma;
	code("jobs_sigma:\n\t.long\t" . join(',', map { sprintf('0x%08x', $_) } @sigma) . "\n");
	code(".text\n");
}

jobs_avx512();
jobs_16regs('zinc_chacha20_jobs_avx512vl', 32);
$isa = 'avx2';
jobs_16regs('zinc_chacha20_jobs_avx2', 32);
$isa = 'sse';
jobs_16regs('zinc_chacha20_jobs_ssse3', 16);
rodata();
asm_close($file);
