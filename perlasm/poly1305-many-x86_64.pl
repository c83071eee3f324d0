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
# in st[0..2] (h2 <= 4), r in st[3..4].  Each call gathers h and r of every
# record into lanes, converts them to radix 2^44 (three limbs: 44, 44, 42
# bits), runs the blocks and scatters h back in radix 2^64 with h2 <= 4
# (what the scalar code and emit take); the powers of r are not touched.
#
# Two sets A and B of eight lanes, records 0..7 and 8..15, interleaved
# instruction by instruction: a step of one set is a chain of about 20
# cycles of dependent multiply-adds, and the other set fills the gaps.
# Horner per lane with the block added early: g = h + m_0, then at step i
# g = g r + m_(i+1) (the block's limbs seed the product's sums, so the add
# costs nothing), the last step of a record adding no block.  A lane whose
# record has no block at step i keeps g (the writes of g are under mask
# k = count > i); blocks are gathered under the mask count > i + 1, so no
# byte past a record is read.  Counts are public (lengths): the loop runs
# while any lane of either set is busy.
#
# Time (ns per record, 32 records under one key schedule each, the many
# call against a loop of poly1305_update, both then poly1305_final; Zen 5,
# 2.1 GHz nominal, medians of several runs): see the table filled in below.
#
#   length      loop of update   update_many
#   64 B              -               -
#   256 B             -               -
#   1420 B            -               -
use strict;
use warnings;
use zinc_x86_64;

my $file = asm_open(@ARGV);

# --- register map ---------------------------------------------------------------
# arguments
my ($sts, $ins, $lens, $n) = ('%rdi', '%rsi', '%rdx', '%rcx');
my $off = '%r8';		# 16 (i + 1) at step i: the offset of the block gathered
my $lanes = '%r9';		# bit p set for each record p < n
# Per set: g (3 limbs), r (3 limbs), record pointers, the product's sums
# (low, high half for each limb of the result); masks busy (a block at this
# step), next (a block at the next step) and one for its gathers.
my %A = (g => [map("%zmm$_", 0..2)], r => [map("%zmm$_", 3..5)], ptr => '%zmm6',
	 t => [map("%zmm$_", 7..12)], busy => '%k1', next => '%k2', kg => '%k3',
	 first => 0, frame => 0);
my %B = (g => [map("%zmm$_", 16..18)], r => [map("%zmm$_", 19..21)], ptr => '%zmm22',
	 t => [map("%zmm$_", 23..28)], busy => '%k4', next => '%k5', kg => '%k6',
	 first => 64, frame => 192);
my ($M44, $M42, $PAD, $STEP) = map("%zmm$_", 29..31, 13);
my $kall = '%k7';		# the set's records, in setup and teardown
# Frame, 64-byte aligned: per set at frame, s1 = 20 r1, s2 = 20 r2 and the
# block counts; then the multipliers of the folds, broadcast from there.
my $FRAME = 448;
my %C = (256 => 384, 5120 => 392, 5 => 400, 1 => 408, 20 => 416);
sub c { return "$C{$_[0]}(%rsp){1to8}"; }
sub s_slot { my ($set, $j) = @_; return ($set->{frame} + 64 * $j) . '(%rsp)'; }
sub count_slot { my ($set) = @_; return ($set->{frame} + 128) . '(%rsp)'; }

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

# dst = the qwords at addr (VSIB) in the lanes of mask, zero elsewhere.
sub gather {
	my ($set, $dst, $mask, $addr) = @_;
	return ("kmovw\t$mask, $set->{kg}", "vpxorq\t$dst, $dst, $dst",
		"vpgatherqq\t$addr, $dst\{$set->{kg}}");
}

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

# The limbs of each next lane's block at disp(off + ptr) into lo0, lo1,
# lo2 of the product's sums, 2^128 (padbit) in lo2; zero in other lanes.
sub block_ops {
	my ($set) = @_;
	my ($lo0, $hi0, $lo1, $hi1, $lo2, $hi2) = @{$set->{t}};
	my $ptr = $set->{ptr};
	return (gather($set, $lo1, $set->{next}, "0($off,$ptr,1)"),
		gather($set, $lo2, $set->{next}, "8($off,$ptr,1)"),
		"vpandq\t$M44, $lo1, $lo0",
		"vpsllq\t\$20, $lo2, $hi0",
		"vpsrlq\t\$44, $lo1, $lo1",
		"vpternlogq\t\$0xa8, $M44, $hi0, $lo1",	# (lo1 | hi0) & M44
		"vpsrlq\t\$24, $lo2, $lo2",
		"vporq\t$PAD, $lo2, $lo2\{$set->{next}}");
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
	my ($s1, $s2) = (s_slot($set, 0), s_slot($set, 1));
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

# The set's record pointers and block counts; h and r gathered from its
# contexts into radix 2^44 and s = 20 r into the frame; next = the lanes
# with a block.
sub setup {
	my ($set) = @_;
	my ($g, $r, $t) = ($set->{g}, $set->{r}, $set->{t});
	my $sp = $$t[5];
	my $f = $set->{first};
	ops(kall_ops($set),
	    "vmovdqu64\t$f($sts), $sp\{$kall}{z}",
	    "vmovdqu64\t$f($ins), $set->{ptr}\{$kall}{z}",
	    "vmovdqu64\t$f($lens), $$t[0]\{$kall}{z}",
	    "vpsrlq\t\$4, $$t[0], $$t[0]",
	    "vmovdqa64\t$$t[0], " . count_slot($set),
	    "vpcmpuq\t\$1, " . count_slot($set) . ", $STEP, $set->{next}",	# 0 < count
	    (map { gather($set, $$g[$_], $kall, (8 * $_) . "(,$sp,1)") } 0..2),
	    (map { gather($set, $$r[$_], $kall, (24 + 8 * $_) . "(,$sp,1)") } 0..1),
	    to_radix44($g, @$t[1, 2]),
	    to_radix44([@$r[0, 1]], @$t[1, 2], $$r[2]),
	    (map { ("vpxorq\t$$t[$_], $$t[$_], $$t[$_]",
		    "vpmadd52luq\t@{[c(20)]}, $$r[$_ + 1], $$t[$_]",
		    "vmovdqa64\t$$t[$_], " . s_slot($set, $_)) } 0..1));
}

# g = h + the first block.
sub first_block_ops {
	my ($set) = @_;
	my ($g, $t) = ($set->{g}, $set->{t});
	return (block_ops($set), map("vpaddq\t$$t[2 * $_], $$g[$_], $$g[$_]", 0..2));
}

# h back to radix 2^64, carried so that h2 <= 4, and scattered into the
# set's contexts.
sub teardown {
	my ($set) = @_;
	my ($g, $t) = ($set->{g}, $set->{t});
	my ($c, $sp) = @$t[0, 5];
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
	    "vmovdqu64\t$set->{first}($sts), $sp\{$kall}{z}",
	    map { ("kmovw\t$kall, $set->{kg}",
		   "vpscatterqq\t$$g[$_], " . (8 * $_) . "(,$sp,1)\{$set->{kg}}") } 0..2);
}

# The whole job for sets A and B, or A alone (n <= 8); $l: a label number.
sub run {
	my ($l, @sets) = @_;
	setup($_) for @sets;
	my @next = map($_->{next}, @sets);
	push @next, $next[0] if @next == 1;
	ops("kortestw\t$next[0], $next[1]", "jz\t${l}2f");
	interleave(each_set(\&first_block_ops, @sets));
	code(".p2align 4\n${l}1:\n");
	ops((map { "kmovw\t$_->{next}, $_->{busy}" } @sets),
	    "vpaddq\t@{[c(1)]}, $STEP, $STEP",
	    "addq\t\$16, $off",
	    map { "vpcmpuq\t\$1, " . count_slot($_) . ", $STEP, $_->{next}" } @sets);
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
@{[join('', map { "\tmovq\t\$$_, $C{$_}(%rsp)\n" } sort { $a <=> $b } keys %C)]}	vpxorq	$STEP, $STEP, $STEP
	xorl	%r8d, %r8d
	cmpq	\$8, $n
	ja	5f
___
run(1, \%A);
code("\tjmp\t9f\n5:\n");
run(3, \%A, \%B);
code("9:\n\tvpxorq\t%zmm0, %zmm0, %zmm0\t\t# wipe s = 20 r\n");
ops(map("vmovdqa64\t%zmm0, " . s_slot($_->[0], $_->[1]), [\%A, 0], [\%A, 1], [\%B, 0], [\%B, 1]));
code(zmm_hi_wipe() . "\tvzeroupper\n" . realigned_frame_end() . "\tret\n");
function_end('zinc_poly1305_many_ifma');

asm_close($file);
