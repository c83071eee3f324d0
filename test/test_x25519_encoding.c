/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 encoders and decoders (provider/encode_x25519.c, decode_x25519.c),
 * with OpenSSL's default provider as the oracle:
 *  - the same algorithm tables (names, output/input, structure, parameters);
 *  - byte-identical DER, PEM and text for RFC 7748's keys and random ones,
 *    in every selection, and the same failures;
 *  - round trips both ways, keys landing in zinc when zinc decodes;
 *  - passphrase-encrypted PrivateKeyInfo, which default decrypts;
 *  - Wycheproof's DER and PEM suites (decode, then derive), deciding each
 *    result with default's as well;
 *  - malformed input (truncations, bit flips, trailing bytes, garbage):
 *    zinc never accepts what default rejects nor reads a different key, and
 *    reads every canonical encoding; with zinc's decoders tried first,
 *    everything default reads is still read;
 *  - several objects in one input, other key types passing through, and the
 *    decoder's export and the encoder's import (keys of other providers).
 *
 * OpenSSL 3.0 tries the decoders of the provider loaded last first, whatever
 * the property query, and the key lands in the decoder's provider; encoders
 * of the key's own provider come first.  So zt_preferred_ctx() (zinc, then
 * default) decodes with default's decoders, and this program also builds a
 * context loading default, then zinc, where zinc's decoders run first.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "testutil.h"

enum { KEY = 32 };

/* Default first, then zinc: zinc's decoders are tried first. */
static OSSL_LIB_CTX *zinc_last;
static OSSL_PROVIDER *zinc_last_provs[2];

static OSSL_LIB_CTX *zinc_last_ctx(void)
{
	const char *dir = getenv("ZINC_MODULE_DIR");

	if (zinc_last != NULL)
		return zinc_last;
	zinc_last = OSSL_LIB_CTX_new();
	if (zinc_last == NULL ||
	    (dir != NULL && !OSSL_PROVIDER_set_default_search_path(zinc_last, dir)) ||
	    (zinc_last_provs[0] = OSSL_PROVIDER_load(zinc_last, "default")) == NULL ||
	    (zinc_last_provs[1] = OSSL_PROVIDER_load(zinc_last, "zinc")) == NULL ||
	    !EVP_set_default_properties(zinc_last, ZT_PREFER_ZINC)) {
		printf("Bail out! cannot make a context with default, then zinc\n");
		exit(99);
	}
	return zinc_last;
}

static void free_zinc_last(void)
{
	for (int i = 1; i >= 0; i--)
		if (zinc_last_provs[i] != NULL)
			OSSL_PROVIDER_unload(zinc_last_provs[i]);
	OSSL_LIB_CTX_free(zinc_last);
}

static const char *provider_of(const EVP_PKEY *pk)
{
	return pk == NULL ? "none" : OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(pk));
}

static void *xmalloc(size_t len)
{
	void *p = malloc(len);

	if (p == NULL) {
		printf("Bail out! out of memory\n");
		exit(99);
	}
	return p;
}

/* A key from raw bytes: the private key if priv, else the public key. */
static EVP_PKEY *raw_key(OSSL_LIB_CTX *ctx, const uint8_t *priv, const uint8_t *pub)
{
	if (priv != NULL)
		return EVP_PKEY_new_raw_private_key_ex(ctx, "X25519", NULL, priv, KEY);
	return EVP_PKEY_new_raw_public_key_ex(ctx, "X25519", NULL, pub, KEY);
}

struct raw {
	bool is_x25519, has_pub, has_priv;
	uint8_t pub[KEY], priv[KEY];
};

static struct raw raw_of(const EVP_PKEY *pk)
{
	struct raw r = { 0 };
	size_t len = KEY;

	if (pk == NULL || !EVP_PKEY_is_a(pk, "X25519"))
		return r;
	r.is_x25519 = true;
	r.has_pub = EVP_PKEY_get_raw_public_key(pk, r.pub, &len) == 1 && len == KEY;
	len = KEY;
	r.has_priv = EVP_PKEY_get_raw_private_key(pk, r.priv, &len) == 1 && len == KEY;
	ERR_clear_error();
	return r;
}

static bool raw_eq(const EVP_PKEY *a, const EVP_PKEY *b)
{
	struct raw x = raw_of(a), y = raw_of(b);

	return x.is_x25519 && y.is_x25519 && x.has_pub == y.has_pub && x.has_priv == y.has_priv &&
	       memcmp(x.pub, y.pub, KEY) == 0 && memcmp(x.priv, y.priv, KEY) == 0;
}

/* Encodes through OSSL_ENCODER_CTX_new_for_pkey; 0 leaves *out NULL. */
static int encode(const EVP_PKEY *pk, int selection, const char *type, const char *structure,
		  const char *cipher, const char *pass, unsigned char **out, size_t *len)
{
	OSSL_ENCODER_CTX *e = OSSL_ENCODER_CTX_new_for_pkey(pk, selection, type, structure, NULL);
	int ok = e != NULL && OSSL_ENCODER_CTX_get_num_encoders(e) > 0;

	*out = NULL;
	*len = 0;
	if (ok && cipher != NULL)
		ok = OSSL_ENCODER_CTX_set_cipher(e, cipher, NULL) &&
		     OSSL_ENCODER_CTX_set_passphrase(e, (const unsigned char *)pass, strlen(pass));
	if (ok)
		ok = OSSL_ENCODER_to_data(e, out, len);
	OSSL_ENCODER_CTX_free(e);
	if (!ok) {
		OPENSSL_free(*out);
		*out = NULL;
		*len = 0;
	}
	return ok;
}

/* Decodes one object; *left gets the bytes after it. */
static EVP_PKEY *decode(OSSL_LIB_CTX *ctx, const char *propq, const char *type,
			const char *structure, const char *keytype, int selection, const char *pass,
			const unsigned char *in, size_t len, size_t *left)
{
	EVP_PKEY *pk = NULL;
	OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&pk, type, structure, keytype,
							    selection, ctx, propq);
	const unsigned char *p = in;
	size_t l = len;

	if (d != NULL && pass != NULL)
		OSSL_DECODER_CTX_set_passphrase(d, (const unsigned char *)pass, strlen(pass));
	if (d == NULL || !OSSL_DECODER_from_data(d, &p, &l)) {
		EVP_PKEY_free(pk);
		pk = NULL;
	}
	if (left != NULL)
		*left = l;
	OSSL_DECODER_CTX_free(d);
	return pk;
}

/* Without hints: type (or NULL), any structure and key type, any part. */
static EVP_PKEY *decode_any(OSSL_LIB_CTX *ctx, const char *type, const unsigned char *in,
			    size_t len, size_t *left)
{
	return decode(ctx, NULL, type, NULL, NULL, 0, NULL, in, len, left);
}

/* The shared secret of priv and peer in ctx; 0 if refused. */
static int derive(OSSL_LIB_CTX *ctx, EVP_PKEY *priv, EVP_PKEY *peer, uint8_t out[KEY])
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(ctx, priv, NULL);
	size_t len = KEY;
	int ok = c != NULL && EVP_PKEY_derive_init(c) == 1 && EVP_PKEY_derive_set_peer(c, peer) == 1 &&
		 EVP_PKEY_derive(c, out, &len) == 1 && len == KEY;

	EVP_PKEY_CTX_free(c);
	return ok;
}

/* --- algorithm tables ---------------------------------------------------------- */

/* The property string without provider=, fips= and zinc.*, for comparing tables. */
static void strip_props(char *out, size_t size, const char *props)
{
	const char *p = props;

	*out = '\0';
	while (*p != '\0') {
		size_t n = strcspn(p, ",");

		if (strncmp(p, "provider=", 9) != 0 && strncmp(p, "fips=", 5) != 0 &&
		    strncmp(p, "zinc.", 5) != 0) {
			if (*out != '\0')
				strncat(out, ",", size - strlen(out) - 1);
			strncat(out, p, n < size - strlen(out) - 1 ? n : size - strlen(out) - 1);
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

struct table {
	char entry[32][160];
	size_t n;
	const char *provider;
};

static void settable_names(char *out, size_t size, const OSSL_PARAM *params)
{
	*out = '\0';
	for (; params != NULL && params->key != NULL; params++) {
		strncat(out, " ", size - strlen(out) - 1);
		strncat(out, params->key, size - strlen(out) - 1);
	}
}

static void collect_encoder(OSSL_ENCODER *enc, void *arg)
{
	struct table *t = arg;
	char props[128], params[64];

	if (!OSSL_ENCODER_is_a(enc, "X25519") || t->n == 32 ||
	    strcmp(OSSL_PROVIDER_get0_name(OSSL_ENCODER_get0_provider(enc)), t->provider) != 0)
		return;
	strip_props(props, sizeof(props), OSSL_ENCODER_get0_properties(enc));
	settable_names(params, sizeof(params), OSSL_ENCODER_settable_ctx_params(enc));
	snprintf(t->entry[t->n++], sizeof(t->entry[0]), "%s; settable:%s", props, params);
}

static void collect_decoder(OSSL_DECODER *dec, void *arg)
{
	struct table *t = arg;
	char props[128];

	if ((!OSSL_DECODER_is_a(dec, "X25519") && !OSSL_DECODER_is_a(dec, "DER")) || t->n == 32 ||
	    strcmp(OSSL_PROVIDER_get0_name(OSSL_DECODER_get0_provider(dec)), t->provider) != 0)
		return;
	strip_props(props, sizeof(props), OSSL_DECODER_get0_properties(dec));
	snprintf(t->entry[t->n++], sizeof(t->entry[0]), "%s %s",
		 OSSL_DECODER_is_a(dec, "DER") ? "DER" : "X25519", props);
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(a, b);
}

static bool has_entry(const struct table *t, const char *entry)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->entry[i], entry) == 0)
			return true;
	return false;
}

static void test_tables(void)
{
	struct table z = { .provider = "zinc" }, d = { .provider = "default" };
	bool same;

	OSSL_ENCODER_do_all_provided(zt_zinc_ctx(), collect_encoder, &z);
	OSSL_ENCODER_do_all_provided(zt_default_ctx(), collect_encoder, &d);
	qsort(z.entry, z.n, sizeof(z.entry[0]), cmp_entry);
	qsort(d.entry, d.n, sizeof(d.entry[0]), cmp_entry);
	same = z.n == d.n && z.n == 7;
	for (size_t i = 0; same && i < z.n; i++)
		same = strcmp(z.entry[i], d.entry[i]) == 0;
	if (!zt_ok(same, "encoders: zinc's %zu X25519 encoders are default's "
		   "(output, structure, settable)", z.n))
		for (size_t i = 0; i < z.n || i < d.n; i++)
			zt_diag("zinc [%s] default [%s]", i < z.n ? z.entry[i] : "",
				i < d.n ? d.entry[i] : "");

	z.n = d.n = 0;
	OSSL_DECODER_do_all_provided(zt_zinc_ctx(), collect_decoder, &z);
	OSSL_DECODER_do_all_provided(zt_default_ctx(), collect_decoder, &d);
	zt_ok(z.n == 3 && has_entry(&d, "X25519 input=der,structure=PrivateKeyInfo") &&
	      has_entry(&z, "X25519 input=der,structure=PrivateKeyInfo") &&
	      has_entry(&d, "X25519 input=der,structure=SubjectPublicKeyInfo") &&
	      has_entry(&z, "X25519 input=der,structure=SubjectPublicKeyInfo") &&
	      has_entry(&d, "DER input=pem") && has_entry(&z, "DER input=pem"),
	      "decoders: zinc has default's two X25519 DER decoders and a PEM to DER one");
}

/* --- encoding: byte equality with default ------------------------------------------- */

static const int selections[] = {
	OSSL_KEYMGMT_SELECT_PRIVATE_KEY, OSSL_KEYMGMT_SELECT_PUBLIC_KEY, OSSL_KEYMGMT_SELECT_KEYPAIR,
	EVP_PKEY_KEYPAIR, EVP_PKEY_PUBLIC_KEY, OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS,
	OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS, OSSL_KEYMGMT_SELECT_ALL
};
static const char *const out_types[] = { "DER", "PEM", "TEXT" };
static const char *const structures[] = {
	"SubjectPublicKeyInfo", "PrivateKeyInfo", "EncryptedPrivateKeyInfo", "type-specific", NULL
};

/*
 * Every selection, output and structure: zinc (alone) and default succeed
 * or fail together, with the same bytes.  Returns the number that succeed.
 */
static size_t compare_all_encodings(EVP_PKEY *zk, EVP_PKEY *dk, const char *label)
{
	size_t ok = 0, bad = 0;

	for (size_t s = 0; s < sizeof(selections) / sizeof(selections[0]); s++) {
		for (size_t t = 0; t < 3; t++) {
			for (size_t u = 0; u < sizeof(structures) / sizeof(structures[0]); u++) {
				const char *st = t == 2 ? NULL : structures[u];
				unsigned char *zo, *dout;
				size_t zl, dl;
				int zr, dr;

				if (t == 2 && u > 0)
					break;
				zr = encode(zk, selections[s], out_types[t], st, NULL, NULL,
					    &zo, &zl);
				dr = encode(dk, selections[s], out_types[t], st, NULL, NULL,
					    &dout, &dl);
				ERR_clear_error();
				if (zr != dr || zl != dl || (zl > 0 && memcmp(zo, dout, zl) != 0)) {
					zt_diag("%s: selection %#x %s %s: zinc %s (%zu), "
						"default %s (%zu)", label, selections[s],
						out_types[t], st ? st : "-", zr ? "ok" : "fails",
						zl, dr ? "ok" : "fails", dl);
					bad++;
				}
				ok += zr && dr;
				OPENSSL_free(zo);
				OPENSSL_free(dout);
			}
		}
	}
	zt_ok(bad == 0 && ok > 0,
	      "%s: %zu encodings as default's, byte for byte, and the same failures", label, ok);
	return ok;
}

static const char rfc_alice_priv[] = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
static const char rfc_alice_pub[] = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
static const char rfc_bob_priv[] = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
static const char rfc_bob_pub[] = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";
static const char rfc_shared[] = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";

/* RFC 8410's structures for RFC 7748's Alice, written out. */
static void test_known_answers(void)
{
	uint8_t priv[KEY], pub[KEY], spki[44], pki[48], bob_priv[KEY], bob_pub[KEY], shared[KEY];
	uint8_t got[KEY];
	static const char pem_pub[] =
		"-----BEGIN PUBLIC KEY-----\n"
		"MCowBQYDK2VuAyEAhSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=\n"
		"-----END PUBLIC KEY-----\n";
	/* OpenSSL 3.x prints 15 bytes a line, 4.0 16. */
	static const char text_priv_3[] =
		"X25519 Private-Key:\n"
		"priv:\n"
		"    77:07:6d:0a:73:18:a5:7d:3c:16:c1:72:51:b2:66:\n"
		"    45:df:4c:2f:87:eb:c0:99:2a:b1:77:fb:a5:1d:b9:\n"
		"    2c:2a\n"
		"pub:\n"
		"    85:20:f0:09:89:30:a7:54:74:8b:7d:dc:b4:3e:f7:\n"
		"    5a:0d:bf:3a:0d:26:38:1a:f4:eb:a4:a9:8e:aa:9b:\n"
		"    4e:6a\n";
	static const char text_priv_4[] =
		"X25519 Private-Key:\n"
		"priv:\n"
		"    77:07:6d:0a:73:18:a5:7d:3c:16:c1:72:51:b2:66:45:\n"
		"    df:4c:2f:87:eb:c0:99:2a:b1:77:fb:a5:1d:b9:2c:2a\n"
		"pub:\n"
		"    85:20:f0:09:89:30:a7:54:74:8b:7d:dc:b4:3e:f7:5a:\n"
		"    0d:bf:3a:0d:26:38:1a:f4:eb:a4:a9:8e:aa:9b:4e:6a\n";
	const char *text_priv = zt_openssl_at_least(4, 0) ? text_priv_4 : text_priv_3;
	EVP_PKEY *alice, *bob, *peer;
	unsigned char *out;
	size_t len;

	zt_unhex_exact(priv, KEY, rfc_alice_priv);
	zt_unhex_exact(pub, KEY, rfc_alice_pub);
	zt_unhex_exact(bob_priv, KEY, rfc_bob_priv);
	zt_unhex_exact(shared, KEY, rfc_shared);
	zt_unhex_exact(spki, 12, "302a300506032b656e032100");
	memcpy(spki + 12, pub, KEY);
	zt_unhex_exact(pki, 16, "302e020100300506032b656e04220420");
	memcpy(pki + 16, priv, KEY);

	alice = raw_key(zt_zinc_ctx(), priv, NULL);
	zt_ok(alice != NULL && strcmp(provider_of(alice), "zinc") == 0, "RFC 7748 Alice: a zinc key");
	encode(alice, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo", NULL, NULL, &out, &len);
	zt_mem_eq(out, len, spki, sizeof(spki), "RFC 7748 Alice: DER SubjectPublicKeyInfo (RFC 8410)");
	OPENSSL_free(out);
	encode(alice, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", NULL, NULL, &out, &len);
	zt_mem_eq(out, len, pki, sizeof(pki), "RFC 7748 Alice: DER PrivateKeyInfo (RFC 8410)");
	OPENSSL_free(out);
	encode(alice, EVP_PKEY_PUBLIC_KEY, "PEM", "SubjectPublicKeyInfo", NULL, NULL, &out, &len);
	zt_mem_eq(out, len, pem_pub, strlen(pem_pub), "RFC 7748 Alice: PEM public key");
	OPENSSL_free(out);
	encode(alice, EVP_PKEY_KEYPAIR, "TEXT", NULL, NULL, NULL, &out, &len);
	zt_mem_eq(out, len, text_priv, strlen(text_priv), "RFC 7748 Alice: text");
	OPENSSL_free(out);

	/* Decoded by zinc alone, the keys agree on RFC 7748's shared secret. */
	bob = raw_key(zt_zinc_ctx(), bob_priv, NULL);
	encode(bob, EVP_PKEY_PUBLIC_KEY, "PEM", "SubjectPublicKeyInfo", NULL, NULL, &out, &len);
	peer = decode_any(zt_zinc_ctx(), NULL, out, len, NULL);
	OPENSSL_free(out);
	EVP_PKEY_free(alice);
	alice = decode(zt_zinc_ctx(), NULL, "DER", NULL, "X25519", EVP_PKEY_KEYPAIR, NULL, pki,
		       sizeof(pki), NULL);
	zt_unhex_exact(bob_pub, KEY, rfc_bob_pub);
	zt_ok(peer != NULL && memcmp(raw_of(peer).pub, bob_pub, KEY) == 0,
	      "RFC 7748 Bob: PEM public key read back by zinc alone");
	zt_ok(alice != NULL && peer != NULL && strcmp(provider_of(alice), "zinc") == 0 &&
	      strcmp(provider_of(peer), "zinc") == 0 && derive(zt_zinc_ctx(), alice, peer, got) &&
	      memcmp(got, shared, KEY) == 0,
	      "RFC 7748 6.1: keys decoded by zinc alone derive the shared secret");
	EVP_PKEY_free(alice);
	EVP_PKEY_free(bob);
	EVP_PKEY_free(peer);
}

/* The private keys the encoding tests use: RFC 7748's, edge cases, random ones. */
static size_t test_keys(uint8_t keys[][KEY], size_t max)
{
	size_t n = 0;

	zt_unhex_exact(keys[n++], KEY, rfc_alice_priv);
	zt_unhex_exact(keys[n++], KEY, rfc_bob_priv);
	memset(keys[n++], 0, KEY);
	memset(keys[n++], 0xff, KEY);
	while (n < max)
		zt_rand(keys[n++], KEY);	/* unclamped: kept as given */
	return n;
}

static void test_encodings(void)
{
	uint8_t keys[24][KEY];
	size_t n = test_keys(keys, 24), total = 0;

	for (size_t i = 0; i < n; i++) {
		EVP_PKEY *zk = raw_key(zt_zinc_ctx(), keys[i], NULL);
		EVP_PKEY *dk = raw_key(zt_default_ctx(), keys[i], NULL);
		struct raw r = raw_of(dk);
		EVP_PKEY *zp = raw_key(zt_zinc_ctx(), NULL, r.pub);
		EVP_PKEY *dp = raw_key(zt_default_ctx(), NULL, r.pub);
		char label[64];

		if (!zt_ok(zk && dk && zp && dp && strcmp(provider_of(zk), "zinc") == 0 &&
			   strcmp(provider_of(zp), "zinc") == 0,
			   "key %zu: made in both providers", i)) {
			EVP_PKEY_free(zk);
			EVP_PKEY_free(dk);
			EVP_PKEY_free(zp);
			EVP_PKEY_free(dp);
			continue;
		}
		snprintf(label, sizeof(label), "key %zu, key pair", i);
		total += compare_all_encodings(zk, dk, label);
		snprintf(label, sizeof(label), "key %zu, public key only", i);
		total += compare_all_encodings(zp, dp, label);
		EVP_PKEY_free(zk);
		EVP_PKEY_free(dk);
		EVP_PKEY_free(zp);
		EVP_PKEY_free(dp);
	}
	zt_diag("%zu encodings compared", total);

	/* A key zinc generated, encoded by zinc and by default after import. */
	{
		EVP_PKEY *zk = EVP_PKEY_Q_keygen(zt_zinc_ctx(), NULL, "X25519");
		struct raw r = raw_of(zk);
		EVP_PKEY *dk = r.has_priv ? raw_key(zt_default_ctx(), r.priv, NULL) : NULL;

		zt_ok(zk != NULL && dk != NULL, "a key generated by zinc");
		if (zk != NULL && dk != NULL)
			compare_all_encodings(zk, dk, "generated key");
		EVP_PKEY_free(zk);
		EVP_PKEY_free(dk);
	}
}

/* --- decoding: round trips ------------------------------------------------------ */

struct format {
	const char *type, *structure;
	int selection;
	bool priv;
};

static const struct format formats[] = {
	{ "DER", "SubjectPublicKeyInfo", EVP_PKEY_PUBLIC_KEY, false },
	{ "PEM", "SubjectPublicKeyInfo", EVP_PKEY_PUBLIC_KEY, false },
	{ "DER", "PrivateKeyInfo", EVP_PKEY_KEYPAIR, true },
	{ "PEM", "PrivateKeyInfo", EVP_PKEY_KEYPAIR, true },
};

/* One encoding decoded in ctx, four ways: with and without hints, each must give want. */
static int decodes_to(OSSL_LIB_CTX *ctx, const char *propq, const struct format *f,
		      const unsigned char *in, size_t len, const EVP_PKEY *want,
		      const char *want_provider)
{
	const char *keytypes[] = { "X25519", NULL };
	int good = 1;

	for (int hint = 0; hint < 4; hint++) {
		size_t left = 1;
		EVP_PKEY *pk = decode(ctx, propq, hint & 1 ? NULL : f->type,
				      hint & 1 ? NULL : f->structure, keytypes[hint >> 1],
				      hint & 1 ? 0 : f->selection, NULL, in, len, &left);

		if (pk == NULL || left != 0 || !raw_eq(pk, want) ||
		    (want_provider != NULL && strcmp(provider_of(pk), want_provider) != 0)) {
			zt_diag("%s %s (hints %d): %s, in %s", f->type, f->structure, hint,
				pk == NULL ? "not decoded" : "wrong key", provider_of(pk));
			good = 0;
		}
		EVP_PKEY_free(pk);
	}
	zt_clear_errors();
	return good;
}

static void test_round_trips(void)
{
	static const char ZINC[] = "provider=zinc";
	uint8_t keys[8][KEY];
	size_t n = test_keys(keys, 8);

	for (size_t i = 0; i < n; i++) {
		EVP_PKEY *zk = raw_key(zt_zinc_ctx(), keys[i], NULL);
		EVP_PKEY *dk = raw_key(zt_default_ctx(), keys[i], NULL);
		struct raw r = raw_of(dk);
		EVP_PKEY *dp = raw_key(zt_default_ctx(), NULL, r.pub);

		for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
			const struct format *fm = &formats[f];
			const EVP_PKEY *want = fm->priv ? dk : dp;
			unsigned char *zo, *dout;
			size_t zl, dl;

			encode(zk, fm->selection, fm->type, fm->structure, NULL, NULL, &zo, &zl);
			encode(dk, fm->selection, fm->type, fm->structure, NULL, NULL, &dout, &dl);
			zt_ok(zo != NULL &&
			      decodes_to(zt_default_ctx(), NULL, fm, zo, zl, want, "default"),
			      "key %zu: default decodes zinc's %s %s", i, fm->type, fm->structure);
			zt_ok(dout != NULL &&
			      decodes_to(zt_zinc_ctx(), ZINC, fm, dout, dl, want, "zinc"),
			      "key %zu: zinc alone decodes default's %s %s (%s), into a zinc key",
			      i, fm->type, fm->structure, ZINC);
			zt_ok(dout != NULL &&
			      decodes_to(zinc_last_ctx(), ZINC, fm, dout, dl, want, "zinc"),
			      "key %zu: default then zinc loaded: zinc decodes %s %s (%s)", i,
			      fm->type, fm->structure, ZINC);
			/* 3.0 ignores the query here: default's decoders run first. */
			zt_ok(dout != NULL &&
			      decodes_to(zt_preferred_ctx(), ZINC, fm, dout, dl, want, NULL),
			      "key %zu: zinc then default loaded: %s %s decodes (%s)", i,
			      fm->type, fm->structure, ZINC);
			if (i == 0 && f == 0) {
				EVP_PKEY *pk = decode(zt_preferred_ctx(), ZINC, NULL, NULL, NULL, 0,
						      NULL, dout, dl, NULL);

				zt_diag("zinc then default loaded, %s: the key lands in %s", ZINC,
					provider_of(pk));
				EVP_PKEY_free(pk);
			}
			OPENSSL_free(zo);
			OPENSSL_free(dout);
		}
		EVP_PKEY_free(zk);
		EVP_PKEY_free(dk);
		EVP_PKEY_free(dp);
	}
}

/* Bytes after the object are left for the caller, as default leaves them. */
static void test_trailing_and_sequences(void)
{
	static const unsigned char more[3] = { 0x30, 0x00, 0x01 };	/* an empty SEQUENCE, a byte */
	uint8_t priv[KEY];
	EVP_PKEY *dk, *ec;
	unsigned char *spki, *pki, *pem_pub, *pem_priv, *ec_pem, *all;
	size_t spki_len, pki_len, pub_len, priv_len, ec_len, all_len, left_z, left_d;

	zt_rand(priv, KEY);
	dk = raw_key(zt_default_ctx(), priv, NULL);
	ec = EVP_PKEY_Q_keygen(zt_default_ctx(), NULL, "EC", "P-256");
	encode(dk, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo", NULL, NULL, &spki, &spki_len);
	encode(dk, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", NULL, NULL, &pki, &pki_len);
	encode(dk, EVP_PKEY_PUBLIC_KEY, "PEM", "SubjectPublicKeyInfo", NULL, NULL, &pem_pub, &pub_len);
	encode(dk, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo", NULL, NULL, &pem_priv, &priv_len);
	encode(ec, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo", NULL, NULL, &ec_pem, &ec_len);
	if (!zt_ok(spki && pki && pem_pub && pem_priv && ec_pem, "encodings for the sequence tests"))
		goto out;

	/* DER followed by more bytes. */
	all = xmalloc(pki_len + 3);
	memcpy(all, pki, pki_len);
	memcpy(all + pki_len, more, 3);
	{
		EVP_PKEY *z = decode_any(zt_zinc_ctx(), "DER", all, pki_len + 3, &left_z);
		EVP_PKEY *d = decode_any(zt_default_ctx(), "DER", all, pki_len + 3,
				     &left_d);

		zt_ok(z != NULL && d != NULL && raw_eq(z, d) && left_z == 3 && left_d == 3,
		      "DER PrivateKeyInfo and 3 more bytes: both read the key and leave the 3 bytes");
		EVP_PKEY_free(z);
		EVP_PKEY_free(d);
	}
	free(all);

	/* PEM: public, an EC key, private; read one after another. */
	all_len = pub_len + ec_len + priv_len;
	all = xmalloc(all_len);
	memcpy(all, pem_pub, pub_len);
	memcpy(all + pub_len, ec_pem, ec_len);
	memcpy(all + pub_len + ec_len, pem_priv, priv_len);
	{
		OSSL_LIB_CTX *ctxs[] = { zt_default_ctx(), zinc_last_ctx(), zt_preferred_ctx() };
		const char *names[] = { "default", "default then zinc", "zinc then default" };

		for (size_t c = 0; c < 3; c++) {
			EVP_PKEY *a = decode_any(ctxs[c], "PEM", all, all_len, &left_d);
			EVP_PKEY *b = decode_any(ctxs[c], "PEM", all + pub_len,
					     ec_len + priv_len, &left_z);
			EVP_PKEY *k = decode(ctxs[c], NULL, "PEM", NULL, NULL, 0, NULL,
					     all + pub_len + ec_len, priv_len, NULL);

			zt_ok(a != NULL && raw_of(a).has_pub && !raw_of(a).has_priv &&
			      left_d == ec_len + priv_len && b != NULL && EVP_PKEY_is_a(b, "EC") &&
			      EVP_PKEY_eq(b, ec) == 1 && left_z == priv_len && k != NULL &&
			      raw_eq(k, dk), "%s: PEM public, EC and private keys read in turn",
			      names[c]);
			EVP_PKEY_free(a);
			EVP_PKEY_free(b);
			EVP_PKEY_free(k);
		}
		/* zinc alone reads X25519 blocks one at a time and no other key type. */
		{
			EVP_PKEY *a = decode_any(zt_zinc_ctx(), "PEM", all, all_len,
					     &left_z);
			EVP_PKEY *b = decode_any(zt_zinc_ctx(), "PEM", all + pub_len,
					     ec_len + priv_len, NULL);

			zt_ok(a != NULL && left_z == ec_len + priv_len && b == NULL,
			      "zinc alone: the first PEM block read, the EC key refused");
			EVP_PKEY_free(a);
			EVP_PKEY_free(b);
			ERR_clear_error();
		}
	}
	free(all);
out:
	OPENSSL_free(spki);
	OPENSSL_free(pki);
	OPENSSL_free(pem_pub);
	OPENSSL_free(pem_priv);
	OPENSSL_free(ec_pem);
	EVP_PKEY_free(dk);
	EVP_PKEY_free(ec);
	ERR_clear_error();
}

/* Other key types go through when zinc's decoders are tried first. */
static void test_other_types(void)
{
	EVP_PKEY *keys[2] = {
		EVP_PKEY_Q_keygen(zt_default_ctx(), NULL, "EC", "P-256"),
		EVP_PKEY_Q_keygen(zt_default_ctx(), NULL, "ED25519"),
	};

	for (size_t k = 0; k < 2; k++) {
		for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
			unsigned char *out;
			size_t len;
			EVP_PKEY *got, *alone;

			encode(keys[k], formats[f].selection, formats[f].type, formats[f].structure,
			       NULL, NULL, &out, &len);
			got = decode_any(zinc_last_ctx(), NULL, out, len, NULL);
			alone = decode_any(zt_zinc_ctx(), NULL, out, len, NULL);
			zt_ok(out != NULL && got != NULL && EVP_PKEY_eq(got, keys[k]) == 1 &&
			      alone == NULL,
			      "%s %s %s: decoded with default then zinc loaded, refused by zinc alone",
			      EVP_PKEY_get0_type_name(keys[k]), formats[f].type, formats[f].structure);
			EVP_PKEY_free(got);
			EVP_PKEY_free(alone);
			OPENSSL_free(out);
			ERR_clear_error();
		}
		EVP_PKEY_free(keys[k]);
	}
}

/* --- passphrase-encrypted PrivateKeyInfo ------------------------------------------ */

static void test_encrypted(void)
{
	static const char PASS[] = "zinc pass";
	uint8_t priv[KEY];
	EVP_PKEY *dk, *zk, *zalone, *back;
	unsigned char *out, *dout;
	size_t len, dlen;
	const char *reason;

	zt_rand(priv, KEY);
	dk = raw_key(zt_default_ctx(), priv, NULL);
	zk = raw_key(zinc_last_ctx(), priv, NULL);
	zalone = raw_key(zt_zinc_ctx(), priv, NULL);
	zt_ok(zk != NULL && strcmp(provider_of(zk), "zinc") == 0, "a zinc key beside default");

	for (int pem = 0; pem < 2; pem++) {
		const char *type = pem ? "PEM" : "DER";

		for (int epki = 0; epki < 2; epki++) {
			const char *st = epki ? "EncryptedPrivateKeyInfo" : "PrivateKeyInfo";

			encode(zk, EVP_PKEY_KEYPAIR, type, st, "AES-256-CBC", PASS, &out, &len);
			encode(dk, EVP_PKEY_KEYPAIR, type, st, "AES-256-CBC", PASS, &dout, &dlen);
			back = decode(zt_default_ctx(), NULL, type, NULL, NULL, EVP_PKEY_KEYPAIR, PASS,
				      out, len, NULL);
			/* Salt and IV are random: the same structure and size, not bytes. */
			zt_ok(out != NULL && dout != NULL && len == dlen &&
			      (!pem || strncmp((char *)out, "-----BEGIN ENCRYPTED PRIVATE KEY-----\n",
					       38) == 0) &&
			      back != NULL && raw_eq(back, dk),
			      "%s %s with AES-256-CBC: encrypted as default's (%zu bytes), "
			      "default decrypts it", type, st, len);
			EVP_PKEY_free(back);
			back = decode(zinc_last_ctx(), NULL, type, NULL, NULL, EVP_PKEY_KEYPAIR, PASS,
				      dout, dlen, NULL);
			zt_ok(back != NULL && raw_eq(back, dk) &&
			      strcmp(provider_of(back), "zinc") == 0,
			      "%s %s: default's encrypted key decrypted by default, decoded by zinc",
			      type, st);
			EVP_PKEY_free(back);
			back = decode(zt_default_ctx(), NULL, type, NULL, NULL, EVP_PKEY_KEYPAIR,
				      "wrong", out, len, NULL);
			zt_ok(back == NULL, "%s %s: a wrong passphrase fails", type, st);
			EVP_PKEY_free(back);
			OPENSSL_free(out);
			OPENSSL_free(dout);
			ERR_clear_error();
		}
		/* Without a cipher, EncryptedPrivateKeyInfo fails in both. */
		encode(zk, EVP_PKEY_KEYPAIR, type, "EncryptedPrivateKeyInfo", NULL, NULL, &out, &len);
		encode(dk, EVP_PKEY_KEYPAIR, type, "EncryptedPrivateKeyInfo", NULL, NULL, &dout, &dlen);
		zt_ok(out == NULL && dout == NULL, "%s EncryptedPrivateKeyInfo without a cipher fails",
		      type);
		ERR_clear_error();
	}

	/* zinc alone has no AES: asking for it fails, nothing is written in clear. */
	encode(zalone, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo", "AES-256-CBC", "x", &out, &len);
	reason = zt_zinc_reason();
	zt_ok(out == NULL && reason != NULL,
	      "zinc alone: PrivateKeyInfo with a cipher it cannot fetch fails (%s)",
	      reason ? reason : "no zinc error");
	OPENSSL_free(out);
	EVP_PKEY_free(dk);
	EVP_PKEY_free(zk);
	EVP_PKEY_free(zalone);
}

/* --- the decoder's export and the encoder's import -------------------------------- */

struct exported {
	int calls;
	bool has_pub, has_priv;
	uint8_t pub[KEY], priv[KEY];
	int type;
	char data_type[16];
};

static int export_cb(const OSSL_PARAM params[], void *arg)
{
	struct exported *e = arg;
	const OSSL_PARAM *p;
	size_t len;
	void *buf;

	if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY)) != NULL) {
		buf = e->pub;
		e->has_pub = OSSL_PARAM_get_octet_string(p, &buf, KEY, &len) && len == KEY;
	}
	if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL) {
		buf = e->priv;
		e->has_priv = OSSL_PARAM_get_octet_string(p, &buf, KEY, &len) && len == KEY;
	}
	return 1;
}

/* Stands in for libcrypto's key construction: exports the object instead. */
static int construct_by_export(OSSL_DECODER_INSTANCE *inst, const OSSL_PARAM *params, void *arg)
{
	struct exported *e = arg;
	const OSSL_PARAM *ref = OSSL_PARAM_locate_const(params, OSSL_OBJECT_PARAM_REFERENCE);
	const OSSL_PARAM *p;
	const char *dt = NULL;

	e->calls++;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_OBJECT_PARAM_TYPE)) != NULL)
		OSSL_PARAM_get_int(p, &e->type);
	if ((p = OSSL_PARAM_locate_const(params, OSSL_OBJECT_PARAM_DATA_TYPE)) != NULL &&
	    OSSL_PARAM_get_utf8_string_ptr(p, &dt))
		snprintf(e->data_type, sizeof(e->data_type), "%s", dt);
	return ref != NULL && ref->data_type == OSSL_PARAM_OCTET_STRING &&
	       OSSL_DECODER_export(inst, ref->data, ref->data_size, export_cb, e);
}

static void test_decoder_export(void)
{
	uint8_t priv[KEY];
	EVP_PKEY *dk;
	struct raw r;
	unsigned char *der;
	size_t len;
	OSSL_DECODER *dec = OSSL_DECODER_fetch(zt_zinc_ctx(), "X25519",
					       "input=der,structure=PrivateKeyInfo");
	OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new();
	struct exported e = { 0 };
	const unsigned char *p;

	zt_rand(priv, KEY);
	dk = raw_key(zt_default_ctx(), priv, NULL);
	r = raw_of(dk);
	encode(dk, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", NULL, NULL, &der, &len);
	p = der;
	zt_ok(dec != NULL && d != NULL && der != NULL && OSSL_DECODER_CTX_add_decoder(d, dec) &&
	      OSSL_DECODER_CTX_set_construct(d, construct_by_export) &&
	      OSSL_DECODER_CTX_set_construct_data(d, &e) && OSSL_DECODER_from_data(d, &p, &len) &&
	      e.calls == 1 && e.type == OSSL_OBJECT_PKEY && strcmp(e.data_type, "X25519") == 0 &&
	      e.has_pub && e.has_priv && memcmp(e.pub, r.pub, KEY) == 0 &&
	      memcmp(e.priv, r.priv, KEY) == 0,
	      "zinc's decoder passes a PKEY X25519 reference whose export gives pub and priv");
	OSSL_DECODER_CTX_free(d);
	OSSL_DECODER_free(dec);
	OPENSSL_free(der);
	EVP_PKEY_free(dk);
}

static int find_provider(OSSL_PROVIDER *prov, void *arg)
{
	if (strcmp(OSSL_PROVIDER_get0_name(prov), "zinc") != 0)
		return 1;
	*(OSSL_PROVIDER **)arg = prov;
	return 0;
}

static void (*dispatch_fn(const OSSL_DISPATCH *d, int id))(void)
{
	for (; d != NULL && d->function_id != 0; d++)
		if (d->function_id == id)
			return d->function;
	return NULL;
}

/* zinc's encoders import keys given as parameters (another provider's export). */
static void test_encoder_import(void)
{
	OSSL_PROVIDER *prov = NULL;
	const OSSL_ALGORITHM *encs, *kms;
	const OSSL_DISPATCH *enc = NULL, *km = NULL;
	int no_cache;
	uint8_t priv[KEY], shortkey[KEY - 1] = { 0 };
	EVP_PKEY *dk;
	struct raw r;
	struct exported e = { 0 };

	OSSL_PROVIDER_do_all(zt_zinc_ctx(), find_provider, &prov);
	encs = prov ? OSSL_PROVIDER_query_operation(prov, OSSL_OP_ENCODER, &no_cache) : NULL;
	kms = prov ? OSSL_PROVIDER_query_operation(prov, OSSL_OP_KEYMGMT, &no_cache) : NULL;
	for (size_t i = 0; encs != NULL && encs[i].algorithm_names != NULL; i++)
		if (strstr(encs[i].property_definition, "output=der,structure=SubjectPublicKeyInfo"))
			enc = encs[i].implementation;
	if (kms != NULL)
		km = kms[0].implementation;
	if (!zt_ok(enc != NULL && km != NULL, "zinc's DER SubjectPublicKeyInfo encoder and keymgmt"))
		return;

	zt_rand(priv, KEY);
	dk = raw_key(zt_default_ctx(), priv, NULL);
	r = raw_of(dk);
	{
		void *provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
		OSSL_FUNC_encoder_newctx_fn *newctx =
			(OSSL_FUNC_encoder_newctx_fn *)dispatch_fn(enc, OSSL_FUNC_ENCODER_NEWCTX);
		OSSL_FUNC_encoder_freectx_fn *freectx =
			(OSSL_FUNC_encoder_freectx_fn *)dispatch_fn(enc, OSSL_FUNC_ENCODER_FREECTX);
		OSSL_FUNC_encoder_import_object_fn *import = (OSSL_FUNC_encoder_import_object_fn *)
			dispatch_fn(enc, OSSL_FUNC_ENCODER_IMPORT_OBJECT);
		OSSL_FUNC_encoder_free_object_fn *free_object = (OSSL_FUNC_encoder_free_object_fn *)
			dispatch_fn(enc, OSSL_FUNC_ENCODER_FREE_OBJECT);
		OSSL_FUNC_keymgmt_export_fn *export =
			(OSSL_FUNC_keymgmt_export_fn *)dispatch_fn(km, OSSL_FUNC_KEYMGMT_EXPORT);
		OSSL_PARAM params[] = {
			OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, r.pub, KEY),
			OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, r.priv, KEY),
			OSSL_PARAM_END
		};
		OSSL_PARAM bad[] = {
			OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, shortkey, sizeof(shortkey)),
			OSSL_PARAM_END
		};
		void *ctx, *obj, *badobj;

		if (!zt_ok(newctx && freectx && import && free_object && export,
			   "the encoder has import_object and free_object"))
			goto out;
		ctx = newctx(provctx);
		obj = import(ctx, OSSL_KEYMGMT_SELECT_KEYPAIR, params);
		zt_ok(obj != NULL && export(obj, OSSL_KEYMGMT_SELECT_ALL, export_cb, &e) &&
		      e.has_pub && e.has_priv && memcmp(e.pub, r.pub, KEY) == 0 &&
		      memcmp(e.priv, r.priv, KEY) == 0,
		      "import_object makes a zinc key of default's parameters");
		badobj = import(ctx, OSSL_KEYMGMT_SELECT_PUBLIC_KEY, bad);
		zt_ok(badobj == NULL, "import_object refuses a 31-byte public key");
		ERR_clear_error();
		if (obj != NULL)
			free_object(obj);
		if (badobj != NULL)
			free_object(badobj);
		freectx(ctx);
	}
out:
	OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_ENCODER, encs);
	OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_KEYMGMT, kms);
	EVP_PKEY_free(dk);
}

/* --- Wycheproof ---------------------------------------------------------------- */

/* One test of a Wycheproof x25519 file, its fields as the file gives them. */
struct wp_test {
	long tc_id;
	const char *result, *public, *private, *shared, *comment;
};

/* Decode both keys in ctx (keytype not given, as d2i_PUBKEY would), then derive. */
static int wp_outcome(OSSL_LIB_CTX *ctx, bool pem, const unsigned char *priv, size_t priv_len,
		      const unsigned char *pub, size_t pub_len, uint8_t shared[KEY])
{
	const char *type = pem ? "PEM" : "DER";
	size_t lp = 1, lq = 1;
	EVP_PKEY *k = decode(ctx, NULL, type, NULL, NULL, EVP_PKEY_KEYPAIR, NULL, priv, priv_len, &lp);
	EVP_PKEY *q = decode(ctx, NULL, type, NULL, NULL, EVP_PKEY_PUBLIC_KEY, NULL, pub, pub_len, &lq);
	int ok = k != NULL && q != NULL && lp == 0 && lq == 0 && EVP_PKEY_is_a(k, "X25519") &&
		 EVP_PKEY_is_a(q, "X25519") && derive(ctx, k, q, shared);

	EVP_PKEY_free(k);
	EVP_PKEY_free(q);
	ERR_clear_error();
	return ok;
}

static void test_wycheproof(const char *relative, bool pem)
{
	char *path = zt_vector_path(relative);
	struct zt_json *json;
	struct zt_wycheproof it = { 0 };
	const struct zt_json *tj;
	size_t n = 0, counts[3] = { 0 }, bad = 0, disagree = 0;
	long declared;

	if (path == NULL)
		return;
	json = zt_json_load(path);
	if (!zt_ok(json != NULL, "read %s", path)) {
		free(path);
		return;
	}
	declared = zt_json_long(json, "numberOfTests");
	/* Complete tests only: one without its fields fails the count. */
	while ((tj = zt_wycheproof_next(json, &it)) != NULL)
		n += zt_json_str(tj, "result") != NULL && zt_json_str(tj, "private") != NULL &&
		     zt_json_str(tj, "public") != NULL && zt_json_str(tj, "shared") != NULL;
	zt_ok(n > 0 && (long)n == declared, "%s: %zu tests of %ld", relative, n, declared);
	memset(&it, 0, sizeof(it));
	while ((tj = zt_wycheproof_next(json, &it)) != NULL) {
		const struct wp_test t = {
			zt_json_long(tj, "tcId"), zt_json_str(tj, "result"),
			zt_json_str(tj, "public"), zt_json_str(tj, "private"),
			zt_json_str(tj, "shared"), zt_json_str(tj, "comment")
		};
		uint8_t want[KEY], zs[KEY], ds[KEY];
		unsigned char *priv, *pub, *s;
		size_t priv_len, pub_len, shared_len;
		int z, d, kind;

		if (t.result == NULL || t.public == NULL || t.private == NULL || t.shared == NULL)
			continue;
		s = zt_unhex(t.shared, &shared_len);
		kind = strcmp(t.result, "valid") == 0 ? 0 : strcmp(t.result, "invalid") == 0 ? 2 : 1;
		counts[kind]++;
		if (shared_len == KEY)
			memcpy(want, s, KEY);
		free(s);
		if (pem) {
			priv = (unsigned char *)t.private;
			priv_len = strlen(t.private);
			pub = (unsigned char *)t.public;
			pub_len = strlen(t.public);
		} else {
			priv = zt_unhex(t.private, &priv_len);
			pub = zt_unhex(t.public, &pub_len);
		}
		z = wp_outcome(zt_zinc_ctx(), pem, priv, priv_len, pub, pub_len, zs);
		d = wp_outcome(zt_default_ctx(), pem, priv, priv_len, pub, pub_len, ds);
		if ((kind == 0 && !z) || (kind == 2 && z) ||
		    (z && (shared_len != KEY || memcmp(zs, want, KEY) != 0))) {
			zt_diag("%s tcId %ld (%s, %s): zinc %s", relative, t.tc_id, t.result,
				t.comment ? t.comment : "", z ? "derives a wrong secret or accepts" :
				"refuses");
			bad++;
		}
		if (z != d || (z && memcmp(zs, ds, KEY) != 0)) {
			zt_diag("%s tcId %ld (%s, %s): zinc %s, default %s", relative, t.tc_id,
				t.result, t.comment ? t.comment : "", z ? "accepts" : "refuses",
				d ? "accepts" : "refuses");
			disagree++;
		}
		if (!pem) {
			free(priv);
			free(pub);
		}
	}
	zt_ok(bad == 0 && n > 0,
	      "%s: valid derive their secret, invalid refused, acceptable right if accepted "
	      "(%zu/%zu/%zu)", relative, counts[0], counts[1], counts[2]);
	zt_ok(disagree == 0, "%s: zinc and default accept and refuse the same tests", relative);
	zt_json_free(json);
	free(path);
}

/* --- malformed input ----------------------------------------------------------- */

struct mutant_stats {
	size_t tried, zinc_accepts, default_only, bad;
};

/*
 * One input decoded (all decoders, no hints) by zinc alone, by default, and
 * with default then zinc loaded.  Zinc accepts nothing default refuses and
 * reads the same key, leaving the same bytes; with both loaded the result is
 * default's; default's canonical encodings (its own output) zinc must read.
 */
static void check_mutant(const unsigned char *in, size_t len, struct mutant_stats *st,
			 const char *what)
{
	size_t lz = 0, ld = 0, lb = 0;
	EVP_PKEY *z = decode_any(zt_zinc_ctx(), NULL, in, len, &lz);
	EVP_PKEY *d = decode_any(zt_default_ctx(), NULL, in, len, &ld);
	EVP_PKEY *b = decode_any(zinc_last_ctx(), NULL, in, len, &lb);
	bool canonical = false, fail = false;

	ERR_clear_error();
	st->tried++;
	if (d != NULL && EVP_PKEY_is_a(d, "X25519")) {
		struct raw r = raw_of(d);
		bool is_pem = len > 0 && in[0] == '-';
		unsigned char *enc;
		size_t enc_len;

		encode(d, r.has_priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, is_pem ? "PEM" : "DER",
		       r.has_priv ? "PrivateKeyInfo" : "SubjectPublicKeyInfo", NULL, NULL, &enc,
		       &enc_len);
		canonical = enc != NULL && enc_len == len - ld && memcmp(enc, in, enc_len) == 0;
		OPENSSL_free(enc);
	}
	if (z != NULL) {
		st->zinc_accepts++;
		fail |= d == NULL || !raw_eq(z, d) || lz != ld || strcmp(provider_of(z), "zinc") != 0;
	} else if (d != NULL) {
		st->default_only++;
		fail |= canonical;
	}
	fail |= (b == NULL) != (d == NULL) || (b != NULL && (lb != ld || EVP_PKEY_eq(b, d) != 1));
	if (fail && st->bad++ < 10)
		zt_diag("%s: zinc %s, default %s, default then zinc %s (left %zu/%zu/%zu)%s", what,
			z ? "accepts" : "refuses", d ? "accepts" : "refuses",
			b ? "accepts" : "refuses", lz, ld, lb, canonical ? ", canonical" : "");
	EVP_PKEY_free(z);
	EVP_PKEY_free(d);
	EVP_PKEY_free(b);
}

static void mutate_all(const unsigned char *good, size_t len, const char *label)
{
	struct mutant_stats st = { 0 };
	unsigned char *buf = xmalloc(len + 8);
	char what[160];

	/* The input itself, every truncation, every bit flipped, bytes appended. */
	check_mutant(good, len, &st, label);
	for (size_t n = 0; n < len; n++) {
		memcpy(buf, good, n);
		snprintf(what, sizeof(what), "%s cut to %zu", label, n);
		check_mutant(buf, n, &st, what);
	}
	for (size_t bit = 0; bit < 8 * len; bit++) {
		memcpy(buf, good, len);
		buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		snprintf(what, sizeof(what), "%s bit %zu flipped", label, bit);
		check_mutant(buf, len, &st, what);
	}
	for (size_t extra = 1; extra <= 8; extra++) {
		memcpy(buf, good, len);
		zt_rand(buf + len, extra);
		snprintf(what, sizeof(what), "%s and %zu random bytes", label, extra);
		check_mutant(buf, len + extra, &st, what);
	}
	/* Random bytes in place of two, and the length field changed. */
	for (size_t i = 0; i < 64; i++) {
		memcpy(buf, good, len);
		buf[zt_rand_below(len)] = (unsigned char)zt_rand_u64();
		buf[zt_rand_below(len)] = (unsigned char)zt_rand_u64();
		snprintf(what, sizeof(what), "%s random bytes %zu", label, i);
		check_mutant(buf, len, &st, what);
	}
	zt_ok(st.bad == 0 && st.zinc_accepts > 0,
	      "%s: %zu malformed inputs: zinc accepted %zu (default's key each time), "
	      "default alone %zu more (non-canonical), no disagreement with zinc first",
	      label, st.tried, st.zinc_accepts, st.default_only);
	free(buf);
}

static void test_malformed(void)
{
	uint8_t priv[KEY];
	EVP_PKEY *dk;
	unsigned char *enc;
	size_t len;
	struct mutant_stats st = { 0 };

	zt_rand(priv, KEY);
	dk = raw_key(zt_default_ctx(), priv, NULL);
	for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
		char label[64];

		encode(dk, formats[f].selection, formats[f].type, formats[f].structure, NULL, NULL,
		       &enc, &len);
		snprintf(label, sizeof(label), "%s %s", formats[f].type, formats[f].structure);
		if (zt_ok(enc != NULL, "%s of a random key", label))
			mutate_all(enc, len, label);
		OPENSSL_free(enc);
	}

	/* Garbage, some of it behind a plausible SEQUENCE header. */
	for (size_t i = 0; i < 256; i++) {
		unsigned char buf[64];
		size_t n = zt_rand_below(sizeof(buf) + 1);

		zt_rand(buf, n);
		if (n >= 2 && i % 2 == 0) {
			buf[0] = 0x30;
			buf[1] = (unsigned char)(n - 2);
		}
		check_mutant(buf, n, &st, "random bytes");
	}
	zt_ok(st.bad == 0, "%zu random inputs: no disagreement (zinc accepted %zu)", st.tried,
	      st.zinc_accepts);

	/*
	 * Encodings zinc, being DER-strict, leaves to others, and default reads:
	 * a long-form length always; PKCS#8 version 2 (a v2 structure with no
	 * public key) only before 3.5, which refuses it.
	 */
	{
		const struct {
			const char *hex;
			int default_reads;
		} ber[] = {
			{ "30812e020100300506032b656e04220420", 1 },
			{ "302e020102300506032b656e04220420", !zt_openssl_at_least(3, 5) },
			{ NULL, 0 },
		};
		struct raw r = raw_of(dk);
		size_t ok = 0, n = 0;

		for (size_t i = 0; ber[i].hex != NULL; i++) {
			unsigned char buf[64];
			size_t plen;
			unsigned char *pre = zt_unhex(ber[i].hex, &plen);
			EVP_PKEY *z, *d, *b;

			memcpy(buf, pre, plen);
			memcpy(buf + plen, r.priv, KEY);
			free(pre);
			z = decode_any(zt_zinc_ctx(), "DER", buf, plen + KEY, NULL);
			d = decode_any(zt_default_ctx(), "DER", buf, plen + KEY, NULL);
			b = decode_any(zinc_last_ctx(), "DER", buf, plen + KEY, NULL);
			n++;
			if (ber[i].default_reads)
				ok += z == NULL && d != NULL && b != NULL && raw_eq(b, dk);
			else
				ok += z == NULL && d == NULL && b == NULL;
			EVP_PKEY_free(z);
			EVP_PKEY_free(d);
			EVP_PKEY_free(b);
		}
		ERR_clear_error();
		zt_ok(ok == n, "BER (long-form length, version 2): zinc leaves it; what default "
		      "reads, it still reads with zinc first");
	}
	EVP_PKEY_free(dk);
}

int main(void)
{
	zt_zinc_ctx();
	zt_default_ctx();
	test_tables();
	test_known_answers();
	test_encodings();
	test_round_trips();
	test_trailing_and_sequences();
	test_other_types();
	test_encrypted();
	test_decoder_export();
	test_encoder_import();
	test_wycheproof("wycheproof/testvectors_v1/x25519_asn_test.json", false);
	test_wycheproof("wycheproof/testvectors_v1/x25519_pem_test.json", true);
	test_malformed();
	free_zinc_last();
	return zt_done();
}
