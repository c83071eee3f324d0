#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# The constant-time tracer catches leaks in the real assembly (TAP; make
# check-ct).  For each x86_64 primitive, test/ct_plant.pl plants into a copy
# of its generated assembly, in a hot function, right after an instruction
# that writes secret data to a register: a branch on that register's low
# bit (jrcxz), then (another copy) a byte loaded from a table at its low byte.
# Each copy is assembled and linked, in place of the original, into a
# variant of test_ct_ptrace, which traces the case that runs the function:
# it must report a divergence (the branch: the paths; the load: a memory
# address), inside the planted function, by name.  The same copy unplanted
# must pass, so that the variant's build is not what it reports.
#
# x86_64 only (the plants are x86_64 assembly); ptrace or capstone missing:
# test_ct_ptrace says so (under CI=true, a failure).
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR.
set -u

builddir=${ZINC_BUILDDIR:?}
srcdir=${ZINC_SRCDIR:?}
. "$srcdir/test/lib.sh"
prog=$builddir/test/test_ct_ptrace
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The tracer itself must run here: its own leaky mode first.
"$prog" leaky >"$tmp/leaky" 2>&1
status=$?
if ! grep -q '^\(not \)\{0,1\}ok 1 - leaky-branch' "$tmp/leaky"; then
	cat "$tmp/leaky"
	exit "$status"
fi
"$prog" info >"$tmp/info"
grep -q '^sanitizers: yes' "$tmp/info" &&
	skip_all "a sanitizer build; the plain build plants the leaks"
[ -f "$builddir/generated/chacha20-x86_64.S" ] ||
	skip_all "no x86_64 assembly in this build"

# The build's compiler and the objects test_ct_ptrace is linked from.
cc=$(sed -n 's/^CC = //p' "$builddir/Makefile")
capstone_libs=$(sed -n 's/^CAPSTONE_LIBS = //p' "$builddir/Makefile")
objs=("$builddir"/test/test_ct_ptrace-test_ct_ptrace.o "$builddir"/test/test_ct_ptrace-ct_cases.o
      "$builddir"/test/test_ct_ptrace-ct_trace.o)
lib=$builddir/.libs/libzinccrypto.a
for f in "${objs[@]}" "$lib"; do
	[ -f "$f" ] || { echo "Bail out! $f not built"; exit 1; }
done
cpu=$(sed -n 's/^cpu: //p' "$tmp/info")

# variant PRIM KIND FUNCTION MNEMONIC: builds $tmp/PRIM-KIND, test_ct_ptrace
# with PRIM's assembly planted.
variant() {
	local prim=$1 kind=$2 fn=$3 mnemonic=$4 dir=$tmp/$1-$2
	mkdir -p "$dir" || return 1
	perl "$srcdir/test/ct_plant.pl" "$kind" "$fn" "$mnemonic" \
		<"$builddir/generated/$prim-x86_64.S" >"$dir/$prim-x86_64.S" 2>"$dir/log" &&
	$cc -c -o "$dir/$prim-x86_64.o" "$dir/$prim-x86_64.S" 2>>"$dir/log" &&
	cp "$lib" "$dir/lib.a" &&
	ar d "$dir/lib.a" "$prim-x86_64.o" &&
	ar r "$dir/lib.a" "$dir/$prim-x86_64.o" 2>>"$dir/log" &&
	# shellcheck disable=SC2086
	$cc -o "$dir/test_ct_ptrace" "${objs[@]}" "$dir/lib.a" $capstone_libs -lpthread \
		2>>"$dir/log"
}

# PRIM FUNCTION MNEMONIC CASE MASK-FEATURES: the function holding the plant
# runs in CASE when the CPU has MASK-FEATURES (the variant runs with the
# CPU's default: every feature it has).
plants=(
	"chacha20 zinc_chacha20_avx512_bytes vpaddd chacha20/2112 avx512f,avx512vl,avx512bw,bmi2"
	"poly1305 zinc_poly1305_blocks_x86_64_bmi2 adcxq? poly1305/17 bmi2,adx"
	"blake2s zinc_blake2s_compress_bmi2 rorxl blake2s/65 bmi2"
	"curve25519 zinc_x25519_ladder_mulx mulxq? x25519 bmi2,adx"
)
start=$SECONDS
for p in "${plants[@]}"; do
	read -r prim fn mnemonic case needs <<<"$p"
	lacks=
	for f in ${needs//,/ }; do
		[[ " $cpu " == *" $f "* ]] || lacks+=" $f"
	done
	if [ -n "$lacks" ]; then
		skip 3 "$prim: this CPU lacks$lacks, which $fn needs"
		continue
	fi
	for kind in none branch load; do
		if ! variant "$prim" "$kind" "$fn" "$mnemonic"; then
			ok 1 "$prim, $kind: the planted variant of test_ct_ptrace did not build"
			diag "$tmp/$prim-$kind/log"
			continue
		fi
		"$tmp/$prim-$kind/test_ct_ptrace" run "$case" >"$tmp/$prim-$kind/out" 2>&1
		rc=$?
		why=$(grep -A1 '^not ok' "$tmp/$prim-$kind/out" | sed -n 's/^# //p' | head -n 1)
		case $kind in
		none)
			if [ "$rc" -eq 0 ] && grep -q '^ok 1 - ' "$tmp/$prim-$kind/out"; then
				ok 0 "$prim, unplanted copy: $case traces the same for every secret pair"
			else
				ok 1 "$prim, unplanted copy: $case must pass (exit $rc)"
				diag "$tmp/$prim-$kind/out"
			fi
			;;
		branch | load)
			expect="paths differ"
			[ "$kind" = load ] && expect="memory addresses differ"
			if [ "$rc" -ne 0 ] && [[ $why == *"$expect"* ]] && [[ $why == *" $fn+0x"* ]]; then
				ok 0 "$prim, a planted $kind in $fn: reported (${expect})"
				echo "# $why"
			else
				ok 1 "$prim, a planted $kind in $fn must be reported there as '$expect' (exit $rc)"
				diag "$tmp/$prim-$kind/out"
			fi
			;;
		esac
	done
done
echo "# planted, built and traced in $((SECONDS - start)) s"
echo "1..$n"
[ "$failed" -eq 0 ]
