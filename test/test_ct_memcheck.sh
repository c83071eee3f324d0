#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Constant time under valgrind memcheck (TAP): test/test_ct with its secrets
# marked undefined, once per implementation set valgrind's emulated CPU can
# run (the ZINC_CPU masks of lib.sh's cpu_masks), then its leaky mode, which
# memcheck must catch.  Paths valgrind's CPU lacks are named in a skip.
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR.
set -u

builddir=${ZINC_BUILDDIR:?}
srcdir=${ZINC_SRCDIR:?}
prog=$builddir/test/test_ct
supp=$srcdir/test/test_ct.supp
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$srcdir/test/lib.sh"

# lib.sh's ok takes a status; these take the description alone.
pass() { ok 0 "$*"; }
not_ok() { ok 1 "$*"; }
# Memcheck's report, the start of it, as diagnostics.
show() { head -n 60 "$1" | sed 's/^/# /'; }

command -v valgrind >/dev/null ||
	missing_all "valgrind is not installed (apt-get install valgrind)"
if "$prog" info | grep -q '^sanitizers: yes'; then
	skip_all "valgrind cannot run an ASan build; the plain build runs this test"
fi
# Built without memcheck.h: test_ct's own output says so.
if ! "$prog" info | grep -q '^cpu: '; then
	"$prog"
	exit
fi

memcheck() {
	valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes \
		 --suppressions="$supp" "$@"
}

# What this CPU has, and the masks to run, from none to everything.
"$prog" info >"$tmp/info.all"
mapfile -t masks < <(cpu_masks "$(sed -n 's/^cpu: //p' "$tmp/info.all")")

# impls FILE: the "primitive: implementation" lines of test_ct info.
impls() { grep -v -E '^(cpu|sanitizers):' "$1"; }

# What each mask chooses natively, and what valgrind's CPU gives for it.
: >"$tmp/native"
: >"$tmp/runs"
for mask in "${masks[@]}"; do
	ZINC_CPU=$mask "$prog" info >"$tmp/info" || { echo "Bail out! test_ct info failed"; exit 1; }
	impls "$tmp/info" >>"$tmp/native"
	got=$(ZINC_CPU=$mask valgrind -q "$prog" info 2>/dev/null | sed -n 's/^cpu: //p')
	[ "$got" = "${mask//,/ }" ] || echo "# ZINC_CPU=$mask: valgrind's CPU gives '$got'"
	[ -n "$got" ] && echo "$got" >>"$tmp/runs"
done

# Each distinct feature set valgrind gives, once.
: >"$tmp/checked"
while read -r features; do
	mask=${features// /,}
	ZINC_CPU=$mask "$prog" info >"$tmp/info"
	impls "$tmp/info" >>"$tmp/checked"
	ZINC_CPU=$mask memcheck "$prog" run >"$tmp/out" 2>"$tmp/log"
	status=$?
	oneshots=$(sed -n 's/^# one-shot decrypts: //p' "$tmp/out")
	suppressed=$(sed -n 's/^==[0-9]*== ERROR SUMMARY: .*(suppressed: \([0-9]*\) from.*/\1/p' "$tmp/log")
	checks=$(grep -c '^ok' "$tmp/out")
	impl=$(impls "$tmp/info" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	if [ "$status" -eq 0 ] && ! grep -q '^not ok' "$tmp/out" &&
	   grep -q '^1\.\.[1-9]' "$tmp/out"; then
		pass "ZINC_CPU=$mask under memcheck: $checks checks ($impl)"
	else
		not_ok "ZINC_CPU=$mask under memcheck (exit $status; $impl)"
		grep -E '^(not ok|# )' "$tmp/out" | sed 's/^#\{0,1\} \{0,1\}/# /'
		show "$tmp/log"
	fi
	# The suppressions hide the one-shot decrypt's branch on its verdict,
	# once per call, and nothing more.
	if [ -n "$oneshots" ] && [ "${suppressed:-0}" -le "$oneshots" ]; then
		pass "ZINC_CPU=$mask: ${suppressed:-0} suppressed, at most one per one-shot decrypt ($oneshots)"
	else
		not_ok "ZINC_CPU=$mask: ${suppressed:-?} suppressed errors for $oneshots one-shot decrypts"
	fi
done < <(awk '!seen[$0]++' "$tmp/runs")

# What no run above could check.
unchecked=$(sort -u "$tmp/native" | grep -v -x -F -f "$tmp/checked" | tr '\n' ';' |
	    sed 's/;$//; s/;/; /g')
lacks=$(tr ' ' '\n' <<<"$(sed -n 's/^cpu: //p' "$tmp/info.all")" |
	grep -v -x -F -f <(tr ' ' '\n' <"$tmp/runs") | tr '\n' ' ' | sed 's/ $//')
if [ ! -s "$tmp/checked" ]; then
	not_ok "no mask ran under memcheck"
elif [ -n "$unchecked" ]; then
	skip 1 "$(valgrind --version)'s CPU lacks ${lacks:-features}: not checked: $unchecked (make check-ct traces their instructions and memory addresses natively)"
else
	pass "every implementation this CPU runs was checked"
fi

# The check can fail: a secret-indexed lookup and a secret branch are caught.
memcheck "$prog" leaky >"$tmp/out" 2>"$tmp/log"
status=$?
if [ "$status" -eq 1 ] && ! grep -q '^not ok' "$tmp/out" &&
   grep -A1 'Use of uninitialised value of size 8' "$tmp/log" | grep -q leaky_table_lookup &&
   grep -A1 'Conditional jump or move depends on uninitialised value' "$tmp/log" | grep -q leaky_branch; then
	pass "leaky mode: memcheck reports the secret-indexed lookup and the secret branch (exit $status)"
else
	not_ok "leaky mode: memcheck must fail it (exit $status)"
	cat "$tmp/out" | sed 's/^/# /'
	show "$tmp/log"
fi
echo "1..$n"
