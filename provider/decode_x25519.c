/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X25519 decoders: DER SubjectPublicKeyInfo and PrivateKeyInfo (RFC 8410),
 * and PEM to DER for the labels "PUBLIC KEY" and "PRIVATE KEY", so that zinc
 * alone reads what its encoders write.
 *
 * The DER is checked strictly: an X25519 structure has one DER encoding, so
 * the input must be exactly that (a v2 PrivateKeyInfo without the optional
 * public key is also taken).  Default is laxer with BER (long-form and
 * indefinite lengths, constructed strings, any version, attributes, unused
 * bits in the BIT STRING); such inputs are "not ours" here, and when both
 * providers are loaded default's decoders still read them.  Nothing default
 * rejects is accepted: it refuses the v2 public key and parameters too.
 *
 * Input that is not ours returns 1 without an object, as provider-decoder(7)
 * asks, so the core tries the next decoder from the same position.
 */
#include <string.h>
#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include "algorithms.h"
#include "x25519_key.h"
#include "zinc_err.h"
#include "zinc_prov.h"

/* The largest structure: the PrivateKeyInfo's content after its 2-byte header. */
enum { X25519_DER_MAX = ZINC_X25519_PKCS8_PREFIX_LEN + CURVE25519_KEY_SIZE };

enum x25519_input { X25519_IN_SPKI, X25519_IN_PKI };

struct x25519_decoder {
	struct zinc_provctx *provctx;
};

static void *decoder_newctx(void *provctx)
{
	struct x25519_decoder *ctx = OPENSSL_zalloc(sizeof(*ctx));

	if (ctx == NULL) {
		ZINC_RAISE(provctx, ZINC_R_OUT_OF_MEMORY);
		return NULL;
	}
	ctx->provctx = provctx;
	return ctx;
}

static void decoder_freectx(void *ctx)
{
	OPENSSL_free(ctx);
}

/* As default, the highest part selected decides: PrivateKeyInfo holds the private key. */
static int does_selection(enum x25519_input input, int selection)
{
	if (selection == 0)
		return 1;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
		return input == X25519_IN_PKI;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
		return input == X25519_IN_SPKI;
	return 0;
}

/* Reads exactly len bytes; false at the end of input. */
static bool read_exact(BIO *in, uint8_t *buf, size_t len)
{
	size_t done = 0, got;

	while (done < len) {
		if (BIO_read_ex(in, buf + done, len - done, &got) <= 0 || got == 0)
			return false;
		done += got;
	}
	return true;
}

/*
 * One DER SEQUENCE of at most X25519_DER_MAX content bytes, whole, and not a
 * byte more: the input may hold further objects.  Its length must be in the
 * short form, as DER has it for these sizes.
 */
static bool read_sequence(BIO *in, uint8_t der[2 + X25519_DER_MAX], size_t *len)
{
	if (!read_exact(in, der, 2) || der[0] != 0x30 || der[1] > X25519_DER_MAX)
		return false;
	*len = 2 + (size_t)der[1];
	return read_exact(in, der + 2, der[1]);
}

/* The key if der is exactly one of the encodings we take, else NULL. */
static struct zinc_x25519_key *parse(struct zinc_provctx *provctx, enum x25519_input input,
				     const uint8_t *der, size_t len, bool *oom)
{
	const uint8_t *prefix = zinc_x25519_pkcs8_prefix;
	struct zinc_x25519_key *key;

	*oom = false;
	if (input == X25519_IN_SPKI) {
		if (len != ZINC_X25519_SPKI_PREFIX_LEN + CURVE25519_KEY_SIZE ||
		    memcmp(der, zinc_x25519_spki_prefix, ZINC_X25519_SPKI_PREFIX_LEN) != 0)
			return NULL;
	} else {
		/* The version (byte 4) is v1 (0) or v2 (1), v2's public key absent. */
		if (len != ZINC_X25519_PKCS8_PREFIX_LEN + CURVE25519_KEY_SIZE ||
		    memcmp(der, prefix, 4) != 0 || der[4] > 1 ||
		    memcmp(der + 5, prefix + 5, ZINC_X25519_PKCS8_PREFIX_LEN - 5) != 0)
			return NULL;
	}
	key = zinc_x25519_key_new(provctx);
	if (key == NULL) {
		*oom = true;
		return NULL;
	}
	if (input == X25519_IN_SPKI) {
		memcpy(key->pub, der + ZINC_X25519_SPKI_PREFIX_LEN, CURVE25519_KEY_SIZE);
	} else {
		memcpy(key->priv, der + ZINC_X25519_PKCS8_PREFIX_LEN, CURVE25519_KEY_SIZE);
		curve25519_generate_public(key->pub, key->priv);
		key->has_priv = true;
	}
	key->has_pub = true;
	return key;
}

/*
 * The key goes to the keymgmt by reference (see x25519_key.h): a zinc
 * keymgmt's load takes it; another provider's imports it through
 * export_object below.  What is left is freed here.
 */
static int decode(struct x25519_decoder *ctx, OSSL_CORE_BIO *cin, int selection,
		  OSSL_CALLBACK *data_cb, void *data_cbarg, enum x25519_input input)
{
	uint8_t der[2 + X25519_DER_MAX];
	struct zinc_x25519_key *key = NULL;
	struct zinc_x25519_key_ref ref;
	int type = OSSL_OBJECT_PKEY;
	OSSL_PARAM params[4];
	size_t len;
	bool oom = false;
	BIO *in;
	int ok;

	if (!does_selection(input, selection))
		return 1;
	in = BIO_new_from_core_bio(ctx->provctx->libctx, cin);
	if (in == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_OUT_OF_MEMORY);
		return 0;
	}
	if (read_sequence(in, der, &len))
		key = parse(ctx->provctx, input, der, len, &oom);
	OPENSSL_cleanse(der, sizeof(der));
	BIO_free(in);
	if (key == NULL)
		return !oom;
	params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &type);
	params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE,
						     (char *)"X25519", 0);
	ref.key = key;
	params[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &ref,
						      sizeof(ref));
	params[3] = OSSL_PARAM_construct_end();
	ok = data_cb(params, data_cbarg);
	zinc_x25519_key_free(ref.key);
	return ok;
}

/* For another provider's keymgmt: the key as zinc's keymgmt exports it. */
static int decoder_export_object(void *vctx, const void *objref, size_t objref_sz,
				 OSSL_CALLBACK *export_cb, void *export_cbarg)
{
	struct x25519_decoder *ctx = vctx;
	OSSL_FUNC_keymgmt_export_fn *export = NULL;
	struct zinc_x25519_key_ref ref;

	if (objref == NULL || objref_sz != sizeof(ref)) {
		ZINC_RAISE(ctx->provctx, ZINC_R_NULL_ARGUMENT);
		return 0;
	}
	memcpy(&ref, objref, sizeof(ref));
	for (const OSSL_DISPATCH *f = zinc_x25519_keymgmt_functions; f->function_id != 0; f++)
		if (f->function_id == OSSL_FUNC_KEYMGMT_EXPORT)
			export = OSSL_FUNC_keymgmt_export(f);
	return ref.key != NULL && export != NULL &&
	       export(ref.key, OSSL_KEYMGMT_SELECT_ALL, export_cb, export_cbarg);
}

/*
 * The dispatch functions through their slots' types, for the compiler to
 * check.  After the definitions: cppcheck, which does not read OpenSSL's
 * headers, skips a function declared earlier through a type it cannot see.
 */
static OSSL_FUNC_decoder_newctx_fn decoder_newctx;
static OSSL_FUNC_decoder_freectx_fn decoder_freectx;
static OSSL_FUNC_decoder_export_object_fn decoder_export_object;

#define X25519_DECODER(name, input)							\
static int name##_does_selection(void *provctx, int selection)				\
{											\
	(void)provctx;									\
	return does_selection(input, selection);					\
}											\
static int name##_decode(void *ctx, OSSL_CORE_BIO *in, int selection,			\
			 OSSL_CALLBACK *data_cb, void *data_cbarg,			\
			 OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)		\
{											\
	(void)pw_cb;									\
	(void)pw_cbarg;									\
	return decode(ctx, in, selection, data_cb, data_cbarg, input);			\
}											\
static OSSL_FUNC_decoder_does_selection_fn name##_does_selection;			\
static OSSL_FUNC_decoder_decode_fn name##_decode;					\
static const OSSL_DISPATCH name##_functions[] = {					\
	{ OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))decoder_newctx },			\
	{ OSSL_FUNC_DECODER_FREECTX, (void (*)(void))decoder_freectx },		\
	{ OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))name##_does_selection },	\
	{ OSSL_FUNC_DECODER_DECODE, (void (*)(void))name##_decode },			\
	{ OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))decoder_export_object },	\
	{ 0, NULL }									\
}

X25519_DECODER(spki, X25519_IN_SPKI);
X25519_DECODER(pki, X25519_IN_PKI);

/*
 * PEM to DER: one PEM block, read as default reads it (libcrypto's
 * PEM_read_bio, which stops after the block's END line), handed on as DER
 * with the structure its label names.  Other labels, and blocks with
 * headers (legacy encryption), are left to other decoders.
 */
static int pem_decode(void *vctx, OSSL_CORE_BIO *cin, int selection, OSSL_CALLBACK *data_cb,
		      void *data_cbarg, OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
	struct x25519_decoder *ctx = vctx;
	char *name = NULL, *header = NULL;
	unsigned char *data = NULL;
	const char *structure = NULL;
	long len = 0;
	OSSL_PARAM params[3];
	BIO *in;
	int ok = 1;

	(void)selection;
	(void)pw_cb;
	(void)pw_cbarg;
	in = BIO_new_from_core_bio(ctx->provctx->libctx, cin);
	if (in == NULL) {
		ZINC_RAISE(ctx->provctx, ZINC_R_OUT_OF_MEMORY);
		return 0;
	}
	/*
	 * No PEM here is not an error: someone else may read it.  PEM_read_bio
	 * with PEM_FLAG_SECURE: libcrypto then wipes its own buffers, which
	 * hold the key's base64.
	 */
	ERR_set_mark();
	if (PEM_read_bio_ex(in, &name, &header, &data, &len,
			    PEM_FLAG_EAY_COMPATIBLE | PEM_FLAG_SECURE) > 0 && header[0] == '\0') {
		if (strcmp(name, PEM_STRING_PUBLIC) == 0)
			structure = "SubjectPublicKeyInfo";
		else if (strcmp(name, PEM_STRING_PKCS8INF) == 0)
			structure = "PrivateKeyInfo";
	}
	ERR_pop_to_mark();
	BIO_free(in);
	if (structure != NULL) {
		params[0] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_DATA, data,
							      (size_t)len);
		params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_STRUCTURE,
							     (char *)structure, 0);
		params[2] = OSSL_PARAM_construct_end();
		ok = data_cb(params, data_cbarg);
	}
	OPENSSL_secure_free(name);
	OPENSSL_secure_free(header);
	OPENSSL_secure_clear_free(data, data == NULL ? 0 : (size_t)len);
	return ok;
}

static OSSL_FUNC_decoder_decode_fn pem_decode;

static const OSSL_DISPATCH pem_functions[] = {
	{ OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))decoder_newctx },
	{ OSSL_FUNC_DECODER_FREECTX, (void (*)(void))decoder_freectx },
	{ OSSL_FUNC_DECODER_DECODE, (void (*)(void))pem_decode },
	{ 0, NULL }
};

#define X25519_NAMES "X25519:1.3.101.110"

const OSSL_ALGORITHM zinc_x25519_decoders[] = {
	{ X25519_NAMES, ZINC_PROPERTIES ",input=der,structure=PrivateKeyInfo", pki_functions,
	  "X25519 private key, PKCS#8 (RFC 8410), DER" },
	{ X25519_NAMES, ZINC_PROPERTIES ",input=der,structure=SubjectPublicKeyInfo",
	  spki_functions, "X25519 public key, SubjectPublicKeyInfo (RFC 8410), DER" },
	{ "DER", ZINC_PROPERTIES ",input=pem", pem_functions,
	  "PEM to DER, for PUBLIC KEY and PRIVATE KEY blocks" },
	{ NULL, NULL, NULL, NULL }
};
