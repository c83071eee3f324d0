#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# The example programs in docs/examples/ (TAP): each must succeed with the
# zinc just built, with zinc's ZINC_REPORT showing that zinc ran each
# algorithm it names, and must fail when zinc cannot be loaded.
# (aead-file is test_cli.sh's.)
#
# Environment (from Makefile.am): ZINC_MODULE_DIR, ZINC_BUILDDIR, ZINC_SRCDIR.
set -u

moddir=${ZINC_MODULE_DIR:?}
examples=${ZINC_BUILDDIR:?}/docs/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OPENSSL_CONF=/dev/null
unset ZINC_CPU

. "${ZINC_SRCDIR:?}/test/lib.sh"

# check PROGRAM EVENT...: runs it; it must exit 0 and zinc must report each EVENT.
check() {
	local prog=$1 ev
	shift
	rm -f "$tmp/report"
	ZINC_MODULE_DIR=$moddir ZINC_REPORT=$tmp/report "$examples/$prog" >"$tmp/out" 2>"$tmp/err"
	ok $? "$prog runs and succeeds" || diag "$tmp/err"
	diag "$tmp/out"
	for ev in "$@"; do
		grep -q "]: $ev: " "$tmp/report" 2>/dev/null
		ok $? "$prog: zinc reports $ev" || diag "$tmp/report" 2>/dev/null
	done
	# Without a zinc to load, it must say so and fail.
	ZINC_MODULE_DIR=$tmp/nowhere "$examples/$prog" >"$tmp/out" 2>"$tmp/err"
	[ $? -ne 0 ] && grep -qi zinc "$tmp/err"
	ok $? "$prog fails, saying why, when zinc cannot be loaded" || diag "$tmp/err"
}

echo "1..28"
check aead-seal-open "ChaCha20-Poly1305 encrypt" "ChaCha20-Poly1305 decrypt" \
	"XChaCha20-Poly1305 encrypt" "XChaCha20-Poly1305 decrypt"
check x25519-agree "X25519 keygen" "X25519 derive"
check blake2s-mac "BLAKE2S-256 digest" "BLAKE2SMAC MAC"
check wg-handshake "X25519 keygen" "X25519 derive" "BLAKE2S-256 digest" "BLAKE2SMAC MAC" \
	"ChaCha20-Poly1305 encrypt" "ChaCha20-Poly1305 decrypt" \
	"XChaCha20-Poly1305 encrypt" "XChaCha20-Poly1305 decrypt"
# Cipher pipelines are OpenSSL 3.5's (the configured libcrypto's version).
case ${ZINC_CRYPTO_VERSION:?} in
3.[0-4].*) skip 4 "aead-pipeline: cipher pipelines are new in OpenSSL 3.5" ;;
*) check aead-pipeline "ChaCha20-Poly1305 encrypt" "ChaCha20-Poly1305 decrypt" ;;
esac
[ "$failed" -eq 0 ]
