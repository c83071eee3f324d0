#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Merges a campaign's grown inputs into the committed corpora (make
# fuzz-update-corpus, make fuzz):
#
#   merge.sh CORPUS WORKDIR TARGET...
#
# CORPUS/NAME becomes the smallest set of inputs, out of CORPUS/NAME and
# WORKDIR/work/NAME, that reaches all the coverage they reach together under
# each ZINC_CPU mask of FUZZ_CPU (see masks.sh): a
# libFuzzer -merge=1 into a fresh directory, once per mask, since each path
# has code of its own.  The seeds are left out: they are made at run time
# from the shared vectors, which are not copied into the tree.
set -u
corpus=${1:?usage: merge.sh CORPUS WORKDIR TARGET...}
workdir=$2
shift 2
srcdir=$(dirname "$0")/..

list=$("$srcdir/fuzz/masks.sh" "$1") || exit 1
mapfile -t masks <<<"$list"

for target in "$@"; do
	name=$(basename "$target")
	fresh=$workdir/merge/$name
	rm -rf "$fresh"
	mkdir -p "$fresh" "$corpus/$name" "$workdir/work/$name" "$workdir/logs"
	for mask in "${masks[@]}"; do
		if ! env ${mask:+ZINC_CPU="$mask"} "$target" -merge=1 -timeout=30 \
			-max_len="${FUZZ_MAX_LEN:-65536}" -rss_limit_mb=2048 \
			"$fresh" "$corpus/$name" "$workdir/work/$name" \
			>"$workdir/logs/merge-$name${mask:+@$mask}.log" 2>&1; then
			echo "merge: $name${mask:+@$mask} FAILED (see $workdir/logs/merge-$name${mask:+@$mask}.log)"
			exit 1
		fi
	done
	before=$(ls "$corpus/$name" | wc -l)
	find "$corpus/$name" -type f -delete
	mv "$fresh"/* "$corpus/$name"/ 2>/dev/null
	echo "merge: $name: $before inputs before, $(ls "$corpus/$name" | wc -l) now" \
	     "($(du -sk "$corpus/$name" | cut -f1) KB)"
done
