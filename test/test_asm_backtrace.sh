#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Debuggers and profilers walk through the generated assembly (TAP).  For
# every function of the objects in generated/ (nm), gdb stops at FUNC+4
# (past the landing pad) and at every point where the function's DWARF call
# frame information changes (the rows of readelf's frames table: after each
# push, stack allocation or realignment, in out-of-line code with a frame
# of its own, in the epilogues), in test_selftest_direct (every path's
# load-time self-test) and test_primitives (the lengths that reach the
# rest, such as chacha20_avx512_bytes's key block loop) under each ZINC_CPU
# mask, and `bt` there must reach main.  A function no mask reaches on this
# CPU is a skip naming it; one without call frame information, or never
# stopped in past its entry, fails.
#
# x86_64 natively; AArch64 under a cross build's qemu-user (ZINC_EMULATOR),
# whose gdb stub gdb-multiarch debugs (test_selftest_direct only: under gdb
# the emulator takes minutes over test_primitives).  ARMv7 describes its
# frames with EHABI tables, not DWARF: skipped.
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR, ZINC_EMULATOR.
set -u

builddir=${ZINC_BUILDDIR:?}
srcdir=${ZINC_SRCDIR:?}
. "$srcdir/test/lib.sh"
read -r -a emulator <<<"${ZINC_EMULATOR:-}"
programs=(test_selftest_direct test_primitives)
[ "${#emulator[@]}" -gt 0 ] && programs=(test_selftest_direct)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

shopt -s nullglob
objects=("$builddir"/generated/.libs/*.o)
if [ "${#objects[@]}" -eq 0 ]; then
	skip_all "no generated assembly in this build"
fi
machine=$(readelf -h "${objects[0]}" | sed -n 's/^ *Machine: *//p')
case $machine in
*X86-64*) mapfile -t masks < <(cpu_masks x86_64) ;;
AArch64) mapfile -t masks < <(cpu_masks armv8) ;;
*) skip_all "$machine: EHABI unwind tables, no DWARF frames to walk" ;;
esac
if [ "${#emulator[@]}" -gt 0 ]; then
	gdb=gdb-multiarch
else
	gdb=gdb
fi
command -v "$gdb" >/dev/null || missing_all "$gdb is not installed"

# The functions (nm), and each one's stops: +4, then the offsets of its
# frame table's rows (one line "FUNC OFFSET..." each; none: no FDE).
: >"$tmp/stops"
for obj in "${objects[@]}"; do
	readelf --debug-dump=frames-interp "$obj" >"$tmp/frames" 2>/dev/null
	nm --defined-only "$obj" | awk '$2 == "T" { print $1, $3 }' |
	while read -r value func; do
		start=$((16#$value))
		offsets=$(awk -v start="$start" '
			function hex(s,   v, i) {
				v = 0
				for (i = 1; i <= length(s); i++)
					v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
				return v
			}
			/ FDE / {
				split($NF, r, /[=.]+/)
				in_fde = (hex(r[2]) == start)
				end = hex(r[3]) - start
				next
			}
			in_fde && /^[0-9a-f]+ / {
				off = hex($1) - start
				if (off > 4 && off < end) print off
			}
			/^$/ { in_fde = 0 }' "$tmp/frames" | sort -nu | tr '\n' ' ')
		if grep -q "pc=0*$value\.\." "$tmp/frames"; then
			echo "$func 4 $offsets"
		else
			echo "$func"
		fi
	done >>"$tmp/stops"
done

# A gdb script: each stop prints the backtrace once, then disables itself.
{
	echo "set pagination off"
	echo "set confirm off"
	echo "set width 0"
	echo "set print frame-arguments none"
	bp=0
	while read -r func offsets; do
		for off in $offsets; do
			bp=$((bp + 1))
			cat <<EOF
break *$func+$off
commands $bp
silent
printf "@@ stop $func+$off\\n"
bt 40
printf "@@ end\\n"
disable $bp
continue
end
EOF
		done
	done <"$tmp/stops"
} >"$tmp/breaks.gdb"

# run MASK PROGRAM: the program under gdb, stops and backtraces to stdout.
run() {
	local prog=$builddir/test/$2 port pid
	if [ "${#emulator[@]}" -eq 0 ]; then
		ZINC_CPU=$1 timeout 600 "$gdb" -batch -nx -x "$tmp/breaks.gdb" -ex run --args "$prog" 2>&1
		return
	fi
	port=$((20000 + RANDOM % 20000))
	ZINC_CPU=$1 "${emulator[@]}" -g "$port" "$prog" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	timeout 600 "$gdb" -batch -nx -ex "set sysroot /" -ex "file $prog" -ex "target remote :$port" \
		-x "$tmp/breaks.gdb" -ex continue 2>&1
	wait "$pid"
}

# Each stop's verdict, one line "MASK FUNC+OFF ok|bad FILE" per stop made.
: >"$tmp/verdicts"
for mask in "${masks[@]}"; do
	for p in "${programs[@]}"; do
		run "$mask" "$p" >"$tmp/out"
		awk -v mask="$mask" -v file="$tmp/bt.$mask.$p" '
			/^@@ stop / { stop = $3; bt = ""; next }
			/^@@ end/ {
				fn = stop
				sub(/\+.*/, "", fn)
				good = bt ~ ("^#0 [^\n]* " fn " ") && bt ~ /\n#[0-9]+ [^\n]* main \(/ &&
				       bt !~ /Backtrace stopped|corrupt stack|previous frame identical/
				print "@@ " stop "\n" bt > file
				print mask, stop, good ? "ok" : "bad", file
				stop = ""
				next
			}
			stop != "" { bt = bt $0 "\n" }' "$tmp/out" >>"$tmp/verdicts"
	done
done

n=0
while read -r func offsets; do
	n=$((n + 1))
	if [ -z "$offsets" ]; then
		echo "not ok $n - $func: no call frame information (FDE)"
		continue
	fi
	made=$(grep -c " $func+" "$tmp/verdicts")
	if [ "$made" -eq 0 ]; then
		echo "ok $n # SKIP $func: no ZINC_CPU mask reaches it on this CPU"
		continue
	fi
	bad=$(grep " $func+[0-9]* bad " "$tmp/verdicts" | head -n 1)
	inner=$(grep -c -v " $func+4 " <(grep " $func+" "$tmp/verdicts"))
	points=$(grep " $func+" "$tmp/verdicts" | awk '{ print $2 }' | sort -u | wc -l)
	want=$(wc -w <<<"$offsets")
	masks_hit=$(grep " $func+" "$tmp/verdicts" | awk '{ print $1 }' | sort -u | wc -l)
	if [ -n "$bad" ]; then
		read -r bmask bstop _ bfile <<<"$bad"
		echo "not ok $n - $func: bt at $bstop (ZINC_CPU=$bmask) does not reach main cleanly"
		sed -n "/^@@ $bstop\$/,/^@@ /p" "$bfile" | sed '/^@@/d; s/^/# /'
	elif [ "$want" -gt 1 ] && [ "$inner" -eq 0 ]; then
		echo "not ok $n - $func: never stopped in past its entry (stops: $offsets)"
	else
		echo "ok $n - $func: bt reaches main from $points of its $want stops ($made stops under $masks_hit masks)"
	fi
done <"$tmp/stops"
echo "1..$n"
