#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# The layers of the code, read from the symbol tables of the built objects
# (TAP).  An object depends on another when it refers to a symbol the other
# defines.  The generated assembly refers to nothing of the C, the
# primitives (provider/crypto) to nothing of the provider glue, and no
# object depends on itself through a chain of others: the code has no
# circle, so each layer can be read, tested and replaced below the next.
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR, ZINC_NM.
set -u

builddir=${ZINC_BUILDDIR:?}
read -r -a nm <<<"${ZINC_NM:-nm}"

perl -w -I"${ZINC_SRCDIR:?}/test" - "$builddir" "${nm[@]}" <<'PERL'
use strict;
use zt_tap;

my ($builddir, @nm) = @ARGV;

# libtool's objects: generated/.libs/X.o, provider/crypto/.libs/libzinccrypto_la-X.o,
# provider/.libs/zinc_la-X.o.  Named here by their source, with their layer.
my (%layer, %path, %defines, %refers);
for my $dir ('generated', 'provider/crypto', 'provider') {
	for my $o (glob("$builddir/$dir/.libs/*.o")) {
		(my $name = $o) =~ s{.*/\.libs/(?:libzinccrypto_la-|zinc_la-)?}{};
		$name = "$dir/$name";
		$layer{$name} = $dir;
		$path{$name} = $o;
	}
}
tap(scalar(grep { $layer{$_} eq 'provider/crypto' } keys %layer) > 0 &&
    scalar(grep { $layer{$_} eq 'provider' } keys %layer) > 0,
    "the objects of the primitives and of the glue are under $builddir");
for my $o (sort keys %path) {
	open(my $fh, '-|', @nm, $path{$o}) or die "@nm $path{$o}: $!";
	while (<$fh>) {
		if (/^\s+U (\S+)$/) {
			$refers{$o}{$1} = 1;
		} elsif (/^\S+ [A-Z] (\S+)$/) {
			$defines{$1} = $o;
		}
	}
	close($fh) or die "@nm $path{$o} failed\n";
}
my %edges;	# object -> object it depends on -> a symbol
for my $o (keys %refers) {
	for my $sym (keys %{$refers{$o}}) {
		my $d = $defines{$sym};
		$edges{$o}{$d} //= $sym if defined $d && $d ne $o;
	}
}

# Layer by layer: what each may depend on.
my %below = ('generated' => ['generated'],
	     'provider/crypto' => ['provider/crypto', 'generated'],
	     'provider' => ['provider', 'provider/crypto']);
my %what = ('generated' => 'the generated assembly refers to nothing of the C',
	    'provider/crypto' => 'the primitives refer to nothing of the provider glue',
	    'provider' => 'the provider glue calls the primitives, not their assembly');
for my $l ('generated', 'provider/crypto', 'provider') {
	my @wrong;
	for my $o (sort grep { $layer{$_} eq $l } keys %layer) {
		for my $d (sort keys %{$edges{$o} // {}}) {
			push @wrong, "$o -> $d ($edges{$o}{$d})"
				unless grep { $_ eq $layer{$d} } @{$below{$l}};
		}
	}
	tap(!@wrong, $what{$l}, @wrong);
}

# A circle: a depth-first walk that comes back to an object on its path.
my (%state, @stack, @circle);	# state: 1 on the path, 2 done
sub walk {
	my ($o) = @_;
	$state{$o} = 1;
	push @stack, $o;
	for my $d (sort keys %{$edges{$o} // {}}) {
		last if @circle;
		if (($state{$d} // 0) == 1) {
			my $i = 0;
			$i++ while $stack[$i] ne $d;
			@circle = (@stack[$i .. $#stack], $d);
		} elsif (!$state{$d}) {
			walk($d);
		}
	}
	pop @stack;
	$state{$o} = 2;
}
for my $o (sort keys %layer) {
	walk($o) unless $state{$o} || @circle;
}
tap(!@circle, scalar(keys %layer) . " objects, no circle among them",
    "circle: " . join(' -> ', @circle));
exit(tap_done() ? 0 : 1);
PERL
