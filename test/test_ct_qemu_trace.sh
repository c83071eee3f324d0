#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Constant time on ARMv7 and AArch64 (TAP), in a cross build: the guest
# driver test/test_ct_qemu runs the case catalogue (test/ct_cases.c) under
# qemu-user with test/ct_qemu_plugin.c, a TCG plugin built here for this
# machine, once per ZINC_CPU mask of lib.sh's cpu_masks.  The plugin
# compares every secret set's run (each instruction executed, each memory
# address loaded or stored) with set 0's; a line per case per mask says how
# many sets were compared, and any divergence fails it, with where.
#
# Then the proof that it can fail: the driver's self-test cases (a branch
# on a secret, a load at a secret index: reported, in the function that
# leaks; the same work without a leak: not), and two copies of the driver
# linked with the Poly1305 assembly with a leak planted (test/ct_plant_arm.pl):
# a branch on a secret bit, a load at a secret index, each reported in
# zinc_poly1305_blocks_armv8 (_armv4), under every mask with assembly.
#
# Under CI=true, a check that cannot run (no qemu, no compiler for the
# plugin, a qemu that will not load it) fails instead of skipping.
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR, ZINC_EMULATOR,
# ZINC_NM; CC_FOR_BUILD, the compiler for the plugin (default cc).
set -u

builddir=${ZINC_BUILDDIR:?}
srcdir=${ZINC_SRCDIR:?}
. "$srcdir/test/lib.sh"
prog=$builddir/test/test_ct_qemu
read -r -a emu <<<"${ZINC_EMULATOR:-}"

[ "${#emu[@]}" -gt 0 ] ||
	skip_all "not a cross build: natively, test_ct_trace.sh traces with ptrace"
command -v "${emu[0]}" >/dev/null || missing_all "the emulator ${emu[0]} is not installed"
[ -x "$prog" ] || { echo "Bail out! $prog is not built"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The plugin, for the machine qemu runs on.
read -r -a cc <<<"${CC_FOR_BUILD:-cc}"
command -v "${cc[0]}" >/dev/null ||
	missing_all "no compiler for this machine (${cc[0]}) to build the qemu plugin"
plugin=$tmp/ct_qemu_plugin.so
if ! "${cc[@]}" -shared -fPIC -O2 -fvisibility=hidden -Wall -Wextra -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wvla -Werror \
	-o "$plugin" "$srcdir/test/ct_qemu_plugin.c" >"$tmp/cc.log" 2>&1; then
	echo "not ok 1 - test/ct_qemu_plugin.c builds with ${cc[*]}"
	diag "$tmp/cc.log"
	echo "1..1"
	exit 1
fi

# trace OUT REPORT [ENV...] -- PROGRAM ARGS...: under qemu with the plugin.
trace() {
	local out=$1 report=$2 envs=()
	shift 2
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	# qemu splits -plugin's option at commas: a comma in a path is doubled.
	env "${envs[@]}" "${emu[@]}" -plugin "${plugin//,/,,},out=${report//,/,,}" "$@" \
		>"$out" 2>&1
}

# qemu refuses a plugin it cannot load (API version, missing symbol).
if ! trace "$tmp/probe.out" "$tmp/probe" -- "$prog" info ||
   ! grep -q '^plugin target ' "$tmp/probe"; then
	missing_all "${emu[0]} does not load the plugin: $(grep -v '^cpu:' "$tmp/probe.out" | head -n 1)"
fi
sed 's/^/# /' "$tmp/probe"

# Symbolises a report's "0xADDR <sym>" as "<sym+0xOFF>", the offset in
# the program's symbol table (qemu loads it at a bias: found from ct_mark).
nm_cmd=${ZINC_NM:-nm}
symbolize() {	# symbolize PROGRAM REPORT PATTERN: its lines matching PATTERN
	# shellcheck disable=SC2086
	$nm_cmd "$1" 2>/dev/null >"$tmp/nm"
	perl -e '
		my ($nm, $report, $pattern) = @ARGV;
		my %sym;
		open(my $fh, "<", $nm) or exit 0;
		while (<$fh>) {
			$sym{$3} = hex($1) & ~1 if /^([0-9a-f]+) ([tTwW]) (\S+)$/;
		}
		open($fh, "<", $report) or exit 0;
		my @lines = <$fh>;
		my ($mark) = map { /^marker ct_mark 0x([0-9a-f]+)/ ? hex($1) : () } @lines;
		my $bias = defined $mark && defined $sym{ct_mark} ? $mark - $sym{ct_mark} : undef;
		for (grep { /$pattern/ } @lines) {
			s{0x([0-9a-f]+) <([^>?]+)>}{
				defined $bias && defined $sym{$2}
				  ? sprintf("0x%s <%s+0x%x>", $1, $2, hex($1) - $bias - $sym{$2})
				  : "0x$1 <$2>"
			}ge;
			print "# $_";
		}' "$tmp/nm" "$2" "$3"
}

# The report's line for case K: "regions compared differing events insns
# loads stores paths", or nothing.
case_stats() {	# case_stats REPORT K
	awk -v k="$2" '$1 == "case" && $2 == k {
		print $4, $6, $8, $10, $12, $14, $16, $20 }' "$1"
}

"${emu[@]}" "$prog" list >"$tmp/cases" 2>&1 ||
	{ echo "Bail out! test_ct_qemu list failed"; cat "$tmp/cases"; exit 1; }
ncases=$(wc -l <"$tmp/cases")
"${emu[@]}" "$prog" info >"$tmp/info" ||
	{ echo "Bail out! test_ct_qemu info failed"; exit 1; }
features=$(sed -n 's/^cpu: //p' "$tmp/info")
mapfile -t masks < <(cpu_masks "$features")
echo "# ${emu[0]}: ${#masks[@]} masks, $ncases cases (CPU: $features)"

# --- every case under every mask -----------------------------------------
start=$SECONDS
i=0
for mask in "${masks[@]}"; do
	i=$((i + 1))
	ZINC_CPU=$mask "${emu[@]}" "$prog" info >"$tmp/info.$i" 2>&1
	got=$(sed -n 's/^cpu: //p' "$tmp/info.$i")
	if [ "$got" != "${mask//,/ }" ]; then
		skip "$ncases" "ZINC_CPU=$mask: this CPU gives '$got'"
		continue
	fi
	t0=$SECONDS
	trace "$tmp/out.$i" "$tmp/report.$i" ZINC_CPU="$mask" -- "$prog" run
	rc=$?
	impl=$(grep -v '^cpu:' "$tmp/info.$i" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	echo "# ZINC_CPU=$mask: $impl ($((SECONDS - t0)) s)"
	k=0
	while read -r name _ nsets _; do
		k=$((k + 1))
		read -r regions compared differing events insns loads stores paths \
			< <(case_stats "$tmp/report.$i" "$k")
		res=$(grep -E "^(not )?ok $k - " "$tmp/out.$i")
		want=$((nsets - 1))
		if [ "${res%% *}" = ok ] && [ "${regions:-}" = "$nsets" ] &&
		   [ "$compared" = "$want" ] && [ "$want" -ge 1 ] && [ "$differing" = 0 ] &&
		   [ "$paths" = 1 ]; then
			ok 0 "ZINC_CPU=$mask $name: $compared secret sets against set 0, the same $insns instructions, $loads loads and $stores stores at the same addresses"
		elif [ -z "${regions:-}" ]; then
			ok 1 "ZINC_CPU=$mask $name: the plugin reports nothing of this case (exit $rc)"
		else
			ok 1 "ZINC_CPU=$mask $name: $differing of $compared secret sets differ from set 0 ($paths paths in $regions runs), or the results are wrong (exit $rc)"
			[ -n "$res" ] && echo "# $res"
			symbolize "$prog" "$tmp/report.$i" "^(diverge case $k |error)"
		fi
	done <"$tmp/cases"
	# A report cut short (qemu or the driver died) or with errors fails.
	if ! grep -q '^total cases ' "$tmp/report.$i" || grep -q '^error' "$tmp/report.$i"; then
		ok 1 "ZINC_CPU=$mask: the plugin's report is cut short or has errors (exit $rc)"
		grep '^error' "$tmp/report.$i" | head -n 5 | diag
		tail -n 5 "$tmp/out.$i" | diag
	fi
done
echo "# traced in $((SECONDS - start)) s"

# --- the check can fail -----------------------------------------------------
# expect_leak PROGRAM REPORT OUT K FUNCTION KIND DESC: case K of the report
# (any case: K empty) differs, first in FUNCTION, at a block (a branch) or a
# load (an index), and every case's results are right.
expect_leak() {
	local program=$1 report=$2 out=$3 k=$4 func=$5 kind=$6 desc=$7 line pat stats
	line=$(grep -E "^diverge case ${k:-[0-9]+} " "$report" | head -n 1)
	# That case's sets: how many differ, and the paths they took.
	read -r -a stats < <(case_stats "$report" "$(awk '{ print $3 }' <<<"$line")")
	pat='(block)'
	[ "$kind" = index ] && pat='(load '
	if grep -q -E "^ok ${k:-[0-9]+} - " "$out" && ! grep -q '^not ok' "$out" &&
	   [[ $line == *" at 0x"*" <$func> ref "* ]] && [[ ${line##* this } == *"$pat"* ]]; then
		ok 0 "$desc: reported, in $func (${stats[2]} of ${stats[1]} sets differ, ${stats[7]} paths)"
	else
		ok 1 "$desc: a divergence in $func must be reported"
		grep -E '^(not ok|Bail)' "$out" | sed 's/^/# /'
	fi
	[ -n "$line" ] && symbolize "$program" "$report" "^${line%% at *} at "
}

trace "$tmp/out.self" "$tmp/report.self" -- "$prog" selftest
read -r regions compared differing _ _ _ _ paths < <(case_stats "$tmp/report.self" 1)
grep -q '^ok 1 - ' "$tmp/out.self" && [ "${compared:-0}" -ge 1 ] && [ "$differing" = 0 ] &&
	[ "$paths" = 1 ]
ok $? "self-test: the same work on secrets without a leak: ${compared:-no} sets, no divergence, ${paths:-no} path"
expect_leak "$prog" "$tmp/report.self" "$tmp/out.self" 2 st_branch branch \
	"self-test: a branch on a secret bit"
expect_leak "$prog" "$tmp/report.self" "$tmp/out.self" 3 st_index index \
	"self-test: a load at a secret index"

# The planted copies, under each mask with assembly (not "none").
func=zinc_poly1305_blocks_armv8
[[ " $features " == *" armv7 "* ]] && func=zinc_poly1305_blocks_armv4
declare -A what=([branch]="branch on a secret bit" [index]="load at a secret index")
for kind in branch index; do
	planted=$builddir/test/test_ct_qemu_plant_$kind
	for mask in "${masks[@]}"; do
		[ "$mask" = none ] && continue
		if [ ! -x "$planted" ]; then
			skip 1 "ZINC_CPU=$mask: no $planted (a build without ARM assembly)"
			continue
		fi
		trace "$tmp/out.plant" "$tmp/report.plant" ZINC_CPU="$mask" -- "$planted" run poly1305
		# The first divergence of the class's cases.
		expect_leak "$planted" "$tmp/report.plant" "$tmp/out.plant" "" "$func" "$kind" \
			"ZINC_CPU=$mask: a ${what[$kind]} planted in a copy of $func"
	done
done

echo "1..$n"
[ "$failed" -eq 0 ]
