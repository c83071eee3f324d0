#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# `make bench`: zinc against OpenSSL's default provider, side by side.
#
#   bench.sh BENCH_PROGRAM [OUTDIR]
#
# First `openssl speed -evp` for what it can time, once with zinc preferred
# and once with the default provider alone, runs interleaved, median per size;
# then test/bench (BENCH_PROGRAM) for the rest, with libsodium and libb2
# where they were found.  With OUTDIR, also keeps there what was printed
# (bench.txt), test/bench's medians (bench.tsv) and, if gnuplot is there,
# their plot by bench.gp (beside this script): bench.svg and bench.png.
#
# Environment: ZINC_MODULE_DIR (where zinc.so is; required), OPENSSL,
# GNUPLOT, BENCH_QUICK=1 (only test/bench, in its quick mode), BENCH_RUNS
# (runs of test/bench per cell), BENCH_SECONDS (length of one test/bench
# run), BENCH_SPEED_RUNS (runs of openssl speed, default 3),
# BENCH_SPEED_SECONDS (its -seconds, default 1).
set -u

bench=${1:?usage: bench.sh BENCH_PROGRAM [OUTDIR]}
outdir=${2:-}
gnuplot=${GNUPLOT:-gnuplot}
dir=${ZINC_MODULE_DIR:?ZINC_MODULE_DIR must name the directory holding zinc.so}
openssl=${OPENSSL:-openssl}
speed_runs=${BENCH_SPEED_RUNS:-3}
speed_seconds=${BENCH_SPEED_SECONDS:-1}
case ${BENCH_QUICK:-0} in ''|0) quick=0 ;; *) quick=1 ;; esac

# Only the providers named on the command line, whatever the user's openssl.cnf says.
export OPENSSL_CONF=/dev/null
zinc_opts=(-provider-path "$dir" -provider zinc -provider default -propquery '?zinc.preferred')
default_opts=(-provider default)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
day=$(date -u +%Y-%m-%d)

# Does zinc itself provide NAME (any of its names, any case)?
zinc_has() {
	"$openssl" list -cipher-algorithms -digest-algorithms -mac-algorithms \
		-provider-path "$dir" -provider zinc 2>/dev/null |
	awk -v want="$1" '
		/@ zinc$/ {
			sub(/@ zinc$/, "")
			n = split($0, names, /[{}, ]+/)
			for (i = 1; i <= n; i++)
				if (tolower(names[i]) == tolower(want))
					found = 1
		}
		END { exit !found }'
}

# One `openssl speed -mr` run; appends "size value..." lines to FILE.
speed_once() {
	local file=$1
	shift
	"$openssl" speed -mr -seconds "$speed_seconds" "$@" 2>"$tmp/err" |
	awk -F: '
		/^\+H:/ { for (i = 2; i <= NF; i++) size[i - 1] = $i; n = NF - 1 }
		/^\+F:/ { for (i = 4; i <= NF; i++) value[i - 3] = $i }
		END {
			if (n == 0) exit 1
			for (i = 1; i <= n; i++) print size[i], value[i]
		}' >>"$file"
}

# Median per size of FILE ("size bytes-per-second" lines), in GB/s: "size GB/s" lines.
medians() {
	sort -k1,1n -k2,2g "$1" |
	awk '
		function flush() {
			if (k) printf "%s %.3f\n", cur, (k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2) / 1e9
		}
		$1 != cur { flush(); cur = $1; k = 0 }
		{ v[++k] = $2 }
		END { flush() }'
}

# speed_table TITLE NAME-FOR-ZINC SPEED-ARGS...
speed_table() {
	local title=$1 name=$2 r
	shift 2
	echo
	echo "openssl speed -evp $*: $title"
	if ! zinc_has "$name"; then
		echo "  zinc does not provide $name (yet): skipped"
		return
	fi
	: >"$tmp/zinc"
	: >"$tmp/default"
	for ((r = 0; r < speed_runs; r++)); do
		if ! speed_once "$tmp/zinc" "${zinc_opts[@]}" -evp "$@" ||
		   ! speed_once "$tmp/default" "${default_opts[@]}" -evp "$@"; then
			echo "  openssl speed failed:"
			sed 's/^/    /' "$tmp/err"
			status=1
			return
		fi
	done
	printf '%6s | %12s | %12s | %s\n' size zinc default zinc/default
	paste <(medians "$tmp/zinc") <(medians "$tmp/default") |
	awk '{ printf "%6d | %7.3f GB/s | %7.3f GB/s | %.2fx\n", $1, $2, $4, ($4 > 0 ? $2 / $4 : 0) }'
}

# Everything the user sees; returns 1 if a part failed.
run_all() {
	echo "CPU: ${cpu:-unknown}, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') online; $day"
	echo "zinc: $dir/zinc.so"
	if [ "$quick" = 0 ]; then
		echo
		echo "== openssl speed: zinc preferred (-propquery '?zinc.preferred') against default alone"
		echo "   median of $speed_runs interleaved runs of $speed_seconds s per size; OpenSSL's own sizes"
		speed_table "ChaCha20, EVP_EncryptUpdate per buffer" ChaCha20 chacha20
		speed_table "ChaCha20-Poly1305, EVP_EncryptUpdate per buffer (no nonce, AAD, final or tag)" \
			ChaCha20-Poly1305 chacha20-poly1305
		# OpenSSL 3.0's -aead changes the sizes but, for this cipher, still times
		# EVP_EncryptUpdate alone; test/bench below times the real record loop.
		speed_table "ChaCha20-Poly1305 with -aead (3.0 still times EVP_EncryptUpdate only here)" \
			ChaCha20-Poly1305 chacha20-poly1305 -aead
		speed_table "BLAKE2s-256, one EVP_Digest per buffer" BLAKE2s256 blake2s256
		echo
		echo "== test/bench: EVP in one process, zinc and default in separate library contexts;"
		echo "   libsodium and libb2 columns where installed, checked against zinc's output first"
	else
		echo "(quick mode: openssl speed skipped; \`make bench\` runs the full comparison)"
	fi

	"$bench" || status=1
	return $status
}

if [ -z "$outdir" ]; then
	run_all
	exit
fi
mkdir -p "$outdir" || exit 1
export BENCH_DATA=$outdir/bench.tsv
rm -f "$BENCH_DATA" "$outdir/bench.svg" "$outdir/bench.png"
run_all 2>&1 | tee "$outdir/bench.txt"
status=${PIPESTATUS[0]}

echo
echo "output: $outdir/bench.txt"
if [ ! -s "$BENCH_DATA" ]; then
	echo "no data from test/bench: plot skipped"
	exit 1
fi
echo "data:   $BENCH_DATA"
if ! command -v "$gnuplot" >/dev/null 2>&1; then
	echo "plot:   skipped ($gnuplot not found; install gnuplot to get one)"
	exit $status
fi
# A double-quoted gnuplot string (its lines joined by \n).
gp_string() {
	printf '%s\n' "$1" | sed 's/[\\"]/\\&/g' |
	awk 'BEGIN { printf "\"" } NR > 1 { printf "\\n" } { printf "%s", $0 } END { printf "\"" }'
}
# What was timed, from test/bench's own header lines.
info() {
	sed -n "s/^# $1: //p" "$BENCH_DATA" | head -n 1
}
versions="$(info zinc); $(info OpenSSL)"
[ -n "$(info libsodium)" ] && versions+="; libsodium $(info libsodium)"
grep -q "	libb2	" "$BENCH_DATA" && versions+=", libb2"
versions=$(printf '%s\n' "$versions" | awk '{ gsub(/; /, "\n"); print }' | fold -s -w 66)
method=$(sed -n 's/^# \(median of .*\) per cell$/\1 per point/p' "$BENCH_DATA")
if "$gnuplot" -e "data=$(gp_string "$BENCH_DATA"); out=$(gp_string "$outdir/bench")" \
	      -e "heading=$(gp_string "${cpu:-unknown CPU}, $day")" \
	      -e "method=$(gp_string "$method"); versions=$(gp_string "$versions")" \
	      "$(dirname "$0")/bench.gp"; then
	echo "plot:   $outdir/bench.svg $outdir/bench.png"
else
	echo "plot:   $gnuplot failed"
	status=1
fi
exit $status
