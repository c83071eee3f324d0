#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# The test programs again under each feature mask this CPU supports
# (ZINC_CPU, see provider/crypto/cpu.c) but the whole set make check runs
# them with, so that every implementation path, down to the portable C,
# runs on this one machine (TAP: a line per mask and program).  A mask first has
# to show in zinc's buildinfo exactly as asked: otherwise it is not tested.
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR, ZINC_EMULATOR (qemu-user
# for a cross build's programs, or empty) and what the programs need.
set -u

builddir=${ZINC_BUILDDIR:?}
read -r -a emulator <<<"${ZINC_EMULATOR:-}"
. "${ZINC_SRCDIR:?}/test/lib.sh"
run() { "${emulator[@]}" "$builddir/test/$1"; }
programs=(test_primitives test_curve25519 test_cipher_vectors test_cipher_diff
	  test_mac_vectors test_mac_diff test_x25519_evp test_selftest_direct
	  test_wg_handshake)
detected=$(run test_provider 2>&1 | sed -n 's/^# buildinfo: .*cpu: //p')
mapfile -t masks < <(cpu_masks "$detected")

for mask in "${masks[@]}"; do
	want=${mask//,/ }
	# Every feature detected: the programs' own run in make check, not again.
	[ "$want" = "$detected" ] && continue
	buildinfo=$(ZINC_CPU=$mask run test_provider 2>&1 | sed -n 's/^# buildinfo: //p')
	got=${buildinfo##*cpu: }
	if [ "$got" != "$want" ]; then
		skip 1 "ZINC_CPU=$mask: this CPU gives '$got'"
		continue
	fi
	# A path that fails its load-time self-test is replaced by the next one,
	# so the programs below would pass without testing it.
	n=$((n + 1))
	if grep -q 'failed its self-test' <<<"$buildinfo"; then
		echo "not ok $n - ZINC_CPU=$mask: every path passes its load-time self-test"
		echo "# $buildinfo"
	else
		echo "ok $n - ZINC_CPU=$mask: every path passes its load-time self-test"
	fi
	for p in "${programs[@]}"; do
		n=$((n + 1))
		out=$(ZINC_CPU=$mask run "$p" 2>&1)
		status=$?
		passed=$(grep -c '^ok' <<<"$out")
		if [ "$status" -eq 0 ] && ! grep -q '^not ok' <<<"$out"; then
			echo "ok $n - ZINC_CPU=$mask: $p ($passed checks)"
		else
			echo "not ok $n - ZINC_CPU=$mask: $p (exit $status)"
			grep -E '^(not ok|# )' <<<"$out" | head -n 40 | sed 's/^#\{0,1\} \{0,1\}/# /'
		fi
	done
done
echo "1..$n"
