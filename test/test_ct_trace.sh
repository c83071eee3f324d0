#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Constant time, natively (TAP): test/test_ct_ptrace single-steps each class
# of primitive calls twice, with two sets of secrets, and requires the same
# instruction addresses.  Once per ZINC_CPU mask of lib.sh's cpu_masks
# this CPU gives, so that the paths valgrind's CPU lacks (AVX-512, ADX: see
# test_ct_memcheck.sh) are checked too; then its leaky mode, which must be
# reported.
#
# A step costs some 30 us, so a class runs once per distinct set of the
# implementations it uses (chacha20's AVX-512 path counts twice: with and
# without AVX512BW, the masked byte pass, under one name), on two CPUs.
# The X25519 classes (0.3 to 1.3 million steps a call) run only where
# memcheck cannot, with ADX; ZINC_CT_TRACE_ALL=1 runs them on every
# implementation (a few minutes more).
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR.
set -u

builddir=${ZINC_BUILDDIR:?}
srcdir=${ZINC_SRCDIR:?}
. "$srcdir/test/lib.sh"
prog=$builddir/test/test_ct_ptrace
# Two secret sets a case here (single steps are slow); check-ct runs them all.
export ZINC_CT_SETS=${ZINC_CT_SETS:-2}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Names the addresses of a divergence ("test_ct_ptrace+0xOFF").
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
if ! grep -q '^\(not \)\{0,1\}ok 1 - leaky' "$tmp/leaky"; then
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
		if [[ $class == x25519* ]] && [ -z "${ZINC_CT_TRACE_ALL:-}" ] &&
		   [[ " $got " != *" adx "* ]]; then
			continue
		fi
		seen[$key]=1
		list+=("$class")
	done < <("$prog" classes)
	[ "${#list[@]}" -gt 0 ] && echo "${list[*]}" >"$tmp/classes.$i"
done

# Two queues, each pinned to a CPU (tracer and child on one CPU step a
# third faster), the X25519 classes a job of their own.
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
			weight=12
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
runq() {	# runq QUEUE
	local i part mask list
	[ "$queues" -eq 2 ] && [ "${#cpus[@]}" -eq 2 ] && pin=(taskset -c "${cpus[$1]}")
	while read -r i part mask list; do
		# shellcheck disable=SC2086
		ZINC_CPU=$mask "${pin[@]}" "$prog" run $list >"$tmp/out.$i.$part" 2>&1
		echo $? >"$tmp/rc.$i.$part"
	done <"$tmp/q$1"
}
start=$SECONDS
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
	steps=$(awk '/^ok .* steps\)$/ { s += $(NF - 1) } END { print s + 0 }' "$tmp/out")
	if [ "$rc" -eq 0 ] && ! grep -q '^not ok' "$tmp/out"; then
		what="$checks classes, $steps steps: $(cat "$tmp/classes.$i")"
		ok 0 "ZINC_CPU=$mask: same path for both secrets, $what ($impl)"
	else
		ok 1 "ZINC_CPU=$mask: a path depends on the secrets, or the trace failed (exit $rc; $impl)"
		grep -A1 '^not ok' "$tmp/out" | grep -v '^--' >"$tmp/fail"
		symbolize "$tmp/fail" | sed 's/^#\{0,1\} \{0,1\}/# /'
	fi
done
echo "# traced in $((SECONDS - start)) s"

# The check can fail: a branch on a secret bit is reported, where it is.
if [ "$status" -eq 0 ] && grep -q '^ok 1 - leaky' "$tmp/leaky" &&
   { ! command -v addr2line >/dev/null ||
     symbolize "$tmp/leaky" | grep -q '^# 0x[0-9a-f]*: leaky_branch '; }; then
	ok 0 "leaky mode: the branch on a secret is reported, in leaky_branch"
else
	ok 1 "leaky mode: a branch on a secret must be reported (exit $status)"
fi
symbolize "$tmp/leaky" | grep '^# ' | sed 's/^# /# leaky: /'
echo "1..$n"
[ "$failed" -eq 0 ]
