#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Walks docs/misuse.md against the tests (TAP: a line per table and one per
# program, as the programs count the misuses themselves).  The misuse
# programs run here; every row of the document's tables must match an "ok"
# line of its program: a row with a reason needs a line that gives exactly
# that reason (and, when the line shows it, the same return value; a line
# saying zinc is stricter than default needs the row to say so too), a row
# without one ("—") needs a line with exactly its text.  Conversely, every
# line of those programs that gives a zinc reason ('fails with "REASON"',
# 'zinc says', 'zinc raised', "the error is zinc's") must be a row of the
# document.
#
# A table belongs to the program named by the comment above it:
#   <!-- misuse-table: PROGRAM prefix="TEXT" [since="MAJOR.MINOR"] -->
# and a row's first cell, after that prefix, is the TAP line's text before
# its reason (a cell starting with "… " takes no prefix).  Columns: misuse |
# returns | reason | against default.  A table with since= is checked only
# on that OpenSSL or later (ZINC_CRYPTO_VERSION, the configured libcrypto),
# and is a skip before.
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR,
# ZINC_CRYPTO_VERSION and what the programs need.
set -u

builddir=${ZINC_BUILDDIR:?}
doc=${ZINC_SRCDIR:?}/docs/misuse.md
programs=(test_cipher_misuse test_mac_misuse test_x25519_evp test_x25519_encoding
	  test_primitives test_provider test_skey test_x25519_dhkem test_pipeline)

if [ ! -r "$doc" ]; then
	printf '1..1\nnot ok 1 - %s not found\n' "$doc"
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for p in "${programs[@]}"; do
	"$builddir/test/$p" >"$tmp/$p" 2>&1
done

perl -w -I"${ZINC_SRCDIR:?}/test" - "$doc" "$tmp" "${ZINC_CRYPTO_VERSION:?}" "${programs[@]}" <<'EOF'
use strict;
use zt_tap;

my ($doc, $dir, $running, @programs) = @ARGV;
my ($major, $minor) = $running =~ /^(\d+)\.(\d+)/ or die "version \"$running\"?\n";
my $marker = qr/(?:fails with|zinc says|zinc raised|the error is zinc's) "([^"]*)"/;
my (%lines, %refusals);	# program -> text -> 1; program -> key -> [reason, ret, strict]

# The programs' "ok" lines: a refusal's key is the text before its reason,
# or the line before it when nothing precedes the reason.
for my $p (@programs) {
	my $prev = '';
	open(my $fh, '<', "$dir/$p") or die "$dir/$p: $!";
	while (<$fh>) {
		chomp;
		next unless /^ok \d+ - (.*)$/;
		my $text = $1;
		$lines{$p}{$text} = 1;
		if ($text =~ /^(.*?)$marker(.*)$/) {
			my ($key, $reason, $rest) = ($1, $2, $3);
			$key =~ s/^\s+|[\s:]+$//g;
			my $strict = $key =~ s/ \(zinc is stricter than default\)$//;
			$key = $prev if $key eq '';
			my $ret = $rest =~ /\(returned (-?\d+)/ ? $1 : undef;
			$refusals{$p}{$key} = [$reason, $ret, $strict];
		}
		$prev = $text;
	}
	close($fh);
}

# The document's rows: what is wrong with each program's, if anything.
my ($prog, $prefix, $since, %rowed, %rows, %wrong, %later);
open(my $dh, '<', $doc) or die "$doc: $!";
while (<$dh>) {
	chomp;
	if (/<!-- misuse-table: (\S+) prefix="([^"]*)"(?: since="(\d+)\.(\d+)")? -->/) {
		($prog, $prefix) = ($1, $2);
		$since = defined $3 && ($3 > $major || ($3 == $major && $4 > $minor)) ? "$3.$4"
										     : undef;
		die "$doc line $.: $prog is not walked here\n" unless grep { $_ eq $prog } @programs;
		next;
	}
	if (!/^\|/) {
		undef $prog if /^#/;
		next;
	}
	next unless defined $prog;
	my @cell = map { s/^\s+|\s+$//gr } split(/\|/, substr($_, 1), -1);
	next if $cell[0] eq 'Misuse' || $cell[0] =~ /^-+$/;
	my ($what, $returns, $reason, $default) = @cell;
	my $key = $what =~ s/^… // ? $what : $prefix . $what;
	if (defined $since) {
		$later{$prog}{$since}++;
		next;
	}
	my $w = $wrong{$prog} //= [];
	$rows{$prog}++;
	if ($rowed{$prog}{$key}++) {
		push @$w, "\"$key\" is in the table twice";
		next;
	}
	if ($reason eq '—') {
		push @$w, $lines{$prog}{$key}
			? "\"$key\": the test gives a reason, the table none"
			: "\"$key\": no such line in the output of $prog"
			if !$lines{$prog}{$key} || $refusals{$prog}{$key};
		next;
	}
	$reason =~ s/^`(.*)`$/$1/;
	my $r = $refusals{$prog}{$key};
	if (!$r) {
		push @$w, "\"$key\": no line of $prog refuses this";
		next;
	}
	push @$w, "\"$key\": $prog says \"$r->[0]\", the table \"$reason\""
		if $r->[0] ne $reason;
	push @$w, "\"$key\": $prog returned $r->[1], the table says \"$returns\""
		if defined $r->[1] && $returns !~ /^\Q$r->[1]\E\b/;
	push @$w, "\"$key\": $prog says zinc is stricter than default, the table does not"
		if $r->[2] && $default !~ /stricter than default/;
}
close($dh);
tap(scalar(keys %rows) + scalar(keys %later), "docs/misuse.md has rows");
# One check per table: its rows restate checks the programs count themselves.
for my $p (grep { $rows{$_} } @programs) {
	tap(!@{$wrong{$p}}, "docs/misuse.md: the $rows{$p} row" . ($rows{$p} == 1 ? "" : "s") .
	    " for $p match its output", @{$wrong{$p}});
}
for my $p (grep { $later{$_} } @programs) {
	for my $v (sort keys %{$later{$p}}) {
		tap_skip("docs/misuse.md: the $later{$p}{$v} rows for $p need OpenSSL $v, " .
			 "this is $running");
	}
}

# Every refusal of the programs is a row.
for my $p (@programs) {
	my @missing = grep { !$rowed{$p}{$_} } sort keys %{$refusals{$p} // {}};
	tap(!@missing, "$p: each of its " . scalar(keys %{$refusals{$p} // {}}) .
	    " refusals with a reason is in the table",
	    map { "missing: \"$_\" fails with \"$refusals{$p}{$_}[0]\"" } @missing);
}
exit(tap_done() ? 0 : 1);
EOF
exit $?
