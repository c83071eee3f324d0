# SPDX-License-Identifier: Apache-2.0
#
# Sourced by the bash test scripts: TAP output, and what lets the system's
# programs load a sanitizer build of zinc.so.

n=0 failed=0
ok() {		# ok CONDITION-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
	return "$1"
}
diag() { sed 's/^/# /' "$@"; }

# Sets run_env, a command prefix (env ...) for running PROGRAM with MODULE.
# A sanitizer build's zinc.so needs its runtime loaded first, which a
# program not built with it does not do: preload it, leak checks off (the
# program's own allocations are not ours to judge).
sanitizer_run_env() {	# sanitizer_run_env MODULE PROGRAM
	local lib
	run_env=(env)
	lib=$(ldd "$1" 2>/dev/null | awk '/lib(asan|tsan)/ { print $3; exit }')
	[ -n "$lib" ] || return 0
	ldd "$2" 2>/dev/null | grep -q -E 'lib(asan|tsan)' && return 0
	run_env=(env "LD_PRELOAD=$lib" "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
	echo "# sanitizer build: $(basename "$2") and the like run with LD_PRELOAD=$lib"
}

# Checks not run.  skip: for a reason that holds anywhere (a path this CPU
# cannot run, a behaviour of another OpenSSL).  missing: for want of a
# dependency; under CI=true, which promises every one, each is a failure
# with the same text.
skip() {	# skip COUNT REASON
	local i
	for ((i = 0; i < $1; i++)); do
		n=$((n + 1))
		echo "ok $n # SKIP $2"
	done
}
missing() {	# missing COUNT REASON
	local i
	if [ "${CI:-}" != true ]; then
		skip "$@"
		return
	fi
	for ((i = 0; i < $1; i++)); do
		ok 1 "$2"
	done
}
# The whole script, before any check: prints the plan and exits.
skip_all() {	# skip_all REASON
	echo "1..0 # SKIP $1"
	exit 0
}
missing_all() {	# missing_all REASON
	[ "${CI:-}" = true ] || skip_all "$1"
	echo "not ok 1 - $1"
	echo "1..1"
	exit 1
}

# The ZINC_CPU masks to run, one a line, from none to everything, each
# adding what the next path needs (see provider/crypto/cpu.c).  FEATURES,
# everything this CPU has in zinc's words (buildinfo's "cpu: "), tells ARM
# from x86_64.  A mask asking for more than the CPU has shows fewer
# features: each caller checks that and skips it, saying so.
cpu_masks() {	# cpu_masks FEATURES
	case " $1 " in
	*" armv7 "*) printf '%s\n' none armv7 armv7,neon ;;
	*" armv8 "*) printf '%s\n' none armv8 armv8,neon ;;
	*)	# The fourth: BLAKE2s's AVX-512VL path (with BMI2 it picks scalar).
		printf '%s\n' none \
			ssse3 \
			ssse3,avx,avx2 \
			ssse3,avx,avx2,avx512f,avx512vl,avx512bw \
			ssse3,avx,avx2,bmi2,adx \
			ssse3,avx,avx2,bmi2,adx,avx512f,avx512vl \
			ssse3,avx,avx2,bmi2,adx,avx512f,avx512vl,avx512bw \
			ssse3,avx,avx2,bmi2,adx,avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi2
		;;
	esac
}

# Sets chacha20, poly1305, blake2s and curve25519 to the implementations
# zinc's build info names in PROVIDERS (`openssl list -providers -verbose`);
# fails if one is missing.
zinc_impls() {	# zinc_impls PROVIDERS
	local prim status=0
	for prim in chacha20 poly1305 blake2s curve25519; do
		printf -v "$prim" '%s' \
			"$(sed -n "s/^ *build info: zinc .*; $prim: \([^;]*\);.*/\1/p" "$1")"
		[ -n "${!prim}" ] || status=1
	done
	return $status
}

# Whether REPORT (a ZINC_REPORT file) holds exactly the LINEs, in any order;
# if not, says what it wanted and what it got.
report_is() {	# report_is REPORT LINE...
	local report=$1
	shift
	[ "$(printf '%s\n' "$@" | sort)" = "$(sort "$report" 2>/dev/null)" ] && return 0
	echo "# want:"
	printf '# %s\n' "$@"
	echo "# got:"
	diag "$report" 2>/dev/null
	return 1
}
