/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant time at the provider layer: the calls users make through EVP
 * with zinc.so loaded, traced like test_ct_ptrace's primitives (see
 * test/ct_trace.h: every instruction and memory address, per secret set,
 * against set 0's), once per ZINC_CPU mask by test/test_ct_trace.sh.
 *
 *   X25519 private keys imported, encoded by zinc's encoders (PKCS#8 and
 *   SubjectPublicKeyInfo, DER and PEM: encode_x25519.c and its base64),
 *   and decoded by zinc's decoders (DER, and PEM to DER) from secret keys;
 *   X25519 derive; ChaCha20-Poly1305 and XChaCha20-Poly1305 decryption
 *   through EVP_DecryptFinal_ex with the right tag, and with wrong tags
 *   (wrong at a secret position by a secret difference, or in every byte).
 *
 * Only the instructions inside zinc.so's executable mapping (from
 * /proc/self/maps) are recorded and compared: libcrypto's own code runs
 * traced but unjudged, for it is not zinc's to prove (its PEM reader's
 * base64 decoding, for one, which zinc's PEM decoder calls).  A
 * difference inside zinc.so that libcrypto's code caused (an allocation
 * whose address depends on a secret) would still be reported.
 *
 *   test_ct_evp run [CASE...]   trace every case (TAP; ZINC_CT_SETS=N caps sets)
 *   test_ct_evp check           every case and set untraced: results
 *   test_ct_evp                 the same (make check)
 *   test_ct_evp cases           the cases
 *
 * Linux x86_64 with capstone (else skipped, or missing).
 */
#include "config.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "ct_cases.h"
#include "ct_fill.h"
#include "skip.h"

#if defined(__linux__) && defined(__x86_64__) && defined(HAVE_CAPSTONE)
#include "ct_trace.h"
#define CT_TRACE 1
#else
void ct_mark(void)
{
}
#endif

#define NSETS 65
#define MSGLEN 100

static OSSL_LIB_CTX *libctx;
static const char *const zprop = "provider=zinc";

static struct {
	uint8_t key[32], peer[32], nonce[24];
	uint8_t msg[MSGLEN], ct[MSGLEN], back[MSGLEN], tag[16], aad[20];
	uint8_t enc[1024];	/* an encoding to decode */
	size_t enc_len;
	uint8_t out[2048];
} b;

static uint64_t rng;

static void seed(unsigned set)
{
	rng = ct_seed(0x243f6a8885a308d3u, set);
}

static void fill(void *buf, size_t len)
{
	ct_fill(&rng, buf, len);
}

/* The secret key of set: 1 all zero, 2 all 0xff, 3 top byte 0x40; else random. */
static void fill_key(unsigned set)
{
	fill(b.key, sizeof(b.key));
	fill(b.peer, sizeof(b.peer));
	if (set == 1)
		memset(b.key, 0, sizeof(b.key));
	else if (set == 2)
		memset(b.key, 0xff, sizeof(b.key));
	else if (set == 3)
		b.key[31] = 0x40;
	b.peer[31] &= 0x7f;
}

static EVP_PKEY *import_key(void)
{
	return EVP_PKEY_new_raw_private_key_ex(libctx, "X25519", zprop, b.key, sizeof(b.key));
}

/* --- X25519: import, encode, decode, derive -------------------------------- */

static void p_x25519(const struct ct_case *c, unsigned set)
{
	(void)c;
	seed(set);
	fill_key(set);
}

static int r_import(const struct ct_case *c)
{
	EVP_PKEY *pkey;
	uint8_t raw[32];
	size_t len = sizeof(raw);
	int bad;

	(void)c;
	ct_mark();
	pkey = import_key();
	ct_mark();
	bad = pkey == NULL || !EVP_PKEY_get_raw_private_key(pkey, raw, &len) ||
	      memcmp(raw, b.key, 32) != 0;
	EVP_PKEY_free(pkey);
	return bad;
}

/* param: bit 0 PEM (else DER), bit 1 SubjectPublicKeyInfo (else PrivateKeyInfo). */
enum { ENC_PEM = 1, ENC_SPKI = 2 };

static int r_encode(const struct ct_case *c)
{
	EVP_PKEY *pkey = import_key();
	OSSL_ENCODER_CTX *ectx;
	unsigned char *out = b.out;
	size_t left = sizeof(b.out);
	int ok;

	if (pkey == NULL)
		return 1;
	ectx = OSSL_ENCODER_CTX_new_for_pkey(pkey,
					     c->param & ENC_SPKI ? EVP_PKEY_PUBLIC_KEY
								 : EVP_PKEY_KEYPAIR,
					     c->param & ENC_PEM ? "PEM" : "DER",
					     c->param & ENC_SPKI ? "SubjectPublicKeyInfo"
								 : "PrivateKeyInfo", zprop);
	if (ectx == NULL || OSSL_ENCODER_CTX_get_num_encoders(ectx) == 0) {
		OSSL_ENCODER_CTX_free(ectx);
		EVP_PKEY_free(pkey);
		return 1;
	}
	ct_mark();
	ok = OSSL_ENCODER_to_data(ectx, &out, &left);
	ct_mark();
	OSSL_ENCODER_CTX_free(ectx);
	EVP_PKEY_free(pkey);
	/* Some bytes written: PEM starts with its dashes, DER with a SEQUENCE. */
	if (!ok || left == sizeof(b.out))
		return 2;
	return b.out[0] != (c->param & ENC_PEM ? '-' : 0x30);
}

static void p_decode(const struct ct_case *c, unsigned set)
{
	EVP_PKEY *pkey;
	OSSL_ENCODER_CTX *ectx;
	unsigned char *out = b.enc;
	size_t left = sizeof(b.enc);

	p_x25519(c, set);
	b.enc_len = 0;
	pkey = import_key();
	if (pkey == NULL)
		return;
	ectx = OSSL_ENCODER_CTX_new_for_pkey(pkey, EVP_PKEY_KEYPAIR,
					     c->param & ENC_PEM ? "PEM" : "DER",
					     "PrivateKeyInfo", zprop);
	if (ectx != NULL && OSSL_ENCODER_to_data(ectx, &out, &left))
		b.enc_len = sizeof(b.enc) - left;
	OSSL_ENCODER_CTX_free(ectx);
	EVP_PKEY_free(pkey);
}

static int r_decode(const struct ct_case *c)
{
	EVP_PKEY *pkey = NULL;
	OSSL_DECODER_CTX *dctx;
	const unsigned char *in = b.enc;
	size_t left = b.enc_len;
	uint8_t raw[32];
	size_t len = sizeof(raw);
	int ok;

	if (!b.enc_len)
		return 1;
	dctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, c->param & ENC_PEM ? "PEM" : "DER",
					     "PrivateKeyInfo", "X25519", EVP_PKEY_KEYPAIR,
					     libctx, zprop);
	if (dctx == NULL)
		return 2;
	ct_mark();
	ok = OSSL_DECODER_from_data(dctx, &in, &left);
	ct_mark();
	OSSL_DECODER_CTX_free(dctx);
	ok = ok && pkey != NULL && EVP_PKEY_get_raw_private_key(pkey, raw, &len) &&
	     memcmp(raw, b.key, 32) == 0;
	EVP_PKEY_free(pkey);
	return !ok;
}

static int r_derive(const struct ct_case *c)
{
	EVP_PKEY *pkey = import_key(), *peer;
	EVP_PKEY_CTX *dctx = NULL;
	size_t len = 32;
	int ok = 0;

	(void)c;
	peer = EVP_PKEY_new_raw_public_key_ex(libctx, "X25519", zprop, b.peer, sizeof(b.peer));
	if (pkey && peer)
		dctx = EVP_PKEY_CTX_new_from_pkey(libctx, pkey, zprop);
	if (dctx && EVP_PKEY_derive_init(dctx) > 0 && EVP_PKEY_derive_set_peer(dctx, peer) > 0) {
		ct_mark();
		ok = EVP_PKEY_derive(dctx, b.out, &len);
		ct_mark();
	}
	EVP_PKEY_CTX_free(dctx);
	EVP_PKEY_free(peer);
	EVP_PKEY_free(pkey);
	/* A low-order peer fails, in every set alike: the peer is random here. */
	return ok <= 0 || len != 32;
}

/* --- AEAD: the tag check of EVP_DecryptFinal_ex ----------------------------- */

/* param: bit 0 XChaCha20-Poly1305, bit 1 a wrong tag. */
enum { AEAD_X = 1, AEAD_WRONG = 2 };

static EVP_CIPHER *aead_cipher(const struct ct_case *c)
{
	return EVP_CIPHER_fetch(libctx, c->param & AEAD_X ? "XChaCha20-Poly1305"
							  : "ChaCha20-Poly1305", zprop);
}

static size_t nonce_len(const struct ct_case *c)
{
	return c->param & AEAD_X ? 24 : 12;
}

static void p_aead(const struct ct_case *c, unsigned set)
{
	EVP_CIPHER *cipher = aead_cipher(c);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	OSSL_PARAM params[2];
	int outl = 0, fin = 0;
	uint8_t pos, flip;
	size_t i;

	seed(set);
	fill_key(set);
	fill(b.msg, sizeof(b.msg));
	fill(b.aad, sizeof(b.aad));
	memset(b.nonce, 0x5a, sizeof(b.nonce));	/* public */
	memset(b.tag, 0, sizeof(b.tag));
	params[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN,
						&(size_t){ nonce_len(c) });
	params[1] = OSSL_PARAM_construct_end();
	if (cipher && ctx && EVP_EncryptInit_ex2(ctx, cipher, NULL, NULL, params) &&
	    EVP_EncryptInit_ex2(ctx, NULL, b.key, b.nonce, NULL) &&
	    EVP_EncryptUpdate(ctx, NULL, &outl, b.aad, sizeof(b.aad)) &&
	    EVP_EncryptUpdate(ctx, b.ct, &outl, b.msg, sizeof(b.msg)) &&
	    EVP_EncryptFinal_ex(ctx, b.ct + outl, &fin))
		(void)EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, b.tag);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(cipher);
	if (!(c->param & AEAD_WRONG))
		return;
	fill(&pos, 1);
	fill(&flip, 1);
	flip |= 1;
	if (set == 1) {
		for (i = 0; i < sizeof(b.tag); i++)
			b.tag[i] ^= flip;
	} else if (set == 2) {
		b.tag[15] ^= flip;
	} else {
		b.tag[pos % 16] ^= flip;
	}
}

static int r_aead(const struct ct_case *c)
{
	EVP_CIPHER *cipher = aead_cipher(c);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	OSSL_PARAM params[2];
	int outl = 0, fin = 0, ok = 0;

	params[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN,
						&(size_t){ nonce_len(c) });
	params[1] = OSSL_PARAM_construct_end();
	if (!cipher || !ctx || !EVP_DecryptInit_ex2(ctx, cipher, NULL, NULL, params)) {
		EVP_CIPHER_CTX_free(ctx);
		EVP_CIPHER_free(cipher);
		return 1;
	}
	ct_mark();
	if (EVP_DecryptInit_ex2(ctx, NULL, b.key, b.nonce, NULL) &&
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, b.tag) &&
	    EVP_DecryptUpdate(ctx, NULL, &outl, b.aad, sizeof(b.aad)) &&
	    EVP_DecryptUpdate(ctx, b.back, &outl, b.ct, sizeof(b.ct)))
		ok = EVP_DecryptFinal_ex(ctx, b.back + outl, &fin);
	ct_mark();
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(cipher);
	ERR_clear_error();
	if (c->param & AEAD_WRONG)
		return ok != 0;
	return ok != 1 || memcmp(b.back, b.msg, sizeof(b.msg)) != 0;
}

/* --- the cases -------------------------------------------------------------- */

static const struct ct_case cases[] = {
	{ "evp-x25519-import", "evp-x25519", CT_CURVE25519, 32, NSETS, p_x25519, r_import, 0 },
	{ "evp-x25519-encode-pki-der", "evp-x25519", CT_CURVE25519, 32, NSETS, p_x25519,
	  r_encode, 0 },
	{ "evp-x25519-encode-pki-pem", "evp-x25519", CT_CURVE25519, 32, NSETS, p_x25519,
	  r_encode, ENC_PEM },
	{ "evp-x25519-encode-spki-der", "evp-x25519", CT_CURVE25519, 32, NSETS, p_x25519,
	  r_encode, ENC_SPKI },
	{ "evp-x25519-encode-spki-pem", "evp-x25519", CT_CURVE25519, 32, NSETS, p_x25519,
	  r_encode, ENC_SPKI | ENC_PEM },
	{ "evp-x25519-decode-pki-der", "evp-x25519", CT_CURVE25519, 32, NSETS, p_decode,
	  r_decode, 0 },
	{ "evp-x25519-decode-pki-pem", "evp-x25519", CT_CURVE25519, 32, NSETS, p_decode,
	  r_decode, ENC_PEM },
	{ "evp-x25519-derive", "evp-x25519", CT_CURVE25519, 32, NSETS, p_x25519, r_derive, 0 },
	{ "evp-chacha20poly1305-final-right", "evp-aead", CT_CHACHA20 | CT_POLY1305, MSGLEN,
	  NSETS, p_aead, r_aead, 0 },
	{ "evp-chacha20poly1305-final-wrong", "evp-aead", CT_CHACHA20 | CT_POLY1305, MSGLEN,
	  NSETS, p_aead, r_aead, AEAD_WRONG },
	{ "evp-xchacha20poly1305-final-right", "evp-aead", CT_CHACHA20 | CT_POLY1305, MSGLEN,
	  NSETS, p_aead, r_aead, AEAD_X },
	{ "evp-xchacha20poly1305-final-wrong", "evp-aead", CT_CHACHA20 | CT_POLY1305, MSGLEN,
	  NSETS, p_aead, r_aead, AEAD_X | AEAD_WRONG },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static const char *set_kind(const struct ct_case *c, unsigned set)
{
	static const char *const keys[] = { "reference", "key 0", "key 0xff..", "key top byte 0x40" };
	static const char *const tags[] = { "reference", "every tag byte wrong",
					    "last tag byte wrong" };

	if (c->run == r_aead && (c->param & AEAD_WRONG) && set < 3)
		return tags[set];
	if (c->run == r_aead)
		return set == 0 ? "reference" : "random";
	return set < 4 ? keys[set] : "random";
}

static bool load_zinc(void)
{
	const char *dir = getenv("ZINC_MODULE_DIR");

	libctx = OSSL_LIB_CTX_new();
	if (libctx == NULL || (dir && !OSSL_PROVIDER_set_default_search_path(libctx, dir)))
		return false;
	/* zinc alone: its decoders, not default's, must serve the decoding. */
	return OSSL_PROVIDER_load(libctx, "zinc") != NULL;
}

static int check(void)
{
	size_t k;
	unsigned set;
	int bad = 0;

	for (k = 0; k < NCASES; k++) {
		int rc = 0;

		for (set = 0; set < cases[k].nsets && !rc; set++) {
			cases[k].prepare(&cases[k], set);
			rc = cases[k].run(&cases[k]);
		}
		printf("%sok %zu - %s: %u sets give the results they expect\n", rc ? "not " : "",
		       k + 1, cases[k].name, rc ? set - 1 : cases[k].nsets);
		if (rc) {
			printf("# set %u (%s): code %d\n", set - 1, set_kind(&cases[k], set - 1), rc);
			bad++;
		}
	}
	printf("1..%zu\n", NCASES);
	return bad != 0;
}

#ifdef CT_TRACE
/* Every case, set 0, untraced: 0 if all give the results they expect. */
static int check_quiet(void)
{
	size_t k;
	int bad = 0;

	for (k = 0; k < NCASES; k++) {
		cases[k].prepare(&cases[k], 0);
		bad |= cases[k].run(&cases[k]);
	}
	return bad;
}


/* zinc.so's executable mapping, from /proc/self/maps. */
static bool zinc_text(uint64_t *lo, uint64_t *hi, char *path, size_t pathsize)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, z;
		char perms[8], file[768] = "";

		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %767s", &a, &z, perms, file) < 3)
			continue;
		if (perms[2] != 'x' || !strstr(file, "/zinc.so"))
			continue;
		*lo = a;
		*hi = z;
		snprintf(path, pathsize, "%s", file);
		found = true;
	}
	fclose(f);
	return found;
}

static int run(int argc, char **argv)
{
	char why[1024], label[160], path[768];
	uint64_t lo, hi;
	size_t k, total = 0;
	int i, n = 0, failed = 0;
	const char *cap = getenv("ZINC_CT_SETS");
	unsigned long capn = cap ? strtoul(cap, NULL, 10) : 0;

	if (!ct_trace_init(why, sizeof(why))) {
		printf("not ok 1 - %s\n1..1\n", why);
		return 1;
	}
	if (!zinc_text(&lo, &hi, path, sizeof(path))) {
		puts("not ok 1 - zinc.so's executable mapping not found in /proc/self/maps\n1..1");
		return 1;
	}
	ct_trace_filter(lo, hi);
	/*
	 * Every case once untraced first: libcrypto's caches (fetched
	 * methods, names) filled before the runs' common parent is forked,
	 * so that the traces hold the calls' work, not first-use set-up.
	 */
	if (check_quiet() != 0) {
		puts("not ok 1 - the cases' results, untraced\n1..1");
		return 1;
	}
	printf("# only the instructions inside zinc.so's code (%s, 0x%llx-0x%llx) are compared;\n"
	       "# libcrypto's own code runs traced but unjudged: it is not zinc's to prove\n",
	       path, (unsigned long long)lo, (unsigned long long)hi);
	for (k = 0; k < NCASES; k++) {
		const struct ct_case *c = &cases[k];
		struct ct_run a = { c, 0 };
		struct ct_stats st;
		enum ct_outcome o;
		unsigned nsets = capn >= 2 && capn < c->nsets ? (unsigned)capn : c->nsets;
		unsigned pairs = 0;
		size_t insns = 0, stops = 0;
		bool want = argc <= 2;

		for (i = 2; i < argc; i++)
			want |= strcmp(argv[i], c->name) == 0 || strcmp(argv[i], c->cls) == 0;
		if (!want)
			continue;
		why[0] = '\0';
		snprintf(label, sizeof(label), "%s, reference set 0", c->name);
		o = ct_trace_run(ct_run_set, &a, sizeof(a), true, label, &st, why, sizeof(why));
		insns = st.insns;
		stops = st.stops;
		if (o == CT_SAME && insns == 0) {
			o = CT_FAILED;
			snprintf(why, sizeof(why), "%s: no instruction of zinc.so ran", label);
		}
		for (a.set = 1; a.set < nsets && o == CT_SAME; a.set++) {
			snprintf(label, sizeof(label), "%s, set %u (%s)", c->name, a.set,
				 set_kind(c, a.set));
			o = ct_trace_run(ct_run_set, &a, sizeof(a), false, label, &st, why, sizeof(why));
			stops += st.stops;
			if (o == CT_SAME)
				pairs++;
		}
		total += pairs;
		n++;
		if (o == CT_SAME) {
			printf("ok %d - %s: same zinc.so instructions and memory addresses for %u "
			       "secret pairs (%zu instructions in zinc.so, %zu stops)\n", n, c->name,
			       pairs, insns, stops);
		} else {
			failed++;
			printf("not ok %d - %s: %s after %u secret pairs\n# %s\n", n, c->name,
			       o == CT_DIFFER ? "a divergence" : "the trace failed", pairs, why);
		}
		fflush(stdout);
	}
	printf("# %zu secret pairs traced in %d cases\n1..%d\n", total, n, n);
	return failed != 0;
}
#endif

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	size_t k;

	if (strcmp(mode, "cases") == 0) {
		for (k = 0; k < NCASES; k++)
			printf("%s %s %u\n", cases[k].name, cases[k].cls, cases[k].nsets);
		return 0;
	}
	/* Alone (make check): the untraced results; check-ct traces. */
	if (!*mode)
		mode = "check";
	if (strcmp(mode, "run") != 0 && strcmp(mode, "check") != 0) {
		fprintf(stderr, "usage: test_ct_evp run [CASE|CLASS...]|check|cases\n");
		return 2;
	}
	if (!load_zinc()) {
		ERR_print_errors_fp(stdout);
		puts("Bail out! cannot load zinc (is ZINC_MODULE_DIR set?)");
		return 1;
	}
	if (strcmp(mode, "check") == 0)
		return check();
#ifdef CT_TRACE
	return run(argc, argv);
#elif !defined(__linux__) || !defined(__x86_64__)
	puts("1..0 # SKIP the ptrace trace runs on Linux x86_64 only");
	return 0;
#else
	return zt_missing_all("built without capstone: no trace (install libcapstone-dev)");
#endif
}
