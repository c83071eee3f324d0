/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EVP_KEYMGMT "X25519": the same parameters and behaviour as OpenSSL's
 * default provider, so that keys move between the two by export and import
 * (`pub`, `priv`), and libssl finds what it uses (`encoded-pub-key`, the
 * `group` generation parameter, parameter-only generation and dup).
 */
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include "algorithms.h"
#include "core_version.h"
#include "ossl_compat.h"
#include "report.h"
#include "x25519_key.h"
#include "zinc_err.h"
#include "zinc_prov.h"

enum {
	X25519_BITS = 253,
	X25519_SECURITY_BITS = 128
};

struct zinc_x25519_key *zinc_x25519_key_new(struct zinc_provctx *provctx)
{
	struct zinc_x25519_key *key = OPENSSL_zalloc(sizeof(*key));

	if (key == NULL) {
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		return NULL;
	}
	key->provctx = provctx;
	return key;
}

void zinc_x25519_key_free(struct zinc_x25519_key *key)
{
	OPENSSL_clear_free(key, sizeof(*key));
}

static void *x25519_new(void *provctx)
{
	return zinc_x25519_key_new(provctx);
}

static void x25519_free(void *keydata)
{
	zinc_x25519_key_free(keydata);
}

/* Selections without key parts (domain parameters) are always there: X25519 has none. */
static int x25519_has(const void *keydata, int selection)
{
	const struct zinc_x25519_key *key = keydata;

	if (key == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && !key->has_pub)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !key->has_priv)
		return 0;
	return 1;
}

/*
 * As default: public keys are compared when both have one, else private
 * keys when the selection allows; something must have been compared.
 */
static int x25519_match(const void *keydata1, const void *keydata2, int selection)
{
	const struct zinc_x25519_key *a = keydata1, *b = keydata2;

	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
		return 1;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && a->has_pub && b->has_pub)
		return memcmp(a->pub, b->pub, sizeof(a->pub)) == 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && a->has_priv && b->has_priv)
		return zinc_memeq(a->priv, b->priv, sizeof(a->priv));
	return 0;
}

/* Whether pub is X25519(priv, 9): the pairwise check. */
static bool x25519_pairwise(const struct zinc_x25519_key *key)
{
	uint8_t pub[CURVE25519_KEY_SIZE];
	bool ok;

	curve25519_generate_public(pub, key->priv);
	ok = zinc_memeq(pub, key->pub, sizeof(pub));
	OPENSSL_cleanse(pub, sizeof(pub));
	return ok;
}

/* Any 32 bytes are a public key; a key pair must be consistent. */
static int x25519_validate(const void *keydata, int selection, int checktype)
{
	const struct zinc_x25519_key *key = keydata;

	(void)checktype;
	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
		return 1;
	if (!x25519_has(key, selection))
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == OSSL_KEYMGMT_SELECT_KEYPAIR)
		return x25519_pairwise(key);
	return 1;
}

static void *x25519_dup(const void *keydata, int selection)
{
	const struct zinc_x25519_key *src = keydata;
	struct zinc_x25519_key *dst = zinc_x25519_key_new(src->provctx);

	if (dst == NULL)
		return NULL;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && src->has_pub) {
		memcpy(dst->pub, src->pub, sizeof(dst->pub));
		dst->has_pub = true;
	}
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && src->has_priv) {
		memcpy(dst->priv, src->priv, sizeof(dst->priv));
		dst->has_priv = true;
	}
	return dst;
}

/* Locates a 32-byte octet string; 0 if present but malformed (error raised). */
static int get_key_bytes(const struct zinc_provctx *provctx, const OSSL_PARAM params[],
			 const char *name, const void **bytes)
{
	const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
	size_t len;

	*bytes = NULL;
	if (p == NULL)
		return 1;
	if (!OSSL_PARAM_get_octet_string_ptr(p, bytes, &len)) {
		ZINC_RAISE(provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	if (len != CURVE25519_KEY_SIZE) {
		ZINC_RAISE(provctx, ZINC_R_INVALID_KEY_LENGTH);
		return 0;
	}
	return 1;
}

/*
 * As default: a private key is read only if the selection asks for it; a
 * public key given with it is taken as is, a missing one is computed.
 */
static int x25519_import(void *keydata, int selection, const OSSL_PARAM params[])
{
	struct zinc_x25519_key *key = keydata;
	const void *pub = NULL, *priv = NULL;

	if (key == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
		return 1;
	if (!get_key_bytes(key->provctx, params, OSSL_PKEY_PARAM_PUB_KEY, &pub))
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 &&
	    !get_key_bytes(key->provctx, params, OSSL_PKEY_PARAM_PRIV_KEY, &priv))
		return 0;
	if (pub == NULL && priv == NULL) {
		ZINC_RAISE(key->provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	if (priv != NULL) {
		memcpy(key->priv, priv, sizeof(key->priv));
		key->has_priv = true;
	}
	if (pub != NULL)
		memcpy(key->pub, pub, sizeof(key->pub));
	else
		curve25519_generate_public(key->pub, key->priv);
	key->has_pub = true;
	return 1;
}

static const OSSL_PARAM x25519_key_types[] = {
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *x25519_imexport_types(int selection)
{
	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0)
		return x25519_key_types;
	return NULL;
}

/*
 * As default: the parts the key has within the selection.  A private key
 * asked for but absent is left out rather than failing the export, because
 * libcrypto moves every key to another provider with the whole selection
 * (a peer's public key included); whoever needs the private part finds it
 * missing.  A key with nothing selected to give fails.
 */
static int x25519_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
	struct zinc_x25519_key *key = keydata;
	OSSL_PARAM params[3];
	size_t n = 0;

	if (key == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0) {
		if (key->has_pub)
			params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
									key->pub, sizeof(key->pub));
		if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && key->has_priv)
			params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY,
									key->priv, sizeof(key->priv));
		if (n == 0) {
			ZINC_RAISE(key->provctx, ZINC_R_NO_KEY_SET);
			return 0;
		}
	}
	params[n] = OSSL_PARAM_construct_end();
	return cb(params, cbarg);
}

static int x25519_get_params(void *keydata, OSSL_PARAM params[])
{
	struct zinc_x25519_key *key = keydata;
	OSSL_PARAM *p;

	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL &&
	    !OSSL_PARAM_set_int(p, X25519_BITS))
		goto bad;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL &&
	    !OSSL_PARAM_set_int(p, X25519_SECURITY_BITS))
		goto bad;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL &&
	    !OSSL_PARAM_set_int(p, CURVE25519_KEY_SIZE))
		goto bad;
	/* 0: not a post-quantum security category (3.6+). */
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_CATEGORY)) != NULL &&
	    !OSSL_PARAM_set_int(p, 0))
		goto bad;
	if (key->has_pub) {
		if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) != NULL &&
		    !OSSL_PARAM_set_octet_string(p, key->pub, sizeof(key->pub)))
			goto bad;
		if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) != NULL &&
		    !OSSL_PARAM_set_octet_string(p, key->pub, sizeof(key->pub)))
			goto bad;
	}
	if (key->has_priv &&
	    (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL &&
	    !OSSL_PARAM_set_octet_string(p, key->priv, sizeof(key->priv)))
		goto bad;
	return 1;
bad:
	ZINC_RAISE(key->provctx, ZINC_R_FAILED_TO_GET_PARAMETER);
	return 0;
}

static const OSSL_PARAM x25519_gettable[] = {
	OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
	OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
	OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
	OSSL_PARAM_END
};

/* 3.6 added security-category and reordered the list: default's order, as both tell. */
static const OSSL_PARAM x25519_gettable_3_6[] = {
	OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
	OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
	OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
	OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_CATEGORY, NULL),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *x25519_gettable_params(void *provctx)
{
	(void)provctx;
	return zinc_core_at_least(3, 6) ? x25519_gettable_3_6 : x25519_gettable;
}

/*
 * A well-formed property query is accepted and not used: zinc's one fetch
 * for a key (HKDF-SHA256, for dhkem-ikm) goes by the context's default
 * properties, since a query that chose zinc's key manager (provider=zinc)
 * would keep HKDF out of reach.
 */
static int check_properties(const struct zinc_provctx *provctx, const OSSL_PARAM params[])
{
	const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PROPERTIES);

	if (p != NULL && p->data_type != OSSL_PARAM_UTF8_STRING) {
		ZINC_RAISE(provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	return 1;
}

/*
 * libssl sets the peer's key share as `encoded-pub-key` on a parameter-only
 * key.  As default, the key becomes that public key alone.
 */
static int x25519_set_params(void *keydata, const OSSL_PARAM params[])
{
	struct zinc_x25519_key *key = keydata;
	const OSSL_PARAM *p;
	const void *pub;
	size_t len;

	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
	if (p != NULL) {
		if (!OSSL_PARAM_get_octet_string_ptr(p, &pub, &len)) {
			ZINC_RAISE(key->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
			return 0;
		}
		if (len != CURVE25519_KEY_SIZE) {
			ZINC_RAISE(key->provctx, ZINC_R_INVALID_KEY_LENGTH);
			return 0;
		}
		memcpy(key->pub, pub, sizeof(key->pub));
		key->has_pub = true;
		OPENSSL_cleanse(key->priv, sizeof(key->priv));
		key->has_priv = false;
	}
	return check_properties(key->provctx, params);
}

static const OSSL_PARAM x25519_settable[] = {
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_PROPERTIES, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *x25519_settable_params(void *provctx)
{
	(void)provctx;
	return x25519_settable;
}

struct x25519_gen {
	struct zinc_provctx *provctx;
	int selection;
	/* dhkem-ikm, in secure memory; NULL: the key is random. */
	unsigned char *dhkem_ikm;
	size_t dhkem_ikm_len;
};

static void clear_dhkem_ikm(struct x25519_gen *gen)
{
	OPENSSL_secure_clear_free(gen->dhkem_ikm, gen->dhkem_ikm_len);
	gen->dhkem_ikm = NULL;
	gen->dhkem_ikm_len = 0;
}

/*
 * As default (3.2 on): an empty IKM is ignored, a new one replaces the
 * last, and one that is not an octet string leaves none.  Its length is
 * checked at generation, as default does.
 */
static int set_dhkem_ikm(struct x25519_gen *gen, const OSSL_PARAM *p)
{
	if (p->data == NULL || p->data_size == 0)
		return 1;
	clear_dhkem_ikm(gen);
	if (p->data_type != OSSL_PARAM_OCTET_STRING) {
		ZINC_RAISE(gen->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	gen->dhkem_ikm = OPENSSL_secure_malloc(p->data_size);
	if (gen->dhkem_ikm == NULL) {
		ZINC_RAISE(gen->provctx, ZINC_R_OUT_OF_MEMORY);
		return 0;
	}
	memcpy(gen->dhkem_ikm, p->data, p->data_size);
	gen->dhkem_ikm_len = p->data_size;
	return 1;
}

static int x25519_gen_set_params(void *vgen, const OSSL_PARAM params[])
{
	struct x25519_gen *gen = vgen;
	const OSSL_PARAM *p;

	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);
	/* libssl passes the group's internal name "X25519": compare as default, without case. */
	if (p != NULL && (p->data_type != OSSL_PARAM_UTF8_STRING || p->data == NULL ||
			  OPENSSL_strcasecmp(p->data, "x25519") != 0)) {
		ZINC_RAISE(gen->provctx, ZINC_R_INVALID_GROUP);
		return 0;
	}
	if (!check_properties(gen->provctx, params))
		return 0;
	/* Before 3.2 default knows no dhkem-ikm and ignores it: so does zinc. */
	if (zinc_core_at_least(3, 2) &&
	    (p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_DHKEM_IKM)) != NULL)
		return set_dhkem_ikm(gen, p);
	return 1;
}

static void x25519_gen_cleanup(void *vgen)
{
	struct x25519_gen *gen = vgen;

	if (gen == NULL)
		return;
	clear_dhkem_ikm(gen);
	OPENSSL_free(gen);
}

static void *x25519_gen_init(void *provctx, int selection, const OSSL_PARAM params[])
{
	struct x25519_gen *gen = OPENSSL_zalloc(sizeof(*gen));

	if (gen == NULL) {
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		return NULL;
	}
	gen->provctx = provctx;
	gen->selection = selection;
	if (!x25519_gen_set_params(gen, params)) {
		x25519_gen_cleanup(gen);
		return NULL;
	}
	return gen;
}

/* In default's order; dhkem-ikm where the loading release's default has it. */
static const OSSL_PARAM x25519_gen_settable[] = {
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_PROPERTIES, NULL, 0),
	OSSL_PARAM_END
};
static const OSSL_PARAM x25519_gen_settable_dhkem[] = {
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_PROPERTIES, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_DHKEM_IKM, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *x25519_gen_settable_params(void *vgen, void *provctx)
{
	(void)vgen;
	(void)provctx;
	return zinc_core_at_least(3, 2) ? x25519_gen_settable_dhkem : x25519_gen_settable;
}

/*
 * RFC 9180's labels for DHKEM(X25519, HKDF-SHA256), whose suite_id is
 * "KEM" || I2OSP(0x0020, 2).  DeriveKeyPair's
 *   dkp_prk = LabeledExtract("", "dkp_prk", ikm)
 *   sk = LabeledExpand(dkp_prk, "sk", "", 32)
 * extracts from "HPKE-v1" || suite_id || "dkp_prk" || ikm and expands
 * with the info I2OSP(32, 2) || "HPKE-v1" || suite_id || "sk".
 */
#define DHKEM_X25519_SUITE_ID "KEM\x00\x20"
static const char dkp_prk_label[] = "HPKE-v1" DHKEM_X25519_SUITE_ID "dkp_prk";
static const char sk_info[] = "\x00\x20" "HPKE-v1" DHKEM_X25519_SUITE_ID "sk";

/*
 * HKDF-SHA256 from the loading context under its default properties: zinc
 * offers neither HKDF nor SHA-256, so the fetch cannot come back into zinc.
 * Where provider=zinc is required the fetch fails; "-provider" would not
 * help, as default's HKDF fetches its HMAC under those properties anyway.
 */
static EVP_KDF_CTX *hkdf_sha256(const struct zinc_provctx *provctx)
{
	EVP_KDF *kdf = EVP_KDF_fetch(provctx->libctx, "HKDF", NULL);
	EVP_KDF_CTX *kctx = kdf == NULL ? NULL : EVP_KDF_CTX_new(kdf);
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA256", 0),
		OSSL_PARAM_END
	};

	EVP_KDF_free(kdf);
	if (kctx == NULL || !EVP_KDF_CTX_set_params(kctx, params)) {
		EVP_KDF_CTX_free(kctx);
		ZINC_RAISE(provctx, ZINC_R_DHKEM_HKDF_UNAVAILABLE);
		return NULL;
	}
	return kctx;
}

/* HKDF in mode, keyed with key (and info, for expansion), into out. */
static bool hkdf_step(EVP_KDF_CTX *kctx, int mode, const void *key, size_t key_len,
		      const void *info, size_t info_len, uint8_t out[CURVE25519_KEY_SIZE])
{
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
		OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)key, key_len),
		OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_len),
		OSSL_PARAM_END
	};

	if (info == NULL)
		params[2] = OSSL_PARAM_construct_end();
	return EVP_KDF_derive(kctx, out, CURVE25519_KEY_SIZE, params) > 0;
}

/* RFC 9180 DeriveKeyPair's private key, unclamped; as default, the IKM needs Nsk = 32 bytes. */
static bool dhkem_derive_private(const struct zinc_provctx *provctx, const unsigned char *ikm,
				 size_t ikm_len, uint8_t priv[CURVE25519_KEY_SIZE])
{
	const size_t label_len = sizeof(dkp_prk_label) - 1;
	uint8_t dkp_prk[CURVE25519_KEY_SIZE];	/* SHA-256's size */
	unsigned char *labeled_ikm = NULL;
	EVP_KDF_CTX *kctx = NULL;
	bool ok = false;

	if (ikm_len < CURVE25519_KEY_SIZE) {
		ZINC_RAISE_DATA(provctx, ZINC_R_INVALID_INPUT_LENGTH,
				"dhkem-ikm needs at least 32 bytes");
		return false;
	}
	if ((kctx = hkdf_sha256(provctx)) == NULL)
		return false;
	labeled_ikm = OPENSSL_secure_malloc(label_len + ikm_len);
	if (labeled_ikm == NULL) {
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		goto out;
	}
	memcpy(labeled_ikm, dkp_prk_label, label_len);
	memcpy(labeled_ikm + label_len, ikm, ikm_len);
	ok = hkdf_step(kctx, EVP_KDF_HKDF_MODE_EXTRACT_ONLY, labeled_ikm, label_len + ikm_len,
		       NULL, 0, dkp_prk) &&
	     hkdf_step(kctx, EVP_KDF_HKDF_MODE_EXPAND_ONLY, dkp_prk, sizeof(dkp_prk),
		       sk_info, sizeof(sk_info) - 1, priv);
	if (!ok)
		ZINC_RAISE(provctx, ZINC_R_DHKEM_DERIVATION_FAILED);
out:
	OPENSSL_secure_clear_free(labeled_ikm, label_len + ikm_len);
	OPENSSL_cleanse(dkp_prk, sizeof(dkp_prk));
	EVP_KDF_CTX_free(kctx);
	return ok;
}

/*
 * Parameter generation (libssl's, for a peer's key share) gives an empty
 * key, as default.  The private key is random, or derived from dhkem-ikm.
 */
static void *x25519_gen(void *vgen, OSSL_CALLBACK *cb, void *cbarg)
{
	struct x25519_gen *gen = vgen;
	struct zinc_x25519_key *key;
	bool ok;

	(void)cb;
	(void)cbarg;
	key = zinc_x25519_key_new(gen->provctx);
	if (key == NULL || (gen->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
		return key;
	if (gen->dhkem_ikm != NULL)
		ok = dhkem_derive_private(gen->provctx, gen->dhkem_ikm, gen->dhkem_ikm_len,
					  key->priv);
	else
		ok = zinc_random_bytes(gen->provctx, key->priv, sizeof(key->priv));
	if (!ok) {
		zinc_x25519_key_free(key);
		return NULL;
	}
	/* Default stores the private key clamped, a derived one too. */
	curve25519_clamp_secret(key->priv);
	curve25519_generate_public(key->pub, key->priv);
	key->has_priv = true;
	key->has_pub = true;
	zinc_report(ZINC_EV_X25519_KEYGEN);
	return key;
}

/* See x25519_key.h: the reference is a key pointer whose key moves here. */
static void *x25519_load(const void *reference, size_t reference_sz)
{
	struct zinc_x25519_key_ref *ref = (struct zinc_x25519_key_ref *)reference;
	struct zinc_x25519_key *key;

	if (ref == NULL || reference_sz != sizeof(*ref))
		return NULL;
	key = ref->key;
	ref->key = NULL;
	return key;
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_keymgmt_new_fn x25519_new;
static OSSL_FUNC_keymgmt_free_fn x25519_free;
static OSSL_FUNC_keymgmt_has_fn x25519_has;
static OSSL_FUNC_keymgmt_match_fn x25519_match;
static OSSL_FUNC_keymgmt_validate_fn x25519_validate;
static OSSL_FUNC_keymgmt_dup_fn x25519_dup;
static OSSL_FUNC_keymgmt_import_fn x25519_import;
static OSSL_FUNC_keymgmt_import_types_fn x25519_imexport_types;
static OSSL_FUNC_keymgmt_export_fn x25519_export;
static OSSL_FUNC_keymgmt_export_types_fn x25519_imexport_types;
static OSSL_FUNC_keymgmt_get_params_fn x25519_get_params;
static OSSL_FUNC_keymgmt_gettable_params_fn x25519_gettable_params;
static OSSL_FUNC_keymgmt_set_params_fn x25519_set_params;
static OSSL_FUNC_keymgmt_settable_params_fn x25519_settable_params;
static OSSL_FUNC_keymgmt_gen_init_fn x25519_gen_init;
static OSSL_FUNC_keymgmt_gen_set_params_fn x25519_gen_set_params;
static OSSL_FUNC_keymgmt_gen_settable_params_fn x25519_gen_settable_params;
static OSSL_FUNC_keymgmt_gen_fn x25519_gen;
static OSSL_FUNC_keymgmt_gen_cleanup_fn x25519_gen_cleanup;
static OSSL_FUNC_keymgmt_load_fn x25519_load;

const OSSL_DISPATCH zinc_x25519_keymgmt_functions[] = {
	{ OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))x25519_new },
	{ OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))x25519_free },
	{ OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))x25519_has },
	{ OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))x25519_match },
	{ OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))x25519_validate },
	{ OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))x25519_dup },
	{ OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))x25519_import },
	{ OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))x25519_imexport_types },
	{ OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))x25519_export },
	{ OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))x25519_imexport_types },
	{ OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))x25519_get_params },
	{ OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))x25519_gettable_params },
	{ OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))x25519_set_params },
	{ OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, (void (*)(void))x25519_settable_params },
	{ OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))x25519_gen_init },
	{ OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))x25519_gen_set_params },
	{ OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))x25519_gen_settable_params },
	{ OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))x25519_gen },
	{ OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))x25519_gen_cleanup },
	{ OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))x25519_load },
	{ 0, NULL }
};
