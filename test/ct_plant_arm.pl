#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
#
# Plants a leak in a copy of the generated ARM Poly1305 assembly, for
# test/test_ct_qemu_trace.sh to prove that the qemu plugin reports it:
#
#   ct_plant_arm.pl branch|index IN.S OUT.S
#
# In the scalar block function (zinc_poly1305_blocks_armv8 or _armv4), once
# the block count is known not to be zero, the lowest byte of the clamped
# key r (secret) is read, then
#   branch: a nop is skipped or not on its bit 0;
#   index:  a byte of the context is loaded at index (that byte & 15).
# Only scratch registers change (x10 before the loop loads it; ip after the
# prologue has saved what it must), and no result: the sums stay right.
use strict;
use warnings;

my ($kind, $in, $out) = @ARGV;
die "usage: $0 branch|index IN.S OUT.S\n"
	unless defined $out && ($kind eq 'branch' || $kind eq 'index');
open(my $fh, '<', $in) or die "$in: $!\n";
my @lines = <$fh>;
close($fh);

# Each flavour: the function, the line after which to plant, the plant.
my %plant = (
	armv8 => {
		func => 'zinc_poly1305_blocks_armv8',
		after => qr/^\s*cbz\s+x2,/,
		branch => [ "ldrb\tw10, [x0, #24]", "tbz\tw10, #0, 1f", "nop", "1:" ],
		index => [ "ldrb\tw10, [x0, #24]", "and\tx10, x10, #15", "ldrb\tw10, [x0, x10]" ],
	},
	armv4 => {
		func => 'zinc_poly1305_blocks_armv4',
		after => qr/^\s*sub\s+sp,\s*sp,\s*#/,
		branch => [ "ldrb\tr12, [r0, #20]", "tst\tr12, #1", "beq\t1f", "nop", "1:" ],
		index => [ "ldrb\tr12, [r0, #20]", "and\tr12, r12, #15", "ldrb\tr12, [r0, r12]" ],
	},
);

my ($flavour) = grep { my $f = $plant{$_}{func}; grep { /^\Q$f\E:/ } @lines } sort keys %plant;
die "$in: no zinc_poly1305_blocks_armv8 or _armv4 defined\n" unless $flavour;
my $p = $plant{$flavour};
my ($in_func, $done) = (0, 0);
my @result;
for my $line (@lines) {
	push @result, $line;
	$in_func = 1 if $line =~ /^\Q$p->{func}\E:/;
	$in_func = 0 if $line =~ /^\.size\s/;
	if ($in_func && !$done && $line =~ $p->{after}) {
		push @result, "\t// planted by test/ct_plant.pl: $kind on a secret byte\n";
		push @result, map { /:$/ ? "$_\n" : "\t$_\n" } @{ $p->{$kind} };
		$done = 1;
	}
}
die "$in: $p->{func} has no line to plant after\n" unless $done;
open($fh, '>', $out) or die "$out: $!\n";
print $fh "// A leak planted in $in (test/ct_plant.pl $kind): a test, never zinc.\n", @result;
close($fh) or die "$out: $!\n";
