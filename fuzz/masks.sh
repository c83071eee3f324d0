#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# The ZINC_CPU masks to fuzz under, one a line (run.sh, merge.sh):
#
#   masks.sh TARGET
#
# FUZZ_CPU names them, space-separated, or "all": every mask of
# test/test_cpu_masks.sh.  Only those that zinc's buildinfo, as TARGET
# prints it, shows exactly as asked are listed (a mask this CPU cannot give
# would fuzz another path); the others are named on stderr.  FUZZ_CPU empty:
# one empty line, zinc's own choice.
set -u
target=${1:?usage: masks.sh TARGET}
masks=()
if [ "${FUZZ_CPU:-}" = all ]; then
	# test_cpu_masks.sh's masks=( ... ), up to the first ")" outside a comment.
	eval "$(sed -n '/^masks=(/,/^[^#]*)[[:space:]]*$/p' "$(dirname "$0")/../test/test_cpu_masks.sh")"
	[ "${#masks[@]}" -ge 2 ] || { echo "masks.sh: cannot read test/test_cpu_masks.sh's masks" >&2; exit 1; }
else
	read -r -a masks <<<"${FUZZ_CPU:-}"
fi
[ "${#masks[@]}" -gt 0 ] || { echo; exit 0; }
n=0
for mask in "${masks[@]}"; do
	got=$(ZINC_CPU=$mask "$target" -runs=0 2>&1 | sed -n 's/^zinc buildinfo: .*cpu: //p')
	if [ "$got" = "${mask//,/ }" ]; then
		echo "$mask"
		n=$((n + 1))
	else
		echo "# fuzz: ZINC_CPU=$mask skipped: this CPU gives '$got'" >&2
	fi
done
[ "$n" -gt 0 ] || { echo "masks.sh: no ZINC_CPU mask runs on this CPU" >&2; exit 1; }
