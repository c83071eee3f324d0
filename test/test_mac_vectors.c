/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Published vectors for POLY1305, BLAKE2SMAC and BLAKE2S-256 through zinc:
 * RFC 8439's Poly1305 vectors and RFC 7693's BLAKE2s("abc") (typed here, so
 * each is first checked against OpenSSL's default provider), then the shared
 * suites: the BLAKE2 reference KATs and OpenSSL's evp_test stanzas.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "testutil.h"

/* --- computing a MAC or digest in a library context ------------------------ */

struct mac_args {
	const unsigned char *key;
	size_t keylen;
	size_t size;			/* 0: the algorithm's default */
	const unsigned char *custom, *salt;	/* NULL: not set */
	size_t custom_len, salt_len;
};

/*
 * MACs in with the input split at `split` (clamped to the input), writing
 * at most outsize bytes.  Returns 0 when any step fails, leaving the error
 * queue to the caller.
 */
static int mac_run(OSSL_LIB_CTX *libctx, const char *alg, const struct mac_args *a,
		   const unsigned char *in, size_t inlen, size_t split,
		   unsigned char *out, size_t outsize, size_t *outlen)
{
	EVP_MAC *mac = EVP_MAC_fetch(libctx, alg, NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[4], *p = params;
	size_t size = a->size;
	int ok = 0;

	*outlen = 0;
	if (ctx == NULL)
		goto end;
	if (size != 0)
		*p++ = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size);
	if (a->custom != NULL)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM,
							 (void *)a->custom, a->custom_len);
	if (a->salt != NULL)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT,
							 (void *)a->salt, a->salt_len);
	*p = OSSL_PARAM_construct_end();
	if (split > inlen)
		split = inlen;
	ok = EVP_MAC_init(ctx, a->key, a->keylen, params) &&
	     EVP_MAC_update(ctx, in, split) &&
	     EVP_MAC_update(ctx, in + split, inlen - split) &&
	     EVP_MAC_final(ctx, out, outlen, outsize);
end:
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok;
}

static int digest_run(OSSL_LIB_CTX *libctx, const unsigned char *in, size_t inlen, size_t split,
		      unsigned char *out, size_t *outlen)
{
	EVP_MD *md = EVP_MD_fetch(libctx, "BLAKE2S-256", NULL);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int len = 0;
	int ok;

	if (split > inlen)
		split = inlen;
	ok = md != NULL && ctx != NULL &&
	     EVP_DigestInit_ex2(ctx, md, NULL) &&
	     EVP_DigestUpdate(ctx, in, split) &&
	     EVP_DigestUpdate(ctx, in + split, inlen - split) &&
	     EVP_DigestFinal_ex(ctx, out, &len);
	*outlen = len;
	EVP_MD_CTX_free(ctx);
	EVP_MD_free(md);
	return ok;
}

/* --- vectors typed from the RFCs ------------------------------------------ */

struct typed_mac {
	const char *what, *key, *in, *tag;	/* hex */
};

#define IETF_TEXT \
	"416e79207375626d697373696f6e20746f20746865204945544620696e74656e6465642062" \
	"792074686520436f6e7472696275746f7220666f72207075626c69636174696f6e20617320" \
	"616c6c206f722070617274206f6620616e204945544620496e7465726e65742d4472616674" \
	"206f722052464320616e6420616e792073746174656d656e74206d6164652077697468696e" \
	"2074686520636f6e74657874206f6620616e20494554462061637469766974792069732063" \
	"6f6e7369646572656420616e20224945544620436f6e747269627574696f6e222e20537563" \
	"682073746174656d656e747320696e636c756465206f72616c2073746174656d656e747320" \
	"696e20494554462073657373696f6e732c2061732077656c6c206173207772697474656e20" \
	"616e6420656c656374726f6e696320636f6d6d756e69636174696f6e73206d616465206174" \
	"20616e792074696d65206f7220706c6163652c207768696368206172652061646472657373" \
	"656420746f"

#define ZERO16 "00000000000000000000000000000000"
#define FF16 "ffffffffffffffffffffffffffffffff"

static const struct typed_mac rfc8439_poly1305[] = {
	{ "RFC 8439 2.5.2",
	  "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
	  /* "Cryptographic Forum Research Group" */
	  "43727970746f6772617068696320466f72756d2052657365617263682047726f7570",
	  "a8061dc1305136c6c22b8baf0c0127a9" },
	{ "RFC 8439 A.3 #1", ZERO16 ZERO16, ZERO16 ZERO16 ZERO16 ZERO16, ZERO16 },
	{ "RFC 8439 A.3 #2", ZERO16 "36e5f6b5c5e06070f0efca96227a863e", IETF_TEXT,
	  "36e5f6b5c5e06070f0efca96227a863e" },
	{ "RFC 8439 A.3 #3", "36e5f6b5c5e06070f0efca96227a863e" ZERO16, IETF_TEXT,
	  "f3477e7cd95417af89a6b8794c310cf0" },
	{ "RFC 8439 A.3 #4",
	  "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
	  /* the Jabberwocky's first stanza */
	  "2754776173206272696c6c69672c20616e642074686520736c6974687920746f7665730a"
	  "446964206779726520616e642067696d626c6520696e2074686520776162653a0a416c6c"
	  "206d696d737920776572652074686520626f726f676f7665732c0a416e6420746865206d"
	  "6f6d65207261746873206f757467726162652e",
	  "4541669a7eaaee61e708dc7cbcc5eb62" },
	{ "RFC 8439 A.3 #5", "02000000000000000000000000000000" ZERO16, FF16,
	  "03000000000000000000000000000000" },
	{ "RFC 8439 A.3 #6", "02000000000000000000000000000000" FF16,
	  "02000000000000000000000000000000", "03000000000000000000000000000000" },
	{ "RFC 8439 A.3 #7", "01000000000000000000000000000000" ZERO16,
	  FF16 "f0ffffffffffffffffffffffffffffff" "11000000000000000000000000000000",
	  "05000000000000000000000000000000" },
	{ "RFC 8439 A.3 #8", "01000000000000000000000000000000" ZERO16,
	  FF16 "fbfefefefefefefefefefefefefefefe" "01010101010101010101010101010101",
	  ZERO16 },
	{ "RFC 8439 A.3 #9", "02000000000000000000000000000000" ZERO16,
	  "fdffffffffffffffffffffffffffffff", "faffffffffffffffffffffffffffffff" },
	{ "RFC 8439 A.3 #10", "01000000000000000400000000000000" ZERO16,
	  "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
	  ZERO16 "01000000000000000000000000000000",
	  "14000000000000005500000000000000" },
	{ "RFC 8439 A.3 #11", "01000000000000000400000000000000" ZERO16,
	  "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000" ZERO16,
	  "13000000000000000000000000000000" },
};

static void test_typed(void)
{
	static const char rfc7693_abc[] =
		"508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982";
	unsigned char got[64], dflt[64], *want;
	size_t i, n, got_len, dflt_len, want_len;

	for (i = 0; i < sizeof(rfc8439_poly1305) / sizeof(rfc8439_poly1305[0]); i++) {
		const struct typed_mac *v = &rfc8439_poly1305[i];
		struct mac_args a = { 0 };
		unsigned char *key, *in;
		size_t inlen;

		key = zt_unhex(v->key, &a.keylen);
		in = zt_unhex(v->in, &inlen);
		want = zt_unhex(v->tag, &want_len);
		a.key = key;
		zt_ok(mac_run(zt_default_ctx(), "POLY1305", &a, in, inlen, 0, dflt, sizeof(dflt),
			      &dflt_len),
		      "%s: the default provider computes it", v->what);
		zt_mem_eq(dflt, dflt_len, want, want_len,
			  "%s: transcription agrees with the default provider", v->what);
		zt_ok(mac_run(zt_zinc_ctx(), "POLY1305", &a, in, inlen, inlen / 2, got, sizeof(got),
			      &got_len),
		      "%s: zinc computes it", v->what);
		zt_mem_eq(got, got_len, want, want_len, "%s: zinc's tag", v->what);
		free(key);
		free(in);
		free(want);
	}

	want = zt_unhex(rfc7693_abc, &want_len);
	zt_ok(digest_run(zt_default_ctx(), (const unsigned char *)"abc", 3, 0, dflt, &dflt_len),
	      "RFC 7693 B: the default provider computes BLAKE2s-256(\"abc\")");
	zt_mem_eq(dflt, dflt_len, want, want_len,
		  "RFC 7693 B: transcription agrees with the default provider");
	for (n = 0; n <= 3; n++) {
		zt_ok(digest_run(zt_zinc_ctx(), (const unsigned char *)"abc", 3, n, got, &got_len),
		      "RFC 7693 B: zinc computes it (split at %zu)", n);
		zt_mem_eq(got, got_len, want, want_len,
			  "RFC 7693 B: zinc's BLAKE2s-256(\"abc\") (split at %zu)", n);
	}
	free(want);
}

/* --- the BLAKE2 reference KATs --------------------------------------------- */

/* Compares quietly; a mismatch gets its own "not ok" line with both values. */
static int check(int ok, const unsigned char *got, size_t got_len,
		 const unsigned char *want, size_t want_len, const char *where, size_t idx)
{
	if (!ok) {
		zt_ok(0, "%s #%zu: computing failed", where, idx);
		zt_clear_errors();
		return 0;
	}
	if (got_len == want_len && memcmp(got, want, got_len) == 0)
		return 1;
	return zt_mem_eq(got, got_len, want, want_len, "%s #%zu", where, idx);
}

static void test_blake2s_kat_txt(void)
{
	char *path = zt_vector_path("blake2/testvectors/blake2s-kat.txt");
	char line[4096], in_hex[1024] = "", key_hex[256] = "";
	size_t n = 0, bad = 0;
	FILE *f;

	if (path == NULL)
		return;
	f = fopen(path, "r");
	zt_ok(f != NULL, "open %s", path);
	if (f == NULL) {
		free(path);
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		char *v = strchr(line, '\t'), *e;

		if (v == NULL)
			continue;
		v++;
		e = v + strcspn(v, "\r\n");
		*e = '\0';
		if (strncmp(line, "in:", 3) == 0) {
			snprintf(in_hex, sizeof(in_hex), "%s", v);
		} else if (strncmp(line, "key:", 4) == 0) {
			snprintf(key_hex, sizeof(key_hex), "%s", v);
		} else if (strncmp(line, "hash:", 5) == 0) {
			struct mac_args a = { 0 };
			unsigned char *key, *in, *want, got[64];
			size_t inlen, want_len, got_len = 0;
			int ok;

			key = zt_unhex(key_hex, &a.keylen);
			in = zt_unhex(in_hex, &inlen);
			want = zt_unhex(v, &want_len);
			a.key = key;
			ok = mac_run(zt_zinc_ctx(), "BLAKE2SMAC", &a, in, inlen,
				     zt_rand_below(inlen + 1), got, sizeof(got), &got_len);
			bad += !check(ok, got, got_len, want, want_len, "blake2s-kat.txt", n);
			n++;
			free(key);
			free(in);
			free(want);
		}
	}
	fclose(f);
	zt_ok(n == 256 && bad == 0, "blake2s-kat.txt: %zu keyed BLAKE2SMAC vectors, %zu wrong", n,
	      bad);
	free(path);
}

/* blake2-kat.blake2s-only.json: an array of {hash, in, key, out}. */
static void test_blake2s_kat_json(void)
{
	char *path = zt_vector_path("blake2/testvectors/blake2-kat.blake2s-only.json");
	size_t keyed = 0, unkeyed = 0, bad = 0, malformed = 0;
	const struct zt_json *obj;
	struct zt_json *json;

	if (path == NULL)
		return;
	json = zt_json_load(path);
	if (!zt_ok(json != NULL, "read %s", path)) {
		free(path);
		return;
	}
	if (json->type != ZT_JSON_ARRAY)
		malformed++;
	for (obj = json->type == ZT_JSON_ARRAY ? json->child : NULL; obj != NULL; obj = obj->next) {
		const char *hash = zt_json_str(obj, "hash");
		unsigned char *in, *key, *want, got[64];
		size_t inlen, keylen, want_len, got_len = 0;
		int ok;

		in = zt_json_hex(obj, "in", &inlen);
		key = zt_json_hex(obj, "key", &keylen);
		want = zt_json_hex(obj, "out", &want_len);
		if (hash == NULL || in == NULL || key == NULL || want == NULL ||
		    strcmp(hash, "blake2s") != 0) {
			malformed++;
			goto next;
		}
		if (keylen == 0) {
			ok = digest_run(zt_zinc_ctx(), in, inlen, zt_rand_below(inlen + 1), got,
					&got_len);
			bad += !check(ok, got, got_len, want, want_len, "blake2s json unkeyed",
				      unkeyed);
			unkeyed++;
		} else {
			struct mac_args a = { .key = key, .keylen = keylen };

			ok = mac_run(zt_zinc_ctx(), "BLAKE2SMAC", &a, in, inlen,
				     zt_rand_below(inlen + 1), got, sizeof(got), &got_len);
			bad += !check(ok, got, got_len, want, want_len, "blake2s json keyed",
				      keyed);
			keyed++;
		}
next:
		free(in);
		free(key);
		free(want);
	}
	zt_ok(unkeyed == 256 && keyed == 256 && bad == 0 && malformed == 0,
	      "blake2-kat.blake2s-only.json: %zu unkeyed BLAKE2S-256 and %zu keyed BLAKE2SMAC "
	      "vectors, %zu wrong, %zu malformed", unkeyed, keyed, bad, malformed);
	zt_json_free(json);
	free(path);
}

/* --- OpenSSL's evp_test stanzas ------------------------------------------- */

static FILE *open_stanzas(const char *relative, char **path)
{
	FILE *f;

	*path = zt_vector_path(relative);
	if (*path == NULL)
		return NULL;
	f = fopen(*path, "r");
	zt_ok(f != NULL, "open %s", *path);
	if (f == NULL) {
		free(*path);
		return NULL;
	}
	return f;
}

static void test_evpmac_poly1305(void)
{
	struct zt_stanza s = { 0 };
	size_t n = 0, bad = 0;
	char *path;
	FILE *f = open_stanzas("openssl/30-test_evp_data/evpmac_poly1305.txt", &path);

	if (f == NULL)
		return;
	while (zt_stanza_next(f, &s)) {
		const char *alg = zt_stanza_get(&s, "MAC");
		struct mac_args a = { 0 };
		unsigned char *key, *in, *want;
		size_t inlen = 0, want_len;

		if (alg == NULL || strcmp(alg, "Poly1305") != 0)
			continue;
		key = zt_stanza_bytes(&s, "Key", &a.keylen);
		in = zt_stanza_bytes(&s, "Input", &inlen);
		want = zt_stanza_bytes(&s, "Output", &want_len);
		if (key == NULL || want == NULL) {
			zt_ok(0, "evpmac_poly1305.txt line %d: no Key or Output", s.line);
			bad++;
		} else {
			unsigned char got[64];
			size_t got_len = 0;
			int ok;

			a.key = key;
			ok = mac_run(zt_zinc_ctx(), "POLY1305", &a,
				     in != NULL ? in : (unsigned char *)"", inlen,
				     zt_rand_below(inlen + 1), got, sizeof(got), &got_len);
			bad += !check(ok, got, got_len, want, want_len, "evpmac_poly1305.txt line",
				      (size_t)s.line);
		}
		n++;
		free(key);
		free(in);
		free(want);
	}
	zt_stanza_free(&s);
	fclose(f);
	zt_ok(n >= 40 && bad == 0, "evpmac_poly1305.txt: %zu Poly1305 stanzas, %zu wrong", n, bad);
	free(path);
}

static void test_evpmac_blake(void)
{
	struct zt_stanza s = { 0 };
	size_t n = 0, failures = 0, bad = 0;
	char *path;
	FILE *f = open_stanzas("openssl/30-test_evp_data/evpmac_blake.txt", &path);

	if (f == NULL)
		return;
	while (zt_stanza_next(f, &s)) {
		const char *alg = zt_stanza_get(&s, "MAC"), *ctrl = zt_stanza_get(&s, "Ctrl");
		const char *result = zt_stanza_get(&s, "Result");
		struct mac_args a = { 0 };
		unsigned char *key, *in, *want, *custom, *salt, got[64];
		size_t inlen = 0, want_len = 0, got_len = 0;
		int ok;

		if (alg == NULL || strcmp(alg, "BLAKE2SMAC") != 0)
			continue;
		n++;
		key = zt_stanza_bytes(&s, "Key", &a.keylen);
		in = zt_stanza_bytes(&s, "Input", &inlen);
		want = zt_stanza_bytes(&s, "Output", &want_len);
		custom = zt_stanza_bytes(&s, "Custom", &a.custom_len);
		salt = zt_stanza_bytes(&s, "Salt", &a.salt_len);
		a.key = key;
		a.custom = custom;
		a.salt = salt;
		if (ctrl != NULL && sscanf(ctrl, "size:%zu", &a.size) != 1) {
			zt_ok(0, "evpmac_blake.txt line %d: unknown Ctrl %s", s.line, ctrl);
			bad++;
			goto next;
		}
		ok = mac_run(zt_zinc_ctx(), "BLAKE2SMAC", &a, in != NULL ? in : (unsigned char *)"",
			     inlen, zt_rand_below(inlen + 1), got, sizeof(got), &got_len);
		if (result != NULL) {
			/* Only MAC_INIT_ERROR appears: a size beyond 32 bytes. */
			const char *reason = zt_zinc_reason();

			failures++;
			ok = !ok && reason != NULL && strcmp(reason, "invalid output size") == 0;
			if (!zt_ok(ok, "evpmac_blake.txt line %d: fails with %s (zinc: \"%s\")",
				   s.line, result, reason != NULL ? reason : "no zinc reason"))
				bad++;
		} else if (want == NULL) {
			zt_ok(0, "evpmac_blake.txt line %d: no Output", s.line);
			bad++;
		} else {
			bad += !check(ok, got, got_len, want, want_len, "evpmac_blake.txt line",
				      (size_t)s.line);
		}
next:
		free(key);
		free(in);
		free(want);
		free(custom);
		free(salt);
	}
	zt_stanza_free(&s);
	fclose(f);
	zt_ok(n >= 20 && failures >= 1 && bad == 0,
	      "evpmac_blake.txt: %zu BLAKE2SMAC stanzas (%zu expecting failure), %zu wrong", n,
	      failures, bad);
	free(path);
}

static void test_evpmd_blake(void)
{
	struct zt_stanza s = { 0 };
	size_t n = 0, bad = 0;
	char *path;
	FILE *f = open_stanzas("openssl/30-test_evp_data/evpmd_blake.txt", &path);

	if (f == NULL)
		return;
	while (zt_stanza_next(f, &s)) {
		const char *alg = zt_stanza_get(&s, "Digest");
		unsigned char *in, *want;
		size_t inlen = 0, want_len;

		if (alg == NULL || strcmp(alg, "BLAKE2s256") != 0)
			continue;
		if (zt_stanza_get(&s, "OutputSize") != NULL) {
			zt_skip("evpmd_blake.txt line %d: no OutputSize in OpenSSL 3.0's BLAKE2s256",
				s.line);
			continue;
		}
		in = zt_stanza_bytes(&s, "Input", &inlen);
		want = zt_stanza_bytes(&s, "Output", &want_len);
		if (want == NULL) {
			zt_ok(0, "evpmd_blake.txt line %d: no Output", s.line);
			bad++;
		} else {
			unsigned char got[64];
			size_t got_len = 0;
			int ok = digest_run(zt_zinc_ctx(), in != NULL ? in : (unsigned char *)"",
					    inlen, zt_rand_below(inlen + 1), got, &got_len);
			bad += !check(ok, got, got_len, want, want_len, "evpmd_blake.txt line",
				      (size_t)s.line);
		}
		n++;
		free(in);
		free(want);
	}
	zt_stanza_free(&s);
	fclose(f);
	zt_ok(n >= 5 && bad == 0, "evpmd_blake.txt: %zu BLAKE2s256 stanzas, %zu wrong", n, bad);
	free(path);
}

int main(void)
{
	test_typed();
	test_blake2s_kat_txt();
	test_blake2s_kat_json();
	test_evpmac_poly1305();
	test_evpmac_blake();
	test_evpmd_blake();
	return zt_done();
}
