#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Runs libFuzzer targets for a bounded time (make fuzz-smoke, fuzz-ci, fuzz).
#
#   run.sh SECONDS SEEDS CORPUS WORKDIR TARGET...
#
# TARGET's inputs: WORKDIR/work/NAME, where it grows (kept between runs and
# masks; `merge.sh` minimises it into CORPUS), CORPUS/NAME (the committed
# corpus) and SEEDS/NAME (written by corpus.pl).  A crash or a mismatch with
# the oracle leaves its input in WORKDIR/artifacts/RUN-*, the reproducer: run
# `TARGET FILE` (with ZINC_CPU=MASK for RUN NAME@MASK) to replay it.
#
# Environment:
#   FUZZ_CPU      ZINC_CPU masks (see masks.sh; "all": every one this CPU
#                 gives): every target runs once per mask, so that each
#                 implementation path is fuzzed; empty, zinc's own choice.
#   FUZZ_TOTAL    when set, SECONDS is ignored: all runs together take about
#                 FUZZ_TOTAL seconds, split evenly, start-up included.
#   FUZZ_MAX_LEN  libFuzzer's -max_len (65536).
#
# Prints one line per run, "fuzz: NAME[@MASK] ok|FAILED ...", and fails if any did.
set -u
seconds=${1:?usage: run.sh SECONDS SEEDS CORPUS WORKDIR TARGET...}
seeds=$2
corpus=$3
workdir=$4
shift 4
srcdir=$(dirname "$0")/..
start_all=$(date +%s)
status=0
mkdir -p "$workdir/work" "$workdir/artifacts" "$workdir/logs"

list=$("$srcdir/fuzz/masks.sh" "$1") || exit 1
mapfile -t runnable <<<"$list"
runs_left=$(($# * ${#runnable[@]}))
overhead=2	# start-up and the corpora's first pass, re-estimated after each run
for target in "$@"; do
	name=$(basename "$target")
	mkdir -p "$workdir/work/$name"
	inputs=()
	for dir in "$corpus/$name" "$seeds/$name"; do
		[ ! -d "$dir" ] || inputs+=("$dir")
	done
	for mask in "${runnable[@]}"; do
		run=$name${mask:+@$mask}
		log=$workdir/logs/$run.log
		if [ -n "${FUZZ_TOTAL:-}" ]; then
			left=$((FUZZ_TOTAL - ($(date +%s) - start_all)))
			seconds=$((left / runs_left - overhead))
			[ "$seconds" -ge 1 ] || seconds=1
		fi
		start=$(date +%s)
		# -timeout: one input may take 30 s at most, wall-clock time: a
		# process starved on a busy machine stalls for seconds (seen at 15 s).
		# ASan's leak check stays on.
		env ${mask:+ZINC_CPU="$mask"} "$target" -max_total_time="$seconds" -timeout=30 \
			-max_len="${FUZZ_MAX_LEN:-65536}" -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$workdir/artifacts/$run-" \
			"$workdir/work/$name" "${inputs[@]}" >"$log" 2>&1
		rc=$?
		took=$(($(date +%s) - start))
		runs_left=$((runs_left - 1))
		[ "$took" -le "$seconds" ] || overhead=$(((overhead + took - seconds + 1) / 2))
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		if [ "$rc" -eq 0 ]; then
			echo "fuzz: $run ok (${runs:-?} inputs in $took s, corpus $(ls "$workdir/work/$name" | wc -l) grown)"
		else
			echo "fuzz: $run FAILED (exit $rc after $took s; reproducer:" \
			     "$(ls -t "$workdir/artifacts/$run-"* 2>/dev/null | head -n 1))"
			grep -E 'MISMATCH|ERROR|SUMMARY|^  ' "$log" | head -n 40 | sed 's/^/    /'
			status=1
		fi
	done
done
echo "# fuzz: $(($# * ${#runnable[@]})) runs in $(($(date +%s) - start_all)) s"
exit $status
