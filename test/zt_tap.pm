# SPDX-License-Identifier: Apache-2.0
#
# TAP output for the test scripts' Perl parts (perl -I"$ZINC_SRCDIR/test"):
# tap(OK, TEXT, DIAGNOSTICS...) prints one check, the diagnostics only when
# it fails; tap_skip(REASON) one skipped check; tap_done() the plan, and is
# true if nothing failed.
package zt_tap;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT = qw(tap tap_skip tap_done);

my ($n, $failed) = (0, 0);

sub tap {
	my ($ok, $what, @diag) = @_;
	$n++;
	$failed++ unless $ok;
	print(($ok ? "ok" : "not ok"), " $n - $what\n");
	print "# $_\n" for $ok ? () : @diag;
	return $ok;
}

sub tap_skip {
	my ($why) = @_;
	$n++;
	print "ok $n # SKIP $why\n";
}

sub tap_done {
	print "1..$n\n";
	return $failed == 0;
}

1;
