#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# `openssl speed -multi 2 -evp chacha20-poly1305` with zinc loaded and
# preferred: both forked children run zinc (their ZINC_REPORT lines say so),
# and the parent prints each child's result and the total.  With zinc
# alone, as README warns, it fails.
#
# Environment (from Makefile.am): ZINC_MODULE_DIR, ZINC_SRCDIR, OPENSSL.
set -u
. "${ZINC_SRCDIR:?}/test/lib.sh"
openssl=${OPENSSL:-}
[ -n "$openssl" ] || openssl=$(command -v openssl || true)
[ -n "$openssl" ] || missing_all "no openssl command"
moddir=${ZINC_MODULE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sanitizer_run_env "$moddir/zinc.so" "$openssl"

# Providers before algorithms; only those named here, whatever openssl.cnf says.
"${run_env[@]}" OPENSSL_CONF=/dev/null ZINC_REPORT="$tmp/report" timeout 60 \
	"$openssl" speed -multi 2 -seconds 1 -bytes 1024 \
	-provider-path "$moddir" -provider default -provider zinc -propquery '?zinc.preferred' \
	-evp chacha20-poly1305 >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "openssl speed -multi 2 -evp chacha20-poly1305 with zinc exits with 0 ($rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"

for child in 0 1; do
	grep -q -E "^Got: \+F:[0-9]+:ChaCha20-Poly1305:[0-9.]*[1-9][0-9.]* from $child\$" "$tmp/out"
	ok $? "child $child reports a non-zero ChaCha20-Poly1305 rate"
done
grep -q -E '^ChaCha20-Poly1305 +[0-9.]*[1-9][0-9.]*k$' "$tmp/out"
ok $? "the parent prints the total: $(grep '^ChaCha20-Poly1305' "$tmp/out")"

# Each child is a process of its own: one report line each, two pids.
pids=$(sed -n 's/^zinc\[\([0-9]*\) [^]]*\]: ChaCha20-Poly1305 encrypt: chacha20 .*/\1/p' \
	"$tmp/report" 2>/dev/null | sort -u | wc -l)
ok $((pids != 2)) "ZINC_REPORT: zinc's ChaCha20-Poly1305 ran in both children ($pids processes)"
[ "$pids" -eq 2 ] || sed 's/^/# /' "$tmp/report" "$tmp/out" 2>/dev/null

# The trap README's Benchmark section warns of: zinc alone has no random
# generator, so openssl speed times the cipher and then fails.
"${run_env[@]}" OPENSSL_CONF=/dev/null timeout 60 "$openssl" speed -seconds 1 -bytes 16 \
	-provider-path "$moddir" -provider zinc -evp chacha20-poly1305 >"$tmp/alone" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'unable to fetch drbg' "$tmp/alone"
ok $? "openssl speed -provider zinc alone fails for want of a random generator ($rc)" ||
	sed 's/^/# /' "$tmp/alone"

echo "1..$n"
[ $failed -eq 0 ]
