#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Constant time, natively (TAP; make check-ct): test/test_ct_ptrace traces
# each case of test/ct_cases.c's catalogue once per secret set (64 pairs:
# a reference and 64 others, edge classes among them) and requires the
# same instructions and the same memory addresses (test/ct_trace.h).  Once
# per ZINC_CPU mask of lib.sh's cpu_masks this CPU gives, so that every
# x86_64 path is traced, those valgrind's CPU lacks (AVX-512, ADX: see
# test_ct_memcheck.sh) too.  Then test/test_ct_evp, the provider layer
# through EVP (only zinc.so's own instructions compared), under the first
# mask and the last; then the leaky mode, whose planted branch and lookup
# must be reported, in the functions that hold them.
#
# A class runs once per distinct set of the implementations it uses
# (chacha20's AVX-512 path counts twice: with and without AVX512BW, the
# masked byte pass, under one name): a later mask choosing the same code
# would trace the very same instructions.  Each mask's line says which
# classes it traced and how many secret pairs; the cases' own lines
# follow as diagnostics.
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR,
# ZINC_MODULE_DIR.  ZINC_CT_SETS=N traces N secret sets a case (a quicker
# look; check-ct runs them all).
set -u

builddir=${ZINC_BUILDDIR:?}
srcdir=${ZINC_SRCDIR:?}
. "$srcdir/test/lib.sh"
prog=$builddir/test/test_ct_ptrace
evp=$builddir/test/test_ct_evp
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The tracer names functions itself (dladdr, then the symbol table);
# addr2line adds the source line of each object offset it gives.
symbolize() {
	local off
	cat "$1"
	command -v addr2line >/dev/null || return 0
	for off in $(grep -o 'test_ct_ptrace+0x[0-9a-f]*' "$1" | sed 's/.*+//' | sort -u); do
		echo "# $off: $(addr2line -f -e "$prog" "$off" | tr '\n' ' ')"
	done
}

"$prog" leaky >"$tmp/leaky" 2>&1
status=$?
# No leaky check reached (no ptrace here, or not x86_64): that output,
# a skip or a failure, is the result.
if ! grep -q '^\(not \)\{0,1\}ok 1 - leaky-branch' "$tmp/leaky"; then
	cat "$tmp/leaky"
	exit "$status"
fi
# Sanitized code single-steps ten times slower and its traces say nothing
# more about zinc's own branches: the plain build runs this test.
if "$prog" info | grep -q '^sanitizers: yes'; then
	skip_all "a sanitizer build; the plain build traces the paths"
fi

"$prog" info >"$tmp/info.all" || { echo "Bail out! test_ct_ptrace info failed"; exit 1; }
mapfile -t masks < <(cpu_masks "$(sed -n 's/^cpu: //p' "$tmp/info.all")")

# Which classes each mask runs: those whose implementations no earlier
# mask ran.
declare -A seen
i=0
for mask in "${masks[@]}"; do
	i=$((i + 1))
	ZINC_CPU=$mask "$prog" info >"$tmp/info.$i" ||
		{ echo "Bail out! test_ct_ptrace info failed"; exit 1; }
	got=$(sed -n 's/^cpu: //p' "$tmp/info.$i")
	if [ "$got" != "${mask//,/ }" ]; then
		echo "ZINC_CPU=$mask: this CPU gives '$got'" >"$tmp/skip.$i"
		continue
	fi
	list=()
	while read -r class deps; do
		key=$class
		for dep in ${deps//,/ }; do
			key+=";$(sed -n "s/^$dep: //p" "$tmp/info.$i")"
			[ "$dep" = chacha20 ] && [[ " $got " == *" avx512bw "* ]] && key+=" +BW"
		done
		[ -n "${seen[$key]:-}" ] && continue
		seen[$key]=1
		list+=("$class")
	done < <("$prog" classes)
	[ "${#list[@]}" -gt 0 ] && echo "${list[*]}" >"$tmp/classes.$i"
done

# Two queues, each pinned to a CPU (tracer and child on one CPU step a
# third faster), the X25519 classes a job of their own, the EVP runs too.
queues=1
[ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] && queues=2
# The first two CPUs this process may run on (pinning is only for speed).
cpus=()
if command -v taskset >/dev/null; then
	for c in $(seq 0 255); do
		taskset -c "$c" true 2>/dev/null && cpus+=("$c")
		[ "${#cpus[@]}" -ge 2 ] && break
	done
fi
pin=()
load=(0 0)
: >"$tmp/q0"
: >"$tmp/q1"
i=0
for mask in "${masks[@]}"; do
	i=$((i + 1))
	[ -f "$tmp/classes.$i" ] || continue
	for part in x rest; do
		if [ $part = x ]; then
			names=$(tr ' ' '\n' <"$tmp/classes.$i" | grep '^x25519' | tr '\n' ' ')
			weight=6
		else
			names=$(tr ' ' '\n' <"$tmp/classes.$i" | grep -v '^x25519' | tr '\n' ' ')
			weight=$(wc -w <<<"$names")
		fi
		[ -n "${names// /}" ] || continue
		q=0
		[ "$queues" -eq 2 ] && [ "${load[1]}" -lt "${load[0]}" ] && q=1
		load[q]=$((load[q] + weight))
		echo "$i $part $mask $names" >>"$tmp/q$q"
	done
done
# The provider layer: under the first mask (portable C) and the last.
if [ -x "$evp" ]; then
	for i in 1 "${#masks[@]}"; do
		[ -f "$tmp/skip.$i" ] && continue
		q=0
		[ "$queues" -eq 2 ] && [ "${load[1]}" -lt "${load[0]}" ] && q=1
		load[q]=$((load[q] + 8))
		echo "$i evp ${masks[$((i - 1))]} -" >>"$tmp/q$q"
	done
fi
runq() {	# runq QUEUE
	local i part mask list
	[ "$queues" -eq 2 ] && [ "${#cpus[@]}" -eq 2 ] && pin=(taskset -c "${cpus[$1]}")
	while read -r i part mask list; do
		if [ "$part" = evp ]; then
			ZINC_CPU=$mask "${pin[@]}" "$evp" run >"$tmp/evp.$i" 2>&1
			echo $? >"$tmp/evprc.$i"
			continue
		fi
		# shellcheck disable=SC2086
		ZINC_CPU=$mask "${pin[@]}" "$prog" run $list >"$tmp/out.$i.$part" 2>&1
		echo $? >"$tmp/rc.$i.$part"
	done <"$tmp/q$1"
}
start=$SECONDS
total_pairs=0
runq 0 &
runq 1 &
wait

i=0
for mask in "${masks[@]}"; do
	i=$((i + 1))
	if [ -f "$tmp/skip.$i" ]; then
		skip 1 "$(cat "$tmp/skip.$i")"
		continue
	fi
	impl=$(grep -v '^cpu:' "$tmp/info.$i" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	if [ ! -f "$tmp/classes.$i" ]; then
		ok 0 "ZINC_CPU=$mask: nothing new to trace ($impl)"
		continue
	fi
	cat "$tmp"/out.$i.* >"$tmp/out"
	rc=$(cat "$tmp"/rc.$i.* 2>/dev/null | sort -n | tail -n 1)
	rc=${rc:-1}
	checks=$(grep -c '^ok' "$tmp/out")
	pairs=$(sed -n 's/^ok .* for \([0-9]*\) secret pairs .*/\1/p' "$tmp/out" | awk '{ s += $1 } END { print s + 0 }')
	insns=$(sed -n 's/^ok .*(\([0-9]*\) instructions, .*/\1/p' "$tmp/out" | awk '{ s += $1 } END { print s + 0 }')
	if [ "$rc" -eq 0 ] && ! grep -q '^not ok' "$tmp/out"; then
		what="$checks cases, $pairs secret pairs, $insns instructions a run: $(cat "$tmp/classes.$i")"
		ok 0 "ZINC_CPU=$mask: same instructions and memory addresses for every secret pair, $what ($impl)"
	else
		ok 1 "ZINC_CPU=$mask: a trace depends on the secrets, or the trace failed (exit $rc; $impl)"
		grep -A1 '^not ok' "$tmp/out" | grep -v '^--' >"$tmp/fail"
		symbolize "$tmp/fail" | sed 's/^#\{0,1\} \{0,1\}/# /'
	fi
	# Secret pairs traced per case, under this mask.
	sed -n 's/^ok [0-9]* - \([^:]*\): .* for \([0-9]*\) secret pairs .*/\1 \2/p' "$tmp/out" |
		awk -v m="$mask" '{ printf "# ZINC_CPU=%s: %s: %s secret pairs\n", m, $1, $2 }'
	total_pairs=$((total_pairs + pairs))
done
# The provider layer.
i=0
for mask in "${masks[@]}"; do
	i=$((i + 1))
	[ -f "$tmp/evp.$i" ] || continue
	rc=$(cat "$tmp/evprc.$i" 2>/dev/null || echo 1)
	if grep -q '^1\.\.0 # SKIP' "$tmp/evp.$i"; then
		skip 1 "test_ct_evp: $(sed -n 's/^1\.\.0 # SKIP //p' "$tmp/evp.$i")"
		continue
	fi
	checks=$(grep -c '^ok' "$tmp/evp.$i")
	pairs=$(sed -n 's/^ok .* for \([0-9]*\) secret pairs .*/\1/p' "$tmp/evp.$i" | awk '{ s += $1 } END { print s + 0 }')
	if [ "$rc" -eq 0 ] && [ "$checks" -gt 0 ] && ! grep -q '^not ok' "$tmp/evp.$i"; then
		ok 0 "ZINC_CPU=$mask, EVP with zinc.so: same zinc.so instructions and memory addresses, $checks cases, $pairs secret pairs (libcrypto's own code not compared)"
	else
		ok 1 "ZINC_CPU=$mask, EVP with zinc.so: a trace depends on the secrets, or the trace failed (exit $rc)"
		grep -E '^(not ok|# |Bail)' "$tmp/evp.$i" | sed 's/^#\{0,1\} \{0,1\}/# /'
	fi
	sed -n 's/^ok [0-9]* - \([^:]*\): .* for \([0-9]*\) secret pairs .*/\1 \2/p' "$tmp/evp.$i" |
		awk -v m="$mask" '{ printf "# ZINC_CPU=%s: %s: %s secret pairs\n", m, $1, $2 }'
	total_pairs=$((total_pairs + pairs))
done
echo "# $total_pairs secret pairs traced in $((SECONDS - start)) s"

# The check can fail: a branch and a table lookup on a secret are
# reported, in the functions that hold them.
if [ "$status" -eq 0 ] && grep -q '^ok 1 - leaky-branch: .*, in leaky_branch$' "$tmp/leaky" &&
   grep -q '^ok 2 - leaky-lookup: .*, in leaky_table_lookup$' "$tmp/leaky"; then
	ok 0 "leaky mode: the branch and the lookup on a secret are reported, in leaky_branch and leaky_table_lookup"
else
	ok 1 "leaky mode: a branch and a lookup on a secret must be reported (exit $status)"
fi
grep '^# ' "$tmp/leaky" | sed 's/^# /# leaky: /'
echo "1..$n"
[ "$failed" -eq 0 ]
