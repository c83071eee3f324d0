/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ZINC_REPORT=stderr or ZINC_REPORT=/a/file makes zinc write one line the
 * first time a process uses each of its algorithms, naming the
 * implementations that ran, so that a user can see that a running program
 * really goes through zinc.  A file is opened in append mode for each line
 * and the line goes out in one write, so that the lines of concurrent
 * processes interleave whole.  Unset or empty, an algorithm's init pays one
 * relaxed atomic load (zinc_report() in report.h).
 *
 * A file that cannot be opened (or written) costs no line: the event stays
 * pending, the process warns once on stderr, and the next use of any event
 * that can write also writes the lines that waited (a server's workers may
 * run as a user who cannot write the file until someone fixes it).
 */
#include "config.h"
#include <errno.h>
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

/* Events used whose line the file did not take, as bits; each is pending again. */
static atomic_uint unwritten;
_Static_assert(ZINC_EV_COUNT <= sizeof(unsigned int) * CHAR_BIT, "an event is a bit of unwritten");
/* Set by the one thread that writes the process's warning. */
static atomic_bool warned;

/* At setup, and in a forked child: another process, with its own lines and warning. */
static void arm_all(void)
{
	atomic_store_explicit(&unwritten, 0, memory_order_relaxed);
	atomic_store_explicit(&warned, false, memory_order_relaxed);
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

/* Fills line with ev's report, newline included; returns its length. */
static size_t format_line(char *line, size_t size, enum zinc_event ev)
{
	char name[32];
	const char *sep = "";
	size_t len;

	program_name(name, sizeof(name));
	snprintf(line, size - 1, "zinc[%ld%s%s]: %s: ", (long)getpid(),
		 name[0] != '\0' ? " " : "", name, events[ev].what);
	len = strlen(line);
	for (enum zinc_primitive p = 0; p < ZINC_PRIMITIVE_COUNT; p++) {
		if ((events[ev].uses & (1u << p)) == 0)
			continue;
		len = append(line, size - 1, len, sep);
		len = append(line, size - 1, len, zinc_primitive_name(p));
		len = append(line, size - 1, len, " ");
		len = append(line, size - 1, len, zinc_primitive_implementation(p));
		sep = ", ";
	}
	/* size - 1 above kept room for the newline. */
	line[len++] = '\n';
	return len;
}

/* One write: lines from concurrent processes do not mix.  False with errno set. */
static bool write_line(int fd, enum zinc_event ev)
{
	char line[512];
	size_t len = format_line(line, sizeof(line), ev);
	ssize_t written = write(fd, line, len);

	if (written >= 0 && (size_t)written != len)
		errno = EIO;	/* a short write sets none */
	return written >= 0 && (size_t)written == len;
}

static void error_text(int err, char *buf, size_t size)
{
#ifdef STRERROR_R_CHAR_P
	const char *s = strerror_r(err, buf, size);

	if (s != buf)
		snprintf(buf, size, "%s", s);
#else
	if (strerror_r(err, buf, size) != 0)
		snprintf(buf, size, "error %d", err);
#endif
}

/* The process's one warning: the first failure's. */
static void warn_once(const char *what, int err)
{
	char line[PATH_MAX + 512], reason[128], name[32];
	int len;
	ssize_t written;

	if (atomic_exchange_explicit(&warned, true, memory_order_relaxed))
		return;
	error_text(err, reason, sizeof(reason));
	program_name(name, sizeof(name));
	len = snprintf(line, sizeof(line),
		       "zinc[%ld%s%s]: cannot %s ZINC_REPORT file %s: %s; zinc keeps its lines "
		       "for a later use that can write them\n", (long)getpid(), name[0] != '\0' ? " " : "",
		       name, what, report_path, reason);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(line))
		len = sizeof(line) - 1;
	written = write(STDERR_FILENO, line, (size_t)len);
	(void)written;
}

/*
 * The caller holds ev (it cleared ev's pending flag) and could not write its
 * line: ev is marked unwritten, then pending again, for a later use to take.
 */
static void keep_pending(enum zinc_event ev, const char *what, int err)
{
	atomic_fetch_or_explicit(&unwritten, 1u << ev, memory_order_release);
	atomic_store_explicit(&zinc_report_pending[ev], true, memory_order_release);
	warn_once(what, err);
}

/* The lines that waited, each taken as its event's own use; false if one failed. */
static bool write_unwritten(int fd)
{
	unsigned int waiting = atomic_load_explicit(&unwritten, memory_order_acquire);

	for (int ev = 0; waiting != 0 && ev < ZINC_EV_COUNT; ev++) {
		if ((waiting & (1u << ev)) == 0 ||
		    !atomic_exchange_explicit(&zinc_report_pending[ev], false, memory_order_acq_rel))
			continue;
		if (!write_line(fd, ev)) {
			keep_pending(ev, "write to", errno);
			return false;
		}
		atomic_fetch_and_explicit(&unwritten, ~(1u << ev), memory_order_relaxed);
	}
	return true;
}

void zinc_report_first(enum zinc_event ev)
{
	int fd;

	/* Of the threads that saw the event pending, the one that clears it writes. */
	if (!atomic_exchange_explicit(&zinc_report_pending[ev], false, memory_order_acq_rel))
		return;

	if (report_path[0] == '\0') {
		/* Standard error is not retried: a failure there has nowhere to be told. */
		(void)write_line(STDERR_FILENO, ev);
		return;
	}
	fd = open(report_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0666);
	if (fd < 0) {
		keep_pending(ev, "open", errno);
		return;
	}
	/* The lines that waited first: their uses came first. */
	if (write_unwritten(fd) && write_line(fd, ev))
		atomic_fetch_and_explicit(&unwritten, ~(1u << ev), memory_order_relaxed);
	else
		keep_pending(ev, "write to", errno);
	close(fd);
}
