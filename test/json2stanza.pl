#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
#
# Turns AEAD test-vector JSON into evp_test-like stanzas that the C tests
# read with zt_stanza_next() (C has no JSON parser here).
#
#   json2stanza.pl FILE.json [FILE.exp]
#
# Wycheproof AEAD files (testGroups[].tests[]) give one stanza per test:
#   Cipher, TcId, Comment, Result (valid/invalid/acceptable), IVSize (bits),
#   Key, IV, AAD, Plaintext, Ciphertext (without tag), Tag.
# libsodium's aead_xchacha20poly1305_tv.json gives its three encryptions
# (with AD, without, without in place: InPlace = 1); with the .exp file,
# its three expected outputs again, each as ciphertext || tag, so that the
# JSON transcription is checked against libsodium's own expected output.
use strict;
use warnings;
use JSON::PP;

die "usage: $0 FILE.json [FILE.exp]\n" unless @ARGV == 1 || @ARGV == 2;

sub slurp {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "$path: $!\n";
	local $/;
	my $text = <$fh>;
	close($fh);
	return $text;
}

sub oneline {
	my ($s) = @_;
	$s =~ s/\s+/ /g;
	return $s;
}

sub stanza {
	my (@kv) = @_;
	while (my ($k, $v) = splice(@kv, 0, 2)) {
		print "$k = $v\n";
	}
	print "\n";
}

my $json = decode_json(slurp($ARGV[0]));

if (exists $json->{testGroups}) {
	my $cipher = $json->{algorithm} eq 'XCHACHA20-POLY1305'
		? 'XChaCha20-Poly1305' : 'ChaCha20-Poly1305';
	for my $group (@{$json->{testGroups}}) {
		for my $t (@{$group->{tests}}) {
			stanza(Cipher => $cipher, TcId => $t->{tcId},
			       Comment => oneline($t->{comment}),
			       Result => $t->{result}, IVSize => $group->{ivSize},
			       Key => $t->{key}, IV => $t->{iv}, AAD => $t->{aad},
			       Plaintext => $t->{msg}, Ciphertext => $t->{ct},
			       Tag => $t->{tag});
		}
	}
} elsif (exists $json->{ciphertext_with_tag_with_ad}) {
	my @cases = ([ 'with AD', $json->{ad}, 0, $json->{ciphertext_with_tag_with_ad} ],
		     [ 'no AD', '', 0, $json->{ciphertext_with_tag_no_ad} ],
		     [ 'no AD, in place', '', 1, $json->{ciphertext_with_tag_no_ad_inplace} ]);
	my $mlen = length($json->{message});
	my $split = sub {
		my ($what, $ct) = @_;
		die "$what: not ciphertext || 16-byte tag\n" unless length($ct) == $mlen + 32;
		return (Ciphertext => substr($ct, 0, $mlen), Tag => substr($ct, $mlen));
	};
	for my $c (@cases) {
		stanza(Cipher => 'XChaCha20-Poly1305', Comment => "libsodium tv, JSON, $c->[0]",
		       Result => 'valid', InPlace => $c->[2], Key => $json->{key},
		       IV => $json->{nonce}, AAD => $c->[1], Plaintext => $json->{message},
		       $split->("JSON $c->[0]", $c->[3]));
	}
	if (@ARGV == 2) {
		my @bytes = slurp($ARGV[1]) =~ /0x([0-9a-fA-F]{2})/g;
		my $chunk = $mlen / 2 + 16;
		die "$ARGV[1]: expected 3 outputs of $chunk bytes\n" unless @bytes == 3 * $chunk;
		for my $i (0 .. 2) {
			my $c = $cases[$i];
			my $ct = lc(join('', @bytes[$i * $chunk .. ($i + 1) * $chunk - 1]));
			stanza(Cipher => 'XChaCha20-Poly1305', Comment => "libsodium tv, .exp, $c->[0]",
			       Result => 'valid', InPlace => $c->[2], Key => $json->{key},
			       IV => $json->{nonce}, AAD => $c->[1], Plaintext => $json->{message},
			       $split->(".exp $c->[0]", $ct));
		}
	}
} else {
	die "$ARGV[0]: neither a Wycheproof AEAD file nor libsodium's XChaCha20-Poly1305 vector\n";
}
