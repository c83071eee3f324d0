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
