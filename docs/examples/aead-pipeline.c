/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aead-pipeline: seal and open a batch of packets with ChaCha20-Poly1305
 * from zinc in one go, through OpenSSL 3.5's cipher pipelines
 * (EVP_CipherPipelineEncryptInit and friends): up to 32 records under one
 * key, each with its own nonce, AAD, length and tag, every step for all of
 * them in one call.
 *
 * zinc is loaded into a library context of this program's own, beside the
 * default provider (which supplies the random generator), and every fetch
 * asks for "provider=zinc".  The directory zinc.so is loaded from is
 * $ZINC_MODULE_DIR if set, else OpenSSL's module directory.
 *
 * Each packet's nonce is a counter, as in WireGuard and QUIC: never reuse
 * one under the same key.  Opening checks every packet's tag; when some
 * fail, final fails and zinc's "zinc-pipeline-failed" parameter says which
 * (bit i for packet i), while the others open normally.
 *
 *   cc aead-pipeline.c -o aead-pipeline $(pkg-config --cflags --libs libcrypto)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#if OPENSSL_VERSION_NUMBER < 0x30500000L
int main(void)
{
	fprintf(stderr, "aead-pipeline needs OpenSSL 3.5 or later (cipher pipelines), with zinc\n");
	return EXIT_FAILURE;
}
#else

#define KEY_LEN 32
#define NONCE_LEN 12
#define TAG_LEN 16
#define PACKETS 8
#define MAX_PAYLOAD 100

struct packet {
	unsigned char header[8];	/* AAD: the packet's number, big-endian */
	unsigned char nonce[NONCE_LEN];
	unsigned char data[MAX_PAYLOAD];
	size_t len;
	unsigned char tag[TAG_LEN];
};

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *default_prov, *zinc_prov;

/* Loads default (for random numbers), then zinc, into libctx. */
static int load_providers(void)
{
	const char *dir = getenv("ZINC_MODULE_DIR");

	libctx = OSSL_LIB_CTX_new();
	if (libctx == NULL)
		return 0;
	if (dir != NULL && !OSSL_PROVIDER_set_default_search_path(libctx, dir))
		return 0;
	default_prov = OSSL_PROVIDER_load(libctx, "default");
	zinc_prov = OSSL_PROVIDER_load(libctx, "zinc");
	if (default_prov == NULL || zinc_prov == NULL) {
		fprintf(stderr, "cannot load the providers (is ZINC_MODULE_DIR right?)\n");
		return 0;
	}
	return 1;
}

/* ChaCha20-Poly1305 from zinc, which must be what serves it and able to pipeline. */
static EVP_CIPHER *fetch_zinc_cipher(void)
{
	EVP_CIPHER *cipher = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", "provider=zinc");

	if (cipher != NULL &&
	    (strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(cipher)), "zinc") != 0 ||
	     !EVP_CIPHER_can_pipeline(cipher, 1) || !EVP_CIPHER_can_pipeline(cipher, 0))) {
		EVP_CIPHER_free(cipher);
		cipher = NULL;
	}
	return cipher;
}

/* The "pipeline-tag" parameter: an array of pointers to each packet's tag. */
static OSSL_PARAM tag_param(unsigned char **tags, void **holder)
{
	*holder = tags;
	return OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_PIPELINE_AEAD_TAG, holder,
					      TAG_LEN);
}

/*
 * Seals (enc) or opens the packets in place, all in one pipeline: init with
 * every nonce, the AAD of all (an update with no output buffers), the data
 * of all, final, then the tags out (sealing) or, before final, in (opening).
 * Opening sets *failed to the packets whose tags did not verify.
 */
static int run(EVP_CIPHER *cipher, const unsigned char key[KEY_LEN], struct packet *p,
	       size_t n, int enc, uint32_t *failed)
{
	const unsigned char *nonce[PACKETS], *aad[PACKETS], *in[PACKETS];
	unsigned char *out[PACKETS], *tags[PACKETS];
	size_t aad_len[PACKETS], len[PACKETS], outl[PACKETS], outsize[PACKETS], i;
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	void *holder;
	int ok;

	for (i = 0; i < n; i++) {
		nonce[i] = p[i].nonce;
		aad[i] = p[i].header;
		aad_len[i] = sizeof(p[i].header);
		in[i] = out[i] = p[i].data;
		len[i] = outsize[i] = p[i].len;
		tags[i] = p[i].tag;
	}
	ok = ctx != NULL &&
	     (enc ? EVP_CipherPipelineEncryptInit(ctx, cipher, key, KEY_LEN, n, nonce, NONCE_LEN)
		  : EVP_CipherPipelineDecryptInit(ctx, cipher, key, KEY_LEN, n, nonce, NONCE_LEN));
	if (ok && !enc) {
		params[0] = tag_param(tags, &holder);
		ok = EVP_CIPHER_CTX_set_params(ctx, params);
	}
	ok = ok && EVP_CipherPipelineUpdate(ctx, NULL, outl, NULL, aad, aad_len) &&
	     EVP_CipherPipelineUpdate(ctx, out, outl, outsize, in, len);
	/* Final writes nothing; it goes on where each packet's data ended. */
	for (i = 0; i < n; i++) {
		out[i] += p[i].len;
		outsize[i] = 0;
	}
	ok = ok && EVP_CipherPipelineFinal(ctx, out, outl, outsize);
	if (ok && enc) {
		params[0] = tag_param(tags, &holder);
		ok = EVP_CIPHER_CTX_get_params(ctx, params);
	}
	if (!enc && failed != NULL) {
		/* Which packets failed: known after final, whatever final returned. */
		*failed = 0;
		params[0] = OSSL_PARAM_construct_uint32("zinc-pipeline-failed", failed);
		if (!EVP_CIPHER_CTX_get_params(ctx, params))
			ok = 0;
	}
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

static int demo(void)
{
	static const char *const words[PACKETS] = {
		"one", "two packets", "three", "four, a longer one of the batch", "five",
		"six", "seven", "eight: the last"
	};
	struct packet p[PACKETS];
	unsigned char key[KEY_LEN];
	EVP_CIPHER *cipher = fetch_zinc_cipher();
	uint32_t failed = 0;
	size_t i;
	int ok = 0;

	if (cipher == NULL) {
		fprintf(stderr, "ChaCha20-Poly1305 pipelines: not available from zinc\n");
		return 0;
	}
	printf("%zu packets in one ChaCha20-Poly1305 pipeline from %s\n", (size_t)PACKETS,
	       OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(cipher)));
	memset(p, 0, sizeof(p));
	for (i = 0; i < PACKETS; i++) {
		p[i].header[7] = (unsigned char)i;
		memcpy(p[i].nonce + 4, p[i].header, sizeof(p[i].header));	/* 0 || counter */
		p[i].len = strlen(words[i]);
		memcpy(p[i].data, words[i], p[i].len);
	}
	if (RAND_bytes_ex(libctx, key, sizeof(key), 0) != 1 ||
	    !run(cipher, key, p, PACKETS, 1, NULL)) {
		fprintf(stderr, "sealing failed\n");
		goto out;
	}
	printf("  sealed:    %zu tags, e.g. packet 0's: ", (size_t)PACKETS);
	for (i = 0; i < TAG_LEN; i++)
		printf("%02x", p[0].tag[i]);
	printf("\n");

	/* An attacker alters packet 2's ciphertext and packet 5's tag. */
	p[2].data[0] ^= 0x01;
	p[5].tag[TAG_LEN - 1] ^= 0x80;
	if (run(cipher, key, p, PACKETS, 0, &failed) || failed != (1u << 2 | 1u << 5)) {
		fprintf(stderr, "opening did not single out the altered packets (0x%08x)\n",
			failed);
		goto out;
	}
	ERR_clear_error();	/* the expected "tag mismatch" */
	for (i = 0; i < PACKETS; i++) {
		if (failed >> i & 1) {
			printf("  packet %zu:  rejected, as it must be\n", i);
		} else if (memcmp(p[i].data, words[i], p[i].len) == 0) {
			printf("  packet %zu:  %.*s\n", i, (int)p[i].len, (const char *)p[i].data);
		} else {
			fprintf(stderr, "packet %zu did not open to what was sealed\n", i);
			goto out;
		}
	}
	ok = 1;
out:
	OPENSSL_cleanse(key, sizeof(key));
	EVP_CIPHER_free(cipher);
	return ok;
}

int main(void)
{
	int ok = load_providers() && demo();

	if (!ok)
		ERR_print_errors_fp(stderr);
	if (zinc_prov != NULL)
		OSSL_PROVIDER_unload(zinc_prov);
	if (default_prov != NULL)
		OSSL_PROVIDER_unload(default_prov);
	OSSL_LIB_CTX_free(libctx);
	return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
#endif
