#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# The openssl command line with zinc, and the AEAD file example (TAP).
#
# Everything zinc computes here is compared with OpenSSL's default provider
# run alone: `-provider-path DIR -provider zinc` loads zinc and nothing else
# (no fallback to default), so a result can only be zinc's.
#
# Environment (from Makefile.am): ZINC_MODULE_DIR, ZINC_BUILDDIR, ZINC_SRCDIR, OPENSSL.
set -u
. "${ZINC_SRCDIR:?}/test/lib.sh"

openssl=${OPENSSL:-}
[ -n "$openssl" ] || openssl=$(command -v openssl || true)
[ -n "$openssl" ] || missing_all "the openssl command is not installed"
moddir=${ZINC_MODULE_DIR:?}
builddir=${ZINC_BUILDDIR:?}
module=$moddir/zinc.so
aead_file=$builddir/docs/examples/aead-file

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Only what the command line loads; the user's openssl.cnf must not interfere.
export OPENSSL_CONF=/dev/null

# A command's output as diagnostics: text as it is, binary as a hex dump.
show() {
	if [ ! -s "$1" ]; then
		echo "# (no output)"
	elif grep -qI '' "$1"; then
		head -n 20 "$1" | diag
	else
		echo "# $(wc -c <"$1") bytes:"
		od -An -tx1 "$1" | head -n 4 | diag
	fi
}

sanitizer_run_env "$module" "$openssl"
ossl() { "${run_env[@]}" "$openssl" "$@"; }
with_zinc() { ossl "$1" -provider-path "$moddir" -provider zinc "${@:2}"; }
with_default() { ossl "$1" -provider default "${@:2}"; }

# same DESCRIPTION COMMAND-ARGS...: the command's output with zinc alone equals
# its output with default alone, and is not empty.
same() {
	local desc=$1
	shift
	with_zinc "$@" >"$tmp/zinc.out" 2>"$tmp/zinc.err"
	local zs=$?
	with_default "$@" >"$tmp/default.out" 2>"$tmp/default.err"
	local ds=$?
	if [ $zs -eq 0 ] && [ $ds -eq 0 ] && [ -s "$tmp/zinc.out" ] &&
	   cmp -s "$tmp/zinc.out" "$tmp/default.out"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		echo "# zinc (status $zs):"; show "$tmp/zinc.out"; show "$tmp/zinc.err"
		echo "# default (status $ds):"; show "$tmp/default.out"; show "$tmp/default.err"
	fi
}

# --- the provider as `openssl list -providers` shows it ----------------------
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$builddir/config.h")
with_zinc list -providers -verbose >"$tmp/providers" 2>&1
ok $? "openssl list -providers -verbose loads zinc from $moddir" || diag "$tmp/providers"
# zinc's block: from "  zinc" to the next provider.
awk '/^  [^ ]/ { in_zinc = ($1 == "zinc") } in_zinc' "$tmp/providers" >"$tmp/zinc-block"
grep -q '^    name: zinc$' "$tmp/zinc-block"
ok $? "its name is zinc"
grep -qx "    version: $version" "$tmp/zinc-block"
ok $? "its version is the package's, $version"
grep -q '^    status: active$' "$tmp/zinc-block"
ok $? "its status is active"
grep -E -q "^    build info: zinc $version; chacha20: [^;]+; poly1305: [^;]+; blake2s: [^;]+;" \
	"$tmp/zinc-block"
ok $? "its build info names each primitive's implementation" || diag "$tmp/zinc-block"
diag <(grep 'build info' "$tmp/zinc-block")
[ "$(grep -c '^  [^ ]' "$tmp/providers")" -eq 1 ]
ok $? "-provider zinc loads zinc alone (no fallback to default)" || diag "$tmp/providers"

# --- the algorithms, with the default provider's names and aliases ----------
# "{ a, b } @ p" or "a @ p" as "a b" (names sorted), for one provider's lines.
names_of() {
	awk -v p="$1" '$NF == p && $(NF - 1) == "@" {
		$NF = ""; $(NF - 1) = ""; gsub(/[{},]/, " ")
		n = split($0, w, " "); line = ""
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
		for (i = 1; i <= n; i++) line = line (i > 1 ? " " : "") w[i]
		print line
	}'
}
lists=(list -cipher-algorithms -digest-algorithms -mac-algorithms)
with_zinc "${lists[@]}" 2>&1 | names_of zinc | sort >"$tmp/zinc-algs"
with_default "${lists[@]}" 2>&1 | names_of default | sort >"$tmp/default-algs"
[ "$(wc -l <"$tmp/zinc-algs")" -eq 6 ]
ok $? "zinc lists six algorithms (ciphers, digests, MACs)" || diag "$tmp/zinc-algs"
for alg in ChaCha20 ChaCha20-Poly1305 POLY1305 BLAKE2SMAC BLAKE2S-256; do
	want=$(grep -E "(^| )$alg( |$)" "$tmp/default-algs")
	[ -n "$want" ] && grep -qxF "$want" "$tmp/zinc-algs"
	ok $? "$alg has the default provider's names: ${want:-?}" || diag "$tmp/zinc-algs"
done
grep -qx 'XChaCha20-Poly1305' "$tmp/zinc-algs"
ok $? "XChaCha20-Poly1305 is listed (zinc only)"

# --- digest and MACs: zinc alone gives what default alone gives --------------
: >"$tmp/empty"
printf 'a' >"$tmp/one"
head -c 64 /dev/urandom >"$tmp/block"
head -c 65 /dev/urandom >"$tmp/block+1"
head -c 1048579 /dev/urandom >"$tmp/big"
for f in empty one block block+1 big; do
	same "dgst -blake2s256 of $f ($(wc -c <"$tmp/$f") bytes)" dgst -blake2s256 "$tmp/$f"
done
key32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
for f in empty one big; do
	same "mac POLY1305 of $f" mac -macopt "hexkey:$key32" -in "$tmp/$f" POLY1305
	same "mac BLAKE2SMAC of $f" mac -macopt "hexkey:$key32" -in "$tmp/$f" BLAKE2SMAC
done
same "mac BLAKE2SMAC with size 16 and a 16-byte key" \
	mac -macopt hexkey:00112233445566778899aabbccddeeff -macopt size:16 \
	-in "$tmp/block+1" BLAKE2SMAC
same "mac BLAKE2SMAC with salt and personalisation" \
	mac -macopt "hexkey:$key32" -macopt hexsalt:0102030405060708 \
	-macopt custom:zinc-tst -macopt size:20 -in "$tmp/big" BLAKE2SMAC
! with_zinc mac -macopt hexkey:0011 -in "$tmp/one" POLY1305 >"$tmp/out" 2>&1 &&
	! grep -q '^[0-9A-F]\{32\}$' "$tmp/out"
ok $? "mac POLY1305 with a 2-byte key fails, printing no tag" || diag "$tmp/out"

# --- openssl enc -chacha20 ----------------------------------------------------
iv=000000000102030405060708090a0b0c
same "enc -chacha20 of 1 MB" enc -chacha20 -K "$key32" -iv "$iv" -in "$tmp/big"
# The counter (first 4 IV bytes, little-endian) passes 2^32 within the file.
same "enc -chacha20 across the 32-bit block counter boundary" \
	enc -chacha20 -K "$key32" -iv fdffffff0102030405060708090a0b0c -in "$tmp/big"
with_zinc enc -chacha20 -K "$key32" -iv "$iv" -in "$tmp/big" -out "$tmp/big.enc" 2>"$tmp/err" &&
	with_default enc -d -chacha20 -K "$key32" -iv "$iv" -in "$tmp/big.enc" \
		-out "$tmp/big.dec" 2>>"$tmp/err" &&
	cmp -s "$tmp/big" "$tmp/big.dec"
ok $? "enc -chacha20 by zinc, enc -d by default: the original" || show "$tmp/err"

# --- docs/examples/aead-file, with zinc chosen by openssl.cnf ---------------
sh "$ZINC_SRCDIR/test/openssl-cnf.sh" "$module" >"$tmp/zinc.cnf"
# aead-file is an ordinary program; in a sanitizer build it has ASan itself.
with_cnf() { OPENSSL_CONF=$tmp/zinc.cnf "$aead_file" "$@"; }
without_zinc() { OPENSSL_CONF=/dev/null "$aead_file" "$@"; }

if [ ! -x "$aead_file" ]; then
	skip 9 "docs/examples/aead-file is not built"
else
	head -c 200003 /dev/urandom >"$tmp/plain"
	for alg in chacha20-poly1305 xchacha20-poly1305; do
		case $alg in
		chacha20-poly1305) nonce=12 ;;
		*) nonce=24 ;;
		esac
		rm -f "$tmp/ct" "$tmp/pt"
		with_cnf encrypt $alg "$key32" "$tmp/plain" "$tmp/ct" 2>"$tmp/err" &&
			grep -q 'served by provider zinc$' "$tmp/err" &&
			[ "$(wc -c <"$tmp/ct")" -eq $((200003 + nonce + 16)) ] &&
			with_cnf decrypt $alg "$key32" "$tmp/ct" "$tmp/pt" 2>>"$tmp/err" &&
			cmp -s "$tmp/plain" "$tmp/pt"
		ok $? "aead-file $alg round trip through zinc" || diag "$tmp/err"

		# One flipped bit in the middle of the (valid) ciphertext.
		rm -f "$tmp/bad" "$tmp/out" "$tmp/out.tmp"
		if [ -s "$tmp/ct" ]; then
			cp "$tmp/ct" "$tmp/bad"
			byte=$(od -An -tu1 -j 100000 -N 1 "$tmp/bad" | tr -d ' ')
			printf '%b' "\\0$(printf %o $((byte ^ 4)))" |
				dd of="$tmp/bad" bs=1 seek=100000 conv=notrunc 2>/dev/null
		fi
		[ -s "$tmp/bad" ] && ! cmp -s "$tmp/ct" "$tmp/bad" &&
			! with_cnf decrypt $alg "$key32" "$tmp/bad" "$tmp/out" 2>"$tmp/err" &&
			[ ! -e "$tmp/out" ] && [ ! -e "$tmp/out.tmp" ]
		ok $? "aead-file $alg: a tampered file fails and leaves no output" ||
			diag "$tmp/err"
	done

	# $tmp/ct is the XChaCha20-Poly1305 file from the last round.
	rm -f "$tmp/out" "$tmp/out.tmp"
	[ -s "$tmp/ct" ] &&
		! with_cnf decrypt xchacha20-poly1305 "${key32%??}00" "$tmp/ct" "$tmp/out" 2>"$tmp/err" &&
		[ ! -e "$tmp/out" ] && [ ! -e "$tmp/out.tmp" ]
	ok $? "aead-file: a wrong key fails and leaves no output"

	# 27 bytes: less than a 12-byte nonce and a 16-byte tag.
	rm -f "$tmp/out" "$tmp/out.tmp"
	head -c 27 "$tmp/plain" >"$tmp/short"
	! with_cnf decrypt chacha20-poly1305 "$key32" "$tmp/short" "$tmp/out" 2>"$tmp/err" &&
		grep -q 'too short' "$tmp/err" && [ ! -e "$tmp/out" ] && [ ! -e "$tmp/out.tmp" ]
	ok $? "aead-file: a file shorter than nonce and tag fails"

	rm -f "$tmp/ct" "$tmp/pt"
	with_cnf encrypt xchacha20-poly1305 "$key32" "$tmp/empty" "$tmp/ct" 2>"$tmp/err" &&
		[ "$(wc -c <"$tmp/ct")" -eq 40 ] &&
		with_cnf decrypt xchacha20-poly1305 "$key32" "$tmp/ct" "$tmp/pt" 2>>"$tmp/err" &&
		[ -e "$tmp/pt" ] && [ ! -s "$tmp/pt" ]
	ok $? "aead-file: an empty file round trip" || diag "$tmp/err"

	# ChaCha20-Poly1305 files are interchangeable between zinc and default.
	rm -f "$tmp/ct" "$tmp/pt"
	with_cnf encrypt chacha20-poly1305 "$key32" "$tmp/plain" "$tmp/ct" 2>"$tmp/err" &&
		without_zinc decrypt chacha20-poly1305 "$key32" "$tmp/ct" "$tmp/pt" 2>>"$tmp/err" &&
		grep -q 'served by provider default$' "$tmp/err" && cmp -s "$tmp/plain" "$tmp/pt"
	ok $? "aead-file: encrypted by zinc, decrypted by default" || diag "$tmp/err"
	rm -f "$tmp/ct" "$tmp/pt"
	without_zinc encrypt chacha20-poly1305 "$key32" "$tmp/plain" "$tmp/ct" 2>"$tmp/err" &&
		with_cnf decrypt chacha20-poly1305 "$key32" "$tmp/ct" "$tmp/pt" 2>>"$tmp/err" &&
		grep -q 'served by provider zinc$' "$tmp/err" && cmp -s "$tmp/plain" "$tmp/pt"
	ok $? "aead-file: encrypted by default, decrypted by zinc" || diag "$tmp/err"
fi

# --- the silent configuration mistakes README's Troubleshooting lists ---------
# A wrong `module =` path: OpenSSL carries on with the default provider alone
# and says nothing; loading the same path by hand names the problem.
sh "$ZINC_SRCDIR/test/openssl-cnf.sh" "$tmp/nowhere/zinc.so" >"$tmp/wrong-module.cnf"
OPENSSL_CONF=$tmp/wrong-module.cnf ossl list -providers >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^  default$' "$tmp/out" && ! grep -q zinc "$tmp/out"
ok $? "a wrong module path: openssl list -providers succeeds and lists no zinc ($rc)" ||
	diag "$tmp/out"
ossl list -providers -provider "$tmp/nowhere/zinc.so" >"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "unable to load provider $tmp/nowhere/zinc.so" "$tmp/out" &&
	grep -q 'cannot open shared object file' "$tmp/out"
ok $? "openssl list -providers -provider PATH names the file it cannot load ($rc)" ||
	diag "$tmp/out"
ossl list -providers -provider "$module" >"$tmp/out" 2>&1 &&
	grep -q '^    name: zinc$' "$tmp/out" && grep -q '^    status: active$' "$tmp/out"
ok $? "openssl list -providers -provider PATH: the right path shows zinc, active" ||
	diag "$tmp/out"

# zinc's section without `activate = 1`: not loaded, and no word of it.
sed '/^\[zinc_sect\]/,/^\[/{/^activate = 1$/d}' "$tmp/zinc.cnf" >"$tmp/inactive.cnf"
OPENSSL_CONF=$tmp/inactive.cnf ossl list -providers >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^  default$' "$tmp/out" && ! grep -q zinc "$tmp/out" &&
	[ "$(grep -c '^activate = 1$' "$tmp/inactive.cnf")" -eq 1 ]
ok $? "zinc's section without activate: openssl list -providers lists no zinc ($rc)" ||
	diag "$tmp/out"

# No `default` in the providers section: zinc loads, and everything zinc
# lacks fails, the random generator first.
grep -v '^default = default_sect$' "$tmp/zinc.cnf" >"$tmp/no-default.cnf"
OPENSSL_CONF=$tmp/no-default.cnf ossl rand -hex 8 >"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'unable to fetch drbg' "$tmp/out"
ok $? "a providers section without default: openssl rand fails, unable to fetch drbg ($rc)" ||
	diag "$tmp/out"

echo "1..$n"
