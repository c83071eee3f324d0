#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
#
# Writes the seed corpora, fuzz/corpus/TARGET/NAME: a handful of small
# inputs per target, laid out as each target reads its input (see the
# fuzz_*.c files).  Deterministic; run from the source tree as
# `perl fuzz/corpus.pl fuzz/corpus` and commit the result.
use strict;
use warnings;
use Digest::SHA qw(sha256);
use File::Path qw(make_path);
use MIME::Base64 qw(encode_base64);

my $out = shift // die "usage: corpus.pl OUTDIR\n";

# Deterministic filler: SHA-256 in counter mode over a label.
sub bytes {
	my ($label, $len) = @_;
	my $s = '';
	for (my $i = 0; length($s) < $len; $i++) {
		$s .= sha256("$label/$i");
	}
	return substr($s, 0, $len);
}

sub put {
	my ($target, $name, $data) = @_;
	make_path("$out/$target");
	open(my $f, '>:raw', "$out/$target/$name") or die "$out/$target/$name: $!\n";
	print $f $data;
	close($f) or die "$!\n";
}

# Stream ciphers and MACs: a flags byte, then key material and lengths, then data.
for my $t (qw(fuzz_chacha20 fuzz_chacha20_poly1305 fuzz_xchacha20_poly1305
	      fuzz_poly1305 fuzz_blake2smac fuzz_blake2s256)) {
	my $i = 0;
	for my $case ([0, 0], [64, 1], [200, 6], [700, 3], [2100, 13]) {
		my ($len, $flags) = @$case;
		put($t, sprintf('seed-%02d', $i++), chr($flags) . bytes("$t/$len/$flags", $len + 120));
	}
}

# X25519: flags, private key, peer bytes (see fuzz_x25519.c for the lengths).  RFC 7748's keys, then peers that
# must be refused (small order) or reduced (not canonical).
my $alice = pack('H*', '77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a');
my $bob_pub = pack('H*', 'de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f');
my @peers = (
	$bob_pub,
	"\0" x 32,
	"\1" . "\0" x 31,
	pack('H*', 'e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800'),
	pack('H*', 'ec' . 'ff' x 30 . '7f'),	# p - 1
	pack('H*', 'ed' . 'ff' x 30 . '7f'),	# p
	pack('H*', 'ee' . 'ff' x 30 . 'ff'),	# p + 1, top bit set
);
my $i = 0;
for my $peer (@peers) {
	put('fuzz_x25519', sprintf('seed-%02d', $i++), "\0" . $alice . $peer . "\0" x 8);
}
put('fuzz_x25519', sprintf('seed-%02d', $i++), "\3\x1f" . $alice . $bob_pub . "\0" x 8);
# Both keys through fromdata's "priv" and "pub".
put('fuzz_x25519', sprintf('seed-%02d', $i++), "\x18" . $alice . $bob_pub . "\0" x 8);

# Decoders: a byte choosing selection (bits 0-1) and structure (bits 2-3),
# then a key in DER or PEM (RFC 8410's layouts).
my $alice_pub = pack('H*', '8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
my %der = (
	spki => pack('H*', '302a300506032b656e032100') . $alice_pub,
	pkcs8 => pack('H*', '302e020100300506032b656e04220420') . $alice,
	pkcs8v2 => pack('H*', '3051020101300506032b656e04220420') . $alice .
		   pack('H*', '812100') . $alice_pub,
);
my %label = (spki => 'PUBLIC KEY', pkcs8 => 'PRIVATE KEY', pkcs8v2 => 'PRIVATE KEY');
for my $k (sort keys %der) {
	for my $sel (0 .. 3, $k eq 'spki' ? 4 : 8) {
		my $pem = "-----BEGIN $label{$k}-----\n" . encode_base64($der{$k}) .
			  "-----END $label{$k}-----\n";
		put('fuzz_x25519_der', "$k-$sel", chr($sel) . $der{$k});
		put('fuzz_x25519_pem', "$k-$sel", chr($sel) . $pem);
	}
}
