#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# BLAKE2s compression for x86_64 (provider/crypto/blake2s-x86_64-glue.c).
#
#   void zinc_blake2s_compress_ssse3(struct blake2s_state *state, const uint8_t *block,
#                                    size_t nblocks, uint32_t inc);
#   void zinc_blake2s_compress_avx512vl(...);   same arguments
#   void zinc_blake2s_compress_bmi2(...);       same arguments
#
# Each compresses nblocks (>= 1) consecutive 64-byte blocks: before each it
# adds inc to the 64-bit counter t (state->t[0] low, t[1] high), it uses the
# flags f as they are, and it leaves h and t updated in *state.
#
# Paths:
#   ssse3      one row of four words per xmm register (a = v0..3, b = v4..7,
#              c = v8..11, d = v12..15), the four G of a column or diagonal
#              step at once; pshufb rotates by 16 and 8, shift/shift/or by 12
#              and 7.  Rows a, c and d (not b, which the step finishes last)
#              are turned by pshufd for the diagonal step, so the turns run
#              beside the dependency chain.  The message words of all ten
#              rounds are put in schedule order on the stack at the start of
#              each block by scalar moves (SSSE3 has no dword insert).
#   avx512vl   the same rows with vprord, the 16 message words in two ymm
#              registers and each round's four message vectors picked by two
#              vpermi2d (indices in .rodata) and two extracts, all of which
#              depend only on the block and run ahead of the rounds.
#   bmi2       scalar: 14 words in general-purpose registers, two (v10,
#              v11) memory operands on the stack, message words memory
#              operands on the input itself, rorx rotates.
#
# One block is one dependency chain of 10 rounds x 4 half-G x 6 ops (add,
# xor, rotate, add, xor, rotate): nothing in it can run in parallel but the
# four G of a step.  Zen 5 here takes 2 cycles for a vector add, xor or
# rotate and 1 for a scalar one, so the vector paths need about twice the
# time of a scalar path per block (and SSSE3's two-step rotates add more).
#
# Cycles per byte of blake2s() (init, update, final) on a warm 16 KB buffer
# (256 blocks) and on 64 bytes (one block plus the C around it), AMD EPYC
# Zen 5, 2 vCPUs shared with other jobs.  No perf counters: each figure is
# the best of 200 short timings times the clock, measured in the same run by
# a chain of 2*10^5 dependent scalar adds (1 cycle each; about 3.7 GHz, not
# the nominal 2.1 of /proc/cpuinfo); the median of 7 such figures, and of
# that the median over 5 processes (9 for bmi2):
#
#   path                  16 KB    64 B
#   portable C (gcc -O2)  5.07     5.61
#   ssse3                 9.50    10.68
#   avx512vl              7.60     8.43
#   bmi2                  4.02     4.93
#   (OpenSSL 3.0.19 default, EVP: 4.84 cpb at 16 KB)
#
# The vector figures are what the chain predicts: 240 ops x 2 cycles = 480
# cycles a block with vprord (487 measured), more with SSSE3's two-step
# rotates.  The scalar chain is 240 cycles (3.75 cpb), but a block is also
# 1120 scalar ALU ops (28 a half step) and this CPU sustains about 4.5 of
# them a cycle on such code (six independent add chains reach 4.7): the ten
# rounds alone, looped in registers, take ~250 cycles, ~244 without the
# message adds, and the bmi2 path takes 257 a block (270, 4.22 cpb, when
# it copied the block to the stack and ran the quads step by step: see the
# scalar path below).  So on this CPU only the scalar path beats the
# portable C and the glue prefers it wherever BMI2 is; the row paths serve
# CPUs without BMI2 (where vector ops typically take 1 cycle) and are
# tested here under ZINC_CPU masks without bmi2.
use strict;
use warnings;
use zinc_x86_64;

my $flavour = $ARGV[0] // '';
my $file = asm_open(@ARGV);

# System V arguments.
my ($state, $block, $nblk, $inc) = ('%rdi', '%rsi', '%rdx', '%rcx');

# Row paths (ssse3, avx512vl): xmm registers.
my $isa;	# 'sse' or 'avx512'
my ($ra, $rb, $rc, $rd) = map { "%xmm$_" } 0 .. 3;	# the rows
my ($h0, $h1) = ('%xmm4', '%xmm5');	# h[0..3], h[4..7]
my ($tf, $incv) = ('%xmm6', '%xmm7');	# t and f; inc in the low qword
my $tmp = '%xmm8';
my ($rot16, $rot8) = ('%xmm9', '%xmm10');	# ssse3: pshufb masks
my ($iv0, $iv1) = ('%xmm11', '%xmm12');
my ($mlo, $mhi) = ('%ymm17', '%ymm18');		# avx512: the 16 message words
# avx512: a round's message vectors 0..3 are the halves of $mp0 and $mp1
my ($mp0, $mp1, $mx1, $mx3) = ('%ymm13', '%ymm15', '%xmm14', '%xmm16');

# Scalar path (bmi2): v0..v15 in these registers in order, except v10
# and v11 on the stack; %r15 points at the block.
my @gpr = qw(%eax %ebx %ecx %edx %esi %edi %ebp %r8d %r9d %r10d %r11d
	     %r12d %r13d %r14d);
my $gin = '%r15';

my @iv = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
my @sigma = (
	[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
	[14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
	[11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
	[7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
	[9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
	[2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
	[12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
	[13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
	[6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
	[10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
);

my $lbl = 0;
sub label { return '.Lblake2s_' . $_[0] . '_' . $lbl++; }

# Message words of round $r in the order the row paths use them: four
# vectors of four lanes (column step first and second half of G, diagonal
# step first and second half).  With the rows turned as below, lane j of
# the diagonal step computes G number j - 1 (mod 4).
sub schedule {
	my ($r) = @_;
	my @s = @{$sigma[$r]};
	my @w;
	push @w, map { $s[2 * $_] } 0 .. 3;
	push @w, map { $s[2 * $_ + 1] } 0 .. 3;
	push @w, map { $s[8 + 2 * (($_ + 3) % 4)] } 0 .. 3;
	push @w, map { $s[9 + 2 * (($_ + 3) % 4)] } 0 .. 3;
	return @w;
}

# --- the row paths: ssse3 and avx512vl --------------------------------------

sub v_op {	# d = s1 op s2, two-operand form when legacy SSE
	my ($op, $s2, $s1, $d) = @_;
	if ($isa eq 'sse') {
		die "v_op $op: $d is $s2" if $d eq $s2 && $s1 ne $d;
		code("\tmovdqa\t$s1, $d\n") if $s1 ne $d;
		code("\t$op\t$s2, $d\n");
	} elsif ($op eq 'pxor') {
		code("\tvpxord\t$s2, $s1, $d\n");
	} else {
		code("\tv$op\t$s2, $s1, $d\n");
	}
}
sub v_add { v_op('paddd', $_[0], $_[1], $_[1]); }
sub v_xor { v_op('pxor', $_[0], $_[1], $_[1]); }
sub v_ror {
	my ($x, $n) = @_;
	if ($isa eq 'avx512') {
		code("\tvprord\t\$$n, $x, $x\n");
	} elsif ($n == 16) {
		code("\tpshufb\t$rot16, $x\n");
	} elsif ($n == 8) {
		code("\tpshufb\t$rot8, $x\n");
	} else {
		code("\tmovdqa\t$x, $tmp\n\tpsrld\t\$$n, $x\n\tpslld\t\$" . (32 - $n) .
		     ", $tmp\n\tpor\t$tmp, $x\n");
	}
}
sub v_shuf {
	my ($imm, $x) = @_;
	code($isa eq 'sse' ? "\tpshufd\t\$$imm, $x, $x\n" : "\tvpshufd\t\$$imm, $x, $x\n");
}

# Half of G on all four lanes: a += m + b, d = (d ^ a) >>> r1, c += d,
# b = (b ^ c) >>> r2.  a + m first: a is ready long before b.
sub row_half_g {
	my ($m, $r1, $r2) = @_;
	v_add($m, $ra);
	v_add($rb, $ra);
	v_xor($ra, $rd);
	v_ror($rd, $r1);
	v_add($rd, $rc);
	v_xor($rc, $rb);
	v_ror($rb, $r2);
}

# One round; $msg->(k) names message vector k (0..3) of the round.
sub row_round {
	my ($msg) = @_;
	row_half_g($msg->(0), 16, 12);
	row_half_g($msg->(1), 8, 7);
	# lane j: a[j-1], b[j], c[j+1], d[j+2], that is diagonal G number j-1
	v_shuf(0x93, $ra);
	v_shuf(0x4e, $rd);
	v_shuf(0x39, $rc);
	row_half_g($msg->(2), 16, 12);
	row_half_g($msg->(3), 8, 7);
	v_shuf(0x39, $ra);
	v_shuf(0x4e, $rd);
	v_shuf(0x93, $rc);
}

sub row_path {
	my $name = $isa eq 'sse' ? 'zinc_blake2s_compress_ssse3' : 'zinc_blake2s_compress_avx512vl';
	my $loop = label('rblock');
	my $sse = $isa eq 'sse';
	my ($mov, $movu) = $sse ? ('movdqa', 'movdqu') : ('vmovdqa', 'vmovdqu');
	function_begin($name);
	if ($sse) {
		# the schedule: 10 rounds x 64 bytes on a 16-aligned stack
		code(realigned_frame_begin(640, 16));
		code("\tmovdqa\trot16_const(%rip), $rot16\n\tmovdqa\trot8_const(%rip), $rot8\n");
	}
	code("\t$movu\t0($state), $h0\n\t$movu\t16($state), $h1\n\t$movu\t32($state), $tf\n");
	code("\t$mov\tiv_const(%rip), $iv0\n\t$mov\tiv_const+16(%rip), $iv1\n");
	code("\tmovl\t%ecx, %ecx\n");	# inc is 32 bits: the upper half is not ours
	code($sse ? "\tmovq\t$inc, $incv\n" : "\tvmovq\t$inc, $incv\n");
	code("$loop:\n");
	v_op('paddq', $incv, $tf, $tf);
	code("\t$mov\t$h0, $ra\n\t$mov\t$h1, $rb\n\t$mov\t$iv0, $rc\n");
	v_op('pxor', $tf, $iv1, $rd);
	if ($sse) {
		# message words to their slots, four registers in turn
		my @r = qw(%eax %r8d %r9d %r10d);
		my $k = 0;
		for my $r (0 .. 9) {
			my @w = schedule($r);
			for my $i (0 .. 15) {
				my $g = $r[$k++ % 4];
				code("\tmovl\t" . (4 * $w[$i]) . "($block), $g\n\tmovl\t$g, " .
				     (64 * $r + 4 * $i) . "(%rsp)\n");
			}
		}
		for my $r (0 .. 9) {
			row_round(sub { return (64 * $r + 16 * $_[0]) . '(%rsp)'; });
		}
	} else {
		code("\tvmovdqu32\t0($block), $mlo\n\tvmovdqu32\t32($block), $mhi\n");
		for my $r (0 .. 9) {
			code("\tvmovdqa32\tperm_const+" . (64 * $r) . "(%rip), $mp0\n");
			code("\tvmovdqa32\tperm_const+" . (64 * $r + 32) . "(%rip), $mp1\n");
			code("\tvpermi2d\t$mhi, $mlo, $mp0\n\tvpermi2d\t$mhi, $mlo, $mp1\n");
			my ($x0, $x1) = map { my $y = $_; $y =~ s/ymm/xmm/; $y } $mp0, $mp1;
			code("\tvextracti32x4\t\$1, $mp0, $mx1\n\tvextracti32x4\t\$1, $mp1, $mx3\n");
			my @m = ($x0, $mx1, $x1, $mx3);
			row_round(sub { return $m[$_[0]]; });
		}
	}
	# h ^= v[0..7] ^ v[8..15]
	v_xor($rc, $ra);
	v_xor($rd, $rb);
	v_xor($ra, $h0);
	v_xor($rb, $h1);
	code("\taddq\t\$64, $block\n\tdecq\t$nblk\n\tjnz\t$loop\n");
	code("\t$movu\t$h0, 0($state)\n\t$movu\t$h1, 16($state)\n");
	code($sse ? "\tmovq\t$tf, 32($state)\n" : "\tvmovq\t$tf, 32($state)\n");
	# the rows and the message held secrets (keyed hashing)
	if ($sse) {
		code("\tpxor\t%xmm$_, %xmm$_\n") for 0 .. 8;
		code("\tmovdqa\t%xmm0, " . (16 * $_) . "(%rsp)\n") for 0 .. 39;
		code(realigned_frame_end());
		code("\txorl\t%eax, %eax\n\txorl\t%r8d, %r8d\n\txorl\t%r9d, %r9d\n\txorl\t%r10d, %r10d\n");
	} else {
		code("\tvpxord\t%xmm$_, %xmm$_, %xmm$_\n") for 16 .. 18;
		code("\tvzeroall\n");
	}
	code("\tret\n");
	function_end($name);
}

# --- the scalar path: bmi2 --------------------------------------------------
#
# 16 words, 15 registers, and one of them (%r15) holds the block pointer:
# message words are memory operands on the input itself.  Two c words, v10
# and v11, live on the stack as memory operands of "c += d" and "b ^= c".
# Measured here (A/B at the same code address, medians of alternated
# runs): copying the block to the stack instead, to keep a register for
# v10, cost ~10 cycles a block, the first rounds' loads waiting on the
# copy; the spills cost nothing measurable (Zen 5 forwards these stack
# stores to the loads without delay: an experiment with v11 in %esp, no
# spill at all, was no faster), nor did which c words are spilled.
# Frame: 0 state, 8 end of input, 16 inc, 24 t, 32 f ^ IV[6..7], 40..71 h
# at the start of the block, 72 v10, 76 v11.
sub g64 { my ($r) = @_; $r =~ s/^%e(..)$/%r$1/ or $r =~ s/d$//; return $r; }

my $gframe = 80;

sub bmi2_words {
	my @w;
	my @r = @gpr;
	for my $i (0 .. 15) {
		$w[$i] = $i == 10 ? '72(%rsp)' : $i == 11 ? '76(%rsp)' : shift @r;
	}
	return @w;
}

# Half of G on four (a, b, c, d) quads.  a += m first, for all four: a is
# ready long before b.  Then the six steps of the chain as a wavefront,
# quad j one step behind quad j - 1.  Measured here: ~2% faster a block
# than step by step across the quads, ~1% faster than quad after quad; a
# lag of two or three steps, the quads in another order, each a += m
# moved next to its quad or into the previous half, and one wavefront
# running across halves were no faster.
sub g_half {
	my ($x, $quads, $ms, $r1, $r2) = @_;
	my @q = map { [map { $x->[$_] } @$_] } @$quads;
	code("\taddl\t" . (4 * $ms->[$_]) . "($gin), $q[$_][0]\n") for 0 .. 3;
	for my $t (0 .. 8) {
		for my $j (0 .. 3) {
			my ($a, $b, $c, $d) = @{$q[$j]};
			my $step = $t - $j;
			next if $step < 0 || $step > 5;
			code(("\taddl\t$b, $a\n", "\txorl\t$a, $d\n", "\trorxl\t\$$r1, $d, $d\n",
			      "\taddl\t$d, $c\n", "\txorl\t$c, $b\n", "\trorxl\t\$$r2, $b, $b\n")[$step]);
		}
	}
}

sub zinc_blake2s_compress_bmi2 {
	my $name = 'zinc_blake2s_compress_bmi2';
	my @x = bmi2_words();
	my $loop = label('gblock');
	my @col = ([0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]);
	my @diag = ([0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]);
	my ($t, $th) = map { g64($x[$_]) } 12, 13;
	function_begin($name);
	code(push_callee_saved() . stack_alloc($gframe));
	code("\tmovl\t%ecx, %ecx\n");	# inc is 32 bits: the upper half is not ours
	code("\tshlq\t\$6, $nblk\n\taddq\t$block, $nblk\n");
	code("\tmovq\t$state, 0(%rsp)\n\tmovq\t$nblk, 8(%rsp)\n\tmovq\t$inc, 16(%rsp)\n");
	code("\tmovq\t$block, $gin\n");
	code("\tmovq\t32($state), %rax\n\tmovq\t%rax, 24(%rsp)\n");
	code("\tmovl\t40($state), %eax\n\txorl\t\$" . sprintf('0x%08x', $iv[6]) .
	     ", %eax\n\tmovl\t%eax, 32(%rsp)\n");
	code("\tmovl\t44($state), %eax\n\txorl\t\$" . sprintf('0x%08x', $iv[7]) .
	     ", %eax\n\tmovl\t%eax, 36(%rsp)\n");
	# h stays in v0..v7 from block to block; %rdi's word last
	my ($diw) = grep { $x[$_] eq '%edi' } 0 .. 7;
	code("\tmovl\t" . (4 * $_) . "($state), $x[$_]\n") for (grep { $_ != $diw } 0 .. 7), $diw;
	code("$loop:\n");
	# t += inc; v12..v15 = (t, f) ^ IV[4..7]; v8..v11 = IV[0..3]
	code("\tmovq\t24(%rsp), $t\n\taddq\t16(%rsp), $t\n\tmovq\t$t, 24(%rsp)\n");
	code("\txorq\tiv_const+16(%rip), $t\n\trorxq\t\$32, $t, $th\n");
	code("\tmovl\t32(%rsp), $x[14]\n\tmovl\t36(%rsp), $x[15]\n");
	code("\tmovl\t\$" . sprintf('0x%08x', $iv[$_ - 8]) . ", $x[$_]\n") for 8 .. 11;
	code("\tmovl\t$x[$_], " . (40 + 4 * $_) . "(%rsp)\n") for 0 .. 7;
	for my $r (0 .. 9) {
		my @s = @{$sigma[$r]};
		g_half(\@x, \@col, [map { $s[2 * $_] } 0 .. 3], 16, 12);
		g_half(\@x, \@col, [map { $s[2 * $_ + 1] } 0 .. 3], 8, 7);
		g_half(\@x, \@diag, [map { $s[8 + 2 * $_] } 0 .. 3], 16, 12);
		g_half(\@x, \@diag, [map { $s[9 + 2 * $_] } 0 .. 3], 8, 7);
	}
	# h[i] ^= v[i] ^ v[i + 8], kept in v0..v7 for the next block.  The b
	# words come last out of the rounds: h[4..7] ^ v[12..15] first.
	code("\txorl\t" . (40 + 4 * $_) . "(%rsp), $x[$_]\n\txorl\t$x[$_ + 8], $x[$_]\n") for 0 .. 3;
	code("\txorl\t" . (40 + 4 * $_) . "(%rsp), $x[$_ + 8]\n\txorl\t$x[$_ + 8], $x[$_]\n") for 4 .. 7;
	code("\taddq\t\$64, $gin\n\tcmpq\t8(%rsp), $gin\n\tjne\t$loop\n");
	# v8, v9 and v12..v15 are free again
	my ($p, $q) = map { g64($x[$_]) } 8, 9;
	code("\tmovq\t0(%rsp), $p\n\tmovq\t24(%rsp), $q\n\tmovq\t$q, 32($p)\n");
	code("\tmovl\t$x[$_], " . (4 * $_) . "($p)\n") for 0 .. 7;
	# the words and h held secrets (keyed hashing)
	code("\txorl\t%eax, %eax\n");
	code("\tmovq\t%rax, " . (40 + 8 * $_) . "(%rsp)\n") for 0 .. 4;
	code("\txorl\t$_, $_\n") for qw(%ecx %edx %esi %edi %r8d %r9d %r10d %r11d);
	code(stack_free($gframe) . pop_callee_saved());
	code("\tret\n");
	function_end($name);
}

sub rodata {
	code($flavour eq 'macosx' ? ".section\t__TEXT,__const\n" : ".section\t.rodata\n");
	code(".p2align\t6\niv_const:\n");
	code("\t.long\t" . join(',', map { sprintf('0x%08x', $_) } @iv) . "\n");
	code("rot16_const:\n\t.byte\t2,3,0,1, 6,7,4,5, 10,11,8,9, 14,15,12,13\n");
	code("rot8_const:\n\t.byte\t1,2,3,0, 5,6,7,4, 9,10,11,8, 13,14,15,12\n");
	code(".p2align\t6\nperm_const:\n");
	for my $r (0 .. 9) {
		my @w = schedule($r);
		code("\t.long\t" . join(',', @w[0 .. 7]) . "\n\t.long\t" . join(',', @w[8 .. 15]) . "\n");
	}
	code(".text\n");
}

$isa = 'sse';
row_path();
$isa = 'avx512';
row_path();
zinc_blake2s_compress_bmi2();
rodata();
asm_close($file);
