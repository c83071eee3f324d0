#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Real programs over TLS 1.3 on 127.0.0.1 with zinc chosen by openssl.cnf
# (TAP): `openssl s_server` and nginx serve a file to curl with
# TLS_CHACHA20_POLY1305_SHA256 over x25519, stunnel echoes a line, and each
# side's ZINC_REPORT file shows that zinc did its key exchange and its
# record protection.
#
# curl, nginx-light and stunnel4 come from `./quickstart check all` or
# .ci/run; without nginx or stunnel their checks are skipped (failed under
# CI=true), without curl the
# client is `openssl s_client`.  In a sanitizer build every
# program runs with the ASan runtime preloaded; curl does not start that way
# (it hangs before it does anything), so `openssl s_client` is the client.
#
# Environment (from Makefile.am): ZINC_MODULE_DIR, ZINC_SRCDIR, OPENSSL.
set -u
. "${ZINC_SRCDIR:?}/test/lib.sh"

openssl=${OPENSSL:-}
[ -n "$openssl" ] || openssl=$(command -v openssl || true)
[ -n "$openssl" ] || missing_all "the openssl command is not installed"
module=${ZINC_MODULE_DIR:?}/zinc.so
suite=TLS_CHACHA20_POLY1305_SHA256
size=409600
# Bounds on every wait, in tenths of a second (the sanitizer build is slow).
start_limit=300
run_limit=1200

tmp=$(mktemp -d)
servers=()


# The pids of a process's children, from /proc (procps may be missing).
children_of() {
	local stat line fields
	for stat in /proc/[0-9]*/stat; do
		read -r line <"$stat" 2>/dev/null || continue
		# After "pid (comm) ": the state, then the parent's pid.
		read -r -a fields <<<"${line##*) }"
		[ "${fields[1]:-}" = "$1" ] && { stat=${stat#/proc/}; echo "${stat%/stat}"; }
	done
}

# wait_bounded PID TENTHS: waits for our child PID; kills it when it takes
# longer, returning 124.  Otherwise returns its exit status.
wait_bounded() {
	local pid=$1 i
	for ((i = 0; i < $2; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "# pid $pid still runs after $(($2 / 10)) s: killing it"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 124
	fi
	wait "$pid"
}

# Stops a server we started, and nginx's workers with their master.
stop() {
	local pid=$1 kids
	kill -0 "$pid" 2>/dev/null || return 0
	kids=$(children_of "$pid" | tr '\n' ' ')
	kill -TERM "$pid" 2>/dev/null
	wait_bounded "$pid" 100 >/dev/null || true
	for p in $kids; do
		kill -KILL "$p" 2>/dev/null
	done
}
cleanup() {
	for pid in "${servers[@]}"; do
		stop "$pid"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
unset ZINC_REPORT

# --- zinc through openssl.cnf, with the sanitizer runtime when needed --------
sh "$ZINC_SRCDIR/test/openssl-cnf.sh" "$module" >"$tmp/openssl.cnf"

# The system's programs (openssl, curl, nginx) are not sanitizer builds.
sanitizer_run_env "$module" "$openssl"
# The prefix of a command with zinc preferred.  A command, not a function:
# started in the background, $! is then the program's own pid (env execs it).
with_zinc=("${run_env[@]}" OPENSSL_CONF="$tmp/openssl.cnf")

"${with_zinc[@]}" "$openssl" list -providers -verbose >"$tmp/providers" 2>&1
zinc_impls "$tmp/providers"
ok $? "openssl.cnf loads zinc ($module)" || diag "$tmp/providers"

find_nginx() { command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; }; }
nginx=$(find_nginx)

# A program linked to another major version of libcrypto than zinc.so's
# (Debian's curl and nginx, .so.3, when zinc is built for 4.0): zinc refuses
# to load there, as test_major_version.sh checks.  Prints why, if so.
major=${ZINC_CRYPTO_VERSION%%.*}
other_major() {	# other_major PROGRAM
	local linked
	linked=$(ldd "$1" 2>/dev/null | grep -o 'libcrypto\.so\.[0-9]*' | head -n 1)
	[ -n "$linked" ] && [ "$linked" != "libcrypto.so.$major" ] &&
		echo "$(basename "$1") is linked to $linked, zinc to libcrypto.so.$major"
}

# The client: curl when it uses OpenSSL 3 and starts as we run it.
client=curl
why=
if ! command -v curl >/dev/null; then
	why="curl is not installed (./quickstart check all installs it)"
elif ! curl --version | head -n 1 | grep -q 'OpenSSL/3'; then
	why="this curl does not use OpenSSL 3"
elif other_major "$(command -v curl)" >/dev/null; then
	why=$(other_major "$(command -v curl)")
else
	"${run_env[@]}" curl --version >"$tmp/curl.version" 2>&1 &
	wait_bounded $! 100 >/dev/null || why="curl does not start with the ASan runtime preloaded"
fi
if [ -n "$why" ]; then
	client=s_client
	echo "# $why: the client is openssl s_client"
fi

# --- a throwaway certificate and a file to serve --------------------------------
mkdir -p "$tmp/www"
OPENSSL_CONF=/dev/null "$openssl" req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
	-keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 1 -nodes -subj /CN=127.0.0.1 \
	>"$tmp/req.log" 2>&1 || diag "$tmp/req.log"
head -c $size /dev/urandom >"$tmp/www/data.bin"

# fetch NAME PORT REPORT [VAR=VALUE...]: the client gets /data.bin from
# 127.0.0.1:PORT into $tmp/NAME.got, offering only TLS 1.3, the suite and
# x25519; its log goes to $tmp/NAME.log.  Sets fetch_pid and fetch_status.
fetch() {
	local name=$1 port=$2 report=$3
	shift 3
	if [ $client = curl ]; then
		"${with_zinc[@]}" ZINC_REPORT="$report" "$@" curl -sS -v --max-time 60 \
			--tlsv1.3 --tls13-ciphers $suite --curves x25519 -k \
			-o "$tmp/$name.got" -w '%{http_code} %{size_download}\n' \
			"https://127.0.0.1:$port/data.bin" >"$tmp/$name.w" 2>"$tmp/$name.log" &
	else
		printf 'GET /data.bin HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' |
		"${with_zinc[@]}" ZINC_REPORT="$report" "$@" "$openssl" s_client \
			-connect "127.0.0.1:$port" -brief -ign_eof -tls1_3 -ciphersuites $suite \
			-groups x25519 >"$tmp/$name.raw" 2>"$tmp/$name.log" &
	fi
	fetch_pid=$!
	wait_bounded $fetch_pid $run_limit
	fetch_status=$?
	if [ $client = s_client ]; then
		# As curl's -w: the status, and the size of a body that follows
		# the response's header exactly.
		local head=$(($(wc -c <"$tmp/$name.raw") - size))
		tail -c $size "$tmp/$name.raw" >"$tmp/$name.got"
		: >"$tmp/$name.w"
		[ $head -gt 0 ] &&
			[ "$(head -c $head "$tmp/$name.raw" | tail -c 4 | od -An -tx1 | tr -d ' \n')" = \
			  0d0a0d0a ] &&
			sed -n '1s/^HTTP\/1\.[01] \([0-9]*\) .*/\1 '$size'/p' "$tmp/$name.raw" \
				>"$tmp/$name.w"
	fi
}

# check_fetch NAME SERVER: the file arrived whole, over TLS 1.3 with the suite.
check_fetch() {
	[ "$fetch_status" -eq 0 ] && [ "$(cat "$tmp/$1.w")" = "200 $size" ] &&
		cmp -s "$tmp/www/data.bin" "$tmp/$1.got"
	ok $? "$2: $client fetches $((size / 1024)) KiB over TLS, the same bytes" ||
		{ echo "# $client status $fetch_status"; diag "$tmp/$1.w"; tail -n 15 "$tmp/$1.log" | diag; }
	if [ $client = curl ]; then
		# curl 7.88 does not name the group.
		grep -q "SSL connection using TLSv1.3 / $suite" "$tmp/$1.log"
		ok $? "$2: curl -v says TLSv1.3 / $suite" || tail -n 15 "$tmp/$1.log" | diag
	else
		grep -qx 'Protocol version: TLSv1.3' "$tmp/$1.log" &&
			grep -qx "Ciphersuite: $suite" "$tmp/$1.log" &&
			grep -q -E '^(Server|Peer) Temp Key: X25519' "$tmp/$1.log"	# Peer: 4.0
		ok $? "$2: s_client -brief says TLSv1.3, $suite, X25519" || diag "$tmp/$1.log"
	fi
}

# check_report FILE PID PROGRAM SIDE: FILE holds exactly the four lines of a
# TLS 1.3 handshake and records done by zinc in process PID, each once.
check_report() {
	local file=$1 pid=$2 prog=$3 side=$4
	report_is "$file" \
		"zinc[$pid $prog]: X25519 keygen: curve25519 $curve25519" \
		"zinc[$pid $prog]: X25519 derive: curve25519 $curve25519" \
		"zinc[$pid $prog]: ChaCha20-Poly1305 encrypt: chacha20 $chacha20, poly1305 $poly1305" \
		"zinc[$pid $prog]: ChaCha20-Poly1305 decrypt: chacha20 $chacha20, poly1305 $poly1305"
	ok $? "$side: its ZINC_REPORT shows zinc's X25519 keygen and derive, ChaCha20-Poly1305 encrypt and decrypt, once each"
}
client_prog=$client
[ $client = s_client ] && client_prog=openssl

# start_s_server NAME CONNECTIONS GROUP: openssl s_server -WWW with zinc,
# serving $tmp/www; its report is $tmp/NAME.rep.  Sets s_server and port.
start_s_server() {
	local name=$1 naccept=$2 group=$3 i
	(
		cd "$tmp/www" &&
		exec "${with_zinc[@]}" ZINC_REPORT="$tmp/$name.rep" \
			"$openssl" s_server -accept 127.0.0.1:0 -naccept "$naccept" \
			-cert "$tmp/cert.pem" -key "$tmp/key.pem" -tls1_3 -ciphersuites $suite \
			-groups "$group" -WWW -trace -msgfile "$tmp/$name.trace"
	) >"$tmp/$name.out" 2>&1 &
	s_server=$!
	servers+=($s_server)
	port=
	for ((i = 0; i < start_limit; i++)); do
		port=$(sed -n 's/^ACCEPT 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/$name.out")
		[ -n "$port" ] || ! kill -0 $s_server 2>/dev/null && break
		sleep 0.1
	done
	[ -n "$port" ]
	ok $? "openssl s_server ($group) listens on 127.0.0.1:${port:-?} (a port the system chose)" ||
		diag "$tmp/$name.out"
}

# --- openssl s_server -WWW --------------------------------------------------------
# Two connections: the client with zinc, then with the default provider alone.
start_s_server s_server 2 x25519

if [ -z "$port" ]; then
	skip 7 "s_server did not start"
else
	fetch s_server-zinc "$port" "$tmp/client-s_server.rep"
	check_fetch s_server-zinc s_server
	check_report "$tmp/client-s_server.rep" $fetch_pid $client_prog "$client, client of s_server"

	# The second client: no zinc, so no report; the server's lines stay one each.
	fetch s_server-default "$port" "$tmp/default.rep" OPENSSL_CONF=/dev/null
	[ "$fetch_status" -eq 0 ] && cmp -s "$tmp/www/data.bin" "$tmp/s_server-default.got" &&
		[ ! -e "$tmp/default.rep" ]
	ok $? "s_server: $client with the default provider alone fetches it too, and reports nothing" ||
		tail -n 15 "$tmp/s_server-default.log" | diag

	wait_bounded $s_server $start_limit
	ok $? "s_server exits after its two connections" || diag "$tmp/s_server.out"
	check_report "$tmp/s_server.rep" $s_server openssl "s_server, two connections"

	# The server's view of the handshake: its ServerHello.
	awk '/ServerHello,/ { on = 1 } on && /^$/ { exit } on' "$tmp/s_server.trace" \
		>"$tmp/hello" 2>&1
	grep -q 'TLS 1.3 (772)' "$tmp/hello" && grep -q "cipher_suite .* $suite" "$tmp/hello" &&
		grep -q 'NamedGroup: ecdh_x25519' "$tmp/hello"
	ok $? "s_server's trace: its ServerHello chose TLS 1.3, $suite and x25519" ||
		diag "$tmp/hello"
fi
stop $s_server

# --- the hybrid X25519MLKEM768 (3.5+, TLS 1.3's default group there) --------------
# Its X25519 half is fetched through EVP: with zinc preferred, zinc's, on
# both sides.  openssl s_client is the client, with zinc.
if ! "$openssl" list -kem-algorithms 2>/dev/null | grep -q X25519MLKEM768; then
	skip 5 "$("$openssl" version | cut -d' ' -f1-2) has no X25519MLKEM768 (3.5+)"
else
	start_s_server hybrid 1 X25519MLKEM768
	if [ -z "$port" ]; then
		skip 4 "s_server did not start"
	else
		printf 'GET /data.bin HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' |
		"${with_zinc[@]}" ZINC_REPORT="$tmp/hybrid-client.rep" "$openssl" s_client \
			-connect "127.0.0.1:$port" -brief -ign_eof -tls1_3 -ciphersuites $suite \
			-groups X25519MLKEM768 >"$tmp/hybrid.raw" 2>"$tmp/hybrid.log" &
		hybrid_client=$!
		wait_bounded $hybrid_client $run_limit
		[ $? -eq 0 ] && grep -qx 'Negotiated TLS1.3 group: X25519MLKEM768' "$tmp/hybrid.log" &&
			[ "$(tail -c $size "$tmp/hybrid.raw" | cmp - "$tmp/www/data.bin" && echo same)" = same ]
		ok $? "X25519MLKEM768: s_client fetches the file over the hybrid group, zinc on both sides" ||
			diag "$tmp/hybrid.log"
		check_report "$tmp/hybrid-client.rep" $hybrid_client openssl "X25519MLKEM768 s_client"
		wait_bounded $s_server $start_limit
		ok $? "s_server exits after its connection"
		check_report "$tmp/hybrid.rep" $s_server openssl "X25519MLKEM768 s_server"
	fi
	stop $s_server
fi

# --- nginx ------------------------------------------------------------------------
# A port nothing listens on now; should another take it first, nginx fails.
free_port() {
	local p
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		p=$((20000 + RANDOM % 40000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo $p; return; }
	done
	echo 0
}
if [ -z "$nginx" ]; then
	missing 7 "nginx is not installed (./quickstart check all installs nginx-light)"
elif other_major "$nginx" >/dev/null; then
	skip 7 "$(other_major "$nginx")"
else
	ndir=$tmp/nginx
	mkdir -p "$ndir"
	port=$(free_port)
	# Started as root, nginx would run its worker as nobody, who may not
	# read our private directory nor append to the report there.
	user=
	[ "$(id -u)" = 0 ] && user="user root;"
	cat >"$ndir/nginx.conf" <<EOF
daemon off;
$user
worker_processes 1;
pid $ndir/nginx.pid;
error_log $ndir/error.log info;
# The only variables nginx leaves its workers.
env OPENSSL_CONF;
env ZINC_REPORT;
events {
	worker_connections 64;
}
http {
	log_format tls '\$ssl_protocol \$ssl_cipher \$ssl_curve \$status \$body_bytes_sent';
	access_log $ndir/access.log tls;
	client_body_temp_path $ndir/body;
	proxy_temp_path $ndir/proxy;
	fastcgi_temp_path $ndir/fastcgi;
	uwsgi_temp_path $ndir/uwsgi;
	scgi_temp_path $ndir/scgi;
	server {
		listen 127.0.0.1:$port ssl;
		ssl_certificate $tmp/cert.pem;
		ssl_certificate_key $tmp/key.pem;
		ssl_protocols TLSv1.3;
		ssl_conf_command Ciphersuites $suite;
		ssl_ecdh_curve X25519;
		root $tmp/www;
	}
}
EOF
	"${with_zinc[@]}" ZINC_REPORT="$ndir/nginx.rep" "$nginx" -p "$ndir/" -c "$ndir/nginx.conf" \
		-e "$ndir/error.log" >"$ndir/stdout" 2>&1 &
	master=$!
	servers+=($master)
	up=1
	for ((i = 0; i < start_limit; i++)); do
		kill -0 $master 2>/dev/null || break
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			up=0
			break
		fi
		sleep 0.1
	done
	ok $up "nginx listens on 127.0.0.1:$port" ||
		{ diag "$ndir/stdout"; tail -n 20 "$ndir/error.log" | diag; }

	if [ $up -ne 0 ]; then
		skip 6 "nginx did not start"
	else
		fetch nginx-zinc "$port" "$tmp/client-nginx.rep"
		check_fetch nginx-zinc nginx
		check_report "$tmp/client-nginx.rep" $fetch_pid $client_prog "$client, client of nginx"
		# Now that a worker has served: the listening socket comes before them.
		workers=$(children_of $master | tr '\n' ' ')
		worker=$(sed -n 's/^zinc\[\([0-9]*\) nginx\].*/\1/p' "$ndir/nginx.rep" 2>/dev/null |
			 head -n 1)
		[ -n "$worker" ] && [ "$worker" != "$master" ] && echo " $workers" | grep -q " $worker "
		ok $? "nginx: the report's process is a worker of master $master (workers: ${workers% })" ||
			diag "$ndir/nginx.rep" 2>/dev/null
		check_report "$ndir/nginx.rep" "${worker:-?}" nginx "nginx's worker"
		# The server's view of the handshake, once nginx has stopped.
		stop $master
		grep -qx "TLSv1.3 $suite X25519 200 $size" "$ndir/access.log"
		ok $? "nginx's access log: TLSv1.3 $suite X25519 200 $size" || diag "$ndir/access.log"
	fi
	stop $master
fi

# --- stunnel ------------------------------------------------------------------------
# stunnel 5 creates its TLS contexts with the query provider!=fips, which
# replaces a default ?provider=zinc: zinc.preferred keeps zinc chosen
# (zinc(7) PROPERTIES).  Each connection's data goes through `head -n 1`,
# which echoes the client's line and exits, so the connection closes.
stunnel=$(command -v stunnel4 || command -v stunnel || true)
# run_stunnel NAME CNF: stunnel with OPENSSL_CONF=CNF serves one connection
# from openssl s_client (the default provider alone); its report is
# $tmp/NAME.rep.  Sets stunnel_pid and stunnel_up (0: listened and echoed).
run_stunnel() {
	local name=$1 cnf=$2 sport i
	sport=$(free_port)
	cat >"$tmp/$name.conf" <<EOF
foreground = yes
pid =
output = $tmp/$name.log
debug = info
[echo]
accept = 127.0.0.1:$sport
exec = /usr/bin/head
execArgs = head -n 1
cert = $tmp/cert.pem
key = $tmp/key.pem
sslVersionMin = TLSv1.3
ciphersuites = $suite
curves = X25519
EOF
	"${run_env[@]}" OPENSSL_CONF="$cnf" ZINC_REPORT="$tmp/$name.rep" "$stunnel" \
		"$tmp/$name.conf" >"$tmp/$name.out" 2>&1 &
	stunnel_pid=$!
	servers+=($stunnel_pid)
	stunnel_up=1
	for ((i = 0; i < start_limit; i++)); do
		kill -0 $stunnel_pid 2>/dev/null || break
		(exec 3<>"/dev/tcp/127.0.0.1/$sport") 2>/dev/null && { stunnel_up=0; break; }
		sleep 0.1
	done
	[ $stunnel_up -eq 0 ] || return
	echo "through stunnel $name" |
	OPENSSL_CONF=/dev/null "$openssl" s_client -connect "127.0.0.1:$sport" -brief -ign_eof \
		-tls1_3 -ciphersuites $suite -groups x25519 >"$tmp/$name.got" 2>"$tmp/$name.client" &
	wait_bounded $! $run_limit && grep -qx "through stunnel $name" "$tmp/$name.got" ||
		stunnel_up=1
	stop $stunnel_pid
}
if [ -z "$stunnel" ]; then
	missing 5 "stunnel is not installed (./quickstart check all installs stunnel4)"
elif other_major "$stunnel" >/dev/null; then
	skip 5 "$(other_major "$stunnel")"
else
	run_stunnel preferred "$tmp/openssl.cnf"
	ok $stunnel_up "stunnel (default_properties = ?zinc.preferred) echoes a line over TLS 1.3" ||
		{ diag "$tmp/preferred.out"; tail -n 15 "$tmp/preferred.log" | diag; diag "$tmp/preferred.client"; }
	grep -q "TLSv1.3 ciphersuite: $suite" "$tmp/preferred.log" &&
		grep -q 'Peer temporary key: X25519' "$tmp/preferred.log"
	ok $? "stunnel's log: TLSv1.3, $suite, X25519" || tail -n 15 "$tmp/preferred.log" | diag
	check_report "$tmp/preferred.rep" $stunnel_pid "$(basename "$stunnel")" \
		"stunnel, whose query is provider!=fips, under ?zinc.preferred"

	# The trap README warns of: the same with ?provider=zinc leaves zinc unused.
	sed 's/^default_properties = .*/default_properties = ?provider=zinc/' "$tmp/openssl.cnf" \
		>"$tmp/provider-zinc.cnf"
	run_stunnel provider-zinc "$tmp/provider-zinc.cnf"
	ok $stunnel_up "stunnel (default_properties = ?provider=zinc) echoes a line too" ||
		{ diag "$tmp/provider-zinc.out"; tail -n 15 "$tmp/provider-zinc.log" | diag; }
	[ ! -e "$tmp/provider-zinc.rep" ]
	ok $? "stunnel under ?provider=zinc: zinc is not chosen (no report), as zinc(7) says" ||
		diag "$tmp/provider-zinc.rep"
fi

echo "1..$n"
