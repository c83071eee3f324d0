/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zinc against OpenSSL's default provider, through EVP, in one process:
 * the operations `openssl speed` in OpenSSL 3.0 cannot time (EVP_MAC
 * algorithms, XChaCha20-Poly1305, a TLS-like AEAD record loop at any size)
 * plus ChaCha20 and BLAKE2S-256 for one table covering everything, and,
 * where installed, the same operations through libsodium and libb2.  Last,
 * whole WireGuard handshakes made of them (docs/examples/wg-handshake.c).
 *
 * zinc and default live in separate library contexts; the columns of a
 * table are timed in turn (zinc, default, zinc, default, ...) so that drift
 * in clock speed hits both alike, and each cell is the median of the runs.
 *
 *   bench [WORD...]   only the tables whose title contains one of the WORDs
 *
 * Environment: ZINC_MODULE_DIR (where zinc.so is), BENCH_RUNS (runs per
 * cell), BENCH_SECONDS (length of one run), BENCH_QUICK=1 (three sizes,
 * fewer and shorter runs), BENCH_DATA (a file to write the medians to, as
 * tab-separated values for test/bench.gp).
 *
 * To time another operation, add a setup and a "once" function if none
 * fits and an entry to operations[].  A table whose rows are not sizes
 * (X25519) names them in `rows`; its "once" gets the row's index in len.
 * A column outside OpenSSL (libsodium, libb2) is timed only after its setup
 * has checked that it gives zinc's bytes for the same input.
 */
#include "config.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#ifdef HAVE_LIBSODIUM
#include <sodium.h>
#endif
#ifdef HAVE_LIBB2
#include <blake2.h>
#endif
/* The WireGuard handshake of docs/examples/, without its main (nor the cookie). */
#define WG_HANDSHAKE_NO_MAIN
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../docs/examples/wg-handshake.c"
#pragma GCC diagnostic pop

#define MAX_LEN 16384
#define MAX_COLS 3
#define MAX_RUNS 101
#define MAX_ROWS 8	/* sizes, or X25519's rows */
#define KEY_LEN 32
#define TAG_LEN 16
#define AAD_LEN 13	/* as in a TLS 1.2 record */

enum backend { ZINC, DEFAULT, SODIUM, LIBB2 };

struct job;

/* One way of doing an operation: a column of its table. */
struct column {
	const char *label;
	enum backend backend;
	const char *alg;
	int (*setup)(struct job *job);
	int (*once)(struct job *job);	/* one message of job->len bytes */
};

struct operation {
	const char *title;
	const char *what;
	struct column cols[MAX_COLS];	/* unused ones have a NULL label */
	const char *const *rows;	/* NULL: a row per message size */
	size_t records;			/* messages per "once" (0: one) */
};

/* A column being timed. */
struct job {
	const struct column *col;
	size_t len;
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *cctx;
	EVP_MAC *mac;
	EVP_MAC_CTX *mctx;
	EVP_MD *md;
	EVP_MD_CTX *dctx;
	EVP_PKEY_CTX *kctx, *xctx;	/* X25519 keygen, derive */
	EVP_PKEY *pkey[2];
	unsigned char nonce[24];
	size_t nonce_len;
	uint64_t seq;
	size_t res_len;			/* bytes of output at `out` */
	const struct column *ref;	/* the table's zinc column, to check against */
	size_t records;			/* messages per "once" */
	unsigned char sk[KEY_LEN], peer[KEY_LEN];	/* libsodium X25519 */
	struct wg_bench *wg;		/* the WireGuard handshake */
};

static void job_free(struct job *job);

/* Two WireGuard peers in one library context, with all they need for a handshake. */
struct wg_bench {
	struct wg_suite suite;
	struct wg_side ini, resp;
	unsigned char timestamp[WG_TIMESTAMP_LEN];
};

static OSSL_LIB_CTX *libctx[2];	/* [ZINC], [DEFAULT] */
static OSSL_PROVIDER *zinc_provider;
static unsigned char in[MAX_LEN], out[MAX_LEN + 64], key[KEY_LEN], aad[AAD_LEN];

static const char *const backend_name[] = { "zinc", "default", "libsodium", "libb2" };

/* True if p is the provider the job's column is about. */
static int served_by(const struct job *job, const OSSL_PROVIDER *p)
{
	const char *want = backend_name[job->col->backend];

	if (p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), want) == 0)
		return 1;
	fprintf(stderr, "bench: %s is not served by %s\n", job->col->alg, want);
	return 0;
}

/* --- what one message costs, per kind of operation ----------------------- */

static int cipher_setup(struct job *job)
{
	job->cipher = EVP_CIPHER_fetch(libctx[job->col->backend], job->col->alg, NULL);
	job->cctx = EVP_CIPHER_CTX_new();
	if (job->cipher != NULL)
		job->nonce_len = (size_t)EVP_CIPHER_get_iv_length(job->cipher);
	return job->cipher != NULL && job->cctx != NULL &&
	       served_by(job, EVP_CIPHER_get0_provider(job->cipher)) &&
	       EVP_EncryptInit_ex2(job->cctx, job->cipher, key, job->nonce, NULL);
}

/* A long stream, as `openssl speed` times it: no per-message set-up. */
static int stream_once(struct job *job)
{
	int outl;

	return EVP_EncryptUpdate(job->cctx, out, &outl, in, (int)job->len);
}

/* The next record's nonce: a sequence number in its last 8 bytes, as in TLS. */
static void next_nonce(struct job *job)
{
	uint64_t seq = ++job->seq;
	int i;

	for (i = 1; i <= 8; i++, seq >>= 8)
		job->nonce[job->nonce_len - i] = (unsigned char)seq;
}

/*
 * A TLS-like AEAD record: new nonce, 13 bytes of AAD, payload, final, tag.
 * The tag goes after the payload, where a record carries it.
 */
static int record_once(struct job *job)
{
	int outl, finl;

	next_nonce(job);
	job->res_len = job->len + TAG_LEN;
	return EVP_EncryptInit_ex(job->cctx, NULL, NULL, NULL, job->nonce) &&
	       EVP_EncryptUpdate(job->cctx, NULL, &outl, aad, AAD_LEN) &&
	       EVP_EncryptUpdate(job->cctx, out, &outl, in, (int)job->len) &&
	       EVP_EncryptFinal_ex(job->cctx, out + outl, &finl) &&
	       EVP_CIPHER_CTX_ctrl(job->cctx, EVP_CTRL_AEAD_GET_TAG, TAG_LEN, out + job->len);
}

#if OPENSSL_VERSION_NUMBER >= 0x30500000L
/* job->records records one after another, each as record_once. */
static int records_once(struct job *job)
{
	size_t i;

	for (i = 0; i < job->records; i++)
		if (!record_once(job))
			return 0;
	return 1;
}

/* Each record's output (ciphertext, then tag), for the pipelines. */
static unsigned char pipe_out[EVP_MAX_PIPES][MAX_LEN + TAG_LEN];

static int pipeline_setup(struct job *job)
{
	return cipher_setup(job) && EVP_CIPHER_can_pipeline(job->cipher, 1);
}

/*
 * job->records records in one pipeline: the same per record as
 * record_once (its own nonce, 13-byte AAD, payload, tag after it), each
 * step for all records in one call.
 */
static int pipeline_once(struct job *job)
{
	unsigned char nonce[EVP_MAX_PIPES][24], *outp[EVP_MAX_PIPES], *tagp[EVP_MAX_PIPES];
	const unsigned char *ivp[EVP_MAX_PIPES], *inp[EVP_MAX_PIPES], *aadp[EVP_MAX_PIPES];
	size_t inl[EVP_MAX_PIPES], aadl[EVP_MAX_PIPES], outl[EVP_MAX_PIPES];
	size_t outsize[EVP_MAX_PIPES], i, n = job->records;
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	void *tags = tagp;

	for (i = 0; i < n; i++) {
		next_nonce(job);
		memcpy(nonce[i], job->nonce, job->nonce_len);
		ivp[i] = nonce[i];
		inp[i] = in;
		inl[i] = job->len;
		aadp[i] = aad;
		aadl[i] = AAD_LEN;
		outp[i] = pipe_out[i];
		outsize[i] = job->len;
		tagp[i] = pipe_out[i] + job->len;
	}
	if (!EVP_CipherPipelineEncryptInit(job->cctx, NULL, key, KEY_LEN, n, ivp, job->nonce_len) ||
	    !EVP_CipherPipelineUpdate(job->cctx, NULL, outl, NULL, aadp, aadl) ||
	    !EVP_CipherPipelineUpdate(job->cctx, outp, outl, outsize, inp, inl))
		return 0;
	for (i = 0; i < n; i++)
		outp[i] += job->len;
	params[0] = OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_PIPELINE_AEAD_TAG, &tags,
						   TAG_LEN);
	return EVP_CipherPipelineFinal(job->cctx, outp, outl, outsize) &&
	       EVP_CIPHER_CTX_get_params(job->cctx, params);
}

#define PIPELINE_TABLE(title, records) \
	{ title, "records per call: one EVP_CipherPipeline call per step for all, or a " \
		 "record at a time (13-byte AAD each); each size is one record's", \
	  { { "zinc pipeline", ZINC, "ChaCha20-Poly1305", pipeline_setup, pipeline_once }, \
	    { "default one at a time", DEFAULT, "ChaCha20-Poly1305", cipher_setup, \
	      records_once }, \
	    { "zinc one at a time", ZINC, "ChaCha20-Poly1305", cipher_setup, records_once } }, \
	  NULL, records }
#endif

#if defined(HAVE_LIBSODIUM) || defined(HAVE_LIBB2)
/*
 * Does the job's column, outside OpenSSL, give the bytes zinc gives for the
 * same message (same key, nonce, AAD)?  One message each, before timing, so
 * that a wrong column is n/a rather than plotted.
 */
static int same_as_zinc(struct job *job)
{
	static unsigned char want[sizeof(out)];
	struct job ref;
	size_t n = 0;
	int ok;

	memset(&ref, 0, sizeof(ref));
	ref.col = job->ref;
	ref.len = job->len;
	ok = ref.col->backend == ZINC && ref.col->setup(&ref) && ref.col->once(&ref);
	if (ok) {
		n = ref.res_len;
		memcpy(want, out, n);
	}
	ok = ok && job->col->once(job) && job->res_len == n && memcmp(out, want, n) == 0;
	job_free(&ref);
	if (!ok)
		fprintf(stderr, "bench: %s %s differs from zinc's %s for %zu-byte messages\n",
			backend_name[job->col->backend], job->col->alg, job->ref->alg, job->len);
	return ok;
}
#endif

#ifdef HAVE_LIBSODIUM
/*
 * The same record as record_once, as close as libsodium's API allows: it has
 * no context, so each record is one call taking the key, nonce, AAD and
 * payload and giving ciphertext and tag together (detached, the tag put after
 * the payload as record_once does); there is no separate init, update, final
 * or get-tag call, and the key is loaded per record rather than kept.
 */
static int sodium_aead_setup(struct job *job)
{
	job->nonce_len = strcmp(job->col->alg, "xchacha20poly1305_ietf") == 0 ?
			 crypto_aead_xchacha20poly1305_ietf_NPUBBYTES :
			 crypto_aead_chacha20poly1305_ietf_NPUBBYTES;
	return sodium_init() >= 0 && same_as_zinc(job);
}

static int sodium_xchacha_record_once(struct job *job)
{
	next_nonce(job);
	job->res_len = job->len + TAG_LEN;
	return crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
		out, out + job->len, NULL, in, job->len, aad, AAD_LEN, NULL, job->nonce, key) == 0;
}

static int sodium_chacha_record_once(struct job *job)
{
	next_nonce(job);
	job->res_len = job->len + TAG_LEN;
	return crypto_aead_chacha20poly1305_ietf_encrypt_detached(
		out, out + job->len, NULL, in, job->len, aad, AAD_LEN, NULL, job->nonce, key) == 0;
}

static int sodium_check_setup(struct job *job)
{
	return sodium_init() >= 0 && same_as_zinc(job);
}

/* Per message, as mac_once: init with the one-time key, update, final. */
static int sodium_poly1305_once(struct job *job)
{
	crypto_onetimeauth_poly1305_state st;

	job->res_len = crypto_onetimeauth_poly1305_BYTES;
	return crypto_onetimeauth_poly1305_init(&st, key) == 0 &&
	       crypto_onetimeauth_poly1305_update(&st, in, job->len) == 0 &&
	       crypto_onetimeauth_poly1305_final(&st, out) == 0;
}

/*
 * Fixed keys, so that zinc (through EVP, raw keys) can be checked to derive
 * the same public key and the same shared secret.
 */
static int sodium_x25519_setup(struct job *job)
{
	unsigned char sk1[KEY_LEN], zpub[KEY_LEN], zshared[KEY_LEN], shared[KEY_LEN];
	EVP_PKEY *mine = NULL, *peer = NULL;
	EVP_PKEY_CTX *xctx = NULL;
	size_t i, publen = KEY_LEN, outl = KEY_LEN;
	int ok;

	for (i = 0; i < KEY_LEN; i++) {
		job->sk[i] = key[i];
		sk1[i] = (unsigned char)(key[i] ^ 0x5c);
	}
	ok = sodium_init() >= 0 && crypto_scalarmult_base(job->peer, sk1) == 0 &&
	     crypto_scalarmult(shared, job->sk, job->peer) == 0;
	mine = EVP_PKEY_new_raw_private_key_ex(libctx[ZINC], "X25519", NULL, job->sk, KEY_LEN);
	peer = EVP_PKEY_new_raw_private_key_ex(libctx[ZINC], "X25519", NULL, sk1, KEY_LEN);
	xctx = mine != NULL ? EVP_PKEY_CTX_new_from_pkey(libctx[ZINC], mine, NULL) : NULL;
	ok = ok && peer != NULL && xctx != NULL &&
	     strcmp(OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(mine)), "zinc") == 0 &&
	     EVP_PKEY_get_raw_public_key(peer, zpub, &publen) && publen == KEY_LEN &&
	     memcmp(zpub, job->peer, KEY_LEN) == 0 &&
	     EVP_PKEY_derive_init(xctx) > 0 && EVP_PKEY_derive_set_peer(xctx, peer) > 0 &&
	     EVP_PKEY_derive(xctx, zshared, &outl) > 0 && outl == KEY_LEN &&
	     memcmp(zshared, shared, KEY_LEN) == 0;
	EVP_PKEY_CTX_free(xctx);
	EVP_PKEY_free(mine);
	EVP_PKEY_free(peer);
	OPENSSL_cleanse(sk1, sizeof(sk1));
	if (!ok)
		fprintf(stderr, "bench: libsodium X25519 differs from zinc's\n");
	return ok;
}

/*
 * Row 0: crypto_scalarmult with the peer's public key; row 1: a key pair,
 * 32 random bytes and crypto_scalarmult_base, as EVP_PKEY_keygen does, but
 * without its EVP_PKEY allocation and with libsodium's randombytes_buf
 * (the system's generator) in place of OpenSSL's DRBG.
 */
static int sodium_x25519_once(struct job *job)
{
	unsigned char sk[KEY_LEN];

	if (job->len == 0)
		return crypto_scalarmult(out, job->sk, job->peer) == 0;
	randombytes_buf(sk, sizeof(sk));
	return crypto_scalarmult_base(out, sk) == 0;
}
#endif

#ifdef HAVE_LIBB2
static int b2_setup(struct job *job)
{
	return same_as_zinc(job);
}

/* One blake2s() call per message: libb2's one-shot has init, update and final in it. */
static int b2_digest_once(struct job *job)
{
	job->res_len = BLAKE2S_OUTBYTES;
	return blake2s(out, in, NULL, BLAKE2S_OUTBYTES, job->len, 0) == 0;
}

/* Keyed BLAKE2s with a 32-byte key and a 32-byte output: BLAKE2SMAC's defaults. */
static int b2_mac_once(struct job *job)
{
	job->res_len = BLAKE2S_OUTBYTES;
	return blake2s(out, in, key, BLAKE2S_OUTBYTES, job->len, KEY_LEN) == 0;
}
#endif

static int mac_setup(struct job *job)
{
	job->mac = EVP_MAC_fetch(libctx[job->col->backend], job->col->alg, NULL);
	job->mctx = job->mac != NULL ? EVP_MAC_CTX_new(job->mac) : NULL;
	return job->mctx != NULL && served_by(job, EVP_MAC_get0_provider(job->mac));
}

/* Per message: init with the key (Poly1305's is one-time), update, final. */
static int mac_once(struct job *job)
{
	return EVP_MAC_init(job->mctx, key, KEY_LEN, NULL) &&
	       EVP_MAC_update(job->mctx, in, job->len) &&
	       EVP_MAC_final(job->mctx, out, &job->res_len, sizeof(out));
}

static int digest_setup(struct job *job)
{
	job->md = EVP_MD_fetch(libctx[job->col->backend], job->col->alg, NULL);
	job->dctx = EVP_MD_CTX_new();
	return job->md != NULL && job->dctx != NULL &&
	       served_by(job, EVP_MD_get0_provider(job->md));
}

/* A whole message per call, on a reused context. */
static int digest_once(struct job *job)
{
	unsigned int outl = 0;
	int ok = EVP_DigestInit_ex2(job->dctx, job->md, NULL) &&
		 EVP_DigestUpdate(job->dctx, in, job->len) &&
		 EVP_DigestFinal_ex(job->dctx, out, &outl);

	job->res_len = outl;
	return ok;
}

/* A keygen context, and a derive context with its own key and a peer's. */
static int x25519_setup(struct job *job)
{
	OSSL_LIB_CTX *lc = libctx[job->col->backend];

	job->kctx = EVP_PKEY_CTX_new_from_name(lc, job->col->alg, NULL);
	if (job->kctx == NULL || EVP_PKEY_keygen_init(job->kctx) <= 0 ||
	    EVP_PKEY_keygen(job->kctx, &job->pkey[0]) <= 0 ||
	    EVP_PKEY_keygen(job->kctx, &job->pkey[1]) <= 0)
		return 0;
	job->xctx = EVP_PKEY_CTX_new_from_pkey(lc, job->pkey[0], NULL);
	return job->xctx != NULL && EVP_PKEY_derive_init(job->xctx) > 0 &&
	       EVP_PKEY_derive_set_peer(job->xctx, job->pkey[1]) > 0 &&
	       served_by(job, EVP_PKEY_get0_provider(job->pkey[0])) &&
	       served_by(job, EVP_PKEY_CTX_get0_provider(job->xctx));
}

/* Row 0: one EVP_PKEY_derive; row 1: one EVP_PKEY_keygen (and free). */
static int x25519_once(struct job *job)
{
	EVP_PKEY *pkey = NULL;
	size_t outl = KEY_LEN;

	if (job->len == 0)
		return EVP_PKEY_derive(job->xctx, out, &outl) > 0;
	if (EVP_PKEY_keygen(job->kctx, &pkey) <= 0)
		return 0;
	EVP_PKEY_free(pkey);
	return 1;
}

/*
 * Both peers with fresh static keys and a preshared key, everything from
 * the column's provider (wg_suite_init checks), then one handshake to see
 * that it works.
 */
static int wg_setup(struct job *job)
{
	enum backend b = job->col->backend;
	struct wg_bench *wg = calloc(1, sizeof(*wg));
	unsigned char ini_pub[KEY_LEN], resp_pub[KEY_LEN];
	EVP_PKEY *ini_key, *resp_key;
	int ok;

	job->wg = wg;
	if (wg == NULL || !wg_suite_init(&wg->suite, libctx[b], backend_name[b]))
		return 0;
	ini_key = wg_x25519_key(&wg->suite, NULL, ini_pub);
	resp_key = wg_x25519_key(&wg->suite, NULL, resp_pub);
	if (ini_key == NULL || resp_key == NULL) {
		EVP_PKEY_free(ini_key);
		EVP_PKEY_free(resp_key);
		return 0;
	}
	ok = wg_side_init(&wg->ini, &wg->suite, ini_key, resp_pub, key, 1);
	ok = wg_side_init(&wg->resp, &wg->suite, resp_key, ini_pub, key, 2) && ok;
	wg_timestamp_now(wg->timestamp);
	return ok && job->col->once(job) &&
	       memcmp(wg->ini.send_key, wg->resp.recv_key, KEY_LEN) == 0;
}

/*
 * One full handshake, both sides: the initiation made (a fresh ephemeral
 * key) and taken, the response made (another) and taken, each side's
 * session keys split off.  4 X25519 and a key generation per side.
 */
static int wg_handshake_once(struct job *job)
{
	struct wg_bench *wg = job->wg;
	unsigned char init_msg[WG_INITIATION_LEN], resp_msg[WG_RESPONSE_LEN];
	int i;

	/* A newer timestamp each time, or the responder refuses a replay. */
	for (i = WG_TIMESTAMP_LEN - 1; i >= 0 && ++wg->timestamp[i] == 0; i--)
		;
	return wg_create_initiation(&wg->ini, NULL, wg->timestamp, init_msg) &&
	       wg_consume_initiation(&wg->resp, init_msg, sizeof(init_msg)) &&
	       wg_create_response(&wg->resp, NULL, resp_msg) &&
	       wg_consume_response(&wg->ini, resp_msg, sizeof(resp_msg));
}

static void job_free(struct job *job)
{
	if (job->wg != NULL) {
		wg_side_free(&job->wg->ini);
		wg_side_free(&job->wg->resp);
		wg_suite_free(&job->wg->suite);
		free(job->wg);
	}
	EVP_CIPHER_CTX_free(job->cctx);
	EVP_CIPHER_free(job->cipher);
	EVP_MAC_CTX_free(job->mctx);
	EVP_MAC_free(job->mac);
	EVP_MD_CTX_free(job->dctx);
	EVP_MD_free(job->md);
	EVP_PKEY_CTX_free(job->kctx);
	EVP_PKEY_CTX_free(job->xctx);
	EVP_PKEY_free(job->pkey[0]);
	EVP_PKEY_free(job->pkey[1]);
	memset(job, 0, sizeof(*job));
}

/* --- the operations -------------------------------------------------------- */

static const char *const x25519_rows[] = { "derive", "keygen", NULL };
static const char *const wg_rows[] = { "full", NULL };

#define VS_DEFAULT(alg, setup, once) \
	{ { "zinc", ZINC, alg, setup, once }, { "default", DEFAULT, alg, setup, once } }
/* The same and, where installed, a third column from outside OpenSSL. */
#define VS_DEFAULT_AND(alg, setup, once, third) \
	{ { "zinc", ZINC, alg, setup, once }, { "default", DEFAULT, alg, setup, once }, third }

#ifdef HAVE_LIBSODIUM
#define SODIUM_COL(alg, setup, once) { "libsodium", SODIUM, alg, setup, once }
#else
#define SODIUM_COL(alg, setup, once) { NULL, ZINC, NULL, NULL, NULL }
#endif
#ifdef HAVE_LIBB2
#define LIBB2_COL(alg, once) { "libb2", LIBB2, alg, b2_setup, once }
#else
#define LIBB2_COL(alg, once) { NULL, ZINC, NULL, NULL, NULL }
#endif

/* test/bench.gp plots these by title: keep both in step. */
static const struct operation operations[] = {
	{ "ChaCha20", "EVP_EncryptUpdate of each message on one long stream",
	  VS_DEFAULT("ChaCha20", cipher_setup, stream_once), NULL, 0 },
	{ "ChaCha20-Poly1305 TLS-like record",
	  "per record: new nonce, 13-byte AAD, payload, final, get tag",
	  VS_DEFAULT_AND("ChaCha20-Poly1305", cipher_setup, record_once,
		     SODIUM_COL("chacha20poly1305_ietf", sodium_aead_setup,
				sodium_chacha_record_once)), NULL, 0 },
	{ "XChaCha20-Poly1305 record",
	  "the same record loop with a 24-byte nonce; OpenSSL itself has no XChaCha20",
	  { { "zinc", ZINC, "XChaCha20-Poly1305", cipher_setup, record_once },
#ifdef HAVE_LIBSODIUM
	    SODIUM_COL("xchacha20poly1305_ietf", sodium_aead_setup, sodium_xchacha_record_once),
#endif
	    { "zinc ChaCha20-Poly1305", ZINC, "ChaCha20-Poly1305", cipher_setup, record_once } },
	  NULL, 0 },
	{ "POLY1305 MAC", "per message: EVP_MAC_init with a 32-byte key, update, final",
	  VS_DEFAULT_AND("POLY1305", mac_setup, mac_once,
		     SODIUM_COL("onetimeauth_poly1305", sodium_check_setup,
				sodium_poly1305_once)), NULL, 0 },
	{ "BLAKE2SMAC", "per message: EVP_MAC_init with a 32-byte key, update, final (32 bytes)",
	  VS_DEFAULT_AND("BLAKE2SMAC", mac_setup, mac_once, LIBB2_COL("blake2s keyed", b2_mac_once)),
	  NULL, 0 },
	{ "BLAKE2S-256", "per message: EVP_DigestInit_ex2, update, final",
	  VS_DEFAULT_AND("BLAKE2S-256", digest_setup, digest_once,
			 LIBB2_COL("blake2s", b2_digest_once)),
	  NULL, 0 },
	{ "X25519",
	  "EVP_PKEY_derive with a ready context; EVP_PKEY_keygen (time and rate per operation)",
	  VS_DEFAULT_AND("X25519", x25519_setup, x25519_once,
		     SODIUM_COL("scalarmult", sodium_x25519_setup, sodium_x25519_once)),
	  x25519_rows, 0 },
	{ "WireGuard handshake",
	  "docs/examples/wg-handshake.c, initiation and response, both sides (per handshake)",
	  VS_DEFAULT("Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s", wg_setup, wg_handshake_once),
	  wg_rows, 0 },
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
	PIPELINE_TABLE("ChaCha20-Poly1305 pipeline of 1", 1),
	PIPELINE_TABLE("ChaCha20-Poly1305 pipeline of 4", 4),
	PIPELINE_TABLE("ChaCha20-Poly1305 pipeline of 16", 16),
	PIPELINE_TABLE("ChaCha20-Poly1305 pipeline of 32", 32),
#endif
};

static const size_t full_sizes[] = { 16, 64, 256, 1024, 1420, 8192, 16384 };
static const size_t quick_sizes[] = { 16, 1420, 16384 };
_Static_assert(sizeof(full_sizes) / sizeof(*full_sizes) <= MAX_ROWS, "MAX_ROWS");

/* --- timing ---------------------------------------------------------------- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * OpenSSL 3.0's default provider can return with the upper halves of the
 * vector registers dirty.  Legacy-SSE code running next (zinc's portable C
 * as the compiler emits it) then pays a penalty on every vector instruction
 * until a VZEROUPPER: measured here, 2-3 times slower.  Time every column
 * from a clean state, so that one column does not tax the next.
 */
static void clean_vector_state(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (__builtin_cpu_supports("avx"))
		__asm__ volatile("vzeroupper");
#endif
}

/* Seconds for n messages, or -1 if the operation failed. */
static double time_n(struct job *job, unsigned long n)
{
	double start;
	unsigned long i;

	clean_vector_state();
	start = now();

	for (i = 0; i < n; i++)
		if (!job->col->once(job))
			return -1;
	return now() - start;
}

/* How many messages take about `seconds`; 0 if the operation fails. */
static unsigned long calibrate(struct job *job, double seconds)
{
	unsigned long n = 1;
	double t;

	for (;;) {
		t = time_n(job, n);
		if (t < 0)
			return 0;
		if (t >= seconds / 8 || n > ULONG_MAX / 4)
			break;
		n *= 4;
	}
	n = (unsigned long)((double)n * seconds / t);
	return n > 0 ? n : 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --- tables ---------------------------------------------------------------- */

#define CELL_WIDTH 22

static int width(const struct column *col)
{
	int w = (int)strlen(col->label);

	return w > CELL_WIDTH ? w : CELL_WIDTH;
}

static void print_header(const struct operation *op, int ncols)
{
	int c;

	printf("\n%s: %s\n%6s", op->title, op->what, op->rows != NULL ? "" : "size");
	for (c = 0; c < ncols; c++)
		printf(" | %*s", width(&op->cols[c]), op->cols[c].label);
	printf(" | %s/%s\n", op->cols[0].label, op->cols[1].label);
}

/*
 * One row: every column timed in turn, `runs` times; returns 0 on a failure.
 * med gets each column's median in nanoseconds per message, -1 if n/a.
 */
static int run_row(const struct operation *op, int ncols, size_t len, int runs,
		   double seconds, double med[MAX_COLS])
{
	struct job jobs[MAX_COLS];
	unsigned long n[MAX_COLS];
	double ns[MAX_COLS][MAX_RUNS];
	int c, r, ok = 1;

	memset(jobs, 0, sizeof(jobs));
	for (c = 0; c < ncols; c++) {
		jobs[c].col = &op->cols[c];
		jobs[c].ref = &op->cols[0];
		jobs[c].len = len;
		jobs[c].records = op->records > 0 ? op->records : 1;
		n[c] = jobs[c].col->setup(&jobs[c]) ? calibrate(&jobs[c], seconds) : 0;
		ERR_clear_error();
	}
	for (r = 0; r < runs; r++) {
		for (c = 0; c < ncols; c++) {
			double t = n[c] > 0 ? time_n(&jobs[c], n[c]) : -1;

			if (t < 0)
				n[c] = 0;	/* failed: n/a */
			else
				ns[c][r] = t * 1e9 / (double)n[c];
		}
	}
	if (op->rows != NULL)
		printf("%6s", op->rows[len]);
	else
		printf("%6zu", len);
	for (c = 0; c < ncols; c++) {
		med[c] = -1;
		if (n[c] > 0)
			med[c] = median(ns[c], runs);
		if (med[c] > 0 && op->rows != NULL)
			printf(" | %*.0f ns %8.0f/s", width(&op->cols[c]) - 14, med[c], 1e9 / med[c]);
		else if (med[c] > 0)
			printf(" | %*.3f GB/s %7.0f ns", width(&op->cols[c]) - 16,
			       (double)(len * jobs[c].records) / med[c], med[c]);
		else
			printf(" | %*s", width(&op->cols[c]), "n/a");
		ok &= med[c] > 0;
	}
	if (med[0] > 0 && med[1] > 0)
		printf(" | %.2fx\n", med[1] / med[0]);
	else
		printf(" | -\n");
	fflush(stdout);
	for (c = 0; c < ncols; c++)
		job_free(&jobs[c]);
	return ok;
}

/*
 * A table's medians for test/bench.gp, one line per cell, grouped by column
 * so that each column is one run of lines (one line on the plot):
 * table, size (or row), column, backend, ns per message, MB/s (or op/s), unit.
 */
static void write_data(FILE *f, const struct operation *op, int ncols, size_t nrows,
		       const size_t *sizes, double med[][MAX_COLS])
{
	size_t s;
	int c;

	for (c = 0; c < ncols; c++)
		for (s = 0; s < nrows; s++) {
			if (med[s][c] <= 0)
				continue;
			if (op->rows != NULL)
				fprintf(f, "%s\t%s\t%s\t%s\t%.1f\t%.1f\top/s\n", op->title,
					op->rows[s], op->cols[c].label,
					backend_name[op->cols[c].backend], med[s][c], 1e9 / med[s][c]);
			else
				fprintf(f, "%s\t%zu\t%s\t%s\t%.1f\t%.2f\tMB/s\n", op->title,
					sizes[s], op->cols[c].label,
					backend_name[op->cols[c].backend], med[s][c],
					(double)sizes[s] * (double)(op->records > 0 ? op->records : 1) *
						1e3 / med[s][c]);
		}
	fflush(f);
}

/* Is the table asked for: no WORDs, or one its title contains (any case)? */
static int wanted(const struct operation *op, int argc, char **argv)
{
	const char *t;
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		for (t = op->title; *t != '\0'; t++)
			if (strncasecmp(t, argv[i], strlen(argv[i])) == 0)
				return 1;
	return 0;
}

/*
 * The default provider's context holds it alone.  zinc's is what the
 * README's openssl.cnf gives: default, then zinc, zinc preferred; default
 * supplies what zinc lacks, such as the random generator for X25519 keys.
 * Each column's setup checks that its provider serves it.
 */
static void load(enum backend b, const char *dir)
{
	libctx[b] = OSSL_LIB_CTX_new();
	if (libctx[b] == NULL ||
	    (dir != NULL && !OSSL_PROVIDER_set_default_search_path(libctx[b], dir)) ||
	    OSSL_PROVIDER_load(libctx[b], "default") == NULL ||
	    (b == ZINC && ((zinc_provider = OSSL_PROVIDER_load(libctx[b], "zinc")) == NULL ||
			   !EVP_set_default_properties(libctx[b], "?provider=zinc")))) {
		fprintf(stderr, "bench: cannot load the %s provider%s\n", backend_name[b],
			dir != NULL ? " (is ZINC_MODULE_DIR right?)" : "");
		ERR_print_errors_fp(stderr);
		exit(1);
	}
}

static double env_number(const char *name, double dflt, double min, double max)
{
	const char *s = getenv(name);
	double v;

	if (s == NULL || *s == '\0')
		return dflt;
	v = strtod(s, NULL);
	return v < min ? min : v > max ? max : v;
}

int main(int argc, char **argv)
{
	const char *quick_env = getenv("BENCH_QUICK");
	int quick = quick_env != NULL && strcmp(quick_env, "") != 0 && strcmp(quick_env, "0") != 0;
	const size_t *sizes = quick ? quick_sizes : full_sizes;
	size_t nsizes = quick ? sizeof(quick_sizes) / sizeof(*sizes) :
				sizeof(full_sizes) / sizeof(*sizes);
	int runs = (int)env_number("BENCH_RUNS", quick ? 3 : 5, 1, MAX_RUNS);
	double seconds = env_number("BENCH_SECONDS", quick ? 0.03 : 0.1, 0.001, 10);
	const char *buildinfo = NULL, *data_path = getenv("BENCH_DATA");
	double med[MAX_ROWS][MAX_COLS];
	FILE *data = NULL;
	OSSL_PARAM params[] = {
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&buildinfo, 0),
		OSSL_PARAM_END
	};
	size_t i, s;
	int c, ok = 1;

	load(ZINC, getenv("ZINC_MODULE_DIR"));
	load(DEFAULT, NULL);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i * 31 + 7);
	for (i = 0; i < KEY_LEN; i++)
		key[i] = (unsigned char)(0xa0 + i);
	memset(aad, 0x17, sizeof(aad));

	if (OSSL_PROVIDER_get_params(zinc_provider, params))
		printf("zinc: %s\n", buildinfo);
	printf("OpenSSL: %s\n", OpenSSL_version(OPENSSL_VERSION));
#ifdef HAVE_LIBSODIUM
	printf("libsodium: %s\n", sodium_version_string());
#endif
#ifdef HAVE_LIBB2
	printf("libb2: linked (BLAKE2s)\n");
#endif
	if (data_path != NULL && *data_path != '\0') {
		data = fopen(data_path, "w");
		if (data == NULL) {
			perror(data_path);
			return 1;
		}
		fprintf(data, "# zinc: %s\n# OpenSSL: %s\n", buildinfo != NULL ? buildinfo : "?",
			OpenSSL_version(OPENSSL_VERSION));
#ifdef HAVE_LIBSODIUM
		fprintf(data, "# libsodium: %s\n", sodium_version_string());
#endif
		fprintf(data, "# median of %d runs of about %.0f ms per cell\n"
			"# table\tsize\tcolumn\tbackend\tns\tthroughput\tunit\n",
			runs, seconds * 1e3);
	}
	printf("median of %d runs of about %.0f ms per cell; the ratio is speed over speed "
	       "(above 1: zinc is faster)\n", runs, seconds * 1e3);

	for (i = 0; i < sizeof(operations) / sizeof(*operations); i++) {
		const struct operation *op = &operations[i];
		int ncols = 0;

		if (!wanted(op, argc, argv))
			continue;
		for (c = 0; c < MAX_COLS && op->cols[c].label != NULL; c++)
			ncols++;
		if (ncols < 2)	/* a table compares at least two columns */
			continue;
		print_header(op, ncols);
		if (op->rows != NULL)
			for (s = 0; op->rows[s] != NULL; s++)
				ok &= run_row(op, ncols, s, runs, seconds, med[s]);
		else
			for (s = 0; s < nsizes; s++)
				ok &= run_row(op, ncols, sizes[s], runs, seconds, med[s]);
		if (data != NULL)
			write_data(data, op, ncols, s, sizes, med);
	}
	if (data != NULL && fclose(data) != 0) {
		perror(data_path);
		ok = 0;
	}
	if (!ok)
		printf("\nn/a: the provider does not have that algorithm (yet), or it failed,\n"
		       "or libsodium or libb2 gave other bytes than zinc (see the errors)\n");
	OSSL_PROVIDER_unload(zinc_provider);
	for (c = ZINC; c <= DEFAULT; c++)
		OSSL_LIB_CTX_free(libctx[c]);
	return ok ? 0 : 1;
}
