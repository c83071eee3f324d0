#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
#
# Writes the seed corpora, OUTDIR/TARGET/NAME, laid out as each target reads
# its input (see the fuzz_*.c files): a few synthetic inputs per target, and
# one or more per test vector of the suites in VECTORS (../shared/vectors,
# see its MANIFEST.md) that fit the target.  Run at build time by fuzz/run.sh
# and fuzz/ci.sh, never committed: fuzz/corpus/ holds only what the fuzzers
# grew.  Without VECTORS (or when it is absent) only the synthetic seeds are
# written, and a line on stderr says so.  Deterministic.
#
#   corpus.pl OUTDIR [VECTORS]
use strict;
use warnings;
use Digest::SHA qw(sha256);
use File::Path qw(make_path);
use JSON::PP qw(decode_json);
use MIME::Base64 qw(encode_base64);

my $out = shift // die "usage: corpus.pl OUTDIR [VECTORS]\n";
my $vectors = shift;

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

# A vector's seed is named after its content: the suites repeat inputs.
sub put_vector {
	my ($target, $suite, $data) = @_;
	put($target, "$suite-" . unpack('H16', sha256($data)), $data);
}

sub u16 { return pack('v', $_[0]); }	# fz_below()'s two bytes
# Exactly len bytes: cut, or zero-padded.
sub fit { my ($s, $len) = @_; return substr($s . "\0" x $len, 0, $len); }

# Stream ciphers and MACs: a flags byte, then key material and lengths, then data.
for my $t (qw(fuzz_chacha20 fuzz_chacha20_poly1305 fuzz_xchacha20_poly1305
	      fuzz_poly1305 fuzz_blake2smac fuzz_blake2s256 fuzz_pipeline)) {
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

# --- seeds from the shared vectors ------------------------------------------
if (!defined $vectors || !-d $vectors) {
	print STDERR "corpus.pl: no vectors directory", defined $vectors ? " at $vectors" : '',
		     ": synthetic seeds only\n";
	exit 0;
}

sub slurp {
	my ($path) = @_;
	open(my $f, '<:raw', "$vectors/$path") or die "$vectors/$path: $!\n";
	local $/;
	my $s = <$f>;
	close($f);
	return $s;
}

# Wycheproof: every test of every group, as [group, test].
sub wycheproof {
	my $json = decode_json(slurp("wycheproof/testvectors_v1/$_[0]"));
	return map { my $g = $_; map { [$g, $_] } @{$g->{tests}} } @{$json->{testGroups}};
}

# OpenSSL evp_test stanzas whose first line is "$kind = $name" (case aside):
# hashes of their fields, the values as bytes (hex, or ASCII in quotes).
sub evp_stanzas {
	my ($file, $kind, $name) = @_;
	my @found;
	for my $block (split /\n\s*\n/, slurp("openssl/30-test_evp_data/$file")) {
		my %s;
		for (split /\n/, $block) {
			next if /^\s*#/ || !/^\s*([\w-]+)\s*=\s*(.*?)\s*$/;
			my ($k, $v) = ($1, $2);
			$s{$k} = $v =~ /^"(.*)"$/ ? $1 : $k =~ /^(Cipher|MAC|Digest|Ctrl|Operation|Result)$/
				? $v : pack('H*', $v);
		}
		push @found, \%s if defined $s{$kind} && lc $s{$kind} eq lc $name;
	}
	return @found;
}

sub hex2bin { return pack('H*', $_[0] // ''); }

# ChaCha20 (evp_test): flags (1 encrypt, 2 in place), key, IV, a second key
# and IV, the split seed, the cut, the data; encryption and in-place decryption.
for my $s (evp_stanzas('evpciph_chacha.txt', 'Cipher', 'chacha20')) {
	next unless length($s->{Key} // '') == 32 && length($s->{IV} // '') == 16;
	my $n = 0;
	for ([1, $s->{Plaintext}], [2, $s->{Ciphertext}]) {
		my ($flags, $data) = @$_;
		next unless defined $data;
		put_vector('fuzz_chacha20', 'evp', chr($flags) . $s->{Key} . $s->{IV} . "\0" x 48 .
			   bytes('split' . $n++, 8) . u16(length($data) / 2) . $data);
	}
}

# ChaCha20-Poly1305: flags (8: an IV length byte follows, set as a parameter;
# 16: a cut follows), key, 12-byte nonce, the split seed, the AAD's length
# and the AAD, 16 choice bytes (the first: 1 to flip a bit of the tag), the
# message.  A stanza or test that must fail has the tag flipped.
my $cp = 0;
sub cp_seed {
	my ($suite, $key, $iv, $aad, $msg, $bad) = @_;
	my ($flags, $extra) = (0, '');
	if (length($iv) != 12) {
		$flags |= 8;
		$extra .= chr(length($iv) % 32);
	}
	if ($cp++ % 2) {
		$flags |= 16;
		$extra .= u16(length($msg) / 2);
	}
	$aad = substr($aad, 0, 511);
	put_vector('fuzz_chacha20_poly1305', $suite, chr($flags) . $extra . fit($key, 32) .
		   fit($iv, 12) . bytes("split$cp", 8) . u16(length($aad)) . $aad .
		   fit($bad ? "\1" : '', 16) . $msg);
	# The same through the TLS interface: one record.
	put_vector('fuzz_chacha20_poly1305', $suite, "\1" . fit($key, 32) . fit($iv, 12) .
		   bytes("split$cp", 8) . u16(0) . "\0" x 16 . substr($msg, 0, 16368))
		if length($iv) == 12 && $cp % 8 == 0;
}
for my $s (evp_stanzas('evpciph_chacha.txt', 'Cipher', 'chacha20-poly1305')) {
	cp_seed('evp', $s->{Key} // '', $s->{IV} // '', $s->{AAD} // '',
		$s->{Plaintext} // '', defined $s->{Result});
}
for (wycheproof('chacha20_poly1305_test.json')) {
	my $t = $_->[1];
	cp_seed('wycheproof', hex2bin($t->{key}), hex2bin($t->{iv}), hex2bin($t->{aad}),
		hex2bin($t->{msg}), $t->{result} eq 'invalid');
}

# XChaCha20-Poly1305: flags (1 in place, bits 1-2 where a bit is flipped),
# that bit, the tag length less one, where, the AAD's length, key, nonce,
# the split seed, the AAD, the message.
my $xc = 0;
sub xc_seed {
	my ($suite, $key, $nonce, $aad, $msg) = @_;
	$aad = substr($aad, 0, 511);
	put_vector('fuzz_xchacha20_poly1305', $suite, chr(($xc % 2) | (($xc % 3) << 1)) .
		   chr($xc % 8) . chr(15) . u16($xc * 7) . u16(length($aad)) . fit($key, 32) .
		   fit($nonce, 24) . bytes("split$xc", 8) . $aad . $msg);
	$xc++;
}
for (wycheproof('xchacha20_poly1305_test.json')) {
	my $t = $_->[1];
	xc_seed('wycheproof', hex2bin($t->{key}), hex2bin($t->{iv}), hex2bin($t->{aad}),
		hex2bin($t->{msg}));
}
{
	my $tv = decode_json(slurp('libsodium/aead_xchacha20poly1305_tv.json'));
	for my $aad ($tv->{ad}, '') {
		xc_seed('libsodium', hex2bin($tv->{key}), hex2bin($tv->{nonce}), hex2bin($aad),
			hex2bin($tv->{message}));
	}
}

# Poly1305 (evp_test): flags (8: the key as a parameter, 4: init again), a
# 48-byte key field, the split seed, the cut, the message.
{
	my $n = 0;
	for my $s (evp_stanzas('evpmac_poly1305.txt', 'MAC', 'Poly1305')) {
		next unless length($s->{Key} // '') == 32 && defined $s->{Input};
		put_vector('fuzz_poly1305', 'evp', chr(($n % 2) * 8 | ($n % 3 == 0) * 4) .
			   fit($s->{Key}, 48) . bytes('split' . $n, 8) .
			   u16(length($s->{Input}) / 2) . $s->{Input});
		$n++;
	}
}

# BLAKE2S-256: flags, a size, an XOF length, the cut, the split seed, the message.
{
	my @msgs = map { $_->{Input} // '' } evp_stanzas('evpmd_blake.txt', 'Digest', 'BLAKE2s256');
	my $kat = decode_json(slurp('blake2/testvectors/blake2-kat.blake2s-only.json'));
	my @unkeyed = map { hex2bin($_->{in}) } grep { $_->{key} eq '' } @$kat;
	my $n = 0;
	for my $msg (@msgs, @unkeyed) {
		put_vector('fuzz_blake2s256', $n < @msgs ? 'evp' : 'blake2', chr($n % 2) . chr(32) .
			   chr(32) . u16(length($msg) / 3) . bytes('split' . $n, 8) . $msg);
		$n++;
	}
}

# BLAKE2SMAC: flags, which parameters (1 "size" as size_t, 8 "key", 16
# "salt", 32 "custom", 64 a key to init), the key, second key, salt and
# custom lengths, the size, an int size, then the key, second key, salt and
# custom fields, the split seed, the cut, the message.
sub b2mac_seed {
	my ($suite, $n, $key, $msg, $salt, $custom, $size) = @_;
	my $which = $n % 2 ? 64 : 8;
	$which |= 16 if defined $salt;
	$which |= 32 if defined $custom;
	$which |= 1 if defined $size || $n % 3 == 0;
	put_vector('fuzz_blake2smac', $suite, chr($n % 4) . chr($which) . chr(length($key)) .
		   chr(length($key)) . chr(length($salt // '')) . chr(length($custom // '')) .
		   chr($size // 32) . chr(32) . fit($key, 40) . fit($key, 40) . fit($salt // '', 12) .
		   fit($custom // '', 12) . bytes("split$n", 8) . u16(length($msg) / 2) . $msg);
}
{
	my $n = 0;
	for (split /\n\s*\n/, slurp('blake2/testvectors/blake2s-kat.txt')) {
		next unless /in:\s*([0-9a-f]*)\s*\nkey:\s*([0-9a-f]*)/;
		b2mac_seed('blake2', $n++, hex2bin($2), hex2bin($1));
	}
	for my $s (evp_stanzas('evpmac_blake.txt', 'MAC', 'BLAKE2SMAC')) {
		my ($size) = ($s->{Ctrl} // '') =~ /^size:(\d+)$/;
		b2mac_seed('evp', $n++, $s->{Key} // '', $s->{Input} // '', $s->{Salt}, $s->{Custom},
			   $size);
	}
}

# X25519 derive: flags (8: the private key through fromdata, 16: the peer's),
# private key, peer key and 8 more bytes of each.
{
	my $n = 0;
	my $x = sub {
		my ($suite, $priv, $pub) = @_;
		put_vector('fuzz_x25519', $suite, chr(($n++ % 4) << 3) . fit($priv, 32) .
			   fit($pub, 40) . "\0" x 8);
	};
	$x->('wycheproof', hex2bin($_->[1]{private}), hex2bin($_->[1]{public}))
		for wycheproof('x25519_test.json');
	my %raw = slurp('openssl/30-test_evp_data/evppkey_ecx.txt') =~
		/^(?:PrivateKeyRaw|PublicKeyRaw)\s*=\s*([\w-]+):X25519:([0-9a-f]+)$/mg;
	for my $who (qw(Alice Bob)) {
		my $peer = $who eq 'Alice' ? 'Bob' : 'Alice';
		$x->('evp', hex2bin($raw{"$who-25519-Raw"}), hex2bin($raw{"$peer-25519-PUBLIC-Raw"}))
			if defined $raw{"$who-25519-Raw"} && defined $raw{"$peer-25519-PUBLIC-Raw"};
	}
}

# Decoders: the selection byte (any, or the part the key holds, with its
# structure), then Wycheproof's DER and PEM keys and evp_test's PEM blocks.
{
	my $n = 0;
	my $sel = sub { my ($private) = @_; return chr($n++ % 2 ? ($private ? 1 | 8 : 2 | 4) : 0); };
	for (wycheproof('x25519_asn_test.json')) {
		put_vector('fuzz_x25519_der', 'wycheproof', $sel->(0) . hex2bin($_->[1]{public}));
		put_vector('fuzz_x25519_der', 'wycheproof', $sel->(1) . hex2bin($_->[1]{private}));
	}
	for (wycheproof('x25519_pem_test.json')) {
		put_vector('fuzz_x25519_pem', 'wycheproof', $sel->(0) . $_->[1]{public});
		put_vector('fuzz_x25519_pem', 'wycheproof', $sel->(1) . $_->[1]{private});
	}
	for (slurp('openssl/30-test_evp_data/evppkey_ecx.txt') =~
	     /(-----BEGIN (?:PUBLIC|PRIVATE) KEY-----\n.*?-----END [A-Z ]+-----\n)/sg) {
		put_vector('fuzz_x25519_pem', 'evp', $sel->(/PRIVATE/) . $_);
	}
}
