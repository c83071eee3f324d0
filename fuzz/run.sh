#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Runs each libFuzzer target for a bounded time (`make fuzz-smoke`, `make fuzz-long`).
#
#   run.sh SECONDS SEED_CORPORA WORKDIR TARGET...
#
# TARGET's working corpus is WORKDIR/work/NAME (kept between runs, seeded from
# SEED_CORPORA/NAME); a crash or a mismatch with the oracle leaves its input
# in WORKDIR/artifacts/NAME-*, the reproducer: run `TARGET FILE` to replay it.
# FUZZ_CPU, a space-separated list of ZINC_CPU masks, runs every target once
# per mask (SECONDS each), so that each implementation path is fuzzed.
# Prints one line per run, "fuzz: NAME[@MASK] ok|FAILED ...", and fails if any did.
set -u
seconds=${1:?usage: run.sh SECONDS SEED_CORPORA WORKDIR TARGET...}
seeds=$2
workdir=$3
shift 3
status=0

for target in "$@"; do
	name=$(basename "$target")
	work=$workdir/work/$name
	mkdir -p "$work" "$workdir/artifacts"
	for mask in ${FUZZ_CPU:-""}; do
		run=$name${mask:+@$mask}
		log=$workdir/work/$run.log
		start=$(date +%s)
		# -timeout: one input may take 10 s at most; ASan's leak check stays on.
		${mask:+env ZINC_CPU="$mask"} "$target" -max_total_time="$seconds" -timeout=10 \
			-rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$workdir/artifacts/$run-" "$work" "$seeds/$name" >"$log" 2>&1
		rc=$?
		took=$(($(date +%s) - start))
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		if [ "$rc" -eq 0 ]; then
			echo "fuzz: $run ok (${runs:-?} inputs in $took s, corpus $(ls "$work" | wc -l))"
		else
			echo "fuzz: $run FAILED (exit $rc after $took s; reproducer:" \
			     "$(ls -t "$workdir/artifacts/$run-"* 2>/dev/null | head -n 1))"
			grep -E 'MISMATCH|ERROR|SUMMARY|^  ' "$log" | head -n 40 | sed 's/^/    /'
			status=1
		fi
	done
done
exit $status
