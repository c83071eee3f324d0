/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ZINC_REPORT inside one process (test_report.sh covers the command line):
 * threads racing to the first use of an algorithm write one line between
 * them, and a forked child, a process of its own, writes its own line.
 */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "testutil.h"

#define THREADS 8
#define ROUNDS 100

static pthread_barrier_t start;
static atomic_int failures;

/* RFC 7693, appendix B: BLAKE2s-256("abc"). */
static const unsigned char abc_blake2s[32] = {
	0x50, 0x8c, 0x5e, 0x8c, 0x32, 0x7c, 0x14, 0xe2, 0xe1, 0xa7, 0x2b, 0xa3, 0x4e, 0xeb, 0x45, 0x2f,
	0x37, 0x45, 0x8b, 0x20, 0x9e, 0xd6, 0x3a, 0x29, 0x4d, 0x99, 0x9b, 0x4c, 0x86, 0x67, 0x59, 0x82
};

static int digest_abc(void)
{
	EVP_MD *md = EVP_MD_fetch(zt_zinc_ctx(), "BLAKE2S-256", NULL);
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	int ok = md != NULL && EVP_Digest("abc", 3, out, &len, md, NULL) &&
		 len == sizeof(abc_blake2s) && memcmp(out, abc_blake2s, len) == 0;

	EVP_MD_free(md);
	return ok;
}

static int seal(void)
{
	static const unsigned char key[32], nonce[12];
	unsigned char buf[48];
	EVP_CIPHER *cipher = EVP_CIPHER_fetch(zt_zinc_ctx(), "ChaCha20-Poly1305", NULL);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int len = 0, fin = 0;
	int ok = cipher != NULL && ctx != NULL &&
		 EVP_EncryptInit_ex2(ctx, cipher, key, nonce, NULL) &&
		 EVP_EncryptUpdate(ctx, buf, &len, key, sizeof(key)) &&
		 EVP_EncryptFinal_ex(ctx, buf + len, &fin) && len + fin == (int)sizeof(key);

	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(cipher);
	return ok;
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < ROUNDS; i++) {
		if (!digest_abc())
			atomic_fetch_add(&failures, 1);
		if (!seal())
			atomic_fetch_add(&failures, 1);
	}
	return NULL;
}

/* The implementation the build info names for one primitive, e.g. "chacha20". */
static char *implementation(const char *buildinfo, const char *primitive)
{
	char key[32];
	const char *p;
	size_t len;

	snprintf(key, sizeof(key), "; %s: ", primitive);
	p = strstr(buildinfo, key);
	if (p == NULL)
		return strdup("?");
	p += strlen(key);
	len = strcspn(p, ";");
	return strndup(p, len);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/zinc-report-XXXXXX", path[64], comm[32] = "", line[3][256], want[1024];
	const char *buildinfo = NULL;
	char *chacha20, *poly1305, *blake2s, *got;
	OSSL_PROVIDER *zinc;
	OSSL_PARAM params[2];
	pthread_t threads[THREADS];
	FILE *f;
	pid_t child;
	int status, i;

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/report", dir);
	/* Read once, when zinc is loaded: zt_zinc_ctx() below does that. */
	setenv("ZINC_REPORT", path, 1);

	zinc = OSSL_PROVIDER_load(zt_zinc_ctx(), "zinc");
	params[0] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&buildinfo, 0);
	params[1] = OSSL_PARAM_construct_end();
	zt_ok(zinc != NULL && OSSL_PROVIDER_get_params(zinc, params) && buildinfo != NULL,
	      "zinc's build info");
	chacha20 = implementation(buildinfo ? buildinfo : "", "chacha20");
	poly1305 = implementation(buildinfo ? buildinfo : "", "poly1305");
	blake2s = implementation(buildinfo ? buildinfo : "", "blake2s");
	OSSL_PROVIDER_unload(zinc);

	f = fopen("/proc/self/comm", "r");
	if (f != NULL) {
		if (fgets(comm, sizeof(comm), f) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	zt_ok(access(path, F_OK) != 0, "nothing is reported before an algorithm runs");

	/* Eight threads released at once, each digesting and sealing 100 times. */
	pthread_barrier_init(&start, NULL, THREADS);
	for (i = 0; i < THREADS; i++)
		pthread_create(&threads[i], NULL, worker, NULL);
	for (i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&start);
	zt_ok(atomic_load(&failures) == 0, "%d threads x %d: BLAKE2S-256 and ChaCha20-Poly1305 work",
	      THREADS, ROUNDS);

	snprintf(line[0], sizeof(line[0]), "zinc[%ld %s]: BLAKE2S-256 digest: blake2s %s\n",
		 (long)getpid(), comm, blake2s);
	snprintf(line[1], sizeof(line[1]),
		 "zinc[%ld %s]: ChaCha20-Poly1305 encrypt: chacha20 %s, poly1305 %s\n",
		 (long)getpid(), comm, chacha20, poly1305);
	got = slurp(path);
	snprintf(want, sizeof(want), "%s%s", line[0], line[1]);
	if (strcmp(got, want) != 0)
		snprintf(want, sizeof(want), "%s%s", line[1], line[0]);
	if (!zt_ok(strcmp(got, want) == 0, "the threads' first uses: one line each, in all"))
		zt_diag("got:\n%swant (in either order):\n%s", got, want);

	/* A forked child reports its own first use, under its own pid. */
	fflush(stdout);
	child = fork();
	if (child == 0)
		_exit(digest_abc() ? 0 : 1);
	zt_ok(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "a forked child digests");
	/* ...and the parent, having reported already, stays quiet. */
	zt_ok(digest_abc() && seal(), "the parent digests and seals again");
	snprintf(line[2], sizeof(line[2]), "zinc[%ld %s]: BLAKE2S-256 digest: blake2s %s\n",
		 (long)child, comm, blake2s);
	strncat(want, line[2], sizeof(want) - strlen(want) - 1);
	got = slurp(path);
	if (!zt_ok(strcmp(got, want) == 0, "the child's line follows; the parent adds none"))
		zt_diag("got:\n%swant:\n%s", got, want);

	free(chacha20);
	free(poly1305);
	free(blake2s);
	unlink(path);
	rmdir(dir);
	return zt_done();
}
