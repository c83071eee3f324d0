#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# A zinc.so linked to one major version of libcrypto (libcrypto.so.3 for
# every 3.x, .so.4 for 4.x) must not run in a process of the other: it
# would run on a second libcrypto beside the core's.  It refuses to load,
# saying why (TAP).  The other OpenSSL is $ZINC_OTHER_OPENSSL (a prefix, as
# CI sets it), else the system's openssl when its major version differs.
#
# Environment (from Makefile.am): ZINC_MODULE_DIR, ZINC_CRYPTO_VERSION.
set -u
. "$ZINC_SRCDIR/test/lib.sh"

major=${ZINC_CRYPTO_VERSION%%.*}
other=
other_libs=
if [ -n "${ZINC_OTHER_OPENSSL:-}" ]; then
	other=$ZINC_OTHER_OPENSSL/bin/openssl
	other_libs=$ZINC_OTHER_OPENSSL/lib
elif [ -x /usr/bin/openssl ]; then
	other=/usr/bin/openssl
fi
# Its libraries first; zinc.so's libcrypto (another soname) is found after
# them, where the build's tests find it.  With the sanitizer runtime when
# zinc.so needs it (run_env).
run_env=(env)
run_other() {
	env ${other_libs:+LD_LIBRARY_PATH=$other_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}} \
		"${run_env[@]:1}" "$other" "$@"
}
other_version=$( [ -n "$other" ] && run_other version -v 2>/dev/null | awk '{ print $2 }')
if [ -z "$other_version" ] || [ "${other_version%%.*}" = "$major" ]; then
	why="no OpenSSL of a major version other than $major here (ZINC_OTHER_OPENSSL=PREFIX names one)"
	# One named (CI names one) but unusable is a missing dependency.
	[ -n "${ZINC_OTHER_OPENSSL:-}" ] && missing_all "$why"
	skip_all "$why"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sanitizer_run_env "$ZINC_MODULE_DIR/zinc.so" "$other"

OPENSSL_CONF=/dev/null run_other list -providers -provider-path "$ZINC_MODULE_DIR" \
	-provider zinc >"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && ! grep -q '^  zinc$' "$tmp/out"
ok $? "zinc built for OpenSSL $ZINC_CRYPTO_VERSION does not load into OpenSSL $other_version" ||
	diag "$tmp/out"
grep -q "zinc: built for OpenSSL $major (libcrypto.so.$major), loaded by OpenSSL $other_version: build zinc against the OpenSSL that loads it" "$tmp/out"
ok $? "and says why, with zinc's reason" || diag "$tmp/out"

# The same module in a process of its own major version loads.
sanitizer_run_env "$ZINC_MODULE_DIR/zinc.so" "$OPENSSL"
OPENSSL_CONF=/dev/null "${run_env[@]}" "$OPENSSL" list -providers -provider-path "$ZINC_MODULE_DIR" \
	-provider zinc >"$tmp/own" 2>&1
grep -q '^  zinc$' "$tmp/own"
ok $? "while OpenSSL $ZINC_CRYPTO_VERSION loads it" || diag "$tmp/own"

echo "1..$n"
[ "$failed" -eq 0 ]
