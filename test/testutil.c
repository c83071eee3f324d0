/* SPDX-License-Identifier: Apache-2.0 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "testutil.h"

static unsigned int tests_run, tests_failed;

void zt_report(int cond, const char *fmt, ...)
{
	va_list ap;

	tests_run++;
	if (!cond)
		tests_failed++;
	printf("%sok %u - ", cond ? "" : "not ", tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void zt_skip(const char *fmt, ...)
{
	va_list ap;

	printf("ok %u # SKIP ", ++tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void zt_missing(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (zt_ci())
		zt_report(0, "%s", msg);
	else
		zt_skip("%s", msg);
}

void zt_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void diag_hex(const char *label, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	printf("#   %s (%zu):", label, len);
	for (i = 0; i < len && i < 256; i++)
		printf("%s%02x", i % 32 == 0 ? "\n#     " : "", p[i]);
	printf("%s\n", len > 256 ? " ..." : "");
}

int zt_mem_eq(const void *got, size_t got_len, const void *want, size_t want_len,
	      const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int eq = got_len == want_len && (got_len == 0 || memcmp(got, want, got_len) == 0);

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	zt_ok(eq, "%s", msg);
	if (!eq) {
		diag_hex("got", got, got_len);
		diag_hex("want", want, want_len);
	}
	return eq;
}

/* --- library contexts ----------------------------------------------------- */

static OSSL_LIB_CTX *zinc_ctx, *default_ctx, *preferred_ctx;
/* OpenSSL 3.0 leaks a provider still loaded when its context is freed. */
static OSSL_PROVIDER *loaded[4];
static size_t nloaded;

static void bail(const char *what)
{
	printf("Bail out! %s\n", what);
	ERR_print_errors_fp(stdout);
	exit(99);
}

static OSSL_LIB_CTX *new_ctx(int with_zinc, int with_default)
{
	OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
	const char *dir = getenv("ZINC_MODULE_DIR");

	if (ctx == NULL)
		bail("OSSL_LIB_CTX_new failed");
	if (with_zinc) {
		if (dir != NULL && !OSSL_PROVIDER_set_default_search_path(ctx, dir))
			bail("cannot set the module search path");
		if ((loaded[nloaded++] = OSSL_PROVIDER_load(ctx, "zinc")) == NULL)
			bail("cannot load the zinc provider (is ZINC_MODULE_DIR set?)");
	}
	if (with_default && (loaded[nloaded++] = OSSL_PROVIDER_load(ctx, "default")) == NULL)
		bail("cannot load the default provider");
	return ctx;
}

OSSL_LIB_CTX *zt_zinc_ctx(void)
{
	if (zinc_ctx == NULL)
		zinc_ctx = new_ctx(1, 0);
	return zinc_ctx;
}

OSSL_LIB_CTX *zt_default_ctx(void)
{
	if (default_ctx == NULL)
		default_ctx = new_ctx(0, 1);
	return default_ctx;
}

OSSL_LIB_CTX *zt_preferred_ctx(void)
{
	if (preferred_ctx == NULL) {
		preferred_ctx = new_ctx(1, 1);
		if (!EVP_set_default_properties(preferred_ctx, ZT_PREFER_ZINC))
			bail("cannot set default properties");
	}
	return preferred_ctx;
}

int zt_done(void)
{
	while (nloaded > 0)
		OSSL_PROVIDER_unload(loaded[--nloaded]);
	OSSL_LIB_CTX_free(zinc_ctx);
	OSSL_LIB_CTX_free(default_ctx);
	OSSL_LIB_CTX_free(preferred_ctx);
	zinc_ctx = default_ctx = preferred_ctx = NULL;
	printf("1..%u\n", tests_run);
	if (tests_failed)
		zt_diag("%u of %u checks failed", tests_failed, tests_run);
	return tests_failed ? 1 : 0;
}

int zt_make_identity(OSSL_LIB_CTX *libctx, EVP_PKEY **key, X509 **cert)
{
	/* A name of its own: 4.0's X509_get_subject_name gives a const one. */
	X509_NAME *name = X509_NAME_new();
	int ok;

	*key = EVP_PKEY_Q_keygen(libctx, NULL, "EC", "P-256");
	*cert = X509_new_ex(libctx, NULL);
	ok = *key != NULL && *cert != NULL && name != NULL &&
	     X509_set_version(*cert, X509_VERSION_3) &&
	     ASN1_INTEGER_set(X509_get_serialNumber(*cert), 1) &&
	     X509_gmtime_adj(X509_getm_notBefore(*cert), -60) != NULL &&
	     X509_gmtime_adj(X509_getm_notAfter(*cert), 3600) != NULL &&
	     X509_set_pubkey(*cert, *key) &&
	     X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
					(const unsigned char *)"zinc test", -1, -1, 0) &&
	     X509_set_subject_name(*cert, name) && X509_set_issuer_name(*cert, name) &&
	     X509_sign(*cert, *key, EVP_sha256());
	X509_NAME_free(name);
	if (!ok) {
		EVP_PKEY_free(*key);
		X509_free(*cert);
		*key = NULL;
		*cert = NULL;
	}
	return ok;
}

int zt_openssl_at_least(unsigned int major, unsigned int minor)
{
	return OPENSSL_version_major() > major ||
	       (OPENSSL_version_major() == major && OPENSSL_version_minor() >= minor);
}

const char *zt_zinc_reason(void)
{
	static char reason[256];
	const char *found = NULL;
	unsigned long e;

	/* The first zinc error is the cause; EVP may queue its own after it. */
	while ((e = ERR_get_error()) != 0) {
		const char *lib = ERR_lib_error_string(e);
		const char *r = ERR_reason_error_string(e);

		if (found == NULL && lib != NULL && strcmp(lib, "zinc") == 0 && r != NULL) {
			snprintf(reason, sizeof(reason), "%s", r);
			found = reason;
		}
	}
	return found;
}

void zt_clear_errors(void)
{
	unsigned long e;
	char buf[256];

	while ((e = ERR_get_error()) != 0) {
		ERR_error_string_n(e, buf, sizeof(buf));
		zt_diag("error queue: %s", buf);
	}
}

/* --- random data: splitmix64, reproducible from the printed seed ---------- */

static uint64_t rng_state;
static int rng_seeded;

uint64_t zt_rand_u64(void)
{
	uint64_t z;

	if (!rng_seeded) {
		const char *s = getenv("ZINC_TEST_SEED");

		rng_state = s != NULL ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);
		rng_seeded = 1;
		zt_diag("ZINC_TEST_SEED=%llu", (unsigned long long)rng_state);
	}
	z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void zt_rand(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len > 0) {
		uint64_t r = zt_rand_u64();
		size_t n = len < 8 ? len : 8;

		memcpy(p, &r, n);
		p += n;
		len -= n;
	}
}

size_t zt_rand_below(size_t n)
{
	return (size_t)(zt_rand_u64() % n);
}

/* --- data ------------------------------------------------------------------ */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

unsigned char *zt_unhex(const char *hex, size_t *len)
{
	size_t n = strlen(hex), i;
	unsigned char *out = malloc(n / 2 + 1);

	if (out == NULL || n % 2 != 0)
		bail("bad hex string");
	for (i = 0; i < n / 2; i++) {
		int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			bail("bad hex digit");
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	*len = n / 2;
	return out;
}

size_t zt_unhex_into(void *out, size_t max, const char *hex)
{
	size_t len;
	unsigned char *b = zt_unhex(hex, &len);

	if (len > max)
		bail("a hex value is longer than its buffer");
	memcpy(out, b, len);
	free(b);
	return len;
}

void zt_unhex_exact(void *out, size_t len, const char *hex)
{
	if (zt_unhex_into(out, len, hex) != len)
		bail("a hex value has the wrong length");
}

char *zt_vector_path(const char *relative)
{
	const char *dir = getenv("ZINC_VECTORS");
	struct stat st;
	char *path;

	if (dir == NULL || *dir == '\0') {
		zt_missing("%s: ZINC_VECTORS is not set", relative);
		return NULL;
	}
	path = malloc(strlen(dir) + strlen(relative) + 2);
	if (path == NULL)
		bail("out of memory");
	sprintf(path, "%s/%s", dir, relative);
	if (stat(path, &st) != 0) {
		zt_missing("%s is absent: the shared vectors are not beside this tree", path);
		free(path);
		return NULL;
	}
	return path;
}

char *zt_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, got;

	if (f == NULL) {
		zt_diag("cannot open %s", path);
		return NULL;
	}
	do {
		char *grown = realloc(buf, n + 65536 + 1);

		if (grown == NULL)
			bail("out of memory");
		buf = grown;
		got = fread(buf + n, 1, 65536, f);
		n += got;
	} while (got > 0);
	if (ferror(f)) {
		zt_diag("cannot read %s", path);
		free(buf);
		buf = NULL;
	} else {
		buf[n] = '\0';
		if (len != NULL)
			*len = n;
	}
	fclose(f);
	return buf;
}

/* --- JSON ------------------------------------------------------------------ */

struct json_parser {
	const char *start, *p;
	const char *error;	/* the first error, with p where it was found */
};

static struct zt_json *json_value(struct json_parser *jp, int depth);

static void json_space(struct json_parser *jp)
{
	jp->p += strspn(jp->p, " \t\r\n");
}

static int json_fail(struct json_parser *jp, const char *why)
{
	if (jp->error == NULL)
		jp->error = why;
	return 0;
}

static struct zt_json *json_node(enum zt_json_type type)
{
	struct zt_json *j = calloc(1, sizeof(*j));

	if (j == NULL)
		bail("out of memory");
	j->type = type;
	return j;
}

static int json_hex4(const char *p, unsigned int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		int d = hexval((unsigned char)p[i]);

		if (d < 0)
			return 0;
		*v = *v << 4 | (unsigned int)d;
	}
	return 1;
}

/* The string at jp->p (its opening quote), unescaped into a malloc'd *out. */
static int json_string(struct json_parser *jp, char **out, size_t *out_len)
{
	const char *r = jp->p + 1, *e = r;
	char *w, *s;

	/* Unescaping never lengthens: \uXXXX is 6 bytes for at most 4 of UTF-8. */
	while (*e != '\0' && *e != '"')
		e += e[0] == '\\' && e[1] != '\0' ? 2 : 1;
	s = w = malloc((size_t)(e - r) + 1);

	if (w == NULL)
		bail("out of memory");
	for (; *r != '"'; r++) {
		unsigned int c, lo;

		if ((unsigned char)*r < 0x20) {
			free(s);
			jp->p = r;
			return json_fail(jp, *r == '\0' ? "unterminated string"
						 : "control character in a string");
		}
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		switch (*++r) {
		case '"': case '\\': case '/': *w++ = *r; continue;
		case 'b': *w++ = '\b'; continue;
		case 'f': *w++ = '\f'; continue;
		case 'n': *w++ = '\n'; continue;
		case 'r': *w++ = '\r'; continue;
		case 't': *w++ = '\t'; continue;
		case 'u': break;
		default:
			free(s);
			jp->p = r;
			return json_fail(jp, "unknown escape");
		}
		if (!json_hex4(r + 1, &c))
			goto bad_u;
		r += 4;
		if (c >= 0xd800 && c < 0xdc00) {
			/* A surrogate pair: one code point above U+FFFF. */
			if (r[1] != '\\' || r[2] != 'u' || !json_hex4(r + 3, &lo) ||
			    lo < 0xdc00 || lo > 0xdfff)
				goto bad_u;
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			r += 6;
		} else if (c >= 0xdc00 && c < 0xe000) {
			goto bad_u;
		}
		if (c < 0x80) {
			*w++ = (char)c;
		} else if (c < 0x800) {
			*w++ = (char)(0xc0 | c >> 6);
			*w++ = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			*w++ = (char)(0xe0 | c >> 12);
			*w++ = (char)(0x80 | (c >> 6 & 0x3f));
			*w++ = (char)(0x80 | (c & 0x3f));
		} else {
			*w++ = (char)(0xf0 | c >> 18);
			*w++ = (char)(0x80 | (c >> 12 & 0x3f));
			*w++ = (char)(0x80 | (c >> 6 & 0x3f));
			*w++ = (char)(0x80 | (c & 0x3f));
		}
	}
	*w = '\0';
	*out = s;
	*out_len = (size_t)(w - s);
	jp->p = r + 1;
	return 1;
bad_u:
	free(s);
	jp->p = r;
	return json_fail(jp, "bad \\u escape");
}

/* The elements of an array or the members of an object, up to close. */
static int json_elements(struct json_parser *jp, struct zt_json *parent, char close, int depth)
{
	struct zt_json **tail = &parent->child;

	jp->p++;
	json_space(jp);
	if (*jp->p == close) {
		jp->p++;
		return 1;
	}
	for (;;) {
		char *name = NULL;
		size_t name_len;

		json_space(jp);
		if (close == '}') {
			if (*jp->p != '"')
				return json_fail(jp, "expected a member name");
			if (!json_string(jp, &name, &name_len))
				return 0;
			json_space(jp);
			if (*jp->p != ':') {
				free(name);
				return json_fail(jp, "expected ':'");
			}
			jp->p++;
		}
		*tail = json_value(jp, depth + 1);
		if (*tail == NULL) {
			free(name);
			return 0;
		}
		(*tail)->name = name;
		tail = &(*tail)->next;
		json_space(jp);
		if (*jp->p == close) {
			jp->p++;
			return 1;
		}
		if (*jp->p != ',')
			return json_fail(jp, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
		jp->p++;
	}
}

static struct zt_json *json_value(struct json_parser *jp, int depth)
{
	static const struct {
		const char *word;
		enum zt_json_type type;
	} words[] = {
		{ "null", ZT_JSON_NULL }, { "false", ZT_JSON_FALSE }, { "true", ZT_JSON_TRUE }
	};
	struct zt_json *j;
	size_t i;

	json_space(jp);
	if (depth > 64) {
		json_fail(jp, "nested too deeply");
		return NULL;
	}
	switch (*jp->p) {
	case '{':
	case '[':
		j = json_node(*jp->p == '{' ? ZT_JSON_OBJECT : ZT_JSON_ARRAY);
		if (!json_elements(jp, j, *jp->p == '{' ? '}' : ']', depth)) {
			zt_json_free(j);
			return NULL;
		}
		return j;
	case '"':
		j = json_node(ZT_JSON_STRING);
		if (!json_string(jp, &j->text, &j->len)) {
			zt_json_free(j);
			return NULL;
		}
		return j;
	default:
		break;
	}
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strncmp(jp->p, words[i].word, strlen(words[i].word)) == 0) {
			jp->p += strlen(words[i].word);
			return json_node(words[i].type);
		}
	if (*jp->p == '-' || isdigit((unsigned char)*jp->p)) {
		const char *q = jp->p + (*jp->p == '-');

		if (!isdigit((unsigned char)*q) || (q[0] == '0' && isdigit((unsigned char)q[1]))) {
			json_fail(jp, "bad number");
			return NULL;
		}
		q += strspn(q, "0123456789");
		if (*q == '.') {
			if (!isdigit((unsigned char)*++q)) {
				json_fail(jp, "bad number");
				return NULL;
			}
			q += strspn(q, "0123456789");
		}
		if (*q == 'e' || *q == 'E') {
			q += q[1] == '+' || q[1] == '-' ? 2 : 1;
			if (!isdigit((unsigned char)*q)) {
				json_fail(jp, "bad number");
				return NULL;
			}
			q += strspn(q, "0123456789");
		}
		j = json_node(ZT_JSON_NUMBER);
		j->len = (size_t)(q - jp->p);
		j->text = malloc(j->len + 1);
		if (j->text == NULL)
			bail("out of memory");
		memcpy(j->text, jp->p, j->len);
		j->text[j->len] = '\0';
		jp->p = q;
		return j;
	}
	json_fail(jp, "expected a value");
	return NULL;
}

struct zt_json *zt_json_load(const char *path)
{
	struct json_parser jp = { NULL, NULL, NULL };
	struct zt_json *j;
	char *text = zt_read_file(path, NULL);

	if (text == NULL)
		return NULL;
	jp.start = jp.p = text;
	j = json_value(&jp, 0);
	if (j != NULL) {
		json_space(&jp);
		if (*jp.p != '\0')
			json_fail(&jp, "text after the value");
	}
	if (jp.error != NULL) {
		zt_diag("%s: %s at byte %zu", path, jp.error, (size_t)(jp.p - jp.start));
		zt_json_free(j);
		j = NULL;
	}
	free(text);
	return j;
}

void zt_json_free(struct zt_json *j)
{
	while (j != NULL) {
		struct zt_json *next = j->next;

		zt_json_free(j->child);
		free(j->name);
		free(j->text);
		free(j);
		j = next;
	}
}

const struct zt_json *zt_json_get(const struct zt_json *j, const char *name)
{
	const struct zt_json *m;

	if (j == NULL || j->type != ZT_JSON_OBJECT)
		return NULL;
	for (m = j->child; m != NULL; m = m->next)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

const char *zt_json_str(const struct zt_json *j, const char *name)
{
	const struct zt_json *m = zt_json_get(j, name);

	return m != NULL && m->type == ZT_JSON_STRING ? m->text : NULL;
}

long zt_json_long(const struct zt_json *j, const char *name)
{
	const struct zt_json *m = zt_json_get(j, name);
	char *end;
	long v;

	if (m == NULL || m->type != ZT_JSON_NUMBER)
		return -1;
	v = strtol(m->text, &end, 10);
	return *end == '\0' ? v : -1;
}

unsigned char *zt_json_hex(const struct zt_json *j, const char *name, size_t *len)
{
	const char *hex = zt_json_str(j, name);

	return hex != NULL ? zt_unhex(hex, len) : NULL;
}

const struct zt_json *zt_wycheproof_next(const struct zt_json *root, struct zt_wycheproof *it)
{
	const struct zt_json *groups = zt_json_get(root, "testGroups");

	if (groups == NULL || groups->type != ZT_JSON_ARRAY)
		return NULL;
	it->test = it->test != NULL ? it->test->next : NULL;
	while (it->test == NULL) {
		const struct zt_json *tests;

		it->group = it->group != NULL ? it->group->next : groups->child;
		if (it->group == NULL)
			return NULL;
		tests = zt_json_get(it->group, "tests");
		if (tests != NULL && tests->type == ZT_JSON_ARRAY)
			it->test = tests->child;
	}
	return it->test;
}

/* --- evp_test stanzas ------------------------------------------------------ */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

void zt_stanza_free(struct zt_stanza *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->key[i]);
		free(s->value[i]);
	}
	s->n = 0;
}

int zt_stanza_next(FILE *f, struct zt_stanza *s)
{
	char buf[65536];

	zt_stanza_free(s);
	while (fgets(buf, sizeof(buf), f) != NULL) {
		char *line, *eq;

		s->lines_read++;
		line = trim(buf);
		if (*line == '#')
			continue;
		if (*line == '\0') {
			if (s->n > 0)
				return 1;
			continue;
		}
		eq = strchr(line, '=');
		if (eq == NULL || s->n == ZT_STANZA_MAX)
			bail("malformed stanza line");
		*eq = '\0';
		if (s->n == 0)
			s->line = s->lines_read;
		s->key[s->n] = strdup(trim(line));
		s->value[s->n] = strdup(trim(eq + 1));
		s->n++;
	}
	return s->n > 0;
}

const char *zt_stanza_get(const struct zt_stanza *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->key[i], key) == 0)
			return s->value[i];
	return NULL;
}

unsigned char *zt_stanza_bytes(const struct zt_stanza *s, const char *key, size_t *len)
{
	const char *v = zt_stanza_get(s, key);
	size_t n;

	if (v == NULL)
		return NULL;
	n = strlen(v);
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		unsigned char *out = malloc(n);

		if (out == NULL)
			bail("out of memory");
		memcpy(out, v + 1, n - 2);
		*len = n - 2;
		return out;
	}
	return zt_unhex(v, len);
}
