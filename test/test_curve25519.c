/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The X25519 primitive (include/zinc/curve25519.h): RFC 7748's vectors,
 * Wycheproof's x25519_test.json, and OpenSSL's default provider as an oracle
 * for random and edge-case inputs and for key generation.
 *
 * Every check runs on the library's implementation and on a second copy of
 * provider/crypto/curve25519.c compiled into this program with the 32-bit
 * field (ZINC_CURVE25519_FORCE_32BIT), so that the code 32-bit targets use
 * is tested here too.  That copy never takes the arch code, so the last
 * checks also compare the library (assembly, where ZINC_CPU allows) with
 * it directly, and the fixed-base public key with the ladder's X25519(k, 9).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include "zinc/curve25519.h"
#include "testutil.h"

/*
 * The 32-bit field variant under other names.  zinc/curve25519.h is already
 * included, so its guard keeps it out of the copy: declare the renamed API.
 */
#define ZINC_CURVE25519_FORCE_32BIT 1
#define curve25519 fe32_curve25519
#define curve25519_generate_public fe32_curve25519_generate_public
#define curve25519_clamp_secret fe32_curve25519_clamp_secret
#define curve25519_implementation fe32_curve25519_implementation
#define zinc_curve25519_choose fe32_zinc_curve25519_choose
bool curve25519(uint8_t shared[CURVE25519_KEY_SIZE], const uint8_t scalar[CURVE25519_KEY_SIZE],
		const uint8_t u[CURVE25519_KEY_SIZE]);
void curve25519_generate_public(uint8_t pub[CURVE25519_KEY_SIZE],
				const uint8_t secret[CURVE25519_KEY_SIZE]);
void curve25519_clamp_secret(uint8_t secret[CURVE25519_KEY_SIZE]);
const char *curve25519_implementation(void);
#include "crypto/curve25519.c"
#undef curve25519
#undef curve25519_generate_public
#undef curve25519_clamp_secret
#undef curve25519_implementation
#undef zinc_curve25519_choose

enum { KEY = CURVE25519_KEY_SIZE };

struct impl {
	const char *name;
	bool (*x25519)(uint8_t out[KEY], const uint8_t scalar[KEY], const uint8_t u[KEY]);
	void (*generate_public)(uint8_t pub[KEY], const uint8_t secret[KEY]);
};

static struct impl impls[] = {
	{ "library", curve25519, curve25519_generate_public },
	{ "32-bit field", fe32_curve25519, fe32_curve25519_generate_public },
};
#define NIMPLS (sizeof(impls) / sizeof(impls[0]))

static const uint8_t all_zero[KEY];

/*
 * The default provider's X25519(scalar, u): 1 if derive succeeds, 0 if it
 * fails (it refuses an all-zero result), -1 if anything before it fails.
 */
static int oracle_x25519(uint8_t out[KEY], const uint8_t scalar[KEY], const uint8_t u[KEY])
{
	EVP_PKEY *priv = EVP_PKEY_new_raw_private_key_ex(zt_default_ctx(), "X25519", NULL,
							 scalar, KEY);
	EVP_PKEY *peer = EVP_PKEY_new_raw_public_key_ex(zt_default_ctx(), "X25519", NULL, u, KEY);
	EVP_PKEY_CTX *ctx = priv ? EVP_PKEY_CTX_new_from_pkey(zt_default_ctx(), priv, NULL) : NULL;
	size_t len = KEY;
	int ret = -1;

	if (peer != NULL && ctx != NULL && EVP_PKEY_derive_init(ctx) > 0 &&
	    EVP_PKEY_derive_set_peer(ctx, peer) > 0)
		ret = EVP_PKEY_derive(ctx, out, &len) > 0 && len == KEY;
	ERR_clear_error();
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(peer);
	EVP_PKEY_free(priv);
	return ret;
}

static int oracle_public(uint8_t pub[KEY], const uint8_t secret[KEY])
{
	EVP_PKEY *key = EVP_PKEY_new_raw_private_key_ex(zt_default_ctx(), "X25519", NULL,
							secret, KEY);
	size_t len = KEY;
	int ok = key != NULL && EVP_PKEY_get_raw_public_key(key, pub, &len) > 0 && len == KEY;

	EVP_PKEY_free(key);
	return ok;
}

/*
 * One input against the oracle: where default derives, the output and
 * true; where it refuses, all zeros and false.  Returns 1 if it matched.
 */
static int check_against_oracle(const struct impl *im, const uint8_t scalar[KEY],
				const uint8_t u[KEY], int oracle, const uint8_t want[KEY])
{
	uint8_t got[KEY], scalar_copy[KEY], u_copy[KEY];
	bool ret;

	memcpy(scalar_copy, scalar, KEY);
	memcpy(u_copy, u, KEY);
	ret = im->x25519(got, scalar_copy, u_copy);
	if (memcmp(scalar_copy, scalar, KEY) != 0 || memcmp(u_copy, u, KEY) != 0)
		return 0;
	if (oracle == 1)
		return ret && memcmp(got, want, KEY) == 0;
	return oracle == 0 && !ret && memcmp(got, all_zero, KEY) == 0;
}

/* --- RFC 7748 ---------------------------------------------------------------- */

/* Section 5.2, transcribed; each checked against the default provider here too. */
static const struct {
	const char *scalar, *u, *out;
} rfc_vectors[] = {
	{ "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
	  "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
	  "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552" },
	{ "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
	  "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
	  "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957" },
};

static void test_rfc7748_vectors(void)
{
	uint8_t scalar[KEY], u[KEY], want[KEY], got[KEY];
	size_t i, j;

	for (i = 0; i < sizeof(rfc_vectors) / sizeof(rfc_vectors[0]); i++) {
		zt_unhex_exact(scalar, KEY, rfc_vectors[i].scalar);
		zt_unhex_exact(u, KEY, rfc_vectors[i].u);
		zt_unhex_exact(want, KEY, rfc_vectors[i].out);
		zt_ok(oracle_x25519(got, scalar, u) == 1 && memcmp(got, want, KEY) == 0,
		      "RFC 7748 5.2 vector %zu: the default provider agrees", i + 1);
		for (j = 0; j < NIMPLS; j++) {
			memset(got, 0xa5, KEY);
			zt_ok(impls[j].x25519(got, scalar, u), "%s: RFC 7748 5.2 vector %zu returns true",
			      impls[j].name, i + 1);
			zt_mem_eq(got, KEY, want, KEY, "%s: RFC 7748 5.2 vector %zu", impls[j].name, i + 1);
		}
	}
}

/* k, u = X25519(k, u), k, starting from k = u = 9. */
static int iterate(const struct impl *im, uint8_t k[KEY], unsigned long n)
{
	uint8_t u[KEY] = { 9 }, next[KEY];
	unsigned long i;

	memset(k, 0, KEY);
	k[0] = 9;
	for (i = 0; i < n; i++) {
		if (im != NULL)
			im->x25519(next, k, u);
		else if (oracle_x25519(next, k, u) != 1)
			return 0;
		memcpy(u, k, KEY);
		memcpy(k, next, KEY);
	}
	return 1;
}

static void test_rfc7748_iterated(void)
{
	static const struct {
		unsigned long n;
		const char *k;
	} after[] = {
		{ 1, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079" },
		{ 1000, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51" },
		{ 1000000, "7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424" },
	};
	const char *million = getenv("ZINC_X25519_MILLION");
	uint8_t want[KEY], got[KEY];
	size_t i, j;

	for (i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
		if (after[i].n == 1000000 && (million == NULL || strcmp(million, "1") != 0)) {
			zt_skip("RFC 7748 5.2 after 1,000,000 iterations: set ZINC_X25519_MILLION=1");
			continue;
		}
		zt_unhex_exact(want, KEY, after[i].k);
		zt_ok(iterate(NULL, got, after[i].n) && memcmp(got, want, KEY) == 0,
		      "RFC 7748 5.2 after %lu iterations: the default provider agrees", after[i].n);
		for (j = 0; j < NIMPLS; j++) {
			iterate(&impls[j], got, after[i].n);
			zt_mem_eq(got, KEY, want, KEY, "%s: RFC 7748 5.2 after %lu iterations",
				  impls[j].name, after[i].n);
		}
	}
}

static void test_rfc7748_dh(void)
{
	uint8_t a[KEY], b[KEY], a_pub[KEY], b_pub[KEY], k[KEY], got[KEY];
	size_t j;

	zt_unhex_exact(a, KEY, "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
	zt_unhex_exact(a_pub, KEY, "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
	zt_unhex_exact(b, KEY, "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
	zt_unhex_exact(b_pub, KEY, "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
	zt_unhex_exact(k, KEY, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");

	zt_ok(oracle_public(got, a) && memcmp(got, a_pub, KEY) == 0 &&
	      oracle_public(got, b) && memcmp(got, b_pub, KEY) == 0,
	      "RFC 7748 6.1 public keys: the default provider agrees");
	zt_ok(oracle_x25519(got, a, b_pub) == 1 && memcmp(got, k, KEY) == 0 &&
	      oracle_x25519(got, b, a_pub) == 1 && memcmp(got, k, KEY) == 0,
	      "RFC 7748 6.1 shared secret: the default provider agrees");
	for (j = 0; j < NIMPLS; j++) {
		impls[j].generate_public(got, a);
		zt_mem_eq(got, KEY, a_pub, KEY, "%s: RFC 7748 6.1 Alice's public key", impls[j].name);
		impls[j].generate_public(got, b);
		zt_mem_eq(got, KEY, b_pub, KEY, "%s: RFC 7748 6.1 Bob's public key", impls[j].name);
		zt_ok(impls[j].x25519(got, a, b_pub) && memcmp(got, k, KEY) == 0,
		      "%s: RFC 7748 6.1 shared secret, Alice's side", impls[j].name);
		zt_ok(impls[j].x25519(got, b, a_pub) && memcmp(got, k, KEY) == 0,
		      "%s: RFC 7748 6.1 shared secret, Bob's side", impls[j].name);
	}
}

/* --- Wycheproof ---------------------------------------------------------------- */

struct wp_case {
	long tc_id;
	int acceptable;
	uint8_t priv[KEY], pub[KEY], shared[KEY];
};

/*
 * The valid and acceptable tests, in the file's order; NULL if a test
 * lacks a 32-byte field (invalid ones are left out and fail the count).
 */
static struct wp_case *wycheproof_cases(const struct zt_json *root, size_t *count)
{
	struct zt_wycheproof it = { 0 };
	struct wp_case *cases = NULL;
	const struct zt_json *t;
	size_t n = 0;

	while ((t = zt_wycheproof_next(root, &it)) != NULL) {
		const char *result = zt_json_str(t, "result");
		const char *priv = zt_json_str(t, "private"), *pub = zt_json_str(t, "public");
		const char *shared = zt_json_str(t, "shared");
		struct wp_case *grown;

		if (result == NULL ||
		    (strcmp(result, "valid") != 0 && strcmp(result, "acceptable") != 0))
			continue;
		if (priv == NULL || pub == NULL || shared == NULL || strlen(priv) != 2 * KEY ||
		    strlen(pub) != 2 * KEY || strlen(shared) != 2 * KEY)
			continue;	/* incomplete: fails the count */
		grown = realloc(cases, (n + 1) * sizeof(*cases));
		if (grown == NULL) {
			free(cases);
			return NULL;
		}
		cases = grown;
		cases[n].tc_id = zt_json_long(t, "tcId");
		cases[n].acceptable = strcmp(result, "acceptable") == 0;
		zt_unhex_exact(cases[n].priv, KEY, priv);
		zt_unhex_exact(cases[n].pub, KEY, pub);
		zt_unhex_exact(cases[n].shared, KEY, shared);
		n++;
	}
	*count = n;
	return cases;
}

static void test_wycheproof(void)
{
	char *path = zt_vector_path("wycheproof/testvectors_v1/x25519_test.json");
	struct wp_case *cases;
	size_t n = 0, i, j, zeros = 0, oracle_bad = 0;
	struct zt_json *json;
	long declared;

	if (path == NULL)
		return;
	json = zt_json_load(path);
	if (!zt_ok(json != NULL, "read %s", path)) {
		free(path);
		return;
	}
	declared = zt_json_long(json, "numberOfTests");
	cases = wycheproof_cases(json, &n);
	zt_ok(cases != NULL && n > 0 && (long)n == declared,
	      "Wycheproof x25519: %zu valid or acceptable tests of %ld", n, declared);

	/* The oracle on the same file: it derives exactly the non-zero ones. */
	for (i = 0; i < n; i++) {
		uint8_t got[KEY];
		int zero_shared = memcmp(cases[i].shared, all_zero, KEY) == 0;
		int r = oracle_x25519(got, cases[i].priv, cases[i].pub);

		zeros += zero_shared;
		if (zero_shared ? r != 0 : r != 1 || memcmp(got, cases[i].shared, KEY) != 0) {
			zt_diag("tcId %ld: default provider %s", cases[i].tc_id,
				r == 1 ? "derives something else" : "fails");
			oracle_bad++;
		}
	}
	zt_ok(oracle_bad == 0, "Wycheproof x25519: the default provider agrees (%zu all-zero)", zeros);

	for (j = 0; j < NIMPLS; j++) {
		size_t bad = 0;

		for (i = 0; i < n; i++) {
			uint8_t got[KEY];
			bool ret;

			memset(got, 0xa5, KEY);
			ret = impls[j].x25519(got, cases[i].priv, cases[i].pub);
			if (memcmp(got, cases[i].shared, KEY) != 0 ||
			    ret != (memcmp(cases[i].shared, all_zero, KEY) != 0)) {
				zt_diag("%s: Wycheproof tcId %ld (%s) fails", impls[j].name,
					cases[i].tc_id, cases[i].acceptable ? "acceptable" : "valid");
				bad++;
			}
		}
		zt_ok(n > 0 && bad == 0,
		      "%s: Wycheproof x25519, every test gives its shared secret, false for zeros",
		      impls[j].name);
	}
	free(cases);
	zt_json_free(json);
	free(path);
}

/* --- the default provider as oracle -------------------------------------------- */

static void test_random(size_t count)
{
	size_t fails[NIMPLS] = { 0 }, refused = 0, i, j;

	for (i = 0; i < count; i++) {
		uint8_t scalar[KEY], u[KEY], want[KEY];
		int r;

		zt_rand(scalar, KEY);
		zt_rand(u, KEY);
		r = oracle_x25519(want, scalar, u);
		refused += r != 1;
		for (j = 0; j < NIMPLS; j++)
			fails[j] += !check_against_oracle(&impls[j], scalar, u, r, want);
	}
	/* Random u is all but never of low order: a refusal means the oracle broke. */
	zt_ok(refused == 0, "default provider derives all %zu random inputs", count);
	for (j = 0; j < NIMPLS; j++)
		zt_ok(fails[j] == 0, "%s: %zu random scalars and u (any top bit) as default (%zu differ)",
		      impls[j].name, count, fails[j]);
}

/* u = p + k = 2^255 - 19 + k, for -19 <= k <= 18 (no carry out of the low byte). */
static void u_near_p(uint8_t u[KEY], int k)
{
	memset(u, 0xff, KEY);
	u[0] = (uint8_t)(0xed + k);
	u[KEY - 1] = 0x7f;
}

static void test_edge_u(void)
{
	enum { SCALARS = 8 };
	uint8_t us[64][KEY];
	size_t nu = 0, fails[NIMPLS] = { 0 }, derived = 0, refused = 0, i, j, s;
	int k;

	memset(us, 0, sizeof(us));
	nu++;					/* 0 */
	us[nu++][0] = 1;
	us[nu++][0] = 2;
	us[nu++][0] = 9;			/* the base point */
	for (k = -2; k <= 18; k++)		/* p - 2, p - 1, p, p + 1, .., 2^255 - 1 */
		u_near_p(us[nu++], k);
	memset(us[nu++], 0xff, KEY);		/* 2^256 - 1 */
	for (i = 0, j = nu; i < j; i++) {
		/* The same values with bit 255 set, which X25519 ignores. */
		memcpy(us[nu], us[i], KEY);
		us[nu++][KEY - 1] |= 0x80;
	}

	for (s = 0; s < SCALARS; s++) {
		uint8_t scalar[KEY], want[KEY];

		zt_rand(scalar, KEY);
		for (i = 0; i < nu; i++) {
			int r = oracle_x25519(want, scalar, us[i]);

			if (r < 0)
				zt_diag("default provider cannot set up u #%zu", i);
			derived += r == 1;
			refused += r == 0;
			for (j = 0; j < NIMPLS; j++)
				fails[j] += !check_against_oracle(&impls[j], scalar, us[i], r, want);
		}
	}
	zt_ok(derived > 0 && refused > 0 && derived + refused == SCALARS * nu,
	      "edge u: default derives %zu and refuses %zu (all-zero) of %zu", derived, refused,
	      SCALARS * nu);
	for (j = 0; j < NIMPLS; j++)
		zt_ok(fails[j] == 0,
		      "%s: edge u (0, 1, p - 1, p .. 2^255 - 1, top bit set) as default (%zu differ)",
		      impls[j].name, fails[j]);
}

static void test_generate_public(size_t count)
{
	size_t fails[NIMPLS] = { 0 }, oracle_bad = 0, i, j;

	for (i = 0; i < count; i++) {
		uint8_t secret[KEY], copy[KEY], want[KEY], got[KEY];

		zt_rand(secret, KEY);
		if (!oracle_public(want, secret)) {
			oracle_bad++;
			continue;
		}
		for (j = 0; j < NIMPLS; j++) {
			memcpy(copy, secret, KEY);
			impls[j].generate_public(got, copy);
			fails[j] += memcmp(got, want, KEY) != 0 || memcmp(copy, secret, KEY) != 0;
		}
	}
	zt_ok(oracle_bad == 0, "default provider makes all %zu public keys", count);
	for (j = 0; j < NIMPLS; j++)
		zt_ok(fails[j] == 0, "%s: %zu public keys as default's (%zu differ)", impls[j].name,
		      count, fails[j]);
}

static void test_clamp(void)
{
	uint8_t s[KEY], want[KEY];

	memset(s, 0xff, KEY);
	memset(want, 0xff, KEY);
	want[0] = 0xf8;
	want[KEY - 1] = 0x7f;
	curve25519_clamp_secret(s);
	zt_mem_eq(s, KEY, want, KEY, "clamp: all ones");
	memset(s, 0, KEY);
	memset(want, 0, KEY);
	want[KEY - 1] = 0x40;
	curve25519_clamp_secret(s);
	zt_mem_eq(s, KEY, want, KEY, "clamp: all zeros");
}

/* --- the arch code against the portable C, in one process -------------------- */

/*
 * Scalars that stress the public-key derivation's signed radix-16 recoding
 * (all nibbles 7, 8 or 15: a carry through every digit) and clamping.
 */
static void structured_scalar(uint8_t s[KEY], size_t i)
{
	static const uint8_t fill[] = { 0x00, 0xff, 0x88, 0x77, 0x78, 0x87, 0x80, 0x08, 0xf8, 0x8f };

	if (i < sizeof(fill)) {
		memset(s, fill[i], KEY);
	} else {
		zt_rand(s, KEY);
		s[i % KEY] = fill[i % sizeof(fill)];
		s[KEY - 1] = fill[(i / KEY) % sizeof(fill)];
	}
}

/*
 * The library's public key (the arch code's fixed-base table where there
 * is one) against its own ladder with u = 9 and against the portable C
 * (the 32-bit field copy), on structured and random scalars.
 */
static void test_base_vs_ladder(size_t count)
{
	static const uint8_t nine[KEY] = { 9 };
	size_t i, vs_ladder = 0, vs_portable = 0;

	for (i = 0; i < count; i++) {
		uint8_t secret[KEY], pub[KEY], ladder[KEY], portable[KEY];

		structured_scalar(secret, i);
		curve25519_generate_public(pub, secret);
		curve25519(ladder, secret, nine);
		fe32_curve25519_generate_public(portable, secret);
		vs_ladder += memcmp(pub, ladder, KEY) != 0;
		vs_portable += memcmp(pub, portable, KEY) != 0;
	}
	zt_ok(vs_ladder == 0, "library: %zu public keys as X25519(k, 9) by the ladder (%zu differ)",
	      count, vs_ladder);
	zt_ok(vs_portable == 0, "library: %zu public keys as the portable C's (%zu differ)", count,
	      vs_portable);
}

/* X25519(k, u) of the library against the portable C: random k and u, any top bit. */
static void test_vs_portable(size_t count)
{
	size_t i, differ = 0, ret_differ = 0;

	for (i = 0; i < count; i++) {
		uint8_t scalar[KEY], u[KEY], got[KEY], want[KEY];

		structured_scalar(scalar, i);
		zt_rand(u, KEY);
		if (i % 4 == 1)		/* p - 19 .. p + 18: canonical or not */
			u_near_p(u, (int)(i % 38) - 19);
		if (i % 8 == 3)
			u[KEY - 1] |= 0x80;
		ret_differ += curve25519(got, scalar, u) != fe32_curve25519(want, scalar, u);
		differ += memcmp(got, want, KEY) != 0;
	}
	zt_ok(differ == 0 && ret_differ == 0,
	      "library: %zu X25519(k, u) as the portable C's, u near p too (%zu differ)", count,
	      differ + ret_differ);
}

/*
 * Scalars whose 5-bit groups (the x86_64 fixed-base code's signed radix-32
 * digits) all sit at the recoding's edges: 15, 16 (borrows 32 from the
 * next group), 17, 31, 0 and 1, in runs and alternating, with a random
 * part; the public key against the portable C's X25519(k, 9).
 */
static void test_base_radix32(void)
{
	static const uint8_t groups[][3] = {
		{ 16, 16, 16 }, { 15, 15, 15 }, { 17, 17, 17 }, { 31, 31, 31 }, { 0, 0, 0 },
		{ 1, 1, 1 }, { 16, 15, 16 }, { 31, 0, 31 }, { 16, 16, 15 }, { 15, 17, 16 },
	};
	size_t g, n = 0, differ = 0;
	int i, half, bit;

	for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		for (half = 0; half < 3; half++, n++) {
			uint8_t secret[KEY] = { 0 }, pub[KEY], want[KEY];

			for (i = 0; i < 8 * KEY; i++) {
				bit = (groups[g][(i / 5) % 3] >> (i % 5)) & 1;
				secret[i >> 3] |= (uint8_t)(bit << (i & 7));
			}
			if (half == 1)		/* random low half */
				zt_rand(secret, KEY / 2);
			else if (half == 2)	/* random high half */
				zt_rand(secret + KEY / 2, KEY / 2);
			curve25519_generate_public(pub, secret);
			fe32_curve25519_generate_public(want, secret);
			differ += memcmp(pub, want, KEY) != 0;
		}
	}
	zt_ok(differ == 0, "library: %zu public keys of radix-32 edge scalars as the portable C's "
	      "(%zu differ)", n, differ);
}

#if defined(ZINC_ASM_X86_64)
/*
 * The assembly's division (the ladder's final x2 / z2 and the public key's
 * (Z + Y) / (Z - Y)): num / den mod p by a fixed number of divsteps, for
 * any num and den below 2^256, against num den^(p - 2) by the portable C.
 */
void zinc_x25519_divide(uint8_t out[KEY], const uint8_t num[KEY], const uint8_t den[KEY]);

/* The representative of a 256-bit value in [0, p). */
static void mod_p(uint8_t out[KEY], const uint8_t in[KEY])
{
	uint8_t v[KEY], t[KEY];
	unsigned int c;
	int i;

	memcpy(v, in, KEY);
	c = (v[KEY - 1] >> 7) * 19;		/* 2^255 = 19 */
	v[KEY - 1] &= 0x7f;
	for (i = 0; i < KEY; i++) {
		c += v[i];
		v[i] = (uint8_t)c;
		c >>= 8;
	}
	/* v < 2^255 + 19: v >= p exactly when v + 19 reaches 2^255. */
	c = 19;
	for (i = 0; i < KEY; i++) {
		c += v[i];
		t[i] = (uint8_t)c;
		c >>= 8;
	}
	if (t[KEY - 1] & 0x80) {
		t[KEY - 1] &= 0x7f;
		memcpy(v, t, KEY);
	}
	memcpy(out, v, KEY);
}

static int divide_ok(const uint8_t num[KEY], const uint8_t den[KEY])
{
	uint8_t n[KEY], d[KEY], want[KEY], got[KEY];
	fe fn, fd, fi;

	mod_p(n, num);
	mod_p(d, den);
	fe_frombytes(fn, n);
	fe_frombytes(fd, d);
	fe_invert(fi, fd);
	fe_mul(fn, fn, fi);
	fe_tobytes(want, fn);
	zinc_x25519_divide(got, num, den);
	mod_p(got, got);
	return memcmp(got, want, KEY) == 0;
}

static void test_divide(size_t count)
{
	uint8_t edge[16][KEY], num[KEY], den[KEY], one[KEY] = { 1 }, z[KEY] = { 0 };
	size_t ne = 0, i, j, fails = 0, n = 0;
	int k;

	memset(edge, 0, sizeof(edge));
	ne++;					/* 0 */
	edge[ne++][0] = 1;
	edge[ne++][0] = 2;
	edge[ne++][0] = 19;
	for (k = -1; k <= 1; k++)		/* p - 1, p, p + 1 */
		u_near_p(edge[ne++], k);
	u_near_p(edge[ne++], 18);		/* 2^255 - 1 */
	edge[ne][KEY - 1] = 0x80;		/* 2^255 */
	ne++;
	memset(edge[ne], 0xff, KEY);		/* 2p = 2^256 - 38 */
	edge[ne++][0] = 0xda;
	memset(edge[ne], 0xff, KEY);		/* 2p + 1 */
	edge[ne++][0] = 0xdb;
	memset(edge[ne++], 0xff, KEY);		/* 2^256 - 1 */
	memset(edge[ne], 0x55, KEY);
	ne++;
	memset(edge[ne], 0xaa, KEY);
	ne++;
	for (i = 0; i < ne; i++) {
		for (j = 0; j < ne; j++, n++)
			fails += !divide_ok(edge[j], edge[i]);
		zt_rand(num, KEY);
		fails += !divide_ok(num, edge[i]);
		n++;
	}
	zt_ok(fails == 0, "divide: %zu num / den of edge values (0, 1, p - 1, p, 2p, 2^256 - 1) "
	      "as the portable C's inversion (%zu differ)", n, fails);
	zinc_x25519_divide(num, one, z);
	zt_mem_eq(num, KEY, z, KEY, "divide: 1 / 0 = 0, as z^(p - 2)");
	for (i = 0, fails = 0; i < count; i++) {
		zt_rand(num, KEY);
		zt_rand(den, KEY);
		if (i % 3 == 1)		/* small denominators: long runs of even g */
			memset(den + 1 + i % 31, 0, KEY - 1 - i % 31);
		if (i % 5 == 2)
			memcpy(num, one, KEY);
		fails += !divide_ok(num, den);
	}
	zt_ok(fails == 0, "divide: %zu random num / den as the portable C's (%zu differ)", count,
	      fails);
}
#endif

int main(void)
{
	zinc_init();
	zt_diag("curve25519: %s", curve25519_implementation());
	zt_ok(strcmp(fe32_curve25519_implementation(), "portable C (radix 2^25.5)") == 0,
	      "the second copy uses the 32-bit field (%s)", fe32_curve25519_implementation());

	test_clamp();
	test_rfc7748_vectors();
	test_rfc7748_iterated();
	test_rfc7748_dh();
	test_wycheproof();
	test_random(3000);
	test_edge_u();
	test_generate_public(1000);
	test_base_vs_ladder(2000);
	test_vs_portable(2000);
	test_base_radix32();
#if defined(ZINC_ASM_X86_64)
	test_divide(20000);
#endif
	return zt_done();
}
