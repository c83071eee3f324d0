#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# The ZINC_CPU masks to fuzz under, one a line (run.sh, merge.sh):
#
#   masks.sh TARGET
#
# FUZZ_CPU names them, space-separated, or "all": every mask of
# test/lib.sh's cpu_masks.  Only those that zinc's buildinfo, as TARGET
# prints it, shows exactly as asked are listed (a mask this CPU cannot give
# would fuzz another path); the others are named on stderr.  FUZZ_CPU empty:
# one empty line, zinc's own choice.
set -u
target=${1:?usage: masks.sh TARGET}
masks=()
buildinfo_cpu() { "$target" -runs=0 2>&1 | sed -n 's/^zinc buildinfo: .*cpu: //p'; }
if [ "${FUZZ_CPU:-}" = all ]; then
	# The tests' list (test/lib.sh), for the features this CPU has.
	. "$(dirname "$0")/../test/lib.sh"
	mapfile -t masks < <(cpu_masks "$(buildinfo_cpu)")
else
	read -r -a masks <<<"${FUZZ_CPU:-}"
fi
[ "${#masks[@]}" -gt 0 ] || { echo; exit 0; }
n=0
for mask in "${masks[@]}"; do
	got=$(ZINC_CPU=$mask buildinfo_cpu)
	if [ "$got" = "${mask//,/ }" ]; then
		echo "$mask"
		n=$((n + 1))
	else
		echo "# fuzz: ZINC_CPU=$mask skipped: this CPU gives '$got'" >&2
	fi
done
[ "$n" -gt 0 ] || { echo "masks.sh: no ZINC_CPU mask runs on this CPU" >&2; exit 1; }
