/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wg-handshake: WireGuard's handshake written against OpenSSL's EVP
 * interface alone, with zinc serving every primitive.
 *
 * WireGuard (the whitepaper, https://www.wireguard.com/papers/wireguard.pdf,
 * section 5.4) builds its handshake on the Noise protocol framework
 * (https://noiseprotocol.org/noise.html) with the pattern
 * Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s:
 *
 *     <- s                   the initiator knows the responder's static key
 *     ...
 *     -> e, es, s, ss        initiation (148 bytes on the wire)
 *     <- e, ee, se, psk      response (92 bytes)
 *
 * after which each side holds a key to send with and one to receive with.
 * Around the Noise messages WireGuard puts a type, session indices and two
 * MACs: mac1, keyed with the receiver's public key, lets a receiver drop
 * junk before any costly work; mac2, keyed with a cookie that a responder
 * under load hands out in an encrypted cookie reply, proves that the
 * sender can receive at its source address.
 *
 * The primitives, each from one library context through EVP:
 *
 *   DH       X25519                      EVP_PKEY "X25519"
 *   HASH     BLAKE2s-256                 EVP_MD "BLAKE2S-256"
 *   MAC      keyed BLAKE2s, 16 bytes     EVP_MAC "BLAKE2SMAC", size 16
 *   KDF1..3  HKDF over HMAC-BLAKE2s      EVP_KDF "HKDF", digest BLAKE2S-256
 *   AEAD     ChaCha20-Poly1305           EVP_CIPHER "ChaCha20-Poly1305"
 *   XAEAD    XChaCha20-Poly1305          EVP_CIPHER "XChaCha20-Poly1305"
 *
 * Each is fetched (each X25519 key made) with the property query
 * "provider=zinc" and checked to have come from zinc, but for HKDF: it and
 * the HMAC inside it are OpenSSL's own code (the default provider; zinc has
 * no KDF), told by the same property query to run zinc's BLAKE2S-256.
 * OpenSSL itself has no XChaCha20-Poly1305.
 *
 * main() runs the handshake between two parties with fresh keys, sends a
 * packet each way, then plays a responder under load that makes the
 * initiator fetch a cookie first.  Everything above main takes the library
 * context and provider to use as arguments: zinc's test suite includes
 * this file (with WG_HANDSHAKE_NO_MAIN defined) to check it against
 * published test vectors and against OpenSSL's default provider.
 *
 * Left out, which a real implementation needs: timers and rekeying, the
 * replay window for received counters, the cookie's two-minute life, and
 * finding the initiator's peer by its static key among many.
 *
 * zinc.so is loaded from $ZINC_MODULE_DIR if set, else from OpenSSL's
 * module directory.
 *
 *   cc wg-handshake.c -o wg-handshake $(pkg-config --cflags --libs libcrypto)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#define WG_KEY_LEN ((size_t)32)	/* X25519 keys, symmetric keys, hashes */
#define WG_TAG_LEN 16		/* Poly1305's tag */
#define WG_MAC_LEN 16		/* mac1, mac2 and the cookie */
#define WG_TIMESTAMP_LEN 12	/* TAI64N */
#define WG_NONCE_LEN 12		/* ChaCha20-Poly1305 */
#define WG_XNONCE_LEN 24	/* XChaCha20-Poly1305 */

/* Message types, sizes, and where the MACs are. */
#define WG_INITIATION 1
#define WG_RESPONSE 2
#define WG_COOKIE_REPLY 3
#define WG_TRANSPORT 4
#define WG_INITIATION_LEN 148
#define WG_INITIATION_MAC1 116
#define WG_RESPONSE_LEN 92
#define WG_RESPONSE_MAC1 60
#define WG_COOKIE_REPLY_LEN 64
#define WG_TRANSPORT_HEADER_LEN 16

/* Noise's first and second message for a payload of len bytes. */
#define WG_NOISE_MSG1_LEN(len) (WG_KEY_LEN + WG_KEY_LEN + WG_TAG_LEN + (len) + WG_TAG_LEN)
#define WG_NOISE_MSG2_LEN(len) (WG_KEY_LEN + (len) + WG_TAG_LEN)

static const char wg_construction[] = "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s";
static const char wg_identifier[] = "WireGuard v1 zx2c4 Jason@zx2c4.com";
static const char wg_label_mac1[] = "mac1----";
static const char wg_label_cookie[] = "cookie--";

/* Says what went wrong; returns 0, so that a caller can `return wg_fail(...)`. */
static int wg_fail(const char *what)
{
	fprintf(stderr, "wg-handshake: %s\n", what);
	return 0;
}

static void wg_put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static uint32_t wg_get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- 1. The primitives, fetched once from one provider ------------------ */

struct wg_suite {
	OSSL_LIB_CTX *libctx;
	const char *provider;	/* the provider everything must come from */
	char propq[64];		/* "provider=NAME", for every fetch */
	EVP_MD *hash;		/* BLAKE2S-256 */
	EVP_MAC *mac;		/* BLAKE2SMAC */
	EVP_KDF *hkdf;		/* HKDF, whichever provider has it */
	EVP_CIPHER *aead;	/* ChaCha20-Poly1305 */
	EVP_CIPHER *xaead;	/* XChaCha20-Poly1305, NULL where there is none */
};

/* Is prov the provider the suite insists on?  Says so if not. */
static int wg_served(const struct wg_suite *s, const OSSL_PROVIDER *prov, const char *what)
{
	const char *name = prov != NULL ? OSSL_PROVIDER_get0_name(prov) : "nothing";

	if (strcmp(name, s->provider) == 0)
		return 1;
	fprintf(stderr, "wg-handshake: %s is served by %s, not %s\n", what, name, s->provider);
	return 0;
}

static void wg_suite_free(struct wg_suite *s)
{
	EVP_MD_free(s->hash);
	EVP_MAC_free(s->mac);
	EVP_KDF_free(s->hkdf);
	EVP_CIPHER_free(s->aead);
	EVP_CIPHER_free(s->xaead);
	memset(s, 0, sizeof(*s));
}

/*
 * Fetches every algorithm from `provider` in libctx (HKDF from wherever it
 * is: its digest is fetched with the suite's property query at each use).
 * XChaCha20-Poly1305 is needed only for cookie replies: without it the
 * suite still does the handshake.  On failure, wg_suite_free() it.
 */
static int wg_suite_init(struct wg_suite *s, OSSL_LIB_CTX *libctx, const char *provider)
{
	memset(s, 0, sizeof(*s));
	s->libctx = libctx;
	s->provider = provider;
	snprintf(s->propq, sizeof(s->propq), "provider=%s", provider);

	s->hash = EVP_MD_fetch(libctx, "BLAKE2S-256", s->propq);
	if (s->hash == NULL || !wg_served(s, EVP_MD_get0_provider(s->hash), "BLAKE2S-256"))
		return wg_fail("no BLAKE2S-256 digest");
	s->mac = EVP_MAC_fetch(libctx, "BLAKE2SMAC", s->propq);
	if (s->mac == NULL || !wg_served(s, EVP_MAC_get0_provider(s->mac), "BLAKE2SMAC"))
		return wg_fail("no BLAKE2SMAC");
	s->aead = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", s->propq);
	if (s->aead == NULL ||
	    !wg_served(s, EVP_CIPHER_get0_provider(s->aead), "ChaCha20-Poly1305"))
		return wg_fail("no ChaCha20-Poly1305");
	s->hkdf = EVP_KDF_fetch(libctx, "HKDF", NULL);
	if (s->hkdf == NULL)
		return wg_fail("no HKDF (it comes with OpenSSL's default provider)");

	ERR_set_mark();		/* its absence is no error */
	s->xaead = EVP_CIPHER_fetch(libctx, "XChaCha20-Poly1305", s->propq);
	ERR_pop_to_mark();
	if (s->xaead != NULL &&
	    !wg_served(s, EVP_CIPHER_get0_provider(s->xaead), "XChaCha20-Poly1305"))
		return wg_fail("XChaCha20-Poly1305 from another provider");
	return 1;
}

/* HASH(a || b): BLAKE2s-256 of two pieces, one after the other. */
static int wg_hash(const struct wg_suite *s, const void *a, size_t alen,
		   const void *b, size_t blen, unsigned char out[WG_KEY_LEN])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok = ctx != NULL && EVP_DigestInit_ex2(ctx, s->hash, NULL) &&
		 EVP_DigestUpdate(ctx, a, alen) && EVP_DigestUpdate(ctx, b, blen) &&
		 EVP_DigestFinal_ex(ctx, out, NULL);

	EVP_MD_CTX_free(ctx);
	return ok ? 1 : wg_fail("BLAKE2s-256 failed");
}

/* MAC(key, msg): keyed BLAKE2s with a 16-byte output; the key has 1 to 32 bytes. */
static int wg_mac(const struct wg_suite *s, const unsigned char *key, size_t keylen,
		  const void *msg, size_t len, unsigned char out[WG_MAC_LEN])
{
	size_t size = WG_MAC_LEN, outl = 0;
	OSSL_PARAM params[] = {
		OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, &size),
		OSSL_PARAM_END
	};
	EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(s->mac);
	int ok = ctx != NULL && EVP_MAC_init(ctx, key, keylen, params) &&
		 EVP_MAC_update(ctx, msg, len) &&
		 EVP_MAC_final(ctx, out, &outl, WG_MAC_LEN) && outl == WG_MAC_LEN;

	EVP_MAC_CTX_free(ctx);
	return ok ? 1 : wg_fail("keyed BLAKE2s failed");
}

/*
 * KDFn(key, input) for n = 1, 2, 3, into n * 32 bytes at out.  The
 * whitepaper's chain
 *     t0 = HMAC(key, input), t1 = HMAC(t0, 0x1), ti = HMAC(t0, t(i-1) || i)
 * is HKDF (RFC 5869) with salt = key, input keying material = input and no
 * info: t1 || t2 || t3 is its output, so one derive gives all n.
 */
static int wg_kdf(const struct wg_suite *s, const unsigned char key[WG_KEY_LEN],
		  const void *input, size_t len, unsigned char *out, size_t n)
{
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"BLAKE2S-256", 0),
		/* HKDF fetches its digest with this: zinc's BLAKE2S-256. */
		OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_PROPERTIES, (char *)s->propq, 0),
		OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)key, WG_KEY_LEN),
		/* OpenSSL wants a pointer even for no bytes. */
		OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
						  (void *)(len > 0 ? input : ""), len),
		OSSL_PARAM_construct_end()
	};
	EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(s->hkdf);
	int ok = ctx != NULL && EVP_KDF_derive(ctx, out, n * WG_KEY_LEN, params) > 0;

	EVP_KDF_CTX_free(ctx);
	return ok ? 1 : wg_fail("HKDF over BLAKE2s failed");
}

/*
 * AEAD(key, nonce, plaintext, ad) with cipher: ChaCha20-Poly1305 (12-byte
 * nonce) or XChaCha20-Poly1305 (24).  out: len bytes of ciphertext, then
 * the 16-byte tag.
 */
static int wg_seal(const EVP_CIPHER *cipher, const unsigned char key[WG_KEY_LEN],
		   const unsigned char *nonce, const void *in, size_t len,
		   const void *ad, size_t adlen, unsigned char *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0;
	int ok = ctx != NULL && EVP_EncryptInit_ex2(ctx, cipher, key, nonce, NULL) &&
		 (adlen == 0 || EVP_EncryptUpdate(ctx, NULL, &outl, ad, (int)adlen)) &&
		 (len == 0 || EVP_EncryptUpdate(ctx, out, &outl, in, (int)len)) &&
		 EVP_EncryptFinal_ex(ctx, out + len, &outl) &&
		 EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, WG_TAG_LEN, out + len);

	EVP_CIPHER_CTX_free(ctx);
	return ok ? 1 : wg_fail("AEAD encryption failed");
}

/*
 * The reverse: in holds len bytes of ciphertext, then the tag.  Returns 0,
 * silently (the caller knows what it was opening), if it does not
 * authenticate: altered, or under another key, nonce or ad.
 */
static int wg_open(const EVP_CIPHER *cipher, const unsigned char key[WG_KEY_LEN],
		   const unsigned char *nonce, const unsigned char *in, size_t len,
		   const void *ad, size_t adlen, unsigned char *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0;
	int ok = ctx != NULL && EVP_DecryptInit_ex2(ctx, cipher, key, nonce, NULL) &&
		 (adlen == 0 || EVP_DecryptUpdate(ctx, NULL, &outl, ad, (int)adlen)) &&
		 (len == 0 || EVP_DecryptUpdate(ctx, out, &outl, in, (int)len)) &&
		 EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, WG_TAG_LEN, (void *)(in + len)) &&
		 EVP_DecryptFinal_ex(ctx, out + len, &outl) > 0;

	EVP_CIPHER_CTX_free(ctx);
	if (!ok && len > 0)
		OPENSSL_cleanse(out, len);
	return ok;
}

/* An X25519 key pair from 32 private bytes (NULL: a fresh one); pub gets its public key. */
static EVP_PKEY *wg_x25519_key(const struct wg_suite *s, const unsigned char *priv,
			       unsigned char pub[WG_KEY_LEN])
{
	size_t len = WG_KEY_LEN;
	EVP_PKEY *pkey = priv != NULL ?
		EVP_PKEY_new_raw_private_key_ex(s->libctx, "X25519", s->propq, priv, WG_KEY_LEN) :
		EVP_PKEY_Q_keygen(s->libctx, s->propq, "X25519");

	if (pkey == NULL || !wg_served(s, EVP_PKEY_get0_provider(pkey), "an X25519 key") ||
	    !EVP_PKEY_get_raw_public_key(pkey, pub, &len) || len != WG_KEY_LEN) {
		EVP_PKEY_free(pkey);
		wg_fail("cannot make an X25519 key pair");
		return NULL;
	}
	return pkey;
}

/* DH(priv, pub): X25519; fails for a public key of low order (an all-zero result). */
static int wg_dh(const struct wg_suite *s, EVP_PKEY *priv, const unsigned char pub[WG_KEY_LEN],
		 unsigned char out[WG_KEY_LEN])
{
	EVP_PKEY *peer = EVP_PKEY_new_raw_public_key_ex(s->libctx, "X25519", s->propq,
							pub, WG_KEY_LEN);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(s->libctx, priv, s->propq);
	size_t len = WG_KEY_LEN;
	int ok = peer != NULL && ctx != NULL && EVP_PKEY_derive_init(ctx) > 0 &&
		 wg_served(s, EVP_PKEY_CTX_get0_provider(ctx), "X25519 key exchange") &&
		 EVP_PKEY_derive_set_peer(ctx, peer) > 0 &&
		 EVP_PKEY_derive(ctx, out, &len) > 0 && len == WG_KEY_LEN;

	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(peer);
	return ok ? 1 : wg_fail("X25519 failed (a public key of low order?)");
}

/* ---- 2. Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s ----------------------------- */

/*
 * One side's handshake state, Noise's HandshakeState and SymmetricState in
 * one.  Each cipher key k is used for one encryption only, so its nonce is
 * always 0 (Noise's n never passes 1 in this pattern).
 */
struct wg_noise {
	const struct wg_suite *suite;
	unsigned char ck[WG_KEY_LEN];	/* chaining key */
	unsigned char h[WG_KEY_LEN];	/* handshake hash: the transcript so far */
	unsigned char k[WG_KEY_LEN];	/* cipher key */
	EVP_PKEY *s;			/* own static key pair (not freed here) */
	unsigned char s_pub[WG_KEY_LEN];
	unsigned char rs[WG_KEY_LEN];	/* the other side's static public key */
	EVP_PKEY *e;			/* own ephemeral key pair */
	unsigned char e_pub[WG_KEY_LEN];
	unsigned char re[WG_KEY_LEN];	/* the other side's ephemeral public key */
	unsigned char psk[WG_KEY_LEN];	/* preshared key */
};

/* Forgets the handshake: keys wiped, the ephemeral key pair freed. */
static void wg_noise_clear(struct wg_noise *n)
{
	EVP_PKEY_free(n->e);
	OPENSSL_cleanse(n, sizeof(*n));
}

/* MixHash(data): h = HASH(h || data). */
static int mix_hash(struct wg_noise *n, const void *data, size_t len)
{
	return wg_hash(n->suite, n->h, WG_KEY_LEN, data, len, n->h);
}

/* MixKey(input): ck, k = KDF2(ck, input). */
static int mix_key(struct wg_noise *n, const void *input, size_t len)
{
	unsigned char t[2 * WG_KEY_LEN];
	int ok = wg_kdf(n->suite, n->ck, input, len, t, 2);

	if (ok) {
		memcpy(n->ck, t, WG_KEY_LEN);
		memcpy(n->k, t + WG_KEY_LEN, WG_KEY_LEN);
	}
	OPENSSL_cleanse(t, sizeof(t));
	return ok;
}

/* The tokens es, ss, ee and se: MixKey(DH(own key, their public key)). */
static int mix_dh(struct wg_noise *n, EVP_PKEY *own, const unsigned char pub[WG_KEY_LEN])
{
	unsigned char shared[WG_KEY_LEN];
	int ok = wg_dh(n->suite, own, pub, shared) && mix_key(n, shared, sizeof(shared));

	OPENSSL_cleanse(shared, sizeof(shared));
	return ok;
}

/* The token psk, MixKeyAndHash(psk): ck, t, k = KDF3(ck, psk), then MixHash(t). */
static int mix_psk(struct wg_noise *n)
{
	unsigned char t[3 * WG_KEY_LEN];
	int ok = wg_kdf(n->suite, n->ck, n->psk, WG_KEY_LEN, t, 3);

	if (ok) {
		memcpy(n->ck, t, WG_KEY_LEN);
		memcpy(n->k, t + 2 * WG_KEY_LEN, WG_KEY_LEN);
		ok = mix_hash(n, t + WG_KEY_LEN, WG_KEY_LEN);
	}
	OPENSSL_cleanse(t, sizeof(t));
	return ok;
}

/* EncryptAndHash(plaintext): out = AEAD(k, 0, plaintext, h); MixHash(out). */
static int encrypt_and_hash(struct wg_noise *n, const void *in, size_t len, unsigned char *out)
{
	static const unsigned char nonce0[WG_NONCE_LEN];

	return wg_seal(n->suite->aead, n->k, nonce0, in, len, n->h, WG_KEY_LEN, out) &&
	       mix_hash(n, out, len + WG_TAG_LEN);
}

/* DecryptAndHash: in is len bytes of ciphertext and a tag; `what` names it if it fails. */
static int decrypt_and_hash(struct wg_noise *n, const unsigned char *in, size_t len,
			    unsigned char *out, const char *what)
{
	static const unsigned char nonce0[WG_NONCE_LEN];

	if (!wg_open(n->suite->aead, n->k, nonce0, in, len, n->h, WG_KEY_LEN, out)) {
		fprintf(stderr, "wg-handshake: %s does not authenticate\n", what);
		return 0;
	}
	return mix_hash(n, in, len + WG_TAG_LEN);
}

/*
 * The token e, sent: a new ephemeral key pair (from the private bytes
 * given, which only tests do), its public key out in clear, MixHash, and,
 * as in every psk pattern, MixKey of it too.
 */
static int write_e(struct wg_noise *n, const unsigned char *priv, unsigned char out[WG_KEY_LEN])
{
	EVP_PKEY_free(n->e);
	n->e = wg_x25519_key(n->suite, priv, n->e_pub);
	if (n->e == NULL)
		return 0;
	memcpy(out, n->e_pub, WG_KEY_LEN);
	return mix_hash(n, n->e_pub, WG_KEY_LEN) && mix_key(n, n->e_pub, WG_KEY_LEN);
}

/* The token e, received. */
static int read_e(struct wg_noise *n, const unsigned char in[WG_KEY_LEN])
{
	memcpy(n->re, in, WG_KEY_LEN);
	return mix_hash(n, n->re, WG_KEY_LEN) && mix_key(n, n->re, WG_KEY_LEN);
}

/*
 * Initialize (n zeroed, or holding an earlier handshake, which is
 * forgotten): h = HASH(protocol name) (it is longer than 32 bytes), ck = h,
 * MixHash(prologue), then the pre-message "<- s": MixHash(the responder's
 * static public key).  s and s_pub: own static key pair.  rs: the
 * responder's static public key for the initiator; NULL for the responder,
 * which learns the initiator's from its message.
 */
static int wg_noise_init(struct wg_noise *n, const struct wg_suite *suite, EVP_PKEY *s,
			 const unsigned char s_pub[WG_KEY_LEN], const unsigned char *rs,
			 const unsigned char psk[WG_KEY_LEN], const void *prologue, size_t len)
{
	wg_noise_clear(n);
	n->suite = suite;
	n->s = s;
	memcpy(n->s_pub, s_pub, WG_KEY_LEN);
	memcpy(n->psk, psk, WG_KEY_LEN);
	if (rs != NULL)
		memcpy(n->rs, rs, WG_KEY_LEN);
	if (!wg_hash(suite, wg_construction, strlen(wg_construction), NULL, 0, n->h))
		return 0;
	memcpy(n->ck, n->h, WG_KEY_LEN);
	return mix_hash(n, prologue, len) && mix_hash(n, rs != NULL ? rs : s_pub, WG_KEY_LEN);
}

/*
 * The initiator's message, -> e, es, s, ss, then the payload:
 * ephemeral public key (32), encrypted static public key (32 + 16),
 * encrypted payload (len + 16): WG_NOISE_MSG1_LEN(len) bytes at msg.
 */
static int wg_noise_write_msg1(struct wg_noise *n, const unsigned char *e_priv,
			       const void *payload, size_t len, unsigned char *msg)
{
	return write_e(n, e_priv, msg) &&
	       mix_dh(n, n->e, n->rs) &&					/* es */
	       encrypt_and_hash(n, n->s_pub, WG_KEY_LEN, msg + WG_KEY_LEN) &&	/* s */
	       mix_dh(n, n->s, n->rs) &&					/* ss */
	       encrypt_and_hash(n, payload, len, msg + WG_NOISE_MSG1_LEN(0) - WG_TAG_LEN);
}

/* The responder reads it: payload gets msglen - WG_NOISE_MSG1_LEN(0) bytes; rs, the sender. */
static int wg_noise_read_msg1(struct wg_noise *n, const unsigned char *msg, size_t msglen,
			      unsigned char *payload)
{
	const size_t at = WG_NOISE_MSG1_LEN(0) - WG_TAG_LEN;

	if (msglen < WG_NOISE_MSG1_LEN(0))
		return wg_fail("the first handshake message is too short");
	return read_e(n, msg) &&
	       mix_dh(n, n->s, n->re) &&					/* es */
	       decrypt_and_hash(n, msg + WG_KEY_LEN, WG_KEY_LEN, n->rs,		/* s */
				"the initiator's static key") &&
	       mix_dh(n, n->s, n->rs) &&					/* ss */
	       decrypt_and_hash(n, msg + at, msglen - at - WG_TAG_LEN, payload,
				"the first message's payload");
}

/*
 * The responder's message, <- e, ee, se, psk, then the payload:
 * ephemeral public key (32), encrypted payload (len + 16).
 */
static int wg_noise_write_msg2(struct wg_noise *n, const unsigned char *e_priv,
			       const void *payload, size_t len, unsigned char *msg)
{
	return write_e(n, e_priv, msg) &&
	       mix_dh(n, n->e, n->re) &&		/* ee */
	       mix_dh(n, n->e, n->rs) &&		/* se */
	       mix_psk(n) &&				/* psk */
	       encrypt_and_hash(n, payload, len, msg + WG_KEY_LEN);
}

/* The initiator reads it: payload gets msglen - WG_NOISE_MSG2_LEN(0) bytes. */
static int wg_noise_read_msg2(struct wg_noise *n, const unsigned char *msg, size_t msglen,
			      unsigned char *payload)
{
	if (msglen < WG_NOISE_MSG2_LEN(0))
		return wg_fail("the second handshake message is too short");
	return read_e(n, msg) &&
	       mix_dh(n, n->e, n->re) &&		/* ee */
	       mix_dh(n, n->s, n->re) &&		/* se */
	       mix_psk(n) &&				/* psk */
	       decrypt_and_hash(n, msg + WG_KEY_LEN, msglen - WG_NOISE_MSG2_LEN(0), payload,
				"the second message's payload");
}

/*
 * Split: t1, t2 = KDF2(ck, empty); the initiator sends with t1 and
 * receives with t2, the responder the other way round.  The handshake
 * state is then forgotten.
 */
static int wg_noise_split(struct wg_noise *n, int initiator, unsigned char send[WG_KEY_LEN],
			  unsigned char recv[WG_KEY_LEN])
{
	unsigned char t[2 * WG_KEY_LEN];
	int ok = wg_kdf(n->suite, n->ck, NULL, 0, t, 2);

	if (ok) {
		memcpy(send, initiator ? t : t + WG_KEY_LEN, WG_KEY_LEN);
		memcpy(recv, initiator ? t + WG_KEY_LEN : t, WG_KEY_LEN);
	}
	OPENSSL_cleanse(t, sizeof(t));
	wg_noise_clear(n);
	return ok;
}

/* A transport nonce: 4 zero bytes, then the counter, 64 bits little-endian. */
static void wg_counter_nonce(uint64_t counter, unsigned char nonce[WG_NONCE_LEN])
{
	memset(nonce, 0, 4);
	for (int i = 4; i < WG_NONCE_LEN; i++, counter >>= 8)
		nonce[i] = (unsigned char)counter;
}

/* ---- 3. WireGuard's messages ---------------------------------------------- */

/* One end of a tunnel between two peers. */
struct wg_side {
	const struct wg_suite *suite;
	EVP_PKEY *static_key;			/* own static key pair (freed here) */
	unsigned char static_pub[WG_KEY_LEN];
	unsigned char peer_pub[WG_KEY_LEN];	/* the other end's static public key */
	unsigned char psk[WG_KEY_LEN];		/* preshared key: zeros for none */
	uint32_t index;				/* own: the other end sends to it */
	uint32_t peer_index;			/* the other end's, from its message */
	struct wg_noise noise;			/* the handshake under way */
	unsigned char last_timestamp[WG_TIMESTAMP_LEN];	/* newest initiation taken */
	unsigned char last_mac1[WG_MAC_LEN];	/* of the last message sent */
	unsigned char cookie[WG_MAC_LEN];	/* from a cookie reply, for mac2 */
	int have_cookie;
	unsigned char cookie_secret[WG_KEY_LEN];	/* to make cookies (R_m) */
	unsigned char send_key[WG_KEY_LEN], recv_key[WG_KEY_LEN];	/* the session */
	uint64_t send_counter;
};

/*
 * Sets a side up: its static key pair (taken over), the other end's static
 * public key, the preshared key (NULL: none) and its own index.  Its
 * cookie secret is random; a real one changes every two minutes.
 */
static int wg_side_init(struct wg_side *me, const struct wg_suite *suite, EVP_PKEY *static_key,
			const unsigned char peer_pub[WG_KEY_LEN], const unsigned char *psk,
			uint32_t index)
{
	size_t len = WG_KEY_LEN;

	memset(me, 0, sizeof(*me));
	me->suite = suite;
	me->static_key = static_key;
	memcpy(me->peer_pub, peer_pub, WG_KEY_LEN);
	if (psk != NULL)
		memcpy(me->psk, psk, WG_KEY_LEN);
	me->index = index;
	if (!EVP_PKEY_get_raw_public_key(static_key, me->static_pub, &len) || len != WG_KEY_LEN)
		return wg_fail("cannot read the static public key");
	if (RAND_bytes_ex(suite->libctx, me->cookie_secret, WG_KEY_LEN, 0) != 1)
		return wg_fail("no random bytes for the cookie secret");
	return 1;
}

static void wg_side_free(struct wg_side *me)
{
	wg_noise_clear(&me->noise);
	EVP_PKEY_free(me->static_key);
	OPENSSL_cleanse(me, sizeof(*me));
}

/* Now as TAI64N: 2^62 + 10 + Unix seconds (TAI), big-endian; then nanoseconds. */
static void wg_timestamp_now(unsigned char ts[WG_TIMESTAMP_LEN])
{
	struct timespec when;
	uint64_t secs;
	uint32_t nsecs;

	timespec_get(&when, TIME_UTC);
	secs = 0x400000000000000aULL + (uint64_t)when.tv_sec;
	nsecs = (uint32_t)when.tv_nsec;
	for (int i = 7; i >= 0; i--, secs >>= 8)
		ts[i] = (unsigned char)secs;
	for (int i = 11; i >= 8; i--, nsecs >>= 8)
		ts[i] = (unsigned char)nsecs;
}

/* A MAC key: HASH(label || a static public key). */
static int wg_label_key(const struct wg_side *me, const char *label,
			const unsigned char pub[WG_KEY_LEN], unsigned char key[WG_KEY_LEN])
{
	return wg_hash(me->suite, label, strlen(label), pub, WG_KEY_LEN, key);
}

/*
 * The two MACs that end a handshake message, mac1 at msg + at and mac2
 * right after it:
 *   mac1 = MAC(HASH("mac1----" || receiver's static public key), msg up to mac1)
 *   mac2 = MAC(cookie, msg up to mac2), or zeros without a cookie
 */
static int wg_add_macs(struct wg_side *me, unsigned char *msg, size_t at)
{
	unsigned char mac1_key[WG_KEY_LEN];

	if (!wg_label_key(me, wg_label_mac1, me->peer_pub, mac1_key) ||
	    !wg_mac(me->suite, mac1_key, WG_KEY_LEN, msg, at, msg + at))
		return 0;
	memcpy(me->last_mac1, msg + at, WG_MAC_LEN);	/* a cookie reply's AD */
	if (!me->have_cookie) {
		memset(msg + at + WG_MAC_LEN, 0, WG_MAC_LEN);
		return 1;
	}
	return wg_mac(me->suite, me->cookie, WG_MAC_LEN, msg, at + WG_MAC_LEN,
		      msg + at + WG_MAC_LEN);
}

/* The receiver's first check, before any DH: is mac1 made for its own static key? */
static int wg_mac1_ok(const struct wg_side *me, const unsigned char *msg, size_t at)
{
	unsigned char mac1_key[WG_KEY_LEN], want[WG_MAC_LEN];

	return wg_label_key(me, wg_label_mac1, me->static_pub, mac1_key) &&
	       wg_mac(me->suite, mac1_key, WG_KEY_LEN, msg, at, want) &&
	       CRYPTO_memcmp(want, msg + at, WG_MAC_LEN) == 0;
}

/* The cookie for a source address (IP address and port): MAC(R_m, address). */
static int wg_make_cookie(const struct wg_side *me, const void *addr, size_t addrlen,
			  unsigned char cookie[WG_MAC_LEN])
{
	return wg_mac(me->suite, me->cookie_secret, WG_KEY_LEN, addr, addrlen, cookie);
}

/* Under load, the second check: is mac2 made with the cookie of the address it came from? */
static int wg_mac2_ok(const struct wg_side *me, const unsigned char *msg, size_t at,
		      const void *addr, size_t addrlen)
{
	unsigned char cookie[WG_MAC_LEN], want[WG_MAC_LEN];

	return wg_make_cookie(me, addr, addrlen, cookie) &&
	       wg_mac(me->suite, cookie, WG_MAC_LEN, msg, at + WG_MAC_LEN, want) &&
	       CRYPTO_memcmp(want, msg + at + WG_MAC_LEN, WG_MAC_LEN) == 0;
}

/*
 * Initiation, 148 bytes: type 1, 3 zero bytes, sender index (little-endian),
 * then Noise's first message with the TAI64N timestamp as its payload
 * (ephemeral key 32, encrypted static key 48, encrypted timestamp 28), then
 * mac1 and mac2.  ephemeral: NULL for a fresh key pair (tests give one).
 */
static int wg_create_initiation(struct wg_side *me, const unsigned char *ephemeral,
				const unsigned char timestamp[WG_TIMESTAMP_LEN],
				unsigned char msg[WG_INITIATION_LEN])
{
	memset(msg, 0, WG_INITIATION_LEN);
	msg[0] = WG_INITIATION;
	wg_put_le32(msg + 4, me->index);
	return wg_noise_init(&me->noise, me->suite, me->static_key, me->static_pub,
			     me->peer_pub, me->psk, wg_identifier, strlen(wg_identifier)) &&
	       wg_noise_write_msg1(&me->noise, ephemeral, timestamp, WG_TIMESTAMP_LEN, msg + 8) &&
	       wg_add_macs(me, msg, WG_INITIATION_MAC1);
}

/*
 * The responder takes an initiation: mac1, then Noise; it must come from
 * the peer's static key and carry a timestamp newer than any before, so
 * that a replayed initiation is refused.
 */
static int wg_consume_initiation(struct wg_side *me, const unsigned char *msg, size_t len)
{
	unsigned char timestamp[WG_TIMESTAMP_LEN];

	if (len != WG_INITIATION_LEN || wg_get_le32(msg) != WG_INITIATION)
		return wg_fail("initiation: wrong size or type");
	if (!wg_mac1_ok(me, msg, WG_INITIATION_MAC1))
		return wg_fail("initiation: mac1 is wrong (altered, or not for this responder)");
	if (!wg_noise_init(&me->noise, me->suite, me->static_key, me->static_pub, NULL,
			   me->psk, wg_identifier, strlen(wg_identifier)) ||
	    !wg_noise_read_msg1(&me->noise, msg + 8, WG_NOISE_MSG1_LEN(WG_TIMESTAMP_LEN),
				timestamp))
		return wg_fail("initiation: refused");
	if (CRYPTO_memcmp(me->noise.rs, me->peer_pub, WG_KEY_LEN) != 0)
		return wg_fail("initiation: from an unknown static key");
	if (memcmp(timestamp, me->last_timestamp, WG_TIMESTAMP_LEN) <= 0)
		return wg_fail("initiation: replayed (its timestamp is not newer than the last)");
	memcpy(me->last_timestamp, timestamp, WG_TIMESTAMP_LEN);
	me->peer_index = wg_get_le32(msg + 4);
	return 1;
}

/* Both ends, after the response: the session's keys, counters from 0. */
static int wg_start_session(struct wg_side *me, int initiator)
{
	me->send_counter = 0;
	return wg_noise_split(&me->noise, initiator, me->send_key, me->recv_key);
}

/*
 * Response, 92 bytes: type 2, 3 zero bytes, sender index, receiver index,
 * then Noise's second message with an empty payload (ephemeral key 32,
 * encrypted nothing 16), then mac1 and mac2.
 */
static int wg_create_response(struct wg_side *me, const unsigned char *ephemeral,
			      unsigned char msg[WG_RESPONSE_LEN])
{
	memset(msg, 0, WG_RESPONSE_LEN);
	msg[0] = WG_RESPONSE;
	wg_put_le32(msg + 4, me->index);
	wg_put_le32(msg + 8, me->peer_index);
	return wg_noise_write_msg2(&me->noise, ephemeral, NULL, 0, msg + 12) &&
	       wg_add_macs(me, msg, WG_RESPONSE_MAC1) &&
	       wg_start_session(me, 0);
}

/* The initiator takes the response to its initiation. */
static int wg_consume_response(struct wg_side *me, const unsigned char *msg, size_t len)
{
	unsigned char nothing[1];

	if (len != WG_RESPONSE_LEN || wg_get_le32(msg) != WG_RESPONSE)
		return wg_fail("response: wrong size or type");
	if (wg_get_le32(msg + 8) != me->index)
		return wg_fail("response: not to this initiator's index");
	if (!wg_mac1_ok(me, msg, WG_RESPONSE_MAC1))
		return wg_fail("response: mac1 is wrong");
	if (!wg_noise_read_msg2(&me->noise, msg + 12, WG_NOISE_MSG2_LEN(0), nothing))
		return wg_fail("response: refused");
	me->peer_index = wg_get_le32(msg + 4);
	return wg_start_session(me, 1);
}

/*
 * Transport data, 16 + len + 16 bytes: type 4, 3 zero bytes, receiver
 * index, counter (8 bytes, little-endian), then the packet encrypted with
 * the send key, the counter as nonce and no AD.  An empty packet is a
 * keepalive.
 */
static int wg_create_transport(struct wg_side *me, const void *packet, size_t len,
			       unsigned char *msg)
{
	unsigned char nonce[WG_NONCE_LEN];

	memset(msg, 0, WG_TRANSPORT_HEADER_LEN);
	msg[0] = WG_TRANSPORT;
	wg_put_le32(msg + 4, me->peer_index);
	wg_counter_nonce(me->send_counter++, nonce);
	memcpy(msg + 8, nonce + 4, 8);
	return wg_seal(me->suite->aead, me->send_key, nonce, packet, len, NULL, 0,
		       msg + WG_TRANSPORT_HEADER_LEN);
}

/*
 * The receiver: packet gets len - 32 bytes.  (A real one also checks the
 * counter against a window of those seen, to refuse replays.)
 */
static int wg_consume_transport(struct wg_side *me, const unsigned char *msg, size_t len,
				unsigned char *packet)
{
	unsigned char nonce[WG_NONCE_LEN] = { 0 };

	if (len < WG_TRANSPORT_HEADER_LEN + WG_TAG_LEN || wg_get_le32(msg) != WG_TRANSPORT)
		return wg_fail("transport: wrong size or type");
	if (wg_get_le32(msg + 4) != me->index)
		return wg_fail("transport: not to this side's index");
	memcpy(nonce + 4, msg + 8, 8);
	if (!wg_open(me->suite->aead, me->recv_key, nonce, msg + WG_TRANSPORT_HEADER_LEN,
		     len - WG_TRANSPORT_HEADER_LEN - WG_TAG_LEN, NULL, 0, packet))
		return wg_fail("transport: the packet does not authenticate");
	return 1;
}

/*
 * A responder under load answers a handshake message whose mac2 is wrong
 * with a cookie reply, 64 bytes, instead of doing any DH: type 3, 3 zero
 * bytes, receiver index (the message's sender index), a random 24-byte
 * nonce, and the encrypted cookie (16 + 16):
 *   XAEAD(HASH("cookie--" || own static public key), nonce, cookie,
 *         AD = the message's mac1)
 * The cookie is never stored: wg_mac2_ok() makes it again from the address.
 */
static int wg_create_cookie_reply(struct wg_side *me, const unsigned char *msg, size_t mac1_at,
				  const void *addr, size_t addrlen,
				  unsigned char reply[WG_COOKIE_REPLY_LEN])
{
	unsigned char cookie_key[WG_KEY_LEN], cookie[WG_MAC_LEN];
	int ok;

	if (me->suite->xaead == NULL)
		return wg_fail("cookie reply: no XChaCha20-Poly1305 in this library context");
	memset(reply, 0, WG_COOKIE_REPLY_LEN);
	reply[0] = WG_COOKIE_REPLY;
	memcpy(reply + 4, msg + 4, 4);
	ok = RAND_bytes_ex(me->suite->libctx, reply + 8, WG_XNONCE_LEN, 0) == 1 &&
	     wg_make_cookie(me, addr, addrlen, cookie) &&
	     wg_label_key(me, wg_label_cookie, me->static_pub, cookie_key) &&
	     wg_seal(me->suite->xaead, cookie_key, reply + 8, cookie, WG_MAC_LEN,
		     msg + mac1_at, WG_MAC_LEN, reply + 8 + WG_XNONCE_LEN);
	OPENSSL_cleanse(cookie, sizeof(cookie));
	return ok ? 1 : wg_fail("cookie reply: cannot make one");
}

/* The other end keeps the cookie to key the mac2 of its next message. */
static int wg_consume_cookie_reply(struct wg_side *me, const unsigned char *reply, size_t len)
{
	unsigned char cookie_key[WG_KEY_LEN];

	if (me->suite->xaead == NULL)
		return wg_fail("cookie reply: no XChaCha20-Poly1305 in this library context");
	if (len != WG_COOKIE_REPLY_LEN || wg_get_le32(reply) != WG_COOKIE_REPLY)
		return wg_fail("cookie reply: wrong size or type");
	if (wg_get_le32(reply + 4) != me->index)
		return wg_fail("cookie reply: not to this side's index");
	if (!wg_label_key(me, wg_label_cookie, me->peer_pub, cookie_key))
		return 0;
	if (!wg_open(me->suite->xaead, cookie_key, reply + 8, reply + 8 + WG_XNONCE_LEN, WG_MAC_LEN,
		     me->last_mac1, WG_MAC_LEN, me->cookie))
		return wg_fail("cookie reply: does not authenticate "
			       "(altered, or not for our last message)");
	me->have_cookie = 1;
	return 1;
}

#ifndef WG_HANDSHAKE_NO_MAIN
/* ---- 4. The demonstration ------------------------------------------------- */

/* Where the initiator's packets come from, as the responder sees it: 192.0.2.1, port 51820. */
static const unsigned char initiator_address[6] = { 192, 0, 2, 1, 0xca, 0x6c };

static void show(const char *what, const unsigned char *p, size_t len)
{
	printf("  %-37s %3zu bytes  ", what, len);
	for (size_t i = 0; i < len && i < 16; i++)
		printf("%02x", p[i]);
	printf("%s\n", len > 16 ? "..." : "");
}

/* Loads default (random numbers, HKDF) and zinc into a new library context. */
static OSSL_LIB_CTX *load_providers(OSSL_PROVIDER **dflt, OSSL_PROVIDER **zinc)
{
	const char *dir = getenv("ZINC_MODULE_DIR");
	OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();

	if (libctx == NULL)
		return NULL;
	if (dir != NULL && !OSSL_PROVIDER_set_default_search_path(libctx, dir)) {
		fprintf(stderr, "cannot search ZINC_MODULE_DIR for zinc\n");
		return libctx;
	}
	*dflt = OSSL_PROVIDER_load(libctx, "default");
	*zinc = OSSL_PROVIDER_load(libctx, "zinc");
	if (*dflt == NULL || *zinc == NULL)
		fprintf(stderr, "cannot load the providers (is ZINC_MODULE_DIR right?)\n");
	return libctx;
}

/* Each side with a fresh static key pair, both with one random preshared key. */
static int make_sides(const struct wg_suite *suite, struct wg_side *ini, struct wg_side *resp)
{
	unsigned char ini_pub[WG_KEY_LEN], resp_pub[WG_KEY_LEN], psk[WG_KEY_LEN];
	EVP_PKEY *ini_key = wg_x25519_key(suite, NULL, ini_pub);
	EVP_PKEY *resp_key = wg_x25519_key(suite, NULL, resp_pub);
	uint32_t index[2];
	int ok;

	if (ini_key == NULL || resp_key == NULL ||
	    RAND_bytes_ex(suite->libctx, psk, sizeof(psk), 0) != 1 ||
	    RAND_bytes_ex(suite->libctx, (unsigned char *)index, sizeof(index), 0) != 1) {
		EVP_PKEY_free(ini_key);
		EVP_PKEY_free(resp_key);
		return wg_fail("cannot make the keys");
	}
	/* Each side takes its key pair over, even if it fails. */
	ok = wg_side_init(ini, suite, ini_key, resp_pub, psk, index[0]);
	ok = wg_side_init(resp, suite, resp_key, ini_pub, psk, index[1]) && ok;
	OPENSSL_cleanse(psk, sizeof(psk));
	if (ok) {
		show("initiator's static public key", ini_pub, WG_KEY_LEN);
		show("responder's static public key", resp_pub, WG_KEY_LEN);
	}
	return ok;
}

/* The handshake and one packet each way. */
static int handshake(struct wg_side *ini, struct wg_side *resp)
{
	static const char ping[] = "ping from the initiator";
	static const char pong[] = "pong from the responder";
	unsigned char init_msg[WG_INITIATION_LEN], resp_msg[WG_RESPONSE_LEN], ts[WG_TIMESTAMP_LEN];
	unsigned char data[WG_TRANSPORT_HEADER_LEN + sizeof(ping) + WG_TAG_LEN];
	unsigned char packet[sizeof(ping)];

	wg_timestamp_now(ts);
	if (!wg_create_initiation(ini, NULL, ts, init_msg) ||
	    !wg_consume_initiation(resp, init_msg, sizeof(init_msg)))
		return 0;
	show("initiator -> responder: initiation", init_msg, sizeof(init_msg));
	if (!wg_create_response(resp, NULL, resp_msg) ||
	    !wg_consume_response(ini, resp_msg, sizeof(resp_msg)))
		return 0;
	show("responder -> initiator: response", resp_msg, sizeof(resp_msg));
	if (CRYPTO_memcmp(ini->send_key, resp->recv_key, WG_KEY_LEN) != 0 ||
	    CRYPTO_memcmp(ini->recv_key, resp->send_key, WG_KEY_LEN) != 0)
		return wg_fail("the two sides' session keys differ");
	printf("  both sides hold the same session keys\n");

	if (!wg_create_transport(ini, ping, sizeof(ping), data) ||
	    !wg_consume_transport(resp, data, sizeof(data), packet))
		return 0;
	show("initiator -> responder: data", data, sizeof(data));
	printf("  the responder reads \"%s\"\n", (const char *)packet);
	if (!wg_create_transport(resp, pong, sizeof(pong), data) ||
	    !wg_consume_transport(ini, data, sizeof(data), packet))
		return 0;
	show("responder -> initiator: data", data, sizeof(data));
	printf("  the initiator reads \"%s\"\n", (const char *)packet);
	return 1;
}

/* The responder is under load: the initiator must prove its address with a cookie first. */
static int under_load(struct wg_side *ini, struct wg_side *resp)
{
	unsigned char init_msg[WG_INITIATION_LEN], reply[WG_COOKIE_REPLY_LEN];
	unsigned char resp_msg[WG_RESPONSE_LEN], ts[WG_TIMESTAMP_LEN];

	wg_timestamp_now(ts);
	if (!wg_create_initiation(ini, NULL, ts, init_msg))
		return 0;
	show("initiator -> responder: initiation", init_msg, sizeof(init_msg));
	/* mac1 is good, but mac2 is zeros: no DH, a cookie reply instead. */
	if (!wg_mac1_ok(resp, init_msg, WG_INITIATION_MAC1) ||
	    wg_mac2_ok(resp, init_msg, WG_INITIATION_MAC1, initiator_address,
		       sizeof(initiator_address)))
		return wg_fail("the responder should have asked for a cookie");
	if (!wg_create_cookie_reply(resp, init_msg, WG_INITIATION_MAC1, initiator_address,
				    sizeof(initiator_address), reply) ||
	    !wg_consume_cookie_reply(ini, reply, sizeof(reply)))
		return 0;
	show("responder -> initiator: cookie reply", reply, sizeof(reply));

	/* Again, with mac2 now keyed with the cookie. */
	wg_timestamp_now(ts);
	if (!wg_create_initiation(ini, NULL, ts, init_msg))
		return 0;
	show("initiator -> responder: initiation", init_msg, sizeof(init_msg));
	if (!wg_mac2_ok(resp, init_msg, WG_INITIATION_MAC1, initiator_address,
			sizeof(initiator_address)))
		return wg_fail("mac2 does not carry the cookie");
	printf("  mac2 proves the initiator's address: the responder goes on\n");
	if (!wg_consume_initiation(resp, init_msg, sizeof(init_msg)) ||
	    !wg_create_response(resp, NULL, resp_msg) ||
	    !wg_consume_response(ini, resp_msg, sizeof(resp_msg)))
		return 0;
	show("responder -> initiator: response", resp_msg, sizeof(resp_msg));
	printf("  a new session\n");
	return 1;
}

int main(void)
{
	OSSL_PROVIDER *dflt = NULL, *zinc = NULL;
	OSSL_LIB_CTX *libctx = load_providers(&dflt, &zinc);
	struct wg_suite suite;
	struct wg_side ini, resp;
	int ok = 0;

	memset(&suite, 0, sizeof(suite));
	memset(&ini, 0, sizeof(ini));
	memset(&resp, 0, sizeof(resp));
	if (zinc == NULL || dflt == NULL || !wg_suite_init(&suite, libctx, "zinc"))
		goto out;
	printf("Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s as WireGuard uses it, all from %s\n",
	       suite.provider);
	if (!make_sides(&suite, &ini, &resp))
		goto out;
	printf("The handshake:\n");
	if (!handshake(&ini, &resp))
		goto out;
	printf("The responder under load:\n");
	if (!under_load(&ini, &resp))
		goto out;
	ok = 1;
out:
	if (!ok) {
		fprintf(stderr, "wg-handshake: failed\n");
		ERR_print_errors_fp(stderr);
	}
	wg_side_free(&ini);
	wg_side_free(&resp);
	wg_suite_free(&suite);
	if (zinc != NULL)
		OSSL_PROVIDER_unload(zinc);
	if (dflt != NULL)
		OSSL_PROVIDER_unload(dflt);
	OSSL_LIB_CTX_free(libctx);
	return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
#endif /* WG_HANDSHAKE_NO_MAIN */
