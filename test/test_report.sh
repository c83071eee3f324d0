#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# ZINC_REPORT through the openssl command line (TAP): one line per algorithm
# and process, at its first use, naming the implementations the build info
# names; to stderr or appended to a file; nothing at all when unset.  A file
# that cannot be opened: one warning on stderr, the work done, and the lines
# written once it can be (test/report_steps makes it openable mid-run).
#
# Environment (from Makefile.am): ZINC_MODULE_DIR, ZINC_BUILDDIR, ZINC_SRCDIR, OPENSSL.
set -u
. "${ZINC_SRCDIR:?}/test/lib.sh"

openssl=${OPENSSL:-}
[ -n "$openssl" ] || openssl=$(command -v openssl || true)
[ -n "$openssl" ] || missing_all "the openssl command is not installed"
module=${ZINC_MODULE_DIR:?}/zinc.so
aead_file=${ZINC_BUILDDIR:?}/docs/examples/aead-file

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
unset ZINC_REPORT


# Zinc preferred over default, as a user enables it.
sh "$ZINC_SRCDIR/test/openssl-cnf.sh" "$module" >"$tmp/zinc.cnf"
export OPENSSL_CONF=$tmp/zinc.cnf

sanitizer_run_env "$module" "$openssl"

# The implementations zinc names in its build info.
"${run_env[@]}" "$openssl" list -providers -verbose >"$tmp/providers" 2>&1
zinc_impls "$tmp/providers"
ok $? "zinc is loaded through openssl.cnf and its build info names the implementations" ||
	diag "$tmp/providers"

key32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
iv=000000000102030405060708090a0b0c
head -c 100003 /dev/urandom >"$tmp/data"
cp "$tmp/data" "$tmp/data2"
: >"$tmp/empty"
# Two X25519 keys for -derive, made with zinc unseen (no ZINC_REPORT).
for k in a b; do
	"${run_env[@]}" "$openssl" genpkey -algorithm X25519 -out "$tmp/$k.key" 2>/dev/null &&
	"${run_env[@]}" "$openssl" pkey -in "$tmp/$k.key" -pubout -out "$tmp/$k.pub" 2>/dev/null
done

# run NAME EVENT-TEXT IMPLEMENTATIONS OPENSSL-ARGS...: runs openssl with
# ZINC_REPORT=stderr, in the background so that its pid is known, and checks
# that its stderr is exactly one line, "zinc[PID openssl]: EVENT: IMPLS",
# and its stdout what it is without ZINC_REPORT.
run() {
	local name=$1 event=$2 impls=$3 pid status
	shift 3
	ZINC_REPORT=stderr "${run_env[@]}" "$openssl" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	wait $pid
	status=$?
	"${run_env[@]}" "$openssl" "$@" >"$tmp/$name.plain" 2>"$tmp/$name.plain-err"
	printf 'zinc[%s openssl]: %s: %s\n' "$pid" "$event" "$impls" >"$tmp/$name.want"
	[ $status -eq 0 ] && cmp -s "$tmp/$name.err" "$tmp/$name.want"
	ok $? "$name: stderr is one line, '$(cat "$tmp/$name.want")'" ||
		{ echo "# status $status; stderr:"; diag "$tmp/$name.err"; }
	cmp -s "$tmp/$name.out" "$tmp/$name.plain" && [ ! -s "$tmp/$name.plain-err" ]
	ok $? "$name: the same output as without ZINC_REPORT, which prints nothing on stderr" ||
		diag "$tmp/$name.plain-err"
}

# Each runs its algorithm's init more than once, yet reports it once.
run "dgst -blake2s256 of three files" "BLAKE2S-256 digest" "blake2s $blake2s" \
	dgst -blake2s256 "$tmp/data" "$tmp/data2" "$tmp/empty"
run "mac HMAC over BLAKE2S-256" "BLAKE2S-256 digest" "blake2s $blake2s" \
	mac -digest BLAKE2S-256 -macopt "hexkey:$key32" -in "$tmp/data" HMAC
run "mac POLY1305" "POLY1305 MAC" "poly1305 $poly1305" \
	mac -macopt "hexkey:$key32" -in "$tmp/data" POLY1305
run "mac BLAKE2SMAC" "BLAKE2SMAC MAC" "blake2s $blake2s" \
	mac -macopt "hexkey:$key32" -in "$tmp/data" BLAKE2SMAC
run "enc -chacha20" "ChaCha20 encrypt" "chacha20 $chacha20" \
	enc -chacha20 -K "$key32" -iv "$iv" -in "$tmp/data"
run "enc -d -chacha20" "ChaCha20 decrypt" "chacha20 $chacha20" \
	enc -d -chacha20 -K "$key32" -iv "$iv" -in "$tmp/enc -chacha20.out"
run "pkeyutl -derive" "X25519 derive" "curve25519 $curve25519" \
	pkeyutl -derive -inkey "$tmp/a.key" -peerkey "$tmp/b.pub"

# Key generation gives a new key each time: compare only stderr.
ZINC_REPORT=stderr "${run_env[@]}" "$openssl" genpkey -algorithm X25519 \
	-out "$tmp/c.key" 2>"$tmp/genpkey.err" &
pid=$!
wait $pid && [ "$(cat "$tmp/genpkey.err")" = \
	"zinc[$pid openssl]: X25519 keygen: curve25519 $curve25519" ]
ok $? "genpkey -algorithm X25519: stderr is one keygen line" || diag "$tmp/genpkey.err"

# What zinc does not implement is not reported.
ZINC_REPORT=stderr "${run_env[@]}" "$openssl" dgst -sha256 "$tmp/data" >/dev/null 2>"$tmp/sha.err"
[ $? -eq 0 ] && [ ! -s "$tmp/sha.err" ]
ok $? "dgst -sha256 (the default provider's) reports nothing" || diag "$tmp/sha.err"

# The AEADs, through the example program (built with the sanitizers itself
# in a sanitizer build, so it needs no preloading).
for alg in ChaCha20-Poly1305 XChaCha20-Poly1305; do
	lower=$(echo $alg | tr A-Z a-z)
	if [ ! -x "$aead_file" ]; then
		skip 1 "docs/examples/aead-file is not built"
		continue
	fi
	rm -f "$tmp/aead.rep" "$tmp/aead.ct" "$tmp/aead.pt"
	ZINC_REPORT=$tmp/aead.rep "$aead_file" encrypt $lower "$key32" "$tmp/data" "$tmp/aead.ct" \
		2>"$tmp/aead.err" &
	pid1=$!
	wait $pid1
	status1=$?
	ZINC_REPORT=$tmp/aead.rep "$aead_file" decrypt $lower "$key32" "$tmp/aead.ct" "$tmp/aead.pt" \
		2>>"$tmp/aead.err" &
	pid2=$!
	wait $pid2
	status2=$?
	printf 'zinc[%s aead-file]: %s %s: chacha20 %s, poly1305 %s\n' \
		"$pid1" $alg encrypt "$chacha20" "$poly1305" \
		"$pid2" $alg decrypt "$chacha20" "$poly1305" >"$tmp/aead.want"
	[ $status1 -eq 0 ] && [ $status2 -eq 0 ] && cmp -s "$tmp/data" "$tmp/aead.pt" &&
		cmp -s "$tmp/aead.rep" "$tmp/aead.want"
	ok $? "aead-file $lower: an encrypt line, then a decrypt line" ||
		{ diag "$tmp/aead.rep"; diag "$tmp/aead.err"; }
done

# --- unset or empty: nothing ------------------------------------------------
for value in unset empty; do
	(
		if [ $value = empty ]; then export ZINC_REPORT=; fi
		cd "$tmp" &&
		"${run_env[@]}" "$openssl" dgst -blake2s256 "$tmp/data" &&
		"${run_env[@]}" "$openssl" enc -chacha20 -K "$key32" -iv "$iv" -in "$tmp/data" &&
		"${run_env[@]}" "$openssl" pkeyutl -derive -inkey "$tmp/a.key" -peerkey "$tmp/b.pub"
	) >/dev/null 2>"$tmp/quiet.err"
	[ $? -eq 0 ] && [ ! -s "$tmp/quiet.err" ]
	ok $? "ZINC_REPORT $value: dgst, enc and pkeyutl print nothing on stderr" ||
		diag "$tmp/quiet.err"
done

# --- a file: appended to, one whole line per event ---------------------------
report=$tmp/report.log
echo "a line from before" >"$report"
ZINC_REPORT=$report "${run_env[@]}" "$openssl" dgst -blake2s256 "$tmp/data" \
	>/dev/null 2>"$tmp/file.err" &
pid1=$!
wait $pid1
ZINC_REPORT=$report "${run_env[@]}" "$openssl" mac -macopt "hexkey:$key32" -in "$tmp/data" \
	POLY1305 >/dev/null 2>>"$tmp/file.err" &
pid2=$!
wait $pid2
printf '%s\n' "a line from before" \
	"zinc[$pid1 openssl]: BLAKE2S-256 digest: blake2s $blake2s" \
	"zinc[$pid2 openssl]: POLY1305 MAC: poly1305 $poly1305" >"$tmp/file.want"
cmp -s "$report" "$tmp/file.want" && [ ! -s "$tmp/file.err" ]
ok $? "ZINC_REPORT=FILE: each process appends its line to the file, nothing on stderr" ||
	{ diag "$report"; diag "$tmp/file.err"; }

# Eight processes at once, each with three digests and a MAC.
rm -f "$report"
pids=()
for i in 1 2 3 4 5 6 7 8; do
	ZINC_REPORT=$report "${run_env[@]}" "$openssl" dgst -blake2s256 \
		"$tmp/data" "$tmp/data2" "$tmp/empty" >/dev/null 2>&1 &
	pids+=($!)
	ZINC_REPORT=$report "${run_env[@]}" "$openssl" mac -macopt "hexkey:$key32" \
		-in "$tmp/data" BLAKE2SMAC >/dev/null 2>&1 &
	pids+=($!)
done
wait
for i in 0 2 4 6 8 10 12 14; do
	echo "zinc[${pids[$i]} openssl]: BLAKE2S-256 digest: blake2s $blake2s"
	echo "zinc[${pids[$((i + 1))]} openssl]: BLAKE2SMAC MAC: blake2s $blake2s"
done | sort >"$tmp/many.want"
sort "$report" 2>/dev/null | cmp -s - "$tmp/many.want"
ok $? "sixteen processes at once: sixteen whole lines, one per process" || diag "$report"

# --- a file that cannot be opened: one warning, the lines kept -------------
# warning PID PATH REASON: the one line a process writes on stderr.
warning() {
	printf 'zinc[%s]: cannot open ZINC_REPORT file %s: %s; %s\n' "$1" "$2" "$3" \
		"zinc keeps its lines for a later use that can write them"
}
# (LC_ALL=C: the reason is strerror's, in English.)
ZINC_REPORT=$tmp/no/such/dir/report LC_ALL=C "${run_env[@]}" "$openssl" dgst -blake2s256 \
	"$tmp/data" "$tmp/data2" "$tmp/empty" >"$tmp/lost.out" 2>"$tmp/lost.err" &
pid=$!
wait $pid
status=$?
"${run_env[@]}" "$openssl" dgst -blake2s256 "$tmp/data" "$tmp/data2" "$tmp/empty" \
	>"$tmp/lost.want" 2>/dev/null
warning "$pid openssl" "$tmp/no/such/dir/report" "No such file or directory" >"$tmp/lost.want-err"
[ $status -eq 0 ] && cmp -s "$tmp/lost.err" "$tmp/lost.want-err" && [ ! -e "$tmp/no" ] &&
	[ -s "$tmp/lost.out" ] && cmp -s "$tmp/lost.out" "$tmp/lost.want"
ok $? "ZINC_REPORT naming a file in a missing directory: three digests, one warning line" ||
	{ echo "# status $status; stderr:"; diag "$tmp/lost.err"; }

# One process (test/report_steps) whose file becomes openable between two
# of its steps: the lines that waited are written at the next use, once.
steps=$ZINC_BUILDDIR/test/report_steps
# run_steps NAME REPORT-FILE STEPS...: runs them with ZINC_REPORT, and
# again without it, minus the mkdir: and rm: steps, for the results.
run_steps() {
	local name=$1 report=$2 s plain=()
	shift 2
	for s in "$@"; do
		case $s in mkdir:* | rm:*) ;; *) plain+=("$s") ;; esac
	done
	ZINC_REPORT=$report LC_ALL=C "$steps" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	wait $pid
	status=$?
	"$steps" "${plain[@]}" >"$tmp/$name.plain" 2>&1
}
if [ ! -x "$steps" ]; then
	skip 6 "test/report_steps is not built"
else
	# A missing directory, made after four uses of three algorithms.
	run_steps later "$tmp/later/report" digest digest mac derive mkdir:"$tmp/later" \
		seal digest mac derive
	warning "$pid report_steps" "$tmp/later/report" "No such file or directory" \
		>"$tmp/later.want-err"
	[ $status -eq 0 ] && cmp -s "$tmp/later.out" "$tmp/later.plain" &&
		grep -q '^derive ' "$tmp/later.out" && cmp -s "$tmp/later.err" "$tmp/later.want-err"
	ok $? "a directory made mid-run: every step's result, and one warning line before it" ||
		{ echo "# status $status; stderr:"; diag "$tmp/later.err"; diag "$tmp/later.out"; }
	# The waiting lines (in zinc's order of events), then the use that wrote them.
	printf 'zinc[%s report_steps]: %s\n' \
		"$pid" "POLY1305 MAC: poly1305 $poly1305" \
		"$pid" "BLAKE2S-256 digest: blake2s $blake2s" \
		"$pid" "X25519 derive: curve25519 $curve25519" \
		"$pid" "ChaCha20-Poly1305 encrypt: chacha20 $chacha20, poly1305 $poly1305" \
		>"$tmp/later.want"
	cmp -s "$tmp/later/report" "$tmp/later.want"
	ok $? "... the first use after it writes the three lines that waited, then its own; no line twice" ||
		diag "$tmp/later/report"

	# A path under a regular file, replaced by a directory mid-run; eight
	# threads racing to their first uses before and after.
	echo "not a directory" >"$tmp/plain"
	run_steps race "$tmp/plain/report" race rm:"$tmp/plain" mkdir:"$tmp/plain" race
	warning "$pid report_steps" "$tmp/plain/report" "Not a directory" >"$tmp/race.want-err"
	[ $status -eq 0 ] && cmp -s "$tmp/race.out" "$tmp/race.plain" &&
		[ "$(cat "$tmp/race.out")" = "$(printf 'race ok\nrace ok')" ] &&
		cmp -s "$tmp/race.err" "$tmp/race.want-err"
	ok $? "a path under a regular file, eight racing threads: right results, one warning line" ||
		{ echo "# status $status; stderr:"; diag "$tmp/race.err"; diag "$tmp/race.out"; }
	printf 'zinc[%s report_steps]: %s\n' \
		"$pid" "BLAKE2S-256 digest: blake2s $blake2s" \
		"$pid" "ChaCha20-Poly1305 encrypt: chacha20 $chacha20, poly1305 $poly1305" |
		sort >"$tmp/race.want"
	sort "$tmp/plain/report" 2>/dev/null | cmp -s - "$tmp/race.want"
	ok $? "... once it is a directory, the racing threads write each waiting line once" ||
		diag "$tmp/plain/report"

	# Standard error is not a file: nothing waits, nothing warns.
	run_steps stderr stderr digest digest
	printf 'zinc[%s report_steps]: BLAKE2S-256 digest: blake2s %s\n' "$pid" "$blake2s" \
		>"$tmp/stderr.want"
	[ $status -eq 0 ] && cmp -s "$tmp/stderr.out" "$tmp/stderr.plain" &&
		cmp -s "$tmp/stderr.err" "$tmp/stderr.want"
	ok $? "report_steps with ZINC_REPORT=stderr: one line, as the openssl commands" ||
		diag "$tmp/stderr.err"

	# A file that never becomes openable: results, one warning, nothing else.
	run_steps never "$tmp/never/report" digest mac seal derive race digest
	warning "$pid report_steps" "$tmp/never/report" "No such file or directory" \
		>"$tmp/never.want-err"
	[ $status -eq 0 ] && cmp -s "$tmp/never.out" "$tmp/never.plain" &&
		cmp -s "$tmp/never.err" "$tmp/never.want-err" && [ ! -e "$tmp/never" ]
	ok $? "a file never openable: every step's result, one warning line for all of them" ||
		{ echo "# status $status; stderr:"; diag "$tmp/never.err"; }
fi

echo "1..$n"
