#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Constant time under valgrind memcheck (TAP): test/test_ct with its secrets
# marked undefined, once per implementation set valgrind's emulated CPU can
# run (ZINC_CPU masks of test/test_cpu_masks.sh), then its leaky mode, which
# memcheck must catch.  Paths valgrind's CPU lacks are named in a skip.
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR.
set -u

builddir=${ZINC_BUILDDIR:?}
srcdir=${ZINC_SRCDIR:?}
prog=$builddir/test/test_ct
supp=$srcdir/test/test_ct.supp
n=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }
# Memcheck's report, the start of it, as diagnostics.
show() { head -n 60 "$1" | sed 's/^/# /'; }

if ! command -v valgrind >/dev/null; then
	echo "1..0 # SKIP valgrind is not installed (apt-get install valgrind)"
	exit 0
fi
if "$prog" info | grep -q '^sanitizers: yes'; then
	echo "1..0 # SKIP valgrind cannot run an ASan build; the plain build runs this test"
	exit 0
fi
if "$prog" | grep -q '^1\.\.0 # SKIP'; then
	"$prog"
	exit 0
fi

memcheck() {
	valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes \
		 --suppressions="$supp" "$@"
}

# The masks of test_cpu_masks.sh, from none to everything: its masks=( ... )
# up to the first line with a ")" outside a comment.
masks=()
eval "$(sed -n '/^masks=(/,/^[^#]*)[[:space:]]*$/p' "$srcdir/test/test_cpu_masks.sh")"
if [ "${#masks[@]}" -lt 2 ]; then
	echo "Bail out! cannot read the masks of test/test_cpu_masks.sh"
	exit 1
fi

# impls FILE: the "primitive: implementation" lines of test_ct info.
impls() { grep -v -E '^(cpu|sanitizers):' "$1"; }

# What each mask chooses natively, and what valgrind's CPU gives for it.
: >"$tmp/native"
"$prog" info >"$tmp/info.all"
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
		ok "ZINC_CPU=$mask under memcheck: $checks checks ($impl)"
	else
		not_ok "ZINC_CPU=$mask under memcheck (exit $status; $impl)"
		grep -E '^(not ok|# )' "$tmp/out" | sed 's/^#\{0,1\} \{0,1\}/# /'
		show "$tmp/log"
	fi
	# The suppressions hide the one-shot decrypt's branch on its verdict,
	# once per call, and nothing more.
	if [ -n "$oneshots" ] && [ "${suppressed:-0}" -le "$oneshots" ]; then
		ok "ZINC_CPU=$mask: ${suppressed:-0} suppressed, at most one per one-shot decrypt ($oneshots)"
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
	skip "$(valgrind --version)'s CPU lacks ${lacks:-features}: not checked: $unchecked (test_ct_trace.sh traces their control flow natively)"
else
	ok "every implementation this CPU runs was checked"
fi

# The check can fail: a secret-indexed lookup and a secret branch are caught.
memcheck "$prog" leaky >"$tmp/out" 2>"$tmp/log"
status=$?
if [ "$status" -eq 1 ] && ! grep -q '^not ok' "$tmp/out" &&
   grep -A1 'Use of uninitialised value of size 8' "$tmp/log" | grep -q leaky_table_lookup &&
   grep -A1 'Conditional jump or move depends on uninitialised value' "$tmp/log" | grep -q leaky_branch; then
	ok "leaky mode: memcheck reports the secret-indexed lookup and the secret branch (exit $status)"
else
	not_ok "leaky mode: memcheck must fail it (exit $status)"
	cat "$tmp/out" | sed 's/^/# /'
	show "$tmp/log"
fi
echo "1..$n"
