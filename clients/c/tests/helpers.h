/* Test helpers: a real `pressured --replay` on a temporary socket, a fake server, waiting for events. */
#ifndef PRESSURED_TEST_HELPERS_H
#define PRESSURED_TEST_HELPERS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "pressured.h"

#define SKIP 77 /* meson: the test was skipped */

extern int failures;

#define CHECK(cond)                                                                                       \
	do {                                                                                              \
		if (!(cond)) {                                                                            \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);          \
			failures++;                                                                       \
		}                                                                                         \
	} while (0)
#define REQUIRE(cond)                                                                                     \
	do {                                                                                              \
		if (!(cond)) {                                                                            \
			fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond);        \
			exit(1);                                                                          \
		}                                                                                         \
	} while (0)

struct daemon {
	pid_t pid;
	char dir[256];
	char socket[300];
	char log[300];
};

/* The repository root (docs/, Tests/Fixtures). */
const char *repo_root(void);
/* $PRESSURED_BIN_DIR, else `swift build --show-bin-path`; NULL when neither gives pressured (skip). */
const char *bin_dir(void);
/* Starts `pressured --socket DIR/s.sock --state-directory DIR/state ARGS... (NULL-terminated)` in the
 * repository root and waits until the socket exists; exits the test (77: skip) when there is no daemon. */
void daemon_start(struct daemon *d, const char *arg, ...);
/* Starts again on the same socket and directory. */
void daemon_restart(struct daemon *d, const char *arg, ...);
void daemon_kill(struct daemon *d, int sig);
/* SIGTERM (if running), wait, remove the directory. */
void daemon_stop(struct daemon *d);
/* Writes the fixtures' calibration to DIR/test.conf and returns its path. */
const char *daemon_calibration(struct daemon *d);

/* Polls and dispatches until an event is queued, then returns it; NULL after @p timeout_ms. */
struct pressured_event *next_event(struct pressured *p, int timeout_ms);
/* The next event of @p type (others unref'd, counted into *skipped if not NULL); NULL on timeout. */
struct pressured_event *wait_for(struct pressured *p, enum pressured_event_type type, int timeout_ms);
/* The answer (REPLY or ERROR) carrying @p id. */
struct pressured_event *wait_answer(struct pressured *p, int64_t id, int timeout_ms);
/* A context connected to @p socket with its CONNECTED event taken (returned in *hello if not NULL). */
struct pressured *connect_to(const char *socket, struct pressured_event **hello);

/* A fake daemon: a listening socket at a temporary path. */
struct fake {
	int listen_fd, fd;
	char dir[256];
	char path[300];
};
void fake_listen(struct fake *f);
/* A new context (logging off, reconnecting off) connected to the listening fake, accepted. */
struct pressured *fake_connect(struct fake *f);
/* fake_listen, fake_connect, a hello sent and its CONNECTED taken. */
struct pressured *fake_greeted(struct fake *f);
/* Accepts the connection the library made (blocking). */
void fake_accept(struct fake *f);
void fake_send(struct fake *f, const char *data, size_t len);
void fake_sends(struct fake *f, const char *text);
/* Reads one line the library sent (blocking, with a timeout while dispatching @p p); malloc'd. */
char *fake_read_line(struct fake *f, struct pressured *p);
void fake_close_client(struct fake *f);
void fake_stop(struct fake *f);

#endif
