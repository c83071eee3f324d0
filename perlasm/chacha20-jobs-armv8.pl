#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# chacha20_jobs() for AArch64 NEON (provider/crypto/chacha20-armv8-glue.c):
# one 64-byte ChaCha20 block per job, each from a stream of its own (its
# own key pointer and state words 12..15), a job per 32-bit lane.
#
#   void zinc_chacha20_jobs_neon(const struct chacha20_job *jobs, size_t n);
#
# Any n (0 does nothing).  struct chacha20_job (include/zinc/chacha20.h) is
# read at the offsets below (the glue checks them at compile time).  Each
# job XORs len bytes (1..64) of its keystream block into src, writing dst:
# nothing past dst + len is written nor past src + len read (len 0 touches
# nothing, more than 64 counts as 64).  Only lengths and pointers, which
# are public, steer branches.  Little-endian AArch64 only.
#
# Word-sliced, four jobs per pass: v(i) holds state word i of the four
# lanes.  ld4 of one lane spreads four consecutive words of a job over four
# registers, so the key and words 12..15 load straight into their lanes
# with no transpose; the constants come from ld4r.  A pass short of jobs
# loads job 0 again into the missing lanes (no read past jobs[n - 1]) and
# stores only its own.  After the rounds the same loads into v16-v31 give
# the feed-forward, trn1/trn2 transpose the words back into blocks (block j
# in v(j), v(4 + j), v(8 + j), v(12 + j)), and each job XORs its block:
# whole, 64 bytes from registers, or partial, from a copy on the stack, by
# the bits of len (32, 16, 8, 4, 2, 1 bytes).
#
# Rotations: 16 rev32 .8h, 8 tbl, 12 and 7 shl + sri (each through a
# temporary that takes the XOR).  Speed: not measured (qemu only here);
# the rounds are the same instructions per block as chacha20-armv8.pl's
# four-block NEON pass, plus 3 ld4 per job for its lanes (12 per pass, and
# 12 again for the feed-forward) where that pass broadcasts one state.
use strict;
use warnings;
use zinc_arm;

my $file = asm_open(@ARGV);

# --- register map (AAPCS64; x18 is never named) ------------------------------
my ($jobs, $n) = ('x0', 'x1');		# the arguments; advanced per pass
my $m = 'x2';				# jobs in this pass (1..4)
my @jp = map { "x$_" } 3 .. 6;		# lane j's job (job 0 for a missing lane)
my $cur = 'x7';				# an ld4 cursor
my $consts = 'x8';			# the rot8 index, sigma after it
my $rounds = 'x9';
my ($src, $dst, $len) = ('x10', 'x11', 'x12');	# a job's, when storing
my ($ta, $tb, $ks) = ('x13', 'x14', 'x15');	# partial block: data, keystream, its cursor
my @v = map { "v$_" } 0 .. 15;		# the words
my @vt = map { "v$_" } 16 .. 19;	# quarter-round temporaries
my $vrot8 = 'v20';
my @vin = map { "v$_" } 16 .. 31;	# the input again, for the feed-forward
# struct chacha20_job
my ($J_KEY, $J_SRC, $J_DST, $J_IV, $J_LEN, $J_SIZE) = (0, 8, 16, 24, 40, 48);
my @saved = map { "d$_" } 8 .. 15;	# v8-v15 are words 8..15
my $frame = 64;				# a partial block's keystream

my $lbl = 0;
sub label { return local_label('jobs_' . $_[0] . '_' . $lbl++); }
sub list { my ($k, @r) = @_; return '{' . join(', ', map { "$_.$k" } @r) . '}'; }

# One quarter round on every [a, b, c, d] of @$quads, step by step across
# them: x += y, then z = (z ^ x) <<< r, the XOR into quad k's temporary.
sub quarter_round {
	my @q = @_;
	for my $step ([0, 1, 3, 16], [2, 3, 1, 12], [0, 1, 3, 8], [2, 3, 1, 7]) {
		my ($x, $y, $z, $r) = @$step;
		code("\tadd\t$_->[$x].4s, $_->[$x].4s, $_->[$y].4s\n") for @q;
		code("\teor\t$vt[$_].16b, $q[$_][$z].16b, $q[$_][$x].16b\n") for 0 .. $#q;
		for my $k (0 .. $#q) {
			my ($d, $t) = ($q[$k][$z], $vt[$k]);
			if ($r == 16) {
				code("\trev32\t$d.8h, $t.8h\n");
			} elsif ($r == 8) {
				code("\ttbl\t$d.16b, {$t.16b}, $vrot8.16b\n");
			} else {
				code("\tshl\t$d.4s, $t.4s, #$r\n\tsri\t$d.4s, $t.4s, #" . (32 - $r) . "\n");
			}
		}
	}
}
my @columns = ([0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]);
my @diagonals = ([0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]);
sub quads { return map { [@v[@$_]] } @_; }

# The lanes' input words into @$r: constants, key, words 12..15.
sub load_lanes {
	my ($r) = @_;
	code("\tadd\t$cur, $consts, #16\n\tld4r\t" . list('4s', @$r[0 .. 3]) . ", [$cur]\n");
	for my $j (0 .. 3) {
		code("\tldr\t$cur, [$jp[$j], #$J_KEY]\n");
		code("\tld4\t" . list('s', @$r[4 .. 7]) . "[$j], [$cur], #16\n");
		code("\tld4\t" . list('s', @$r[8 .. 11]) . "[$j], [$cur]\n");
		code("\tadd\t$cur, $jp[$j], #$J_IV\n");
		code("\tld4\t" . list('s', @$r[12 .. 15]) . "[$j], [$cur]\n");
	}
}

# 4x4 transposes of each group of four words, into blocks: trn1/trn2 of
# word pairs, then of doubleword pairs (lane k of the four to register k).
sub words_to_blocks {
	for my $g (0 .. 3) {
		my @r = @v[4 * $g .. 4 * $g + 3];
		for my $p (0, 1) {	# t(2p), t(2p+1): words of r(2p), r(2p+1) interleaved
			my ($a, $b) = @r[2 * $p, 2 * $p + 1];
			code("\ttrn1\t$vt[2 * $p].4s, $a.4s, $b.4s\n\ttrn2\t$vt[2 * $p + 1].4s, $a.4s, $b.4s\n");
		}
		for my $k (0 .. 3) {	# lane k: even lanes from t0/t2, odd from t1/t3
			my $op = $k < 2 ? 'trn1' : 'trn2';
			my $odd = $k % 2;
			code("\t$op\t$r[$k].2d, $vt[$odd].2d, $vt[2 + $odd].2d\n");
		}
	}
}

# Job j's len bytes: a whole block from the registers, a partial one from
# its copy on the stack, by the bits of len.
sub store_job {
	my ($j, $done) = @_;
	my @b = @v[$j, 4 + $j, 8 + $j, 12 + $j];
	my ($part, $next) = (label('part'), label('next'));
	code("\tcmp\t$m, #$j\n\tb.ls\t$done\n") if $j > 0;
	code("\tldp\t$src, $dst, [$jp[$j], #$J_SRC]\n\tldr\t$len, [$jp[$j], #$J_LEN]\n");
	code("\tcmp\t$len, #64\n\tb.lo\t$part\n");
	code("\tld1\t" . list('16b', @vt) . ", [$src]\n");
	code("\teor\t$vt[$_].16b, $vt[$_].16b, $b[$_].16b\n") for 0 .. 3;
	code("\tst1\t" . list('16b', @vt) . ", [$dst]\n\tb\t$next\n$part:\n");
	code("\tstp\tq" . substr($b[0], 1) . ", q" . substr($b[1], 1) . ", [sp]\n");
	code("\tstp\tq" . substr($b[2], 1) . ", q" . substr($b[3], 1) . ", [sp, #32]\n");
	code("\tmov\t$ks, sp\n");
	my ($w, $u) = map { my $r = $_; $r =~ s/^x/w/; $r } $ta, $tb;
	for my $s ([5, 'q', 32], [4, 'q', 16], [3, 'x', 8], [2, 'w', 4], [1, 'h', 2], [0, 'b', 1]) {
		my ($bit, $kind, $bytes) = @$s;
		my $skip = label('skip');
		code("\ttbz\t$len, #$bit, $skip\n");
		if ($kind eq 'q' && $bytes == 32) {
			code("\tldp\tq16, q17, [$src], #32\n\tldp\tq18, q19, [$ks], #32\n");
			code("\teor\tv16.16b, v16.16b, v18.16b\n\teor\tv17.16b, v17.16b, v19.16b\n");
			code("\tstp\tq16, q17, [$dst], #32\n");
		} elsif ($kind eq 'q') {
			code("\tldr\tq16, [$src], #16\n\tldr\tq18, [$ks], #16\n");
			code("\teor\tv16.16b, v16.16b, v18.16b\n\tstr\tq16, [$dst], #16\n");
		} else {
			my ($a, $c) = $kind eq 'x' ? ($ta, $tb) : ($w, $u);
			my $sfx = $kind =~ /[hb]/ ? $kind : '';
			code("\tldr$sfx\t$a, [$src], #$bytes\n\tldr$sfx\t$c, [$ks], #$bytes\n");
			code("\teor\t$a, $a, $c\n\tstr$sfx\t$a, [$dst], #$bytes\n");
		}
		code("$skip:\n");
	}
	code("$next:\n");
}

sub jobs_neon {
	my $name = 'zinc_chacha20_jobs_neon';
	my ($loop, $round, $done, $ret, $data) = map { label($_) } qw(loop round done ret data);
	function_begin($name);
	code("\tcbz\t$n, $ret\n");
	code(save_regs(@saved) . stack_alloc($frame));
	code("\tadr\t$consts, $data\n");
	# v20 is also input for the feed-forward: the index again each pass
	code("$loop:\n\tld1\t{$vrot8.16b}, [$consts]\n");
	code("\tmov\t$m, #4\n\tcmp\t$n, #4\n\tcsel\t$m, $n, $m, lo\n");
	code("\tmov\t$jp[0], $jobs\n");
	for my $j (1 .. 3) {
		code("\tadd\t$jp[$j], $jobs, #" . ($J_SIZE * $j) . "\n\tcmp\t$m, #$j\n");
		code("\tcsel\t$jp[$j], $jp[$j], $jobs, hi\n");
	}
	load_lanes(\@v);
	code("\tmov\t$rounds, #10\n$round:\n");
	quarter_round(quads(@columns));
	quarter_round(quads(@diagonals));
	code("\tsubs\t$rounds, $rounds, #1\n\tb.ne\t$round\n");
	load_lanes(\@vin);
	code("\tadd\t$v[$_].4s, $v[$_].4s, $vin[$_].4s\n") for 0 .. 15;
	words_to_blocks();
	store_job($_, $done) for 0 .. 3;
	code("$done:\n\tmov\t$ta, #$J_SIZE\n\tmadd\t$jobs, $m, $ta, $jobs\n");
	code("\tsubs\t$n, $n, $m\n\tb.ne\t$loop\n");
	# the stack copy held keystream
	code("\tstp\txzr, xzr, [sp]\n\tstp\txzr, xzr, [sp, #16]\n");
	code("\tstp\txzr, xzr, [sp, #32]\n\tstp\txzr, xzr, [sp, #48]\n");
	code(stack_free($frame) . restore_regs(@saved));
	code("$ret:\n\tret\n");
	function_end($name);
	# tbl index of a left rotation by 8 of each 32-bit lane; "expand 32-byte k"
	code(<<___);
.p2align	4
$data:
	.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
	.long	0x61707865, 0x3320646e, 0x79622d32, 0x6b206574
___
}

jobs_neon();
asm_close($file);
