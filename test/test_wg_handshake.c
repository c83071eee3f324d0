/* SPDX-License-Identifier: Apache-2.0 */
/*
 * docs/examples/wg-handshake.c, the WireGuard handshake over EVP, checked:
 *
 *  - its KDF (one HKDF derive) against the whitepaper's chain of HMACs,
 *    through EVP_MAC "HMAC" over BLAKE2S-256;
 *  - every vector in $ZINC_VECTORS/noise/: the Noise_IKpsk2 vectors
 *    (cacophony, flynn/noise) and the fixed-key WireGuard handshake
 *    (wagyu), both sides of each, every message compared byte for byte,
 *    with zinc and again with OpenSSL's default provider alone;
 *  - handshakes both ways between a library context served by zinc and
 *    one with the default provider only, with altered messages refused;
 *  - the cookie reply (XChaCha20-Poly1305: zinc only) against the
 *    whitepaper's construction computed in the default provider, with
 *    XChaCha20 made of default's ChaCha20 under an HChaCha20 subkey.
 */
#define WG_HANDSHAKE_NO_MAIN
#include "../docs/examples/wg-handshake.c"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include "testutil.h"

#define MAX_MSG 1024

static struct wg_suite zinc_suite, default_suite;

/* A required string field of a vector; a vector without it is a broken file. */
static const char *field(const struct zt_json *v, const char *name)
{
	const char *s = zt_json_str(v, name);

	if (s == NULL) {
		printf("Bail out! a vector has no \"%s\"\n", name);
		exit(99);
	}
	return s;
}

/* The first string of an array field (init_psks, resp_psks). */
static const char *first_of(const struct zt_json *v, const char *name)
{
	const struct zt_json *a = zt_json_get(v, name);

	if (a == NULL || a->type != ZT_JSON_ARRAY || a->child == NULL ||
	    a->child->type != ZT_JSON_STRING) {
		printf("Bail out! a vector has no \"%s\" array\n", name);
		exit(99);
	}
	return a->child->text;
}

/* ---- the KDF against HMAC ------------------------------------------------- */

/* HMAC-BLAKE2s(key, a || b) through EVP_MAC, its digest from `propq`. */
static int hmac_b2s(OSSL_LIB_CTX *libctx, const char *propq, const unsigned char *key,
		    size_t keylen, const unsigned char *a, size_t alen, const unsigned char *b,
		    size_t blen, unsigned char out[WG_KEY_LEN])
{
	EVP_MAC *mac = EVP_MAC_fetch(libctx, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"BLAKE2S-256", 0),
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES, (char *)propq, 0),
		OSSL_PARAM_construct_end()
	};
	size_t outl = 0;
	int ok = ctx != NULL && EVP_MAC_init(ctx, key, keylen, params) &&
		 EVP_MAC_update(ctx, a, alen) && EVP_MAC_update(ctx, b, blen) &&
		 EVP_MAC_final(ctx, out, &outl, WG_KEY_LEN) && outl == WG_KEY_LEN;

	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok;
}

/* wg_kdf's n outputs are t1, t2, t3 of t0 = HMAC(key, in), ti = HMAC(t0, t(i-1) || i). */
static void test_kdf(const struct wg_suite *s)
{
	static const size_t lens[] = { 0, 1, 32, 77 };
	unsigned char key[WG_KEY_LEN], in[77], t[4][WG_KEY_LEN], got[3 * WG_KEY_LEN];
	size_t i, n;

	for (i = 0; i < sizeof(lens) / sizeof(*lens); i++) {
		unsigned char byte;
		int ok;

		zt_rand(key, sizeof(key));
		zt_rand(in, sizeof(in));
		byte = 1;
		ok = hmac_b2s(s->libctx, s->propq, key, WG_KEY_LEN, in, lens[i], NULL, 0, t[0]) &&
		     hmac_b2s(s->libctx, s->propq, t[0], WG_KEY_LEN, &byte, 1, NULL, 0, t[1]);
		for (byte = 2; ok && byte <= 3; byte++)
			ok = hmac_b2s(s->libctx, s->propq, t[0], WG_KEY_LEN, t[byte - 1], WG_KEY_LEN,
				      &byte, 1, t[byte]);
		if (!zt_ok(ok, "%s: HMAC-BLAKE2s chain through EVP_MAC, %zu-byte input",
			   s->provider, lens[i])) {
			zt_clear_errors();
			continue;
		}
		for (n = 1; n <= 3; n++) {
			memset(got, 0, sizeof(got));
			if (!zt_ok(wg_kdf(s, key, in, lens[i], got, n), "%s: KDF%zu, %zu-byte input",
				   s->provider, n, lens[i]))
				continue;
			zt_mem_eq(got, n * WG_KEY_LEN, t[1], n * WG_KEY_LEN,
				  "%s: KDF%zu (HKDF) = the HMAC chain, %zu-byte input", s->provider, n,
				  lens[i]);
		}
	}
}

/* ---- Noise_IKpsk2 vectors ------------------------------------------------- */

/*
 * One Noise test vector with suite: both parties from the vector's keys,
 * each handshake message written and compared byte for byte, then read by
 * the other party from the vector's bytes; then the transport messages.
 */
static void run_noise_vector(const struct wg_suite *s, const struct zt_json *v, const char *name)
{
	const struct zt_json *msgs = zt_json_get(v, "messages"), *m;
	const char *want_hash = zt_json_str(v, "handshake_hash");
	unsigned char ini_priv[WG_KEY_LEN], resp_priv[WG_KEY_LEN], ini_e[WG_KEY_LEN];
	unsigned char resp_e[WG_KEY_LEN], remote[WG_KEY_LEN], ini_psk[WG_KEY_LEN];
	unsigned char resp_psk[WG_KEY_LEN], ini_pub[WG_KEY_LEN], resp_pub[WG_KEY_LEN];
	unsigned char i_send[WG_KEY_LEN], i_recv[WG_KEY_LEN], r_send[WG_KEY_LEN];
	unsigned char r_recv[WG_KEY_LEN], ini_h[WG_KEY_LEN], resp_h[WG_KEY_LEN];
	unsigned char out[MAX_MSG], plain[MAX_MSG], nonce[WG_NONCE_LEN];
	unsigned char *pro_i, *pro_r;
	size_t pro_i_len, pro_r_len;
	struct wg_noise ni, nr;
	EVP_PKEY *ini_s, *resp_s;
	uint64_t counter[2] = { 0, 0 };
	int idx = 0, ok;

	memset(&ni, 0, sizeof(ni));
	memset(&nr, 0, sizeof(nr));
	zt_ok(strcmp(field(v, "protocol_name"), wg_construction) == 0, "%s: protocol %s", name,
	      field(v, "protocol_name"));
	zt_unhex_exact(ini_priv, WG_KEY_LEN, field(v, "init_static"));
	zt_unhex_exact(resp_priv, WG_KEY_LEN, field(v, "resp_static"));
	zt_unhex_exact(ini_e, WG_KEY_LEN, field(v, "init_ephemeral"));
	zt_unhex_exact(resp_e, WG_KEY_LEN, field(v, "resp_ephemeral"));
	zt_unhex_exact(remote, WG_KEY_LEN, field(v, "init_remote_static"));
	zt_unhex_exact(ini_psk, WG_KEY_LEN, first_of(v, "init_psks"));
	zt_unhex_exact(resp_psk, WG_KEY_LEN, first_of(v, "resp_psks"));
	pro_i = zt_unhex(field(v, "init_prologue"), &pro_i_len);
	pro_r = zt_unhex(field(v, "resp_prologue"), &pro_r_len);

	ini_s = wg_x25519_key(s, ini_priv, ini_pub);
	resp_s = wg_x25519_key(s, resp_priv, resp_pub);
	if (!zt_ok(ini_s != NULL && resp_s != NULL && msgs != NULL && msgs->child != NULL &&
		   msgs->child->next != NULL, "%s: static keys and two handshake messages", name))
		goto out;
	zt_mem_eq(resp_pub, WG_KEY_LEN, remote, WG_KEY_LEN,
		  "%s: X25519(resp_static, 9) = init_remote_static", name);
	ok = wg_noise_init(&ni, s, ini_s, ini_pub, remote, ini_psk, pro_i, pro_i_len) &&
	     wg_noise_init(&nr, s, resp_s, resp_pub, NULL, resp_psk, pro_r, pro_r_len);
	if (!zt_ok(ok, "%s: both parties initialised", name))
		goto out;

	for (m = msgs->child; m != NULL; m = m->next, idx++) {
		size_t plen, clen;
		unsigned char *payload = zt_unhex(field(m, "payload"), &plen);
		unsigned char *ct = zt_unhex(field(m, "ciphertext"), &clen);
		const char *dir = idx % 2 == 0 ? "initiator" : "responder";
		size_t want_len = idx == 0 ? WG_NOISE_MSG1_LEN(plen) :
				  idx == 1 ? WG_NOISE_MSG2_LEN(plen) : plen + WG_TAG_LEN;

		if (want_len > MAX_MSG || clen != want_len) {
			zt_ok(0, "%s: message %d: %zu bytes, not %zu", name, idx, clen, want_len);
			free(payload);
			free(ct);
			break;
		}
		memset(out, 0, sizeof(out));
		memset(plain, 0xa5, sizeof(plain));
		if (idx == 0) {
			ok = wg_noise_write_msg1(&ni, ini_e, payload, plen, out);
		} else if (idx == 1) {
			ok = wg_noise_write_msg2(&nr, resp_e, payload, plen, out);
		} else {
			wg_counter_nonce(counter[idx % 2], nonce);
			ok = wg_seal(s->aead, idx % 2 == 0 ? i_send : r_send, nonce, payload, plen,
				     NULL, 0, out);
		}
		if (zt_ok(ok, "%s: message %d written by the %s", name, idx, dir))
			zt_mem_eq(out, clen, ct, clen, "%s: message %d byte for byte", name, idx);

		/* The other party reads the vector's bytes. */
		if (idx == 0)
			ok = wg_noise_read_msg1(&nr, ct, clen, plain);
		else if (idx == 1)
			ok = wg_noise_read_msg2(&ni, ct, clen, plain);
		else
			ok = wg_open(s->aead, idx % 2 == 0 ? r_recv : i_recv, nonce, ct,
				     plen, NULL, 0, plain);
		if (zt_ok(ok, "%s: message %d read by the other side", name, idx))
			zt_mem_eq(plain, plen, payload, plen, "%s: message %d's payload", name, idx);
		if (idx == 0)
			zt_mem_eq(nr.rs, WG_KEY_LEN, ini_pub, WG_KEY_LEN,
				  "%s: the responder learns the initiator's static key", name);
		if (idx == 1) {
			/* The handshake is over: its hash, then the transport keys. */
			memcpy(ini_h, ni.h, WG_KEY_LEN);
			memcpy(resp_h, nr.h, WG_KEY_LEN);
			zt_mem_eq(ini_h, WG_KEY_LEN, resp_h, WG_KEY_LEN,
				  "%s: both sides' handshake hashes agree", name);
			if (want_hash != NULL) {
				unsigned char hh[WG_KEY_LEN];

				zt_unhex_exact(hh, WG_KEY_LEN, want_hash);
				zt_mem_eq(ini_h, WG_KEY_LEN, hh, WG_KEY_LEN, "%s: handshake_hash",
					  name);
			}
			ok = wg_noise_split(&ni, 1, i_send, i_recv) &&
			     wg_noise_split(&nr, 0, r_send, r_recv);
			if (zt_ok(ok, "%s: split", name)) {
				zt_mem_eq(i_send, WG_KEY_LEN, r_recv, WG_KEY_LEN,
					  "%s: initiator's send key = responder's receive key", name);
				zt_mem_eq(r_send, WG_KEY_LEN, i_recv, WG_KEY_LEN,
					  "%s: responder's send key = initiator's receive key", name);
			}
		}
		if (idx >= 2)
			counter[idx % 2]++;
		free(payload);
		free(ct);
		zt_clear_errors();
	}
	zt_ok(idx >= 2, "%s: %d messages run", name, idx);
out:
	wg_noise_clear(&ni);
	wg_noise_clear(&nr);
	EVP_PKEY_free(ini_s);
	EVP_PKEY_free(resp_s);
	free(pro_i);
	free(pro_r);
	zt_clear_errors();
}

/*
 * Calls fn on each vector of the file under ../shared/vectors, numbered from
 * 1; the number of vectors, or -1 if the file is absent or unreadable.
 */
static int each_vector(const char *file, void (*fn)(const struct zt_json *v, int i))
{
	char *path = zt_vector_path(file);
	struct zt_json *root;
	const struct zt_json *v;
	int i = -1;

	if (path == NULL)
		return -1;
	root = zt_json_load(path);
	if (zt_ok(root != NULL && zt_json_get(root, "vectors") != NULL, "%s loads", path))
		for (i = 0, v = zt_json_get(root, "vectors")->child; v != NULL; v = v->next)
			fn(v, ++i);
	zt_json_free(root);
	free(path);
	return i;
}

static void noise_vector(const struct zt_json *v, int i)
{
	const char *src = field(v, "source"), *slash = strchr(src, '/');
	int len = (int)strcspn(src, "@");
	char name[160];

	/* owner/repository of the source, and the line there if given */
	if (slash != NULL && strchr(slash + 1, '/') != NULL)
		len = (int)(strchr(slash + 1, '/') - src);
	if (zt_json_long(v, "source_line") > 0)
		snprintf(name, sizeof(name), "Noise vector %d (%.*s, line %ld)", i, len, src,
			 zt_json_long(v, "source_line"));
	else
		snprintf(name, sizeof(name), "Noise vector %d (%.*s)", i, len, src);
	run_noise_vector(&zinc_suite, v, name);
	/* The same with default alone: the vectors and the test agree. */
	snprintf(name, sizeof(name), "Noise vector %d, default provider", i);
	run_noise_vector(&default_suite, v, name);
}

static void noise_vectors(void)
{
	int n = each_vector("noise/noise_ikpsk2_25519_chachapoly_blake2s.json", noise_vector);

	if (n >= 0)
		zt_ok(n == 5, "%d Noise_IKpsk2 vectors (the README says 5)", n);
}

/* ---- the WireGuard vector ------------------------------------------------- */

/* Two sides of suite s from private keys; the public keys to ini_pub and resp_pub. */
static int make_sides(const struct wg_suite *s, const unsigned char *ini_priv,
		      const unsigned char *resp_priv, const unsigned char psk[WG_KEY_LEN],
		      uint32_t ini_index, uint32_t resp_index, struct wg_side *ini,
		      struct wg_side *resp)
{
	unsigned char ini_pub[WG_KEY_LEN], resp_pub[WG_KEY_LEN];
	EVP_PKEY *ini_key = wg_x25519_key(s, ini_priv, ini_pub);
	EVP_PKEY *resp_key = wg_x25519_key(s, resp_priv, resp_pub);
	int ok;

	memset(ini, 0, sizeof(*ini));
	memset(resp, 0, sizeof(*resp));
	if (ini_key == NULL || resp_key == NULL) {
		EVP_PKEY_free(ini_key);
		EVP_PKEY_free(resp_key);
		return 0;
	}
	/* Each takes its key pair over, even if the other fails. */
	ok = wg_side_init(ini, s, ini_key, resp_pub, psk, ini_index);
	ok = wg_side_init(resp, s, resp_key, ini_pub, psk, resp_index) && ok;
	return ok;
}

static void run_wireguard_vector(const struct wg_suite *s, const struct zt_json *v)
{
	unsigned char ini_priv[WG_KEY_LEN], resp_priv[WG_KEY_LEN], ini_e[WG_KEY_LEN];
	unsigned char resp_e[WG_KEY_LEN], psk[WG_KEY_LEN], pub[WG_KEY_LEN];
	unsigned char ts[WG_TIMESTAMP_LEN], init_msg[WG_INITIATION_LEN], resp_msg[WG_RESPONSE_LEN];
	unsigned char ka[2][WG_TRANSPORT_HEADER_LEN + WG_TAG_LEN], out[WG_INITIATION_LEN];
	unsigned char nothing[1];
	const char *p = s->provider;
	struct wg_side ini, resp;
	long ini_index = zt_json_long(v, "initiator_index");
	long resp_index = zt_json_long(v, "responder_index");

	memset(&ini, 0, sizeof(ini));
	memset(&resp, 0, sizeof(resp));
	zt_unhex_exact(ini_priv, WG_KEY_LEN, field(v, "initiator_private"));
	zt_unhex_exact(resp_priv, WG_KEY_LEN, field(v, "responder_private"));
	zt_unhex_exact(ini_e, WG_KEY_LEN, field(v, "initiator_ephemeral_private"));
	zt_unhex_exact(resp_e, WG_KEY_LEN, field(v, "responder_ephemeral_private"));
	zt_unhex_exact(psk, WG_KEY_LEN, field(v, "preshared_key"));
	zt_unhex_exact(ts, WG_TIMESTAMP_LEN, field(v, "timestamp"));
	zt_unhex_exact(init_msg, WG_INITIATION_LEN, field(v, "initiation"));
	zt_unhex_exact(resp_msg, WG_RESPONSE_LEN, field(v, "response"));
	zt_unhex_exact(ka[0], sizeof(ka[0]), field(v, "initiator_keepalive"));
	zt_unhex_exact(ka[1], sizeof(ka[1]), field(v, "responder_keepalive"));

	if (!zt_ok(ini_index >= 0 && resp_index >= 0 &&
		   make_sides(s, ini_priv, resp_priv, psk, (uint32_t)ini_index,
			      (uint32_t)resp_index, &ini, &resp),
		   "WireGuard vector, %s: both sides set up", p))
		goto out;
	zt_unhex_exact(pub, WG_KEY_LEN, field(v, "initiator_public"));
	zt_mem_eq(ini.static_pub, WG_KEY_LEN, pub, WG_KEY_LEN,
		  "WireGuard vector, %s: initiator_public", p);
	zt_unhex_exact(pub, WG_KEY_LEN, field(v, "responder_public"));
	zt_mem_eq(resp.static_pub, WG_KEY_LEN, pub, WG_KEY_LEN,
		  "WireGuard vector, %s: responder_public", p);

	if (zt_ok(wg_create_initiation(&ini, ini_e, ts, out),
		  "WireGuard vector, %s: initiation made", p))
		zt_mem_eq(out, WG_INITIATION_LEN, init_msg, WG_INITIATION_LEN,
			  "WireGuard vector, %s: initiation byte for byte", p);
	if (zt_ok(wg_consume_initiation(&resp, init_msg, sizeof(init_msg)),
		  "WireGuard vector, %s: the responder takes the initiation", p)) {
		zt_mem_eq(resp.last_timestamp, WG_TIMESTAMP_LEN, ts, WG_TIMESTAMP_LEN,
			  "WireGuard vector, %s: the timestamp decrypted", p);
		zt_ok(resp.peer_index == (uint32_t)ini_index,
		      "WireGuard vector, %s: the initiator's index", p);
	}
	if (zt_ok(wg_create_response(&resp, resp_e, out), "WireGuard vector, %s: response made", p))
		zt_mem_eq(out, WG_RESPONSE_LEN, resp_msg, WG_RESPONSE_LEN,
			  "WireGuard vector, %s: response byte for byte", p);
	zt_ok(wg_consume_response(&ini, resp_msg, sizeof(resp_msg)),
	      "WireGuard vector, %s: the initiator takes the response", p);

	/* The first transport message each way: a keepalive, counter 0. */
	if (zt_ok(wg_create_transport(&ini, NULL, 0, out),
		  "WireGuard vector, %s: initiator's keepalive made", p))
		zt_mem_eq(out, sizeof(ka[0]), ka[0], sizeof(ka[0]),
			  "WireGuard vector, %s: initiator_keepalive byte for byte", p);
	zt_ok(wg_consume_transport(&resp, ka[0], sizeof(ka[0]), nothing),
	      "WireGuard vector, %s: the responder takes initiator_keepalive", p);
	if (zt_ok(wg_create_transport(&resp, NULL, 0, out),
		  "WireGuard vector, %s: responder's keepalive made", p))
		zt_mem_eq(out, sizeof(ka[1]), ka[1], sizeof(ka[1]),
			  "WireGuard vector, %s: responder_keepalive byte for byte", p);
	zt_ok(wg_consume_transport(&ini, ka[1], sizeof(ka[1]), nothing),
	      "WireGuard vector, %s: the initiator takes responder_keepalive", p);
out:
	wg_side_free(&ini);
	wg_side_free(&resp);
	zt_clear_errors();
}

static void wireguard_vector(const struct zt_json *v, int i)
{
	const struct zt_json *nv = zt_json_get(v, "noise_view");

	run_wireguard_vector(&zinc_suite, v);
	run_wireguard_vector(&default_suite, v);
	/* The same transcript in Noise's terms. */
	if (zt_ok(nv != NULL, "WireGuard vector %d has a noise_view", i)) {
		run_noise_vector(&zinc_suite, nv, "WireGuard vector's noise_view");
		run_noise_vector(&default_suite, nv, "WireGuard vector's noise_view, default provider");
	}
}

static void wireguard_vectors(void)
{
	int n = each_vector("noise/wireguard_handshake.json", wireguard_vector);

	if (n >= 0)
		zt_ok(n == 1, "%d WireGuard vector (the README says 1)", n);
}

/* ---- zinc against default, both ways -------------------------------------- */

/* A copy of msg with one bit flipped at byte `at`, mac1 and mac2 made again by `from` if remac. */
static void altered(struct wg_side *from, const unsigned char *msg, size_t len, size_t at,
		    size_t mac1_at, int remac, unsigned char *out)
{
	unsigned char last_mac1[WG_MAC_LEN];

	memcpy(out, msg, len);
	out[at] ^= 0x04;
	memcpy(last_mac1, from->last_mac1, WG_MAC_LEN);
	if (remac && !wg_add_macs(from, out, mac1_at))
		zt_diag("mac1 not made again");
	memcpy(from->last_mac1, last_mac1, WG_MAC_LEN);
}

/* A fresh handshake, the initiator with suite a and the responder with suite b. */
static void cross(const struct wg_suite *a, const struct wg_suite *b)
{
	unsigned char psk[WG_KEY_LEN], ts[WG_TIMESTAMP_LEN], init_msg[WG_INITIATION_LEN];
	unsigned char resp_msg[WG_RESPONSE_LEN], bad[WG_INITIATION_LEN];
	unsigned char ini_pub[WG_KEY_LEN], resp_pub[WG_KEY_LEN];
	unsigned char packet[MAX_MSG], msg[MAX_MSG], back[MAX_MSG];
	struct wg_side ini, resp;
	struct wg_noise saved;
	EVP_PKEY *ini_key, *resp_key;
	const char *pa = a->provider, *pb = b->provider;
	int i, ok;

	memset(&ini, 0, sizeof(ini));
	memset(&resp, 0, sizeof(resp));
	zt_rand(psk, sizeof(psk));
	/* Each side's static key pair from its own provider. */
	ini_key = wg_x25519_key(a, NULL, ini_pub);
	resp_key = wg_x25519_key(b, NULL, resp_pub);
	if (ini_key == NULL || resp_key == NULL) {
		zt_ok(0, "%s -> %s: static keys", pa, pb);
		EVP_PKEY_free(ini_key);
		EVP_PKEY_free(resp_key);
		return;
	}
	ok = wg_side_init(&ini, a, ini_key, resp_pub, psk, (uint32_t)zt_rand_u64());
	ok = wg_side_init(&resp, b, resp_key, ini_pub, psk, (uint32_t)zt_rand_u64()) && ok;
	if (!zt_ok(ok, "%s -> %s: both sides set up", pa, pb))
		goto out;

	wg_timestamp_now(ts);
	if (!zt_ok(wg_create_initiation(&ini, NULL, ts, init_msg), "%s -> %s: initiation", pa, pb))
		goto out;
	/* Altered initiations are refused: mac1, the encrypted static key, the timestamp. */
	altered(&ini, init_msg, sizeof(init_msg), WG_INITIATION_MAC1 + 3, WG_INITIATION_MAC1, 0,
		bad);
	zt_ok(!wg_consume_initiation(&resp, bad, sizeof(bad)),
	      "%s -> %s: an initiation with a wrong mac1 is refused", pa, pb);
	altered(&ini, init_msg, sizeof(init_msg), 8 + 40, WG_INITIATION_MAC1, 1, bad);
	zt_ok(!wg_consume_initiation(&resp, bad, sizeof(bad)),
	      "%s -> %s: an altered static key is refused (mac1 made again)", pa, pb);
	altered(&ini, init_msg, sizeof(init_msg), 8 + 80 + 5, WG_INITIATION_MAC1, 1, bad);
	zt_ok(!wg_consume_initiation(&resp, bad, sizeof(bad)),
	      "%s -> %s: an altered timestamp is refused (mac1 made again)", pa, pb);
	ERR_clear_error();	/* the refusals' */

	if (!zt_ok(wg_consume_initiation(&resp, init_msg, sizeof(init_msg)),
		   "%s -> %s: the responder takes the initiation", pa, pb) ||
	    !zt_ok(wg_create_response(&resp, NULL, resp_msg), "%s -> %s: response", pa, pb))
		goto out;
	/* An altered response is refused; the initiator's state is kept for the real one. */
	saved = ini.noise;
	altered(&resp, resp_msg, sizeof(resp_msg), 12 + 32 + 2, WG_RESPONSE_MAC1, 1, bad);
	zt_ok(!wg_consume_response(&ini, bad, sizeof(resp_msg)),
	      "%s -> %s: an altered response is refused (mac1 made again)", pa, pb);
	ini.noise = saved;
	ERR_clear_error();
	if (!zt_ok(wg_consume_response(&ini, resp_msg, sizeof(resp_msg)),
		   "%s -> %s: the initiator takes the response", pa, pb))
		goto out;
	zt_mem_eq(ini.send_key, WG_KEY_LEN, resp.recv_key, WG_KEY_LEN,
		  "%s -> %s: initiator's send key = responder's receive key", pa, pb);
	zt_mem_eq(resp.send_key, WG_KEY_LEN, ini.recv_key, WG_KEY_LEN,
		  "%s -> %s: responder's send key = initiator's receive key", pa, pb);

	/* Packets each way, of random sizes, the first a keepalive. */
	for (i = 0; i < 8; i++) {
		struct wg_side *from = i % 2 == 0 ? &ini : &resp, *to = i % 2 == 0 ? &resp : &ini;
		size_t len = i < 2 ? 0 : zt_rand_below(MAX_MSG - 32);

		zt_rand(packet, len);
		ok = wg_create_transport(from, packet, len, msg) &&
		     wg_consume_transport(to, msg, len + 32, back) && memcmp(back, packet, len) == 0;
		zt_ok(ok, "%s -> %s: a %zu-byte packet from the %s", pa, pb, len,
		      i % 2 == 0 ? "initiator" : "responder");
		msg[len + 31] ^= 0x80;
		zt_ok(!wg_consume_transport(to, msg, len + 32, back),
		      "%s -> %s: the same with its tag altered is refused", pa, pb);
		ERR_clear_error();
	}
	zt_ok(!wg_consume_initiation(&resp, init_msg, sizeof(init_msg)),
	      "%s -> %s: the initiation replayed is refused", pa, pb);
	ERR_clear_error();
out:
	wg_side_free(&ini);
	wg_side_free(&resp);
	zt_clear_errors();
}

/* ---- the cookie reply ----------------------------------------------------- */

/* Keyed BLAKE2s-128 in the default provider: the whitepaper's MAC, independently. */
static int default_mac(const unsigned char *key, size_t keylen, const unsigned char *msg,
		       size_t len, unsigned char out[WG_MAC_LEN])
{
	return wg_mac(&default_suite, key, keylen, msg, len, out);
}

/*
 * HChaCha20 with default's ChaCha20: the 16-byte "IV" is state words 12 to
 * 15 (counter and nonce), so the first keystream block is the rounds'
 * output plus the input state; HChaCha20 is words 0-3 and 12-15 of the
 * rounds' output.
 */
static int hchacha20_default(const unsigned char key[WG_KEY_LEN], const unsigned char in[16],
			     unsigned char out[WG_KEY_LEN])
{
	static const unsigned char sigma[16] = "expand 32-byte k";
	unsigned char zeros[64] = { 0 }, block[64];
	EVP_CIPHER *c = EVP_CIPHER_fetch(zt_default_ctx(), "ChaCha20", NULL);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0, ok;
	size_t i;

	ok = c != NULL && ctx != NULL && EVP_EncryptInit_ex2(ctx, c, key, in, NULL) &&
	     EVP_EncryptUpdate(ctx, block, &outl, zeros, 64) && outl == 64;
	for (i = 0; ok && i < 4; i++) {
		wg_put_le32(out + 4 * i, wg_get_le32(block + 4 * i) - wg_get_le32(sigma + 4 * i));
		wg_put_le32(out + 16 + 4 * i,
			    wg_get_le32(block + 48 + 4 * i) - wg_get_le32(in + 4 * i));
	}
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
	return ok;
}

/* XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): default's ChaCha20-Poly1305 under HChaCha20. */
static int xseal_default(const unsigned char key[WG_KEY_LEN], const unsigned char nonce[24],
			 const unsigned char *in, size_t len, const unsigned char *ad,
			 size_t adlen, unsigned char *out)
{
	unsigned char subkey[WG_KEY_LEN], n12[WG_NONCE_LEN] = { 0 };

	memcpy(n12 + 4, nonce + 16, 8);
	return hchacha20_default(key, nonce, subkey) &&
	       wg_seal(default_suite.aead, subkey, n12, in, len, ad, adlen, out);
}

static void test_cookie(void)
{
	unsigned char addr[18], other[18], ts[WG_TIMESTAMP_LEN], init_msg[WG_INITIATION_LEN];
	unsigned char resp_msg[WG_RESPONSE_LEN], reply[WG_COOKIE_REPLY_LEN];
	unsigned char bad[WG_COOKIE_REPLY_LEN], key[WG_KEY_LEN], cookie[WG_MAC_LEN];
	unsigned char want[2 * WG_MAC_LEN], mac2[WG_MAC_LEN], psk[WG_KEY_LEN];
	static const size_t flips[] = { 4, 8, 31, 32, 47, 48, 63 };
	struct wg_side ini, resp, d_ini, d_resp;
	size_t i;

	zt_rand(addr, sizeof(addr));	/* an IPv6 address and a port */
	memcpy(other, addr, sizeof(other));
	other[17] ^= 1;
	zt_rand(psk, sizeof(psk));
	if (!zt_ok(make_sides(&zinc_suite, NULL, NULL, psk, 1, 2, &ini, &resp),
		   "cookie: both sides set up (zinc)"))
		goto out;

	wg_timestamp_now(ts);
	if (!zt_ok(wg_create_initiation(&ini, NULL, ts, init_msg), "cookie: initiation"))
		goto out;
	zt_ok(wg_mac1_ok(&resp, init_msg, WG_INITIATION_MAC1), "cookie: mac1 verifies");
	zt_ok(!wg_mac2_ok(&resp, init_msg, WG_INITIATION_MAC1, addr, sizeof(addr)),
	      "cookie: no mac2 without a cookie");
	if (!zt_ok(wg_create_cookie_reply(&resp, init_msg, WG_INITIATION_MAC1, addr, sizeof(addr),
					  reply), "cookie: the responder makes a cookie reply"))
		goto out;
	zt_ok(wg_get_le32(reply) == WG_COOKIE_REPLY && wg_get_le32(reply + 4) == ini.index,
	      "cookie: type 3, to the initiator's index");

	/* The whitepaper's construction, in the default provider. */
	if (zt_ok(default_mac(resp.cookie_secret, WG_KEY_LEN, addr, sizeof(addr), cookie) &&
		  wg_hash(&default_suite, "cookie--", 8, resp.static_pub, WG_KEY_LEN, key) &&
		  xseal_default(key, reply + 8, cookie, WG_MAC_LEN,
				init_msg + WG_INITIATION_MAC1, WG_MAC_LEN, want),
		  "cookie: computed again with default's BLAKE2s and ChaCha20"))
		zt_mem_eq(reply + 32, 32, want, 32,
			  "cookie: XAEAD(HASH(\"cookie--\" || responder's key), nonce, "
			  "MAC(secret, address), mac1)");

	/* Altered replies are refused, and leave no cookie. */
	for (i = 0; i < sizeof(flips) / sizeof(*flips); i++) {
		memcpy(bad, reply, sizeof(bad));
		bad[flips[i]] ^= 0x10;
		zt_ok(!wg_consume_cookie_reply(&ini, bad, sizeof(bad)) && !ini.have_cookie,
		      "cookie: a reply altered at byte %zu is refused", flips[i]);
	}
	ini.last_mac1[0] ^= 1;
	zt_ok(!wg_consume_cookie_reply(&ini, reply, sizeof(reply)) && !ini.have_cookie,
	      "cookie: a reply to another message (mac1, the AD) is refused");
	ini.last_mac1[0] ^= 1;
	ERR_clear_error();	/* the refusals' */

	if (!zt_ok(wg_consume_cookie_reply(&ini, reply, sizeof(reply)) && ini.have_cookie,
		   "cookie: the initiator takes the reply"))
		goto out;
	zt_mem_eq(ini.cookie, WG_MAC_LEN, cookie, WG_MAC_LEN, "cookie: the initiator's cookie");

	wg_timestamp_now(ts);
	if (!zt_ok(wg_create_initiation(&ini, NULL, ts, init_msg), "cookie: initiation with mac2"))
		goto out;
	if (zt_ok(default_mac(cookie, WG_MAC_LEN, init_msg, WG_INITIATION_MAC1 + WG_MAC_LEN, mac2),
		  "cookie: mac2 computed again with default"))
		zt_mem_eq(init_msg + WG_INITIATION_MAC1 + WG_MAC_LEN, WG_MAC_LEN, mac2, WG_MAC_LEN,
			  "cookie: mac2 = MAC(cookie, initiation up to mac2)");
	zt_ok(wg_mac2_ok(&resp, init_msg, WG_INITIATION_MAC1, addr, sizeof(addr)),
	      "cookie: the responder verifies mac2 from the same address");
	zt_ok(!wg_mac2_ok(&resp, init_msg, WG_INITIATION_MAC1, other, sizeof(other)),
	      "cookie: not from another port");
	zt_ok(wg_consume_initiation(&resp, init_msg, sizeof(init_msg)) &&
	      wg_create_response(&resp, NULL, resp_msg) &&
	      wg_consume_response(&ini, resp_msg, sizeof(resp_msg)) &&
	      memcmp(ini.send_key, resp.recv_key, WG_KEY_LEN) == 0,
	      "cookie: the handshake then completes");

	/* The default provider has no XChaCha20-Poly1305: the reply fails, saying so. */
	if (zt_ok(make_sides(&default_suite, NULL, NULL, psk, 3, 4, &d_ini, &d_resp),
		  "cookie: sides set up with default")) {
		zt_ok(!wg_create_cookie_reply(&d_resp, init_msg, WG_INITIATION_MAC1, addr,
					      sizeof(addr), reply),
		      "cookie: no cookie reply without XChaCha20-Poly1305");
		ERR_clear_error();
	}
	wg_side_free(&d_ini);
	wg_side_free(&d_resp);
out:
	wg_side_free(&ini);
	wg_side_free(&resp);
	zt_clear_errors();
}

/* TAI64N: 2^62 + 10 + Unix seconds, as the vector's timestamp for Unix time 1700000000 shows. */
static void test_timestamp(void)
{
	unsigned char ts[WG_TIMESTAMP_LEN];
	time_t before = time(NULL), after;
	uint64_t secs = 0;
	int i;

	wg_timestamp_now(ts);
	after = time(NULL);
	for (i = 0; i < 8; i++)
		secs = secs << 8 | ts[i];
	zt_ok(secs >= 0x400000000000000aULL + (uint64_t)before &&
	      secs <= 0x400000000000000aULL + (uint64_t)after,
	      "TAI64N timestamp: 2^62 + 10 + Unix time");
	zt_ok(((uint32_t)ts[8] << 24 | (uint32_t)ts[9] << 16 | (uint32_t)ts[10] << 8 | ts[11]) <
	      1000000000u, "TAI64N timestamp: nanoseconds below 10^9");
}

/* HKDF honours the property query it is given: it runs the suite's digest, none other. */
static void test_kdf_properties(void)
{
	struct wg_suite nowhere = zinc_suite;
	unsigned char key[WG_KEY_LEN] = { 1 }, out[WG_KEY_LEN];

	snprintf(nowhere.propq, sizeof(nowhere.propq), "provider=nosuch");
	zt_ok(!wg_kdf(&nowhere, key, key, sizeof(key), out, 1),
	      "HKDF with \"provider=nosuch\" for its digest fails");
	ERR_clear_error();
}

int main(void)
{
	int i;

	/* zinc with default beside it (HKDF, HMAC, random numbers), and default alone. */
	if (!zt_ok(wg_suite_init(&zinc_suite, zt_preferred_ctx(), "zinc"),
		   "every primitive fetched from zinc") ||
	    !zt_ok(wg_suite_init(&default_suite, zt_default_ctx(), "default"),
		   "every primitive fetched from default")) {
		zt_clear_errors();
		goto out;
	}
	zt_ok(zinc_suite.xaead != NULL, "zinc has XChaCha20-Poly1305");
	if (default_suite.xaead != NULL)
		zt_diag("this OpenSSL's default provider has an XChaCha20-Poly1305");

	test_timestamp();
	test_kdf(&zinc_suite);
	test_kdf(&default_suite);
	test_kdf_properties();
	noise_vectors();
	wireguard_vectors();
	for (i = 0; i < 2; i++) {
		cross(&zinc_suite, &default_suite);
		cross(&default_suite, &zinc_suite);
	}
	cross(&zinc_suite, &zinc_suite);
	if (default_suite.xaead == NULL)
		test_cookie();
	else
		zt_skip("cookie: default has an XChaCha20-Poly1305 of its own");
out:
	wg_suite_free(&zinc_suite);
	wg_suite_free(&default_suite);
	return zt_done();
}
