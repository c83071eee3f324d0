/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 encoders with the default provider's output, byte for byte:
 * SubjectPublicKeyInfo and PrivateKeyInfo (RFC 8410) in DER and PEM, the
 * text of `openssl pkey -text`, and PrivateKeyInfo encrypted under a
 * passphrase (EncryptedPrivateKeyInfo), which a "cipher" parameter asks of
 * the PrivateKeyInfo encoders too, as in default.  Encryption is libcrypto's
 * PKCS#8 code, fetching its cipher and KDF in zinc's child library context:
 * with the loading context's providers, not zinc's own.
 */
#include <stdio.h>
#include <string.h>
#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include "algorithms.h"
#include "core_version.h"
#include "ossl_compat.h"
#include "x25519_key.h"
#include "zinc_err.h"
#include "zinc_prov.h"

const uint8_t zinc_x25519_spki_prefix[ZINC_X25519_SPKI_PREFIX_LEN] = {
	0x30, 0x2a,			/* SubjectPublicKeyInfo SEQUENCE */
	0x30, 0x05,			/*   AlgorithmIdentifier SEQUENCE */
	0x06, 0x03, 0x2b, 0x65, 0x6e,	/*     id-X25519, no parameters */
	0x03, 0x21, 0x00		/*   BIT STRING, 0 unused bits */
};

const uint8_t zinc_x25519_pkcs8_prefix[ZINC_X25519_PKCS8_PREFIX_LEN] = {
	0x30, 0x2e,			/* PrivateKeyInfo SEQUENCE */
	0x02, 0x01, 0x00,		/*   version v1 */
	0x30, 0x05,			/*   AlgorithmIdentifier SEQUENCE */
	0x06, 0x03, 0x2b, 0x65, 0x6e,	/*     id-X25519, no parameters */
	0x04, 0x22,			/*   privateKey OCTET STRING */
	0x04, 0x20			/*     CurvePrivateKey OCTET STRING */
};

enum x25519_structure { X25519_TEXT, X25519_SPKI, X25519_PKI, X25519_EPKI };

struct x25519_encoder {
	struct zinc_provctx *provctx;
	EVP_CIPHER *cipher;	/* set: the private key goes out encrypted */
};

static void *encoder_newctx(void *provctx)
{
	struct x25519_encoder *ctx = OPENSSL_zalloc(sizeof(*ctx));

	if (ctx == NULL) {
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		return NULL;
	}
	ctx->provctx = provctx;
	return ctx;
}

static void encoder_freectx(void *vctx)
{
	struct x25519_encoder *ctx = vctx;

	if (ctx == NULL)
		return;
	EVP_CIPHER_free(ctx->cipher);
	OPENSSL_free(ctx);
}

static const OSSL_PARAM encoder_settable[] = {
	OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_PROPERTIES, NULL, 0),
	OSSL_PARAM_END
};

/*
 * 3.6's default takes two more, which change nothing for X25519: it has no
 * domain parameters to save, and one private key format.
 */
static const OSSL_PARAM encoder_settable_3_6[] = {
	OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_PROPERTIES, NULL, 0),
	OSSL_PARAM_int(OSSL_ENCODER_PARAM_SAVE_PARAMETERS, NULL),
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_OUTPUT_FORMATS, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *encoder_settable_ctx_params(void *provctx)
{
	(void)provctx;
	return zinc_core_at_least(3, 6) ? encoder_settable_3_6 : encoder_settable;
}

/* A UTF-8 parameter's string, NULL when absent or given as NULL (no cipher). */
static int get_utf8(const struct zinc_provctx *provctx, const OSSL_PARAM params[],
		    const char *name, const char **value)
{
	const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);

	*value = NULL;
	if (p == NULL)
		return 1;
	if (p->data_type != OSSL_PARAM_UTF8_STRING) {
		ZINC_RAISE(provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	*value = p->data;
	return 1;
}

/*
 * As default: naming a cipher fetches it now (failing if it cannot be had),
 * naming none turns encryption off; the properties go with the cipher.
 */
static int encoder_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct x25519_encoder *ctx = vctx;
	const OSSL_PARAM *save = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_SAVE_PARAMETERS);
	const OSSL_PARAM *formats = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_OUTPUT_FORMATS);
	const char *name, *props;
	int unused;

	/* From 3.6, taken (and of no effect) if of the right type, as default does. */
	if (zinc_core_at_least(3, 6) &&
	    ((save != NULL && !OSSL_PARAM_get_int(save, &unused)) ||
	     (formats != NULL && formats->data_type != OSSL_PARAM_UTF8_STRING))) {
		ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	if (OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_CIPHER) == NULL)
		return 1;
	if (!get_utf8(ctx->provctx, params, OSSL_ENCODER_PARAM_CIPHER, &name) ||
	    !get_utf8(ctx->provctx, params, OSSL_ENCODER_PARAM_PROPERTIES, &props))
		return 0;
	EVP_CIPHER_free(ctx->cipher);
	ctx->cipher = NULL;
	if (name == NULL)
		return 1;
	ctx->cipher = EVP_CIPHER_fetch(ctx->provctx->libctx, name, props);
	if (ctx->cipher == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	return 1;
}

/*
 * As default, a selection is a level: the private key includes the public
 * key, which includes the (absent) parameters; text prints any of them.
 */
static int does_selection(enum x25519_structure structure, int selection)
{
	if (selection == 0 || structure == X25519_TEXT)
		return 1;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
		return structure == X25519_PKI || structure == X25519_EPKI;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
		return structure == X25519_SPKI;
	return 0;
}

/* The keymgmt's own import, so that keys from other providers get its checks. */
static void *encoder_import_object(void *vctx, int selection, const OSSL_PARAM params[])
{
	struct x25519_encoder *ctx = vctx;
	OSSL_FUNC_keymgmt_import_fn *import = NULL;
	struct zinc_x25519_key *key;

	for (const OSSL_DISPATCH *f = zinc_x25519_keymgmt_functions; f->function_id != 0; f++)
		if (f->function_id == OSSL_FUNC_KEYMGMT_IMPORT)
			import = OSSL_FUNC_keymgmt_import(f);
	key = zinc_x25519_key_new(ctx->provctx);
	if (key == NULL || import == NULL || !import(key, selection, params)) {
		zinc_x25519_key_free(key);
		return NULL;
	}
	return key;
}

static void encoder_free_object(void *key)
{
	zinc_x25519_key_free(key);
}

/*
 * Digits of secret values without a table or a branch: (k - v) >> 8 is
 * nonzero exactly when v > k (v < 256), and moves v into the next range.
 */
static char hex_digit(unsigned int v)
{
	return (char)('0' + v + (((9u - v) >> 8) & ('a' - '0' - 10)));
}

static char base64_digit(unsigned int v)
{
	unsigned int c = 'A' + v;

	c += ((25u - v) >> 8) & ('a' - 'A' - 26);
	c -= ((51u - v) >> 8) & ('a' + 26 - '0');
	c -= ((61u - v) >> 8) & ('0' + 10 - '+');
	c += ((62u - v) >> 8) & ('/' - '+' - 1);
	return (char)c;
}

/*
 * PEM as PEM_write_bio writes it, for the unencrypted structures: at most 48
 * bytes, so one line of base64, written here without secret-indexed tables.
 */
static int write_pem(BIO *out, const char *label, const uint8_t *der, size_t len)
{
	char pem[160];
	size_t n, i;
	int ok;

	n = (size_t)snprintf(pem, sizeof(pem), "-----BEGIN %s-----\n", label);
	for (i = 0; i + 3 <= len; i += 3) {
		pem[n++] = base64_digit(der[i] >> 2);
		pem[n++] = base64_digit(((der[i] & 3u) << 4) | (der[i + 1] >> 4));
		pem[n++] = base64_digit(((der[i + 1] & 15u) << 2) | (der[i + 2] >> 6));
		pem[n++] = base64_digit(der[i + 2] & 63u);
	}
	if (i < len) {
		unsigned int b1 = i + 1 < len ? der[i + 1] : 0;

		pem[n++] = base64_digit(der[i] >> 2);
		pem[n++] = base64_digit(((der[i] & 3u) << 4) | (b1 >> 4));
		/* Whether a second byte remains is public: the DER length. */
		if (i + 1 < len)
			pem[n++] = base64_digit((b1 & 15u) << 2);
		else
			pem[n++] = '=';
		pem[n++] = '=';
	}
	n += (size_t)snprintf(pem + n, sizeof(pem) - n, "\n-----END %s-----\n", label);
	ok = BIO_write(out, pem, (int)n) == (int)n;
	OPENSSL_cleanse(pem, sizeof(pem));
	return ok;
}

/* Copies s without its terminator to out + n; returns the new length. */
static size_t append(char *out, size_t n, const char *s)
{
	while (*s != '\0')
		out[n++] = *s++;
	return n;
}

/*
 * Appends default's layout: the label, then 15 bytes a line (16 from 4.0),
 * "xx:" separated.
 */
static size_t format_labeled(char *out, const char *label, const uint8_t *buf, size_t len)
{
	const size_t per_line = zinc_core_at_least(4, 0) ? 16 : 15;
	size_t n = append(out, 0, label);

	for (size_t i = 0; i < len; i++) {
		if (i % per_line == 0)
			n = append(out, n, "\n    ");
		out[n++] = hex_digit(buf[i] >> 4);
		out[n++] = hex_digit(buf[i] & 15);
		if (i + 1 < len)
			out[n++] = ':';
	}
	out[n++] = '\n';
	return n;
}

/*
 * As default: a header for the highest part selected, which the key must
 * have; the private key if selected; the public key in every case.
 */
static int encode_text(const struct zinc_x25519_key *key, BIO *out, int selection)
{
	char text[512];
	size_t n = 0;
	int ok;

	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
		if (!key->has_priv)
			goto missing;
		n = strlen("X25519 Private-Key:\n");
		memcpy(text, "X25519 Private-Key:\n", n);
		n += format_labeled(text + n, "priv:", key->priv, sizeof(key->priv));
	} else if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) {
		if (!key->has_pub)
			goto missing;
		n = strlen("X25519 Public-Key:\n");
		memcpy(text, "X25519 Public-Key:\n", n);
	}
	if (key->has_pub)
		n += format_labeled(text + n, "pub:", key->pub, sizeof(key->pub));
	ok = BIO_write(out, text, (int)n) == (int)n;
	OPENSSL_cleanse(text, sizeof(text));
	return ok;
missing:
	ZINC_RAISE(key->provctx, ZINC_R_NO_KEY_SET);
	return 0;
}

/* PKCS#8 encryption of a PrivateKeyInfo under the caller's passphrase. */
static X509_SIG *encrypt_pki(const struct x25519_encoder *ctx, const uint8_t *der, size_t len,
			     OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
	const unsigned char *p = der;
	PKCS8_PRIV_KEY_INFO *p8;
	X509_SIG *sig = NULL;
	char pass[1024];
	size_t passlen = 0;

	if (cb == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NULL_ARGUMENT);
		return NULL;
	}
	/* A failing callback has said why. */
	if (!cb(pass, sizeof(pass), &passlen, NULL, cbarg) || passlen > sizeof(pass))
		return NULL;
	p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)len);
	if (p8 != NULL)
		sig = PKCS8_encrypt_ex(-1, ctx->cipher, pass, (int)passlen, NULL, 0, 0, p8,
				       ctx->provctx->libctx, NULL);
	PKCS8_PRIV_KEY_INFO_free(p8);
	OPENSSL_cleanse(pass, sizeof(pass));
	return sig;
}

static int encode_epki(const struct x25519_encoder *ctx, BIO *out, bool pem, const uint8_t *der,
		       size_t len, OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
	X509_SIG *sig;
	int ok;

	if (ctx->cipher == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NOT_INITIALISED);
		return 0;
	}
	sig = encrypt_pki(ctx, der, len, cb, cbarg);
	if (sig == NULL)
		return 0;
	ok = pem ? PEM_write_bio_PKCS8(out, sig) : i2d_PKCS8_bio(out, sig);
	X509_SIG_free(sig);
	return ok;
}

static int encode(struct x25519_encoder *ctx, OSSL_CORE_BIO *cout, const void *obj_raw,
		  const OSSL_PARAM obj_abstract[], int selection, OSSL_PASSPHRASE_CALLBACK *cb,
		  void *cbarg, enum x25519_structure structure, bool pem)
{
	const struct zinc_x25519_key *key = obj_raw;
	uint8_t der[ZINC_X25519_PKCS8_PREFIX_LEN + CURVE25519_KEY_SIZE];
	const char *label;
	size_t len;
	BIO *out;
	int ok = 0;

	/* Keys reach the encoders as zinc keys (import_object makes them so). */
	if (key == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NULL_ARGUMENT);
		return 0;
	}
	if (obj_abstract != NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_MODE);
		return 0;
	}
	/* As default: each structure writes the one part it holds, if selected. */
	if ((structure == X25519_SPKI && (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) == 0) ||
	    ((structure == X25519_PKI || structure == X25519_EPKI) &&
	     (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0)) {
		ZINC_RAISE(ctx->provctx, ZINC_R_INVALID_MODE);
		return 0;
	}
	if ((structure == X25519_SPKI && !key->has_pub) ||
	    ((structure == X25519_PKI || structure == X25519_EPKI) && !key->has_priv)) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NO_KEY_SET);
		return 0;
	}
	out = BIO_new_from_core_bio(ctx->provctx->libctx, cout);
	if (out == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_OUT_OF_MEMORY);
		return 0;
	}
	if (structure == X25519_TEXT) {
		ok = encode_text(key, out, selection);
		BIO_free(out);
		return ok;
	}
	if (structure == X25519_SPKI) {
		memcpy(der, zinc_x25519_spki_prefix, ZINC_X25519_SPKI_PREFIX_LEN);
		memcpy(der + ZINC_X25519_SPKI_PREFIX_LEN, key->pub, CURVE25519_KEY_SIZE);
		len = ZINC_X25519_SPKI_PREFIX_LEN + CURVE25519_KEY_SIZE;
		label = PEM_STRING_PUBLIC;
	} else {
		memcpy(der, zinc_x25519_pkcs8_prefix, ZINC_X25519_PKCS8_PREFIX_LEN);
		memcpy(der + ZINC_X25519_PKCS8_PREFIX_LEN, key->priv, CURVE25519_KEY_SIZE);
		len = ZINC_X25519_PKCS8_PREFIX_LEN + CURVE25519_KEY_SIZE;
		label = PEM_STRING_PKCS8INF;
	}
	if (structure == X25519_EPKI || (structure == X25519_PKI && ctx->cipher != NULL))
		ok = encode_epki(ctx, out, pem, der, len, cb, cbarg);
	else if (pem)
		ok = write_pem(out, label, der, len);
	else
		ok = BIO_write(out, der, (int)len) == (int)len;
	OPENSSL_cleanse(der, sizeof(der));
	BIO_free(out);
	return ok;
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_encoder_newctx_fn encoder_newctx;
static OSSL_FUNC_encoder_freectx_fn encoder_freectx;
static OSSL_FUNC_encoder_settable_ctx_params_fn encoder_settable_ctx_params;
static OSSL_FUNC_encoder_set_ctx_params_fn encoder_set_ctx_params;
static OSSL_FUNC_encoder_import_object_fn encoder_import_object;
static OSSL_FUNC_encoder_free_object_fn encoder_free_object;

/* One dispatch table per structure and output. */
#define X25519_ENCODER(name, structure, pem)						\
static int name##_does_selection(void *provctx, int selection)				\
{											\
	(void)provctx;									\
	return does_selection(structure, selection);					\
}											\
static int name##_encode(void *ctx, OSSL_CORE_BIO *out, const void *obj_raw,		\
			 const OSSL_PARAM obj_abstract[], int selection,		\
			 OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)			\
{											\
	return encode(ctx, out, obj_raw, obj_abstract, selection, cb, cbarg,		\
		      structure, pem);							\
}											\
static OSSL_FUNC_encoder_does_selection_fn name##_does_selection;			\
static OSSL_FUNC_encoder_encode_fn name##_encode;					\
static const OSSL_DISPATCH name##_functions[] = {					\
	{ OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))encoder_newctx },			\
	{ OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))encoder_freectx },		\
	{ OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS,					\
	  (void (*)(void))encoder_settable_ctx_params },				\
	{ OSSL_FUNC_ENCODER_SET_CTX_PARAMS, (void (*)(void))encoder_set_ctx_params },	\
	{ OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))name##_does_selection },	\
	{ OSSL_FUNC_ENCODER_IMPORT_OBJECT, (void (*)(void))encoder_import_object },	\
	{ OSSL_FUNC_ENCODER_FREE_OBJECT, (void (*)(void))encoder_free_object },	\
	{ OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))name##_encode },			\
	{ 0, NULL }									\
}

X25519_ENCODER(epki_der, X25519_EPKI, false);
X25519_ENCODER(epki_pem, X25519_EPKI, true);
X25519_ENCODER(pki_der, X25519_PKI, false);
X25519_ENCODER(pki_pem, X25519_PKI, true);
X25519_ENCODER(spki_der, X25519_SPKI, false);
X25519_ENCODER(spki_pem, X25519_SPKI, true);

/* Text takes no parameters, as default's. */
static int text_does_selection(void *provctx, int selection)
{
	(void)provctx;
	return does_selection(X25519_TEXT, selection);
}

static int text_encode(void *ctx, OSSL_CORE_BIO *out, const void *obj_raw,
		       const OSSL_PARAM obj_abstract[], int selection,
		       OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
	return encode(ctx, out, obj_raw, obj_abstract, selection, cb, cbarg, X25519_TEXT, false);
}

static OSSL_FUNC_encoder_does_selection_fn text_does_selection;
static OSSL_FUNC_encoder_encode_fn text_encode;

static const OSSL_DISPATCH text_functions[] = {
	{ OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))encoder_newctx },
	{ OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))encoder_freectx },
	{ OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))text_does_selection },
	{ OSSL_FUNC_ENCODER_IMPORT_OBJECT, (void (*)(void))encoder_import_object },
	{ OSSL_FUNC_ENCODER_FREE_OBJECT, (void (*)(void))encoder_free_object },
	{ OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))text_encode },
	{ 0, NULL }
};

#define X25519_NAMES "X25519:1.3.101.110"
#define X25519_ENCODER_PROPS(rest) ZINC_PROPERTIES ",output=" rest

const OSSL_ALGORITHM zinc_x25519_encoders[] = {
	{ X25519_NAMES, X25519_ENCODER_PROPS("text"), text_functions,
	  "X25519 key as text" },
	{ X25519_NAMES, X25519_ENCODER_PROPS("der,structure=EncryptedPrivateKeyInfo"),
	  epki_der_functions, "X25519 private key, encrypted PKCS#8, DER" },
	{ X25519_NAMES, X25519_ENCODER_PROPS("pem,structure=EncryptedPrivateKeyInfo"),
	  epki_pem_functions, "X25519 private key, encrypted PKCS#8, PEM" },
	{ X25519_NAMES, X25519_ENCODER_PROPS("der,structure=PrivateKeyInfo"),
	  pki_der_functions, "X25519 private key, PKCS#8 (RFC 8410), DER" },
	{ X25519_NAMES, X25519_ENCODER_PROPS("pem,structure=PrivateKeyInfo"),
	  pki_pem_functions, "X25519 private key, PKCS#8 (RFC 8410), PEM" },
	{ X25519_NAMES, X25519_ENCODER_PROPS("der,structure=SubjectPublicKeyInfo"),
	  spki_der_functions, "X25519 public key, SubjectPublicKeyInfo (RFC 8410), DER" },
	{ X25519_NAMES, X25519_ENCODER_PROPS("pem,structure=SubjectPublicKeyInfo"),
	  spki_pem_functions, "X25519 public key, SubjectPublicKeyInfo (RFC 8410), PEM" },
	{ NULL, NULL, NULL, NULL }
};
