#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Poly1305 (RFC 8439) over many records at once, one record per lane, for
# x86_64 with AVX-512 IFMA; driven by poly1305_update_many()
# (provider/crypto/poly1305.c, the path's `many`).
#
#   void zinc_poly1305_many_ifma(void *const st[], const uint8_t *const in[],
#                                const size_t len[], size_t n);
# 1 <= n <= 16 contexts, distinct; len[i] % 16 == 0 (0 allowed); every
# block full (padbit 1).  Same as zinc_poly1305_blocks_x86_64(st[i], in[i],
# len[i], 1) for each i.
#
# A context's state is the one of perlasm/poly1305-x86_64.pl: h radix 2^64
# in st[0..2] (h2 <= 4), r in st[3..4].  Each call copies h and r of every
# record into lanes, converts them to radix 2^44 (three limbs: 44, 44, 42
# bits), runs the blocks and copies h back in radix 2^64 with h2 <= 4
# (what the scalar code and emit take); the powers of r are not touched.
#
# Two sets A and B of eight lanes, records 0..7 and 8..15, interleaved
# instruction by instruction: a step of one set is a chain of about 20
# cycles of dependent multiply-adds, and the other set fills the gaps.
# Horner per lane with the block added early: g = h + m_0, then at step i
# g = g r + m_(i+1) (the block's limbs seed the product's sums, so the add
# costs nothing), the last step of a record adding no block.  A lane whose
# record has no block at step i keeps g (the writes of g are under mask
# k = count > i), and the 2^128 of a block goes only to the lanes with one
# (count > i + 1).  Blocks are loaded 64 bytes of each record at a time,
# under masks that stop at the record's end, and transposed into the
# frame (chunk_load).  Counts are public (lengths): the loop runs while
# any lane of either set is busy, and the masks come from them.
#
# Time, ns per record: 32 records of one length, each under its own key,
# poly1305_init + one poly1305_update_many for all + poly1305_final, against
# the loop of poly1305_init + poly1305_update + poly1305_final one record at
# a time (MULX/ADX scalar code below 256 bytes, the single-record IFMA
# vector path from there); the Zen 5 of perlasm/poly1305-x86_64.pl, 2 vCPUs
# shared with other jobs, at a quiet moment (load average 2.6); medians of
# 3 runs, each the median of 9 measurements, each the best of 5 batches;
# loop and many interleaved:
#
#   length      loop     many    loop / many
#   32 B        17.0     17.1       1.00  (scalar both ways: below 64 B)
#   64 B        23.1     21.5       1.07
#   96 B        29.4     23.5       1.25
#   256 B       71.3     37.4       1.91
#   1420 B     150.1    143.5       1.05
# Of the loop's 23 ns at 64 B, init and final (its wipe) take about 12
# (a 16-byte record costs 15).
# Under load (average 3 to 6) the figures doubled and scattered, the
# ratios less: 64 B 1.20 (0.83 .. 1.37), 256 B 1.98, 1420 B 1.23.
#
# Steady state, 16 records at a time: a step (16 blocks) costs about 21 ns
# quiet (1.3 ns a block; the loads and transposes about 5 ns of it, the
# multiplies the rest), against 15 ns for 16 blocks of the single-record
# IFMA path and about 3 ns a block for the scalar code.  A call's fixed
# cost (rows in and out, transposes) is about 60 to 90 ns: with init and
# final alike in both, 16 to 48-byte records run no faster in lanes, hence
# the glue's rule: lanes for records with 64 to 1791 bytes of whole blocks
# (ratios,
# 32 records: 512 B 1.4, 768 B 1.7 to 1.9, 1024 B 1.2 to 1.8, 1420 B 1.0
# to 1.05, 2048 B 0.95, 4096 B 0.83 with the lanes taking every length).
# The folds as shifts and adds instead of vpmadd52luq by constants, and
# s = 20 r from the frame instead of registers: no difference measured.
use strict;
use warnings;
use zinc_x86_64;

my $file = asm_open(@ARGV);

# --- register map -------------------------------------------------------------
# arguments
my ($sts, $ins, $lens, $n) = ('%rdi', '%rsi', '%rdx', '%rcx');
my $off = '%r8';		# 16 (i + 1) at step i: the offset of the block loaded
my $lanes = '%r9';		# bit p set for each record p < n
# Per set: g (3 limbs), r (3 limbs), s = 20 r (limbs 1, 2), the product's
# sums (low, high half for each limb of the result); masks busy (a block
# at this step), next (a block at the next step) and one for loads.
my %A = (g => [map("%zmm$_", 0..2)], r => [map("%zmm$_", 3..5)],
	 t => [map("%zmm$_", 6..11)], busy => '%k1', next => '%k2', kl => '%k3',
	 s => ['%zmm12', '%zmm13'], first => 0, frame => 0);
my %B = (g => [map("%zmm$_", 16..18)], r => [map("%zmm$_", 19..21)],
	 t => [map("%zmm$_", 22..27)], busy => '%k4', next => '%k5', kl => '%k6',
	 s => ['%zmm14', '%zmm15'], first => 64, frame => 1024);
my ($M44, $M42, $PAD, $STEP) = map("%zmm$_", 29..31, 28);
# free between steps: both sets' sums, for the transposes
my @POOL = (@{$A{t}}, @{$B{t}});
my $kall = '%k7';		# the set's records, in setup and teardown
# Frame, 64-byte aligned.  Per set at frame: the block counts, the record
# pointers, the masks of load_rows's loads, the context pointers, and
# chunk_load's four blocks of every lane, limb-major (block j's low words
# at 128 j, high words at 128 j + 64).  Then constants, broadcast from
# there, and the table of load masks by blocks left.
my %F = (count => 0, ptr => 64, kload => 128, sts => 192, cols => 512);
my $FRAME = 2240;
my @constants = (256, 5120, 5, 1, 20, 0, 4, 31, 7);
my %C = map { ($constants[$_] => 2048 + 8 * $_) } 0..$#constants;
my $KTABLE = 2176;
sub c { return "$C{$_[0]}(%rsp){1to8}"; }
sub slot {
	my ($set, $what, $plus) = @_;
	return ($set->{frame} + $F{$what} + ($plus // 0)) . '(%rsp)';
}
sub count_slot { my ($set) = @_; return slot($set, 'count'); }

sub ops { code(join('', map("\t$_\n", @_))); }

# The two sets' instructions alternately, for the out-of-order core.
sub interleave {
	my @x = @{$_[0]};
	my @y = $_[1] ? @{$_[1]} : ();
	my @o;
	while (@x || @y) {
		push @o, shift @x if @x;
		push @o, shift @y if @y;
	}
	ops(@o);
}

# For each set given, the list its sub returns.
sub each_set { my ($sub, @sets) = @_; return map { [$sub->($_)] } @sets; }

# 128 or 130 bits in 64-bit words (x0, x1[, x2]), in place into radix 2^44:
# x0 & M44, (x0 >> 44 | x1 << 20) & M44, x1 >> 24 | x2 << 40.
sub to_radix44 {
	my ($x, $t1, $t2) = @_;
	my @o = ("vpsllq\t\$20, $$x[1], $t1",
		 "vpsrlq\t\$44, $$x[0], $t2",
		 "vpternlogq\t\$0xa8, $M44, $t1, $t2",	# (t2 | t1) & M44
		 "vpandq\t$M44, $$x[0], $$x[0]");
	if (@$x == 3) {
		push @o, "vpsrlq\t\$24, $$x[1], $$x[1]",
			 "vpsllq\t\$40, $$x[2], $$x[2]",
			 "vporq\t$$x[1], $$x[2], $$x[2]";
	} else {
		push @o, "vpsrlq\t\$24, $$x[1], $_[3]";
	}
	return (@o, "vmovdqa64\t$t2, $$x[1]");
}

# The limbs of each next lane's block, from chunk_load's copy (%rax = 8
# (off mod 64)), into lo0, lo1, lo2 of the product's sums, 2^128 (padbit)
# in lo2; zero in other lanes.
sub block_ops {
	my ($set) = @_;
	my ($lo0, $hi0, $lo1, $hi1, $lo2, $hi2) = @{$set->{t}};
	my $cols = $set->{frame} + $F{cols};
	return ("vmovdqa64\t$cols(%rsp,%rax,8), $lo1",
		"vmovdqa64\t@{[$cols + 64]}(%rsp,%rax,8), $lo2",
		"vpandq\t$M44, $lo1, $lo0",
		"vpsllq\t\$20, $lo2, $hi0",
		"vpsrlq\t\$44, $lo1, $lo1",
		"vpternlogq\t\$0xa8, $M44, $hi0, $lo1",	# (lo1 | hi0) & M44
		"vpsrlq\t\$24, $lo2, $lo2",
		"vporq\t$PAD, $lo2, $lo2\{$set->{next}}");
}

# An 8 x 8 transpose of qwords: @$in the rows (a register, or undef for a
# row nobody needs), out j = qword j of every row; three rounds of two-
# source shuffles, skipping those whose inputs are both unneeded (an
# unneeded input takes the other's register).  Registers from @$pool, to
# which the rows go back once read unless $keep; $sink->(j, reg) gives the
# instructions that take output j (for j in @$want) before reg goes back.
sub transpose {
	my ($in, $pool, $want, $sink, $keep) = @_;
	my %want = map { ($_ => 1) } @$want;
	my @o;
	my $pair = sub {	# both shuffles of a pair, inputs back to the pool
		my ($x, $y, @ins) = @_;
		return (undef, undef) unless defined $x || defined $y;
		$x //= $y;
		$y //= $x;
		my @d = map {
			my ($ins, $imm) = @$_;
			my $d = shift @$pool;
			push @o, "$ins\t" . (defined $imm ? "\$$imm, " : '') . "$y, $x, $d";
			$d;
		} @ins;
		push @$pool, grep { my $r = $_; !($keep && grep { defined && $_ eq $r } @$in) }
			     ($x eq $y ? $x : ($x, $y));
		return @d;
	};
	my @unpck = (['vpunpcklqdq'], ['vpunpckhqdq']);
	my @shuf = (['vshufi64x2', 0x88], ['vshufi64x2', 0xdd]);
	# t[2p + h] = qwords (h, h + 2, h + 4, h + 6) of rows 2p, 2p + 1, paired
	my @t = map { $pair->(@$in[2 * $_, 2 * $_ + 1], @unpck) } 0..3;
	# u: qwords (0, 4), (2, 6), (1, 5), (3, 7) of rows 0..3, then of rows 4..7
	my @u = map { $pair->(@t[@$_], @shuf) } [0, 2], [1, 3], [4, 6], [5, 7];
	my @qword = ([0, 4], [2, 6], [1, 5], [3, 7]);
	for my $k (0..3) {
		my @j = @{$qword[$k]};
		next unless grep { $want{$_} } @j;
		my @d = $pair->(@u[$k, $k + 4], @shuf);
		for my $h (0..1) {
			push @o, $sink->($j[$h], $d[$h]) if $want{$j[$h]};
			push @$pool, $d[$h];
		}
	}
	return @o;
}

# Lane p's 64 bytes at the address in frame slot $ptrs + 8 p, plus $index,
# into row p, under the mask in slot kload + 8 p (its qwords to read).
sub load_rows {
	my ($set, $ptrs, $index, $rows) = @_;
	return map { ("movq\t@{[slot($set, $ptrs, 8 * $_)]}, %rax",
		      "kmovw\t@{[slot($set, 'kload', 8 * $_)]}, $set->{kl}",
		      "vmovdqu64\t(%rax$index), $$rows[$_]\{$set->{kl}}{z}") } 0..7;
}

# Every 64 bytes (off = 16 STEP a multiple of 64), the next four blocks of
# each lane's record into the frame, limb-major: a masked load of the
# lane's 64 bytes (none past its record: the mask keeps the qwords of its
# blocks left, a table lookup by min(max(count - STEP, 0), 4)), then a
# transpose.
sub chunk_load {
	my ($set) = @_;
	my @pool = @POOL;
	my @rows = splice(@pool, 0, 8);
	my $left = $rows[0];
	ops("vmovdqa64\t@{[count_slot($set)]}, $left",
	    "vpsubq\t$STEP, $left, $left",
	    "vpmaxsq\t@{[c(0)]}, $left, $left",
	    "vpminsq\t@{[c(4)]}, $left, $left",
	    "vpermq\t$KTABLE(%rsp), $left, $left",
	    "vmovdqa64\t$left, @{[slot($set, 'kload')]}",
	    load_rows($set, 'ptr', ",$off", \@rows),
	    transpose(\@rows, \@pool, [0..7],
		      sub { "vmovdqa64\t$_[1], @{[slot($set, 'cols', 64 * $_[0])]}" }));
}

# g = g r + the sums' seed (a block or zero), partially reduced, in the
# lanes of busy; the others keep g.
#   A product of limbs i and j lands at weight 2^(44 (i + j)); from 2^132
#   on it wraps as 2^132 == 20 (mod 2^130 - 5): hence s = 20 r.  The high
#   half of a 52-bit multiply weighs 2^52 = 2^8 2^44 against its low half:
#   it moves one limb up times 256, and limb 2's (2^140 == 5 2^10) into
#   limb 0 times 5120.  Bounds: g limbs < 2^45 (limb 2 < 2^43), r < 2^44
#   (r2 < 2^36), s1 < 2^49, s2 < 2^41; each column's high halves sum below
#   2^40, so the folds fit vpmadd52's 52 bits, and the low sums stay below
#   2^54.  After the carries, limbs are below 2^44 + 2^15 (limb 2: 2^42 +
#   2^10), and the next block adds less than 2^44 (2^41).
sub mul_ops {
	my ($set) = @_;
	my ($g, $r, $k) = ($set->{g}, $set->{r}, $set->{busy});
	my ($lo0, $hi0, $lo1, $hi1, $lo2, $hi2) = @{$set->{t}};
	my ($s1, $s2) = @{$set->{s}};
	my @mul = ([$$r[0], $$r[1], $$r[2]],	# g0 times, into columns 0, 1, 2
		   [$s2, $$r[0], $$r[1]],	# g1
		   [$s1, $s2, $$r[0]]);		# g2
	my @col = ([$lo0, $hi0], [$lo1, $hi1], [$lo2, $hi2]);
	my @o = map("vpxorq\t$_, $_, $_", $hi0, $hi1, $hi2);
	for my $i (0..2) {
		for my $c (0..2) {
			push @o, "vpmadd52luq\t$mul[$i][$c], $$g[$i], $col[$c][0]",
				 "vpmadd52huq\t$mul[$i][$c], $$g[$i], $col[$c][1]";
		}
	}
	return (@o,
	    "vpmadd52luq\t@{[c(256)]}, $hi0, $lo1",
	    "vpmadd52luq\t@{[c(256)]}, $hi1, $lo2",
	    "vpmadd52luq\t@{[c(5120)]}, $hi2, $lo0",
	    "vpsrlq\t\$44, $lo0, $hi0",
	    "vpsrlq\t\$44, $lo1, $hi1",
	    "vpsrlq\t\$42, $lo2, $hi2",
	    "vpandq\t$M44, $lo0, $$g[0]\{$k}",
	    "vpandq\t$M44, $lo1, $$g[1]\{$k}",
	    "vpandq\t$M42, $lo2, $$g[2]\{$k}",
	    "vpaddq\t$hi0, $$g[1], $$g[1]\{$k}",
	    "vpaddq\t$hi1, $$g[2], $$g[2]\{$k}",
	    "vpmadd52luq\t@{[c(5)]}, $hi2, $$g[0]\{$k}");
}

# kall = the set's records: bits 0..7 of lanes (A), 8..15 (B).
sub kall_ops {
	my ($set) = @_;
	return ("kmovw\t%r9d, $kall") unless $set->{first};
	return ("movl\t%r9d, %eax", "shrl\t\$8, %eax", "kmovw\t%eax, $kall");
}

# The set's record pointers and block counts; h and r from words 0..4 of
# its contexts (a row each, transposed) into radix 2^44, s = 20 r; next =
# the lanes with a block.
sub setup {
	my ($set) = @_;
	my ($g, $r, $t) = ($set->{g}, $set->{r}, $set->{t});
	my $f = $set->{first};
	my @pool = @POOL;
	my @rows = splice(@pool, 0, 8);
	my @words = (@$g, @$r[0, 1]);
	# Lanes past n get the frame as their context and record: their loads
	# and stores are masked off, but a masked-off access to an unmapped
	# address (NULL) costs a microcode assist of hundreds of cycles.
	# Records end below 2 KB (the glue's rule), inside the frame.
	ops(kall_ops($set),
	    "movq\t%rsp, %rax",
	    "vpbroadcastq\t%rax, $$t[0]",
	    "vmovdqa64\t$$t[0], $$t[1]",
	    "vmovdqu64\t$f($sts), $$t[0]\{$kall}",
	    "vmovdqa64\t$$t[0], @{[slot($set, 'sts')]}",
	    "vpbroadcastq\t$C{31}(%rsp), $$t[0]\{$kall}{z}",	# words 0..4 of a context
	    "vmovdqa64\t$$t[0], @{[slot($set, 'kload')]}",
	    "vmovdqu64\t$f($ins), $$t[1]\{$kall}",
	    "vmovdqa64\t$$t[1], @{[slot($set, 'ptr')]}",
	    "vmovdqu64\t$f($lens), $$t[0]\{$kall}{z}",
	    "vpsrlq\t\$4, $$t[0], $$t[0]",
	    "vmovdqa64\t$$t[0], " . count_slot($set),
	    "vpcmpuq\t\$1, $$t[0], $STEP, $set->{next}",	# 0 < count
	    load_rows($set, 'sts', '', \@rows),
	    transpose(\@rows, \@pool, [0..4], sub { "vmovdqa64\t$_[1], $words[$_[0]]" }),
	    to_radix44($g, @$t[1, 2]),
	    to_radix44([@$r[0, 1]], @$t[1, 2], $$r[2]),
	    (map { ("vpxorq\t$set->{s}[$_], $set->{s}[$_], $set->{s}[$_]",
		    "vpmadd52luq\t@{[c(20)]}, $$r[$_ + 1], $set->{s}[$_]") } 0..1));
}

# g = h + the first block.
sub first_block_ops {
	my ($set) = @_;
	my ($g, $t) = ($set->{g}, $set->{t});
	return (block_ops($set), map("vpaddq\t$$t[2 * $_], $$g[$_], $$g[$_]", 0..2));
}

# h back to radix 2^64, carried so that h2 <= 4, and into the contexts:
# transposed into rows, stored under the mask of words 0..2.
sub teardown {
	my ($set) = @_;
	my ($g, $t) = ($set->{g}, $set->{t});
	my $c = $$t[0];
	my @carry = map { my ($j, $bits) = @$_;
			  ("vpsrlq\t\$$bits, $$g[$j], $c",
			   "vpandq\t" . ($bits == 44 ? $M44 : $M42) . ", $$g[$j], $$g[$j]",
			   $j == 2 ? "vpmadd52luq\t@{[c(5)]}, $c, $$g[0]"
				   : "vpaddq\t$c, $$g[$j + 1], $$g[$j + 1]") }
		    ([0, 44], [1, 44], [2, 42], [0, 44], [1, 44]);
	ops(kall_ops($set),
	    @carry,
	    "vpsllq\t\$44, $$g[1], $c",
	    "vporq\t$c, $$g[0], $$g[0]",
	    "vpsrlq\t\$20, $$g[1], $$g[1]",
	    "vpsllq\t\$24, $$g[2], $c",
	    "vporq\t$c, $$g[1], $$g[1]",
	    "vpsrlq\t\$40, $$g[2], $$g[2]",
	    "vpbroadcastq\t$C{7}(%rsp), $c\{$kall}{z}",
	    "vmovdqa64\t$c, @{[slot($set, 'kload')]}",
	    transpose([@$g, (undef) x 5], [@POOL], [0..7], sub {
		my ($j, $row) = @_;
		return ("movq\t@{[slot($set, 'sts', 8 * $j)]}, %rax",
			"kmovw\t@{[slot($set, 'kload', 8 * $j)]}, $set->{kl}",
			"vmovdqu64\t$row, (%rax)\{$set->{kl}}");
	    }, 1));
}

# The whole job for sets A and B, or A alone (n <= 8); $l: a label number.
sub run {
	my ($l, @sets) = @_;
	setup($_) for @sets;
	my @next = map($_->{next}, @sets);
	push @next, $next[0] if @next == 1;
	ops("kortestw\t$next[0], $next[1]", "jz\t${l}2f");
	chunk_load($_) for @sets;
	ops("xorl\t%eax, %eax");
	interleave(each_set(\&first_block_ops, @sets));
	code(".p2align 4\n${l}1:\n");
	ops((map { "kmovw\t$_->{next}, $_->{busy}" } @sets),
	    "vpaddq\t@{[c(1)]}, $STEP, $STEP",
	    "addq\t\$16, $off",
	    # next = STEP < count (from a register: the CT tracer's decoders
	    # misread this compare's memory form with zmm16-31)
	    (map { ("vmovdqa64\t@{[count_slot($_)]}, $_->{t}[0]",
		    "vpcmpuq\t\$1, $_->{t}[0], $STEP, $_->{next}") } @sets),
	    "testl\t\$48, %r8d",
	    "jnz\t${l}3f");
	chunk_load($_) for @sets;
	code("${l}3:\n");
	ops("movl\t%r8d, %eax", "andl\t\$48, %eax");
	interleave(each_set(\&block_ops, @sets));
	interleave(each_set(\&mul_ops, @sets));
	ops("kortestw\t$next[0], $next[1]", "jnz\t${l}1b");
	code("${l}2:\n");
	teardown($_) for @sets;
}

function_begin('zinc_poly1305_many_ifma');
code(realigned_frame_begin($FRAME, 64));
code(<<___);
	movl	\$1, %r9d
	shlq	%cl, %r9
	decq	%r9			# lanes = 2^n - 1
	movabsq	\$0xfffffffffff, %rax
	vpbroadcastq	%rax, $M44
	shrq	\$2, %rax
	vpbroadcastq	%rax, $M42
	movabsq	\$0x10000000000, %rax	# 2^40: 2^128 in limb 2
	vpbroadcastq	%rax, $PAD
	vpxorq	$STEP, $STEP, $STEP
	xorl	%r8d, %r8d
___
ops(map("movq\t\$$_, $C{$_}(%rsp)", @constants));
# the load masks by blocks left: 2 qwords a block, four blocks at most
ops(map { "movq\t\$" . ((1 << (2 * ($_ < 4 ? $_ : 4))) - 1) . ", " . ($KTABLE + 8 * $_) . "(%rsp)" }
    0..7);
ops("cmpq\t\$8, $n", "ja\t5f");
run(1, \%A);
code("\tjmp\t9f\n5:\n");
run(3, \%A, \%B);
code("9:\n" . zmm_hi_wipe() . "\tvzeroupper\n" . realigned_frame_end() . "\tret\n");
function_end('zinc_poly1305_many_ifma');

asm_close($file);
