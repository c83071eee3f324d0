/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ZINC_REPORT=stderr or ZINC_REPORT=/a/file makes zinc write one line the
 * first time a process uses each of its algorithms, naming the
 * implementations that ran, so that a user can see that a running program
 * really goes through zinc.  A file is opened in append mode for each line
 * and the line goes out in one write, so that the lines of concurrent
 * processes interleave whole.  Unset or empty, an algorithm's init pays one
 * relaxed atomic load (zinc_report() in report.h).
 */
#include "config.h"
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report.h"
#include "zinc/zinc.h"

/* The primitives an event uses, as bits of enum zinc_primitive. */
enum {
	CHACHA20 = 1u << ZINC_CHACHA20,
	POLY1305 = 1u << ZINC_POLY1305,
	BLAKE2S = 1u << ZINC_BLAKE2S,
	CURVE25519 = 1u << ZINC_CURVE25519
};

static const struct {
	const char *what;
	unsigned int uses;
} events[ZINC_EV_COUNT] = {
	[ZINC_EV_CHACHA20_ENCRYPT] = { "ChaCha20 encrypt", CHACHA20 },
	[ZINC_EV_CHACHA20_DECRYPT] = { "ChaCha20 decrypt", CHACHA20 },
	[ZINC_EV_CHACHA20_POLY1305_ENCRYPT] = { "ChaCha20-Poly1305 encrypt", CHACHA20 | POLY1305 },
	[ZINC_EV_CHACHA20_POLY1305_DECRYPT] = { "ChaCha20-Poly1305 decrypt", CHACHA20 | POLY1305 },
	[ZINC_EV_XCHACHA20_POLY1305_ENCRYPT] = { "XChaCha20-Poly1305 encrypt", CHACHA20 | POLY1305 },
	[ZINC_EV_XCHACHA20_POLY1305_DECRYPT] = { "XChaCha20-Poly1305 decrypt", CHACHA20 | POLY1305 },
	[ZINC_EV_POLY1305_MAC] = { "POLY1305 MAC", POLY1305 },
	[ZINC_EV_BLAKE2SMAC_MAC] = { "BLAKE2SMAC MAC", BLAKE2S },
	[ZINC_EV_BLAKE2S256_DIGEST] = { "BLAKE2S-256 digest", BLAKE2S },
	[ZINC_EV_X25519_KEYGEN] = { "X25519 keygen", CURVE25519 },
	[ZINC_EV_X25519_DERIVE] = { "X25519 derive", CURVE25519 },
};

atomic_bool zinc_report_pending[ZINC_EV_COUNT];

/* Written once, before any event is armed; empty: stderr. */
static char report_path[PATH_MAX];

static void arm_all(void)
{
	for (int ev = 0; ev < ZINC_EV_COUNT; ev++)
		atomic_store_explicit(&zinc_report_pending[ev], true, memory_order_relaxed);
}

/*
 * Not for a setuid or setgid program: appending to a file the user names
 * must not happen with someone else's rights.
 */
static const char *report_variable(void)
{
#ifdef HAVE_SECURE_GETENV
	return secure_getenv("ZINC_REPORT");
#else
	if (getuid() != geteuid() || getgid() != getegid())
		return NULL;
	return getenv("ZINC_REPORT");
#endif
}

static void report_setup(void)
{
	const char *value = report_variable();

	if (value == NULL || value[0] == '\0')
		return;
	if (strcmp(value, "stderr") != 0) {
		const size_t len = strlen(value);

		if (len >= sizeof(report_path)) {
			fprintf(stderr, "zinc: ZINC_REPORT is too long a path; not reporting\n");
			return;
		}
		memcpy(report_path, value, len + 1);
	}
	/* A forked child is another process: its first uses are reported too. */
	pthread_atfork(NULL, NULL, arm_all);
	arm_all();
}

void zinc_report_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, report_setup);
}

/* The process's name from the kernel: a program's argv[0] may have been rewritten. */
static void program_name(char *name, size_t size)
{
	ssize_t n = 0;
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, name, size - 1);
		close(fd);
	}
	if (n < 0)
		n = 0;
	name[n] = '\0';
	name[strcspn(name, "\n")] = '\0';
}

static size_t append(char *line, size_t size, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (n > size - 1 - len)
		n = size - 1 - len;
	memcpy(line + len, s, n);
	line[len + n] = '\0';
	return len + n;
}

void zinc_report_first(enum zinc_event ev)
{
	char line[512], name[32];
	const char *sep = "";
	size_t len;
	ssize_t written;
	int fd = STDERR_FILENO;

	/* Of the threads that saw the event pending, the one that clears it writes. */
	if (!atomic_exchange_explicit(&zinc_report_pending[ev], false, memory_order_relaxed))
		return;

	program_name(name, sizeof(name));
	snprintf(line, sizeof(line) - 1, "zinc[%ld%s%s]: %s: ", (long)getpid(),
		 name[0] != '\0' ? " " : "", name, events[ev].what);
	len = strlen(line);
	for (enum zinc_primitive p = 0; p < ZINC_PRIMITIVE_COUNT; p++) {
		if ((events[ev].uses & (1u << p)) == 0)
			continue;
		len = append(line, sizeof(line) - 1, len, sep);
		len = append(line, sizeof(line) - 1, len, zinc_primitive_name(p));
		len = append(line, sizeof(line) - 1, len, " ");
		len = append(line, sizeof(line) - 1, len, zinc_primitive_implementation(p));
		sep = ", ";
	}
	/* sizeof(line) - 1 above kept room for the newline. */
	line[len++] = '\n';

	if (report_path[0] != '\0') {
		fd = open(report_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0666);
		if (fd < 0)
			return;
	}
	/* One write: lines from concurrent processes do not mix. */
	written = write(fd, line, len);
	(void)written;
	if (fd != STDERR_FILENO)
		close(fd);
}
