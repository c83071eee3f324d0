#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# CI's fuzzing step: every target under every ZINC_CPU mask this CPU gives,
# TOTAL_SECONDS of fuzzing in all (the build before it not counted), with
# the seeds from the shared vectors and the committed corpus.
#
#   fuzz/ci.sh TOTAL_SECONDS [BUILDDIR]
#
# FUZZ_TARGETS in the environment names the targets (default: every one).
# BUILDDIR (default build-fuzz, beside this script's source tree) is
# configured with --enable-werror --enable-fuzzing CC=clang unless it has a
# Makefile already.  Prints one line per run, "fuzz: TARGET@MASK ok|FAILED ...",
# and exits non-zero if any failed or the build did.
set -u -o pipefail
total=${1:?usage: fuzz/ci.sh TOTAL_SECONDS [BUILDDIR]}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=${2:-$srcdir/build-fuzz}
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -le 2 ] || jobs=2
log=$(mktemp)
trap 'rm -f "$log"' EXIT

mkdir -p "$builddir" || exit 1
if [ ! -f "$builddir/Makefile" ] &&
   ! (cd "$builddir" && "$srcdir/configure" --enable-werror --enable-fuzzing CC=clang) >"$log" 2>&1; then
	tail -n 30 "$log"
	echo "fuzz/ci.sh: configure --enable-fuzzing CC=clang failed" >&2
	exit 1
fi
start=$(date +%s)
targets=(${FUZZ_TARGETS:+FUZZ_TARGETS="$FUZZ_TARGETS"})
if ! make -C "$builddir" -j"$jobs" zinc.la fuzz-targets "${targets[@]}" >"$log" 2>&1; then
	tail -n 30 "$log"
	echo "fuzz/ci.sh: building the fuzzers failed" >&2
	exit 1
fi
echo "# fuzz: built in $(($(date +%s) - start)) s; fuzzing for $total s"
make -s -C "$builddir" fuzz-ci FUZZ_TOTAL="$total" FUZZ_CPU=all "${targets[@]}"
