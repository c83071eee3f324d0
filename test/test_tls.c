/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TLS through libssl with zinc's ChaCha20-Poly1305, in process: one peer
 * in the library context that prefers zinc, the other in default's, over
 * memory BIOs that this test moves bytes between (and can tamper with).
 * TLS 1.3 (TLS_CHACHA20_POLY1305_SHA256: init, tag, AAD, update, final per
 * record) and TLS 1.2 (ECDHE-ECDSA-CHACHA20-POLY1305: tlsivfixed, tlsaad
 * and one update per record), zinc as client and as server.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include "testutil.h"

struct identity {
	EVP_PKEY *key;
	X509 *cert;
};

struct peer {
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *in, *out;	/* what it reads, what it writes */
	int zinc;
};

struct version {
	const char *name;
	int version;
	const char *cipher;
};

static const struct version tls13 = { "TLS 1.3", TLS1_3_VERSION, "TLS_CHACHA20_POLY1305_SHA256" };
static const struct version tls12 = { "TLS 1.2", TLS1_2_VERSION, "ECDHE-ECDSA-CHACHA20-POLY1305" };

static void bail(const char *what)
{
	printf("Bail out! %s\n", what);
	ERR_print_errors_fp(stdout);
	exit(99);
}

static void free_identity(struct identity *id)
{
	EVP_PKEY_free(id->key);
	X509_free(id->cert);
}

static void make_peer(struct peer *p, OSSL_LIB_CTX *libctx, int server, const struct version *v,
		      const struct identity *id, int zinc)
{
	p->zinc = zinc;
	p->ctx = SSL_CTX_new_ex(libctx, NULL, server ? TLS_server_method() : TLS_client_method());
	if (p->ctx == NULL || !SSL_CTX_set_min_proto_version(p->ctx, v->version) ||
	    !SSL_CTX_set_max_proto_version(p->ctx, v->version))
		bail("SSL_CTX");
	if (v->version == TLS1_3_VERSION ? !SSL_CTX_set_ciphersuites(p->ctx, v->cipher)
					 : !SSL_CTX_set_cipher_list(p->ctx, v->cipher))
		bail("cipher selection");
	if (server && (!SSL_CTX_use_certificate(p->ctx, id->cert) ||
		       !SSL_CTX_use_PrivateKey(p->ctx, id->key)))
		bail("server identity");
	p->ssl = SSL_new(p->ctx);
	p->in = BIO_new(BIO_s_mem());
	p->out = BIO_new(BIO_s_mem());
	if (p->ssl == NULL || p->in == NULL || p->out == NULL)
		bail("SSL");
	/* An empty memory BIO means "try again", not end of file. */
	BIO_set_mem_eof_return(p->in, -1);
	BIO_set_mem_eof_return(p->out, -1);
	SSL_set_bio(p->ssl, p->in, p->out);
	if (server)
		SSL_set_accept_state(p->ssl);
	else
		SSL_set_connect_state(p->ssl);
}

static void free_peer(struct peer *p)
{
	SSL_free(p->ssl);	/* frees the BIOs */
	SSL_CTX_free(p->ctx);
}

/*
 * Moves what from wrote into to's input.  tamper >= 0 flips a bit in that
 * byte of the last record's body (counted from after its 5-byte header).
 */
static void move(struct peer *from, struct peer *to, long tamper)
{
	char *data;
	long n = BIO_get_mem_data(from->out, &data);
	unsigned char *copy;

	if (n <= 0)
		return;
	copy = malloc((size_t)n);
	if (copy == NULL)
		bail("out of memory");
	memcpy(copy, data, (size_t)n);
	if (tamper >= 0) {
		long pos = 0, last = 0;

		/* Walk the records: type(1) version(2) length(2) body. */
		while (pos + 5 <= n) {
			last = pos;
			pos += 5 + (copy[pos + 3] << 8 | copy[pos + 4]);
		}
		if (last + 5 + tamper < n)
			copy[last + 5 + tamper] ^= 0x10;
	}
	if (BIO_write(to->in, copy, (int)n) != n)
		bail("BIO_write");
	(void)BIO_reset(from->out);
	free(copy);
}

/* SSL_get_error() must come before move(): writing to a BIO clears its retry state. */
static int handshake(struct peer *c, struct peer *s)
{
	int i;

	for (i = 0; i < 20; i++) {
		int rc = SSL_do_handshake(c->ssl);
		int ec = rc == 1 ? SSL_ERROR_NONE : SSL_get_error(c->ssl, rc);
		int rs = SSL_do_handshake(s->ssl);
		int es = rs == 1 ? SSL_ERROR_NONE : SSL_get_error(s->ssl, rs);

		move(c, s, -1);
		move(s, c, -1);
		if (rc == 1 && rs == 1)
			return 1;
		if ((ec != SSL_ERROR_NONE && ec != SSL_ERROR_WANT_READ) ||
		    (es != SSL_ERROR_NONE && es != SSL_ERROR_WANT_READ))
			return 0;
	}
	return 0;
}

/* from sends len bytes; to must read them back exactly. */
static int transfer(struct peer *from, struct peer *to, size_t len)
{
	unsigned char *data = malloc(len), *got = malloc(len);
	size_t done = 0, n;
	int ok = 0;

	if (data == NULL || got == NULL)
		bail("out of memory");
	zt_rand(data, len);
	if (!SSL_write_ex(from->ssl, data, len, &n) || n != len)
		goto out;
	move(from, to, -1);
	while (done < len) {
		if (!SSL_read_ex(to->ssl, got + done, len - done, &n))
			goto out;
		done += n;
	}
	ok = memcmp(got, data, len) == 0;
out:
	free(data);
	free(got);
	return ok;
}

/* Whether the error queue holds zinc's reason, and libssl's bad-record-MAC alert. */
static void scan_errors(int *zinc_mismatch, int *bad_mac)
{
	unsigned long e;

	*zinc_mismatch = *bad_mac = 0;
	while ((e = ERR_get_error()) != 0) {
		const char *lib = ERR_lib_error_string(e), *r = ERR_reason_error_string(e);

		if (lib != NULL && strcmp(lib, "zinc") == 0 && r != NULL &&
		    strncmp(r, "tag mismatch", 12) == 0)
			*zinc_mismatch = 1;
		if (ERR_GET_LIB(e) == ERR_LIB_SSL &&
		    ERR_GET_REASON(e) == SSL_R_DECRYPTION_FAILED_OR_BAD_RECORD_MAC)
			*bad_mac = 1;
	}
}

static const struct identity *zinc_id, *default_id;

/*
 * One connection: zinc_server says which side prefers zinc.  tamper: 0 a
 * clean exchange, 1 a record to the server is altered, 2 one to the client.
 */
static void connection(const struct version *v, int zinc_server, int tamper)
{
	static const size_t sizes[] = { 1, 100, 16384, 40000 };
	OSSL_LIB_CTX *zctx = zt_preferred_ctx(), *dctx = zt_default_ctx();
	struct peer c, s;
	const char *who = zinc_server ? "zinc server, default client" :
					"zinc client, default server";
	const char *got;
	size_t i;
	int ok;

	make_peer(&s, zinc_server ? zctx : dctx, 1, v, zinc_server ? zinc_id : default_id,
		  zinc_server);
	make_peer(&c, zinc_server ? dctx : zctx, 0, v, NULL, !zinc_server);
	if (!zt_ok(handshake(&c, &s), "%s, %s: handshake", v->name, who)) {
		zt_clear_errors();
		goto out;
	}
	got = SSL_CIPHER_get_name(SSL_get_current_cipher(c.ssl));
	zt_ok(SSL_version(c.ssl) == v->version && got != NULL && strcmp(got, v->cipher) == 0,
	      "%s, %s: negotiated %s", v->name, who, got != NULL ? got : "nothing");
	if (tamper == 0) {
		for (i = 0, ok = 1; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			ok = ok && transfer(&c, &s, sizes[i]) && transfer(&s, &c, sizes[i]);
		zt_ok(ok, "%s, %s: 1, 100, 16384 and 40000 bytes each way arrive intact", v->name,
		      who);
		zt_clear_errors();
	} else {
		struct peer *from = tamper == 1 ? &c : &s, *to = tamper == 1 ? &s : &c;
		unsigned char data[100], buf[100];
		size_t n;
		int zinc_mismatch, bad_mac, r, err;

		zt_rand(data, sizeof(data));
		ok = transfer(from, to, 10);
		if (!SSL_write_ex(from->ssl, data, sizeof(data), &n))
			bail("SSL_write");
		/* Byte 40 of the body: ciphertext, past TLS 1.2's 0 explicit IV bytes. */
		move(from, to, 40);
		r = SSL_read_ex(to->ssl, buf, sizeof(buf), &n);
		err = SSL_get_error(to->ssl, r);
		scan_errors(&zinc_mismatch, &bad_mac);
		zt_ok(ok && !r && err == SSL_ERROR_SSL && bad_mac,
		      "%s, %s: a record altered on its way to the %s is refused (bad record MAC)",
		      v->name, who, tamper == 1 ? "server" : "client");
		/* zinc's own reason on the queue shows that zinc did the decryption. */
		zt_ok(zinc_mismatch == to->zinc, "%s, %s: zinc's tag mismatch is %sraised, as the "
		      "receiver is %s", v->name, who, to->zinc ? "" : "not ",
		      to->zinc ? "zinc" : "default");
	}
out:
	free_peer(&c);
	free_peer(&s);
}

int main(void)
{
	static const struct version *versions[] = { &tls13, &tls12 };
	struct identity zid, did;
	EVP_CIPHER *c;
	const char *prov;
	size_t i;
	int zs, t;

	/* libssl fetches its record cipher the same way. */
	c = EVP_CIPHER_fetch(zt_preferred_ctx(), "ChaCha20-Poly1305", NULL);
	prov = c != NULL ? OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)) : NULL;
	zt_ok(prov != NULL && strcmp(prov, "zinc") == 0,
	      "ChaCha20-Poly1305 in the preferring context comes from %s", prov ? prov : "nowhere");
	EVP_CIPHER_free(c);

	if (!zt_make_identity(zt_preferred_ctx(), &zid.key, &zid.cert) ||
	    !zt_make_identity(zt_default_ctx(), &did.key, &did.cert))
		bail("self-signed certificate");
	zinc_id = &zid;
	default_id = &did;
	for (i = 0; i < sizeof(versions) / sizeof(versions[0]); i++)
		for (zs = 0; zs <= 1; zs++)
			for (t = 0; t <= 2; t++)
				connection(versions[i], zs, t);
	free_identity(&zid);
	free_identity(&did);
	return zt_done();
}
