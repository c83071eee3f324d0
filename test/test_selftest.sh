#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# The load-time self-test (provider/crypto/selftest.c), made to fail on
# purpose through its test-only switch ZINC_SELFTEST_FAIL (TAP):
# - a primitive whose first path fails falls back to the path the self-test
#   promises (the fewest features taken away, the highest first, that give
#   a path not failed yet), worked out here independently through ZINC_CPU;
#   buildinfo names that path and says which failed; the other primitives
#   and the status stay as they were; under the default features and under
#   every ZINC_CPU mask this CPU supports (lib.sh's cpu_masks);
# - two paths failing fall back twice;
# - the test programs still pass with paths failed;
# - a portable C that fails (":c", or every path failed, or the first path
#   under ZINC_CPU=none) makes zinc refuse to load, with zinc's reason.
#
# Environment (from Makefile.am): ZINC_BUILDDIR, ZINC_SRCDIR, ZINC_MODULE_DIR,
# ZINC_EMULATOR, OPENSSL and what the programs need.
set -u

builddir=${ZINC_BUILDDIR:?}
moddir=${ZINC_MODULE_DIR:?}
read -r -a emulator <<<"${ZINC_EMULATOR:-}"
. "${ZINC_SRCDIR:?}/test/lib.sh"
unset ZINC_SELFTEST_FAIL ZINC_CPU
primitives=(chacha20 poly1305 blake2s curve25519)
reason='known-answer self-test failed even for the portable C: zinc refuses to load'

# zinc's buildinfo under the given environment (VAR=VALUE ...) into $bi;
# cached (and so never called in a subshell).
declare -A cache
info() {
	local key="env $*"
	if [ -z "${cache[$key]+set}" ]; then
		cache[$key]=$(env "$@" "${emulator[@]}" "$builddir/test/test_provider" 2>&1 |
			      sed -n 's/^# buildinfo: //p')
	fi
	bi=${cache[$key]}
}
# A primitive's (or "cpu") entry in a buildinfo.
field() {	# field BUILDINFO NAME
	local rest=${1#*"; $2: "}
	[ "$rest" != "$1" ] && echo "${rest%%;*}"
}

# The path selftest.c's choose_next() falls back to from MASK once the
# paths FAILED... have failed, found independently through ZINC_CPU: the
# fewest features taken away, the highest first (cpu.c lists them in their
# bits' order).  Into $next_mask and $next.
next_path() {	# next_path PRIMITIVE MASK FAILED...
	local prim=$1 k drop i bits m f known
	local -a feats
	read -r -a feats <<<"${2//,/ }"
	shift 2
	for ((k = 1; k <= ${#feats[@]}; k++)); do
		for ((drop = (1 << ${#feats[@]}) - 1; drop > 0; drop--)); do
			bits=0 m=
			for ((i = 0; i < ${#feats[@]}; i++)); do
				if (((drop >> i) & 1)); then
					bits=$((bits + 1))
				else
					m=${m:+$m,}${feats[i]}
				fi
			done
			[ "$bits" -eq "$k" ] || continue
			info ZINC_CPU="${m:-none}"
			next=$(field "$bi" "$prim")
			known=0
			for f in "$@"; do
				[ "$next" = "$f" ] && known=1
			done
			if [ "$known" -eq 0 ]; then
				next_mask=${m:-none}
				return
			fi
		done
	done
}

# Loading zinc alone with the openssl command: must fail, with the reason.
openssl=${OPENSSL:-$(command -v openssl || true)}
refused() {	# refused PRIMITIVE DESCRIPTION VAR=VALUE...
	local prim=$1 what=$2 out status
	shift 2
	if [ -z "$openssl" ]; then
		missing 2 "no openssl command: $what"
		return
	fi
	sanitizer_run_env "$moddir/zinc.so" "$openssl" >/dev/null
	out=$(env OPENSSL_CONF=/dev/null "$@" "${run_env[@]}" "$openssl" list -providers \
	      -provider-path "$moddir" -provider zinc 2>&1)
	status=$?
	[ "$status" -ne 0 ] && grep -qF "$reason" <<<"$out"
	ok $? "$what: zinc refuses to load (openssl exits $status) with \"$reason\"" ||
		diag <<<"$out"
	# Which primitive failed, in the words of buildinfo.
	grep -q "$prim: portable C[^,]* failed its self-test" <<<"$out"
	ok $? "$what: the error names $prim's portable C" || diag <<<"$out"
}

info
all=$(field "$bi" cpu)
# The default features first (the masks that the CPU lacks are skipped).
mapfile -t masks < <(cpu_masks "$all")
masks=("${all// /,}" "${masks[@]}")
# Under them, the primitives with a path to fall back from, and from twice.
once=() twice=()

for mask in "${masks[@]}"; do
	# The default features are often one of the masks: once is enough.
	[ "$mask" = "${masks[0]}" ] && [ -n "${done_default:-}" ] && continue
	done_default=1
	info ZINC_CPU="$mask"
	base=$bi
	if [ "$(field "$base" cpu)" != "${mask//,/ }" ]; then
		skip 1 "ZINC_CPU=$mask: this CPU gives '$(field "$base" cpu)'"
		continue
	fi
	! grep -q 'self-test' <<<"$base"
	ok $? "ZINC_CPU=$mask: no path failed its self-test" || echo "# $base"
	for prim in "${primitives[@]}"; do
		first=$(field "$base" "$prim")
		if [[ $first == "portable C"* ]]; then
			refused "$prim" "ZINC_CPU=$mask ZINC_SELFTEST_FAIL=$prim (the portable C is first)" \
				ZINC_CPU="$mask" ZINC_SELFTEST_FAIL="$prim"
			continue
		fi
		next_path "$prim" "$mask" "$first"
		info ZINC_CPU="$mask" ZINC_SELFTEST_FAIL="$prim"
		got=$bi
		want="$next ($first failed its self-test)"
		[ "$(field "$got" "$prim")" = "$want" ]
		ok $? "ZINC_CPU=$mask ZINC_SELFTEST_FAIL=$prim: $prim: $want (as ZINC_CPU=$next_mask)" ||
			echo "# got: $(field "$got" "$prim")"
		others=$got
		for p in "${primitives[@]}" cpu; do
			[ "$p" = "$prim" ] || [ "$(field "$got" "$p")" = "$(field "$base" "$p")" ] ||
				others="$p differs: $got"
		done
		[ "$others" = "$got" ]
		ok $? "ZINC_CPU=$mask ZINC_SELFTEST_FAIL=$prim: the other primitives as before" ||
			echo "# $others"
		# Two failures, under the default features.
		[ "$mask" = "${masks[0]}" ] || continue
		once+=("$prim")
		info ZINC_CPU="$mask" ZINC_SELFTEST_FAIL="$prim:2"
		got=$(field "$bi" "$prim")
		if [[ $next == "portable C"* ]]; then
			refused "$prim" "ZINC_SELFTEST_FAIL=$prim:2 (the second path is the portable C)" \
				ZINC_CPU="$mask" ZINC_SELFTEST_FAIL="$prim:2"
			continue
		fi
		twice+=("$prim:2")
		second=$next
		next_path "$prim" "$mask" "$first" "$second"
		want="$next ($first failed its self-test, $second failed its self-test)"
		[ "$got" = "$want" ]
		ok $? "ZINC_SELFTEST_FAIL=$prim:2: $prim: $want (as ZINC_CPU=$next_mask)" ||
			echo "# got: $got"
	done
done

fail_once=$(IFS=,; echo "${once[*]}")
fail_twice=$(IFS=,; echo "${twice[*]}")

# The provider's status after a fallback: 1, which openssl shows as active.
if [ -n "$openssl" ] && [ -n "$fail_once" ]; then
	sanitizer_run_env "$moddir/zinc.so" "$openssl" >/dev/null
	out=$(env OPENSSL_CONF=/dev/null ZINC_SELFTEST_FAIL="$fail_once" "${run_env[@]}" \
	      "$openssl" list -providers -verbose -provider-path "$moddir" -provider zinc 2>&1)
	grep -q 'status: active' <<<"$out" && grep -q 'failed its self-test' <<<"$out"
	ok $? "ZINC_SELFTEST_FAIL=$fail_once: openssl shows zinc loaded, status active" ||
		diag <<<"$out"
elif [ -z "$openssl" ]; then
	missing 1 "no openssl command: status after a fallback"
else
	skip 1 "no path to fall back from: status after a fallback"
fi

# Results stay right on the paths fallen back to.
for fail in "$fail_once" "$fail_twice"; do
	if [ -z "$fail" ]; then
		skip 1 "no primitive has a path to fall back to"
		continue
	fi
	for p in test_primitives test_cipher_vectors test_mac_vectors test_x25519_evp; do
		out=$(ZINC_SELFTEST_FAIL=$fail "${emulator[@]}" "$builddir/test/$p" 2>&1)
		status=$?
		[ "$status" -eq 0 ] && ! grep -q '^not ok' <<<"$out"
		ok $? "ZINC_SELFTEST_FAIL=$fail: $p ($(grep -c '^ok' <<<"$out") checks)" ||
			grep -E '^(not ok|# |Bail)' <<<"$out" | head -n 20 | sed 's/^#\{0,1\} \{0,1\}/# /'
	done
done

# Nothing left to fall back on.
for prim in "${primitives[@]}"; do
	refused "$prim" "ZINC_SELFTEST_FAIL=$prim:c" ZINC_SELFTEST_FAIL="$prim:c"
	refused "$prim" "ZINC_SELFTEST_FAIL=$prim:99 (every path)" ZINC_SELFTEST_FAIL="$prim:99"
done
echo "1..$n"
[ "$failed" -eq 0 ]
