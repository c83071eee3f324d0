#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Node.js with zinc through openssl.cnf (TAP).  Node reads the section that
# `nodejs_conf` names, not `openssl_conf` (unless run with
# --openssl-shared-config): with the README's configuration, which names
# both, its crypto module seals and opens with ChaCha20-Poly1305, hashes with
# BLAKE2s and agrees X25519 keys in zinc, as ZINC_REPORT shows, with the same
# results as Node on the default provider alone and as the published vectors.
# Without `nodejs_conf` zinc is silently unused.  XChaCha20-Poly1305, which
# OpenSSL itself lacks, is out of reach of Node's cipher API (the README
# says so).
#
# Node comes from the system (NodeSource's or Debian's `nodejs`; .ci/run and
# `./quickstart check` install Debian's where there is none); NODE names
# another.  Environment (from Makefile.am): ZINC_MODULE_DIR, ZINC_SRCDIR,
# OPENSSL, ZINC_CRYPTO_VERSION.
set -u
. "${ZINC_SRCDIR:?}/test/lib.sh"

node=${NODE:-$(command -v node || command -v nodejs || true)}
[ -n "$node" ] || missing_all "node is not installed (./quickstart check installs nodejs)"
openssl=${OPENSSL:-}
[ -n "$openssl" ] || openssl=$(command -v openssl || true)
[ -n "$openssl" ] || missing_all "the openssl command is not installed"
module=${ZINC_MODULE_DIR:?}/zinc.so

# Node may carry its own OpenSSL (NodeSource's is static): zinc.so loads into
# the same major version only (test_major_version.sh).
node_openssl=$("$node" -p process.versions.openssl 2>/dev/null)
[ "${node_openssl%%.*}" = "${ZINC_CRYPTO_VERSION%%.*}" ] ||
	skip_all "$("$node" --version 2>/dev/null) has OpenSSL ${node_openssl:-?}, zinc is built for $ZINC_CRYPTO_VERSION"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset ZINC_REPORT ZINC_CPU NODE_OPTIONS

sanitizer_run_env "$module" "$node"
timeout 60 "${run_env[@]}" "$node" -e 0 >"$tmp/start" 2>&1 ||
	skip_all "node does not start with the sanitizer runtime preloaded ($(head -c 200 "$tmp/start"))"

# The configuration as the README writes it, and the same without nodejs_conf.
sh "$ZINC_SRCDIR/test/openssl-cnf.sh" "$module" >"$tmp/openssl.cnf"
grep -v '^nodejs_conf' "$tmp/openssl.cnf" >"$tmp/no-nodejs.cnf"

# zinc's implementation names on this CPU, as OpenSSL shows them.
"${run_env[@]}" OPENSSL_CONF="$tmp/openssl.cnf" "$openssl" list -providers -verbose \
	>"$tmp/providers" 2>&1
zinc_impls "$tmp/providers"
ok $? "openssl.cnf loads zinc ($module); $(basename "$node") $("$node" --version) has OpenSSL $node_openssl" ||
	diag "$tmp/providers"

# Keys, nonces, messages: one random file that every run reads.
head -c 70000 /dev/urandom >"$tmp/random"

# What Node computes, one line each; published vectors (RFC 8439 2.8.2,
# RFC 7693 appendix A, RFC 7748 6.1) in the lines that name them.
cat >"$tmp/zinc.js" <<'EOF'
'use strict';
const crypto = require('crypto');
const random = require('fs').readFileSync(process.argv[2]);
const hex = (b) => Buffer.from(b).toString('hex');
const sha256 = (b) => crypto.createHash('sha256').update(b).digest('hex');
const say = (s) => console.log(s);

function seal(key, iv, aad, msg) {
	const c = crypto.createCipheriv('chacha20-poly1305', key, iv, { authTagLength: 16 });
	c.setAAD(aad, { plaintextLength: msg.length });
	const ct = Buffer.concat([c.update(msg), c.final()]);
	return { ct, tag: c.getAuthTag() };
}
let refusal;	// the message of the last tag refused
function open(key, iv, aad, ct, tag) {
	const d = crypto.createDecipheriv('chacha20-poly1305', key, iv, { authTagLength: 16 });
	d.setAAD(aad, { plaintextLength: ct.length });
	d.setAuthTag(tag);
	try {
		return Buffer.concat([d.update(ct), d.final()]);
	} catch (e) {
		refusal = e.message;
		return 'refused';
	}
}
const h = (s) => Buffer.from(s.replace(/ /g, ''), 'hex');
const rfcKey = h('808182838485868788898a8b8c8d8e8f 909192939495969798999a9b9c9d9e9f');
const rfcIv = h('070000004041424344454647'), rfcAad = h('50515253c0c1c2c3c4c5c6c7');
const rfcMsg = Buffer.from('Ladies and Gentlemen of the class of \'99: If I could offer you ' +
	'only one tip for the future, sunscreen would be it.');
const rfc = seal(rfcKey, rfcIv, rfcAad, rfcMsg);
say(`chacha20-poly1305 RFC 8439 2.8.2: ${hex(rfc.ct)} tag ${hex(rfc.tag)}`);
say(`chacha20-poly1305 RFC 8439 2.8.2 opened: ${open(rfcKey, rfcIv, rfcAad, rfc.ct, rfc.tag).equals(rfcMsg)}`);

const key = random.subarray(0, 32), iv = random.subarray(32, 44), aad = random.subarray(44, 60);
for (const len of [0, 1, 63, 64, 65, 255, 256, 1000, 4097, 65536]) {
	const msg = random.subarray(100, 100 + len);
	const { ct, tag } = seal(key, iv, aad, msg);
	const opened = open(key, iv, aad, ct, tag);
	tag[len % 16] ^= 1;
	say(`chacha20-poly1305 ${len} bytes: sha256 ${sha256(Buffer.concat([ct, tag]))}, ` +
	    `opened: ${Buffer.isBuffer(opened) && opened.equals(msg)}, ` +
	    `a tag off by one bit: ${open(key, iv, aad, ct, tag)}`);
}

say(`a tag refused: ${refusal}`);

say(`blake2s256 "abc" (RFC 7693): ${crypto.createHash('blake2s256').update('abc').digest('hex')}`);
for (const len of [0, 1, 64, 65, 1000, 65536])
	say(`blake2s256 ${len} bytes: ${crypto.createHash('blake2s256').update(random.subarray(100, 100 + len)).digest('hex')}`);

// X25519 keys from raw bytes: PKCS#8 and SubjectPublicKeyInfo around them.
const priv = (d) => crypto.createPrivateKey({ format: 'der', type: 'pkcs8',
	key: Buffer.concat([h('302e020100300506032b656e04220420'), d]) });
const pub = (x) => crypto.createPublicKey({ format: 'der', type: 'spki',
	key: Buffer.concat([h('302a300506032b656e032100'), x]) });
const raw = (k) => hex(Buffer.from(crypto.createPublicKey(k).export({ format: 'jwk' }).x, 'base64url'));
const agree = (privateKey, publicKey) => hex(crypto.diffieHellman({ privateKey, publicKey }));
const alice = priv(h('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'));
const bob = h('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f');
say(`x25519 RFC 7748 6.1: Alice's public ${raw(alice)}, shared ${agree(alice, pub(bob))}`);
const mine = priv(random.subarray(60, 92));
say(`x25519 a random private key: public ${raw(mine)}, shared with Bob ${agree(mine, pub(bob))}`);
const a = crypto.generateKeyPairSync('x25519'), b = crypto.generateKeyPairSync('x25519');
say(`x25519 generated pairs agree: ${agree(a.privateKey, b.publicKey) === agree(b.privateKey, a.publicKey)}`);

// OpenSSL has no XChaCha20-Poly1305: Node's names are OpenSSL's built-in ones.
let xchacha;
try {
	crypto.createCipheriv('xchacha20-poly1305', random.subarray(0, 32), random.subarray(32, 56),
			      { authTagLength: 16 });
	xchacha = 'accepted';
} catch (e) {
	xchacha = `${e.code}: ${e.message}`;
}
say(`xchacha20-poly1305: in getCiphers() ${crypto.getCiphers().some((n) => /xchacha/i.test(n))}, ` +
    `createCipheriv: ${xchacha}`);
EOF

# run NAME [VAR=VALUE...] [-- NODE-OPTIONS...]: Node runs the script; its
# output is $tmp/NAME.out, its ZINC_REPORT $tmp/NAME.rep.  Sets pid.
run() {
	local name=$1 vars=() opts=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
	[ $# -gt 0 ] && { shift; opts=("$@"); }
	# env execs node: $! is Node's pid, the one its report lines carry.
	"${run_env[@]}" ZINC_REPORT="$tmp/$name.rep" "${vars[@]}" \
		"$node" "${opts[@]}" "$tmp/zinc.js" "$tmp/random" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	wait $pid
	ok $? "$name: node runs the script" || diag "$tmp/$name.err"
}

# The oracle: the default provider alone.
run default OPENSSL_CONF=/dev/null
[ ! -e "$tmp/default.rep" ]
ok $? "default: nothing reported"
# The published vectors and the outcomes that do not depend on the provider.
for want in \
	"chacha20-poly1305 RFC 8439 2.8.2: d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116 tag 1ae10b594f09e26a7e902ecbd0600691" \
	"chacha20-poly1305 RFC 8439 2.8.2 opened: true" \
	'blake2s256 "abc" (RFC 7693): 508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982' \
	"x25519 RFC 7748 6.1: Alice's public 8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a, shared 4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742" \
	"x25519 generated pairs agree: true" \
	"xchacha20-poly1305: in getCiphers() false, createCipheriv: ERR_CRYPTO_UNKNOWN_CIPHER: Unknown cipher"; do
	grep -qxF "$want" "$tmp/default.out"
	ok $? "default: ${want%%:*}: as expected" || diag "$tmp/default.out"
done
[ "$(grep -c 'opened: true, a tag off by one bit: refused$' "$tmp/default.out")" -eq 10 ]
ok $? "default: 10 messages of 0 to 65536 bytes opened, and refused with one tag bit flipped" ||
	diag "$tmp/default.out"
# The default provider queues no error for a wrong tag: Node says this.
grep -qx 'a tag refused: Unsupported state or unable to authenticate data' "$tmp/default.out"
ok $? "default: a wrong tag is Node's own 'Unsupported state or unable to authenticate data'" ||
	diag "$tmp/default.out"

# check_report NAME: Node's results are the oracle's, and its report names
# exactly zinc's implementations of the algorithms the script used.
check_report() {
	local name=$1 who
	who="zinc[$pid $(basename "$node" | head -c 15)]"
	diff <(grep -v '^a tag refused' "$tmp/default.out") \
	     <(grep -v '^a tag refused' "$tmp/$name.out") >"$tmp/diff"
	ok $? "$name: the same results as the default provider alone" || diag "$tmp/diff"
	# zinc's reason reaches the application instead (README).
	grep -qx 'a tag refused: error:[0-9A-F]*:zinc::tag mismatch: the message is not authentic' \
		"$tmp/$name.out"
	ok $? "$name: a wrong tag is zinc's 'tag mismatch: the message is not authentic'" ||
		grep '^a tag refused' "$tmp/$name.out" | diag
	# shellcheck disable=SC2154 # zinc_impls set the implementations
	report_is "$tmp/$name.rep" \
		"$who: ChaCha20-Poly1305 encrypt: chacha20 $chacha20, poly1305 $poly1305" \
		"$who: ChaCha20-Poly1305 decrypt: chacha20 $chacha20, poly1305 $poly1305" \
		"$who: BLAKE2S-256 digest: blake2s $blake2s" \
		"$who: X25519 keygen: curve25519 $curve25519" \
		"$who: X25519 derive: curve25519 $curve25519"
	ok $? "$name: ZINC_REPORT shows zinc's ChaCha20-Poly1305 encrypt and decrypt, BLAKE2S-256, X25519 keygen and derive, once each"
}

run zinc OPENSSL_CONF="$tmp/openssl.cnf"
check_report zinc

# The trap: openssl_conf alone leaves Node on the default provider, silently.
run no-nodejs_conf OPENSSL_CONF="$tmp/no-nodejs.cnf"
cmp -s "$tmp/default.out" "$tmp/no-nodejs_conf.out" && [ ! -e "$tmp/no-nodejs_conf.rep" ]
ok $? "without nodejs_conf: the same results, zinc unused (no report)" ||
	diag "$tmp/no-nodejs_conf.rep" 2>/dev/null
# ... unless Node is told to read openssl_conf.
run shared-config OPENSSL_CONF="$tmp/no-nodejs.cnf" -- --openssl-shared-config
check_report shared-config
# --openssl-config names the file only: Node still reads nodejs_conf there.
run config-option OPENSSL_CONF=/dev/null -- --openssl-config="$tmp/no-nodejs.cnf"
[ ! -e "$tmp/config-option.rep" ]
ok $? "--openssl-config=FILE without nodejs_conf: zinc unused (no report)" ||
	diag "$tmp/config-option.rep"
run config-option-nodejs_conf OPENSSL_CONF=/dev/null -- --openssl-config="$tmp/openssl.cnf"
check_report config-option-nodejs_conf

echo "1..$n"
