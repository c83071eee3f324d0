/* SPDX-License-Identifier: Apache-2.0 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "fuzz.h"

/* Set by the Makefile: the build tree's .libs, used when $ZINC_MODULE_DIR is unset. */
#ifndef ZINC_FUZZ_MODULE_DIR
#define ZINC_FUZZ_MODULE_DIR NULL
#endif

static OSSL_LIB_CTX *zinc_ctx, *default_ctx;

static OSSL_LIB_CTX *load(const char *provider)
{
	OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
	const char *dir = getenv("ZINC_MODULE_DIR");

	if (dir == NULL || *dir == '\0')
		dir = ZINC_FUZZ_MODULE_DIR;
	if (ctx == NULL ||
	    (strcmp(provider, "zinc") == 0 && dir != NULL &&
	     !OSSL_PROVIDER_set_default_search_path(ctx, dir)) ||
	    OSSL_PROVIDER_load(ctx, provider) == NULL) {
		fprintf(stderr, "fuzz: cannot load the %s provider (module dir %s)\n", provider,
			dir != NULL ? dir : "(libcrypto's)");
		ERR_print_errors_fp(stderr);
		exit(2);
	}
	return ctx;
}

/* run.sh reads the CPU features from this line: a ZINC_CPU mask this CPU lacks is skipped. */
static void print_buildinfo(OSSL_LIB_CTX *ctx)
{
	const char *info = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&info, 0),
			    OSSL_PARAM_END };
	OSSL_PROVIDER *prov = OSSL_PROVIDER_load(ctx, "zinc");

	if (prov == NULL || !OSSL_PROVIDER_get_params(prov, p) || info == NULL) {
		fprintf(stderr, "fuzz: zinc has no buildinfo\n");
		exit(2);
	}
	fprintf(stderr, "zinc buildinfo: %s\n", info);
	OSSL_PROVIDER_unload(prov);
}

OSSL_LIB_CTX *fz_zinc_ctx(void)
{
	if (zinc_ctx == NULL) {
		zinc_ctx = load("zinc");
		print_buildinfo(zinc_ctx);
	}
	return zinc_ctx;
}

OSSL_LIB_CTX *fz_default_ctx(void)
{
	if (default_ctx == NULL)
		default_ctx = load("default");
	return default_ctx;
}

void *fz_malloc(size_t len)
{
	void *p = malloc(len + !len);

	if (p == NULL)
		abort();
	return p;
}

void fz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: MISMATCH: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	ERR_print_errors_fp(stderr);
	abort();
}

static void hex(const char *label, const uint8_t *p, size_t len)
{
	fprintf(stderr, "  %s (%zu):", label, len);
	for (size_t i = 0; i < len && i < 128; i++)
		fprintf(stderr, "%s%02x", i % 32 == 0 ? "\n    " : "", p[i]);
	fputs(len > 128 ? " ...\n" : "\n", stderr);
}

void fz_check_eq(const void *a, size_t alen, const void *b, size_t blen, const char *what)
{
	if (alen == blen && (alen == 0 || memcmp(a, b, alen) == 0))
		return;
	hex("zinc", a, alen);
	hex("oracle", b, blen);
	fz_fail("%s differs", what);
}

uint8_t fz_u8(struct fz *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

size_t fz_below(struct fz *in, size_t bound)
{
	size_t v = fz_u8(in);

	v |= (size_t)fz_u8(in) << 8;
	return v % bound;
}

void fz_take(struct fz *in, void *out, size_t len)
{
	size_t got = len < in->n ? len : in->n;

	memcpy(out, in->p, got);
	memset((uint8_t *)out + got, 0, len - got);
	in->p += got;
	in->n -= got;
}

const uint8_t *fz_ref(struct fz *in, size_t max, size_t *len)
{
	const uint8_t *p = in->p;

	*len = max < in->n ? max : in->n;
	in->p += *len;
	in->n -= *len;
	return p;
}

void fz_split_init(struct fz_split *sp, struct fz *in)
{
	uint8_t seed[8];

	fz_take(in, seed, sizeof(seed));
	sp->s = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < sizeof(seed); i++)
		sp->s = (sp->s ^ seed[i]) * 0x100000001b3u;
}

/* xorshift64*: only the splits come from it, so any generator would do. */
static uint64_t next(struct fz_split *sp)
{
	sp->s ^= sp->s >> 12;
	sp->s ^= sp->s << 25;
	sp->s ^= sp->s >> 27;
	return sp->s * 0x2545f4914f6cdd1du;
}

size_t fz_split_next(struct fz_split *sp, size_t left)
{
	uint64_t r = next(sp);
	size_t len;

	switch (r & 7) {
	case 0:
		len = 0;
		break;
	case 1:
	case 2:
		len = (r >> 8) % 17;
		break;
	case 3:
	case 4:
		/* Around a block: 64, 128, 256 or 512 bytes, give or take one. */
		len = ((size_t)64 << ((r >> 8) & 3)) + (r >> 12) % 3 - 1;
		break;
	case 5:
		len = (r >> 8) % 1024;
		break;
	default:
		len = left;
		break;
	}
	return len < left ? len : left;
}

/* --- MACs ------------------------------------------------------------------- */

#define MAC_MAX 64

struct mac_result {
	int verdict;		/* one bit per call that succeeded */
	size_t len[3];
	uint8_t mac[3][MAC_MAX];	/* the first message, the copy's, the second */
};

static int mac_update(EVP_MAC_CTX *ctx, const uint8_t *msg, size_t len, struct fz_split *sp)
{
	size_t done = 0;

	do {
		size_t n = sp != NULL ? fz_split_next(sp, len - done) : len - done;

		if (!EVP_MAC_update(ctx, msg + done, n))
			return 0;
		done += n;
	} while (done < len);
	return 1;
}

static void mac_run(EVP_MAC *m, const struct fz_mac *job, struct fz_split *sp,
		    struct mac_result *r)
{
	EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(m), *copy = NULL;
	size_t cut = job->cut < job->len ? job->cut : job->len;
	int bit = 1;

	memset(r, 0, sizeof(*r));
	if (ctx == NULL)
		abort();
#define STEP(call) do { if (!(call)) goto done; r->verdict |= bit; bit <<= 1; } while (0)
	if (job->set_first)
		STEP(EVP_MAC_CTX_set_params(ctx, job->params));
	else
		bit <<= 1;
	STEP(EVP_MAC_init(ctx, job->key, job->keylen, job->set_first ? NULL : job->params));
	for (int round = 0; round < 1 + !!job->again; round++) {
		size_t size = EVP_MAC_CTX_get_mac_size(ctx);

		STEP(size > 0 && size <= MAC_MAX);
		if (round > 0) {
			STEP(EVP_MAC_init(ctx, NULL, 0, NULL));
			STEP(mac_update(ctx, job->msg, job->len, sp));
			STEP(EVP_MAC_final(ctx, r->mac[2], &r->len[2], size));
			break;
		}
		STEP(mac_update(ctx, job->msg, cut, sp));
		STEP((copy = EVP_MAC_CTX_dup(ctx)) != NULL);
		STEP(mac_update(copy, job->msg + cut, job->len - cut, sp));
		STEP(mac_update(ctx, job->msg + cut, job->len - cut, sp));
		STEP(EVP_MAC_final(copy, r->mac[1], &r->len[1], size));
		STEP(EVP_MAC_final(ctx, r->mac[0], &r->len[0], size));
	}
#undef STEP
done:
	EVP_MAC_CTX_free(copy);
	EVP_MAC_CTX_free(ctx);
}

void fz_mac_compare(EVP_MAC *zinc, EVP_MAC *dflt, const struct fz_mac *job, struct fz_split *sp)
{
	struct mac_result z, d;

	mac_run(zinc, job, sp, &z);
	ERR_clear_error();
	mac_run(dflt, job, NULL, &d);
	ERR_clear_error();
	FZ_CHECK(z.verdict == d.verdict, "%s: the calls that succeed: zinc %#x, default %#x",
		 EVP_MAC_get0_name(zinc), z.verdict, d.verdict);
	for (int i = 0; i < 3; i++)
		fz_check_eq(z.mac[i], z.len[i], d.mac[i], d.len[i], EVP_MAC_get0_name(zinc));
}
