/* Test helpers (helpers.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

int failures;

#ifndef REPO_ROOT
#define REPO_ROOT "../.."
#endif

const char *repo_root(void)
{
	return REPO_ROOT;
}

const char *bin_dir(void)
{
	static char dir[1024]; /* test program only */
	const char *env = getenv("PRESSURED_BIN_DIR");
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s", env);
	} else {
		char cmd[1200];
		snprintf(cmd, sizeof(cmd), "cd '%s' && swift build --show-bin-path 2>/dev/null", repo_root());
		FILE *f = popen(cmd, "r");
		if (!f || !fgets(dir, sizeof(dir), f))
			dir[0] = '\0';
		if (f)
			pclose(f);
		dir[strcspn(dir, "\n")] = '\0';
	}
	char daemon[1100];
	snprintf(daemon, sizeof(daemon), "%s/pressured", dir);
	return dir[0] && access(daemon, X_OK) == 0 ? dir : NULL;
}

static void spawn(struct daemon *d, const char *first, va_list ap)
{
	const char *bin = bin_dir();
	if (!bin) {
		fprintf(stderr, "SKIP: no pressured (set PRESSURED_BIN_DIR to the directory of a built pressured)\n");
		exit(SKIP);
	}
	char daemon[1100], state[320];
	snprintf(daemon, sizeof(daemon), "%s/pressured", bin);
	snprintf(state, sizeof(state), "%s/state", d->dir);
	const char *argv[64] = {daemon, "--socket", d->socket, "--state-directory", state};
	int n = 5;
	for (const char *a = first; a && n < 62; a = va_arg(ap, const char *))
		argv[n++] = a;
	argv[n] = NULL;
	unlink(d->socket);
	d->pid = fork();
	REQUIRE(d->pid >= 0);
	if (d->pid == 0) {
		/* Gone with the test, whatever way it ends; its output in the log, not in the test's pipes. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		FILE *log = fopen(d->log, "a");
		if (log) {
			dup2(fileno(log), 1);
			dup2(fileno(log), 2);
		}
		if (chdir(repo_root()) < 0)
			_exit(126);
		execv(daemon, (char *const *)argv);
		_exit(127);
	}
	for (int i = 0; i < 500; i++) { /* 10 s */
		struct stat st;
		int status;
		if (stat(d->socket, &st) == 0)
			return;
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			fprintf(stderr, "pressured exited before serving %s; its log:\n", d->socket);
			char cmd[400];
			snprintf(cmd, sizeof(cmd), "cat '%s' >&2", d->log);
			if (system(cmd) < 0)
				fprintf(stderr, "(no log)\n");
			exit(1);
		}
		usleep(20000);
	}
	fprintf(stderr, "pressured did not serve %s within 10 s\n", d->socket);
	exit(1);
}

void daemon_start(struct daemon *d, const char *arg, ...)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "/tmp/libpressured-test-XXXXXX");
	REQUIRE(mkdtemp(d->dir));
	snprintf(d->socket, sizeof(d->socket), "%s/s.sock", d->dir);
	snprintf(d->log, sizeof(d->log), "%s/stderr.log", d->dir);
	va_list ap;
	va_start(ap, arg);
	spawn(d, arg, ap);
	va_end(ap);
}

void daemon_restart(struct daemon *d, const char *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	spawn(d, arg, ap);
	va_end(ap);
}

const char *daemon_calibration(struct daemon *d)
{
	static char path[320];
	snprintf(path, sizeof(path), "%s/test.conf", d->dir);
	FILE *f = fopen(path, "w");
	REQUIRE(f);
	fputs("[pressured fixtures]\nMatchName = pressured fixture*\nPressureAverage = 252\n", f);
	fclose(f);
	return path;
}

void daemon_kill(struct daemon *d, int sig)
{
	if (d->pid > 0) {
		kill(d->pid, sig);
		waitpid(d->pid, NULL, 0);
		d->pid = 0;
	}
}

void daemon_stop(struct daemon *d)
{
	daemon_kill(d, SIGTERM);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d->dir);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct pressured_event *next_event(struct pressured *p, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	for (;;) {
		struct pressured_event *ev = pressured_get_event(p);
		if (ev)
			return ev;
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return NULL;
		struct pollfd fd = {.fd = pressured_get_fd(p), .events = POLLIN};
		poll(&fd, 1, (int)left);
		REQUIRE(pressured_dispatch(p) == 0);
	}
}

struct pressured_event *wait_for(struct pressured *p, enum pressured_event_type type, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct pressured_event *ev;
	while ((ev = next_event(p, (int)(deadline - now_ms() > 0 ? deadline - now_ms() : 0)))) {
		if (pressured_event_get_type(ev) == type)
			return ev;
		pressured_event_unref(ev);
	}
	return NULL;
}

struct pressured_event *wait_answer(struct pressured *p, int64_t id, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct pressured_event *ev;
	while ((ev = next_event(p, (int)(deadline - now_ms() > 0 ? deadline - now_ms() : 0)))) {
		enum pressured_event_type t = pressured_event_get_type(ev);
		if ((t == PRESSURED_EVENT_REPLY || t == PRESSURED_EVENT_ERROR) && pressured_event_get_request_id(ev) == id)
			return ev;
		pressured_event_unref(ev);
	}
	return NULL;
}

struct pressured *connect_to(const char *socket, struct pressured_event **hello)
{
	struct pressured *p = pressured_new(NULL);
	REQUIRE(p);
	REQUIRE(pressured_connect(p, socket) == 0);
	struct pressured_event *ev = wait_for(p, PRESSURED_EVENT_CONNECTED, 10000);
	REQUIRE(ev);
	if (hello)
		*hello = ev;
	else
		pressured_event_unref(ev);
	return p;
}

void fake_listen(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/libpressured-fake-XXXXXX");
	REQUIRE(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/s.sock", f->dir);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	REQUIRE(strlen(f->path) < sizeof(addr.sun_path));
	memcpy(addr.sun_path, f->path, strlen(f->path) + 1);
	f->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	REQUIRE(f->listen_fd >= 0);
	REQUIRE(bind(f->listen_fd, (struct sockaddr *)&addr, sizeof(addr)) == 0);
	REQUIRE(listen(f->listen_fd, 8) == 0);
}

struct pressured *fake_connect(struct fake *f)
{
	struct pressured *p = pressured_new(NULL);
	REQUIRE(p);
	pressured_log_set_handler(p, NULL);
	pressured_set_reconnect(p, -1, 0);
	REQUIRE(pressured_connect(p, f->path) == 0);
	fake_accept(f);
	return p;
}

struct pressured *fake_greeted(struct fake *f)
{
	fake_listen(f);
	struct pressured *p = fake_connect(f);
	fake_sends(f, "{\"type\":\"hello\",\"protocol\":1,\"version\":\"9\",\"devices\":[],\"settings\":{}}\n");
	struct pressured_event *ev = wait_for(p, PRESSURED_EVENT_CONNECTED, 5000);
	REQUIRE(ev);
	pressured_event_unref(ev);
	return p;
}

void fake_accept(struct fake *f)
{
	fake_close_client(f);
	struct pollfd pfd = {.fd = f->listen_fd, .events = POLLIN};
	REQUIRE(poll(&pfd, 1, 5000) == 1);
	f->fd = accept4(f->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	REQUIRE(f->fd >= 0);
}

void fake_send(struct fake *f, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = send(f->fd, data, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return; /* the library hung up: the test looks at its events */
		data += n;
		len -= (size_t)n;
	}
}

void fake_sends(struct fake *f, const char *text)
{
	fake_send(f, text, strlen(text));
}

char *fake_read_line(struct fake *f, struct pressured *p)
{
	char *line = NULL;
	size_t len = 0;
	for (int i = 0; i < 500; i++) {
		pressured_dispatch(p);
		struct pollfd pfd = {.fd = f->fd, .events = POLLIN};
		if (poll(&pfd, 1, 10) != 1)
			continue;
		char c;
		while (recv(f->fd, &c, 1, MSG_DONTWAIT) == 1) {
			if (c == '\n') {
				line = realloc(line, len + 1);
				line[len] = '\0';
				return line;
			}
			line = realloc(line, len + 1);
			line[len++] = c;
		}
	}
	free(line);
	return NULL;
}

void fake_close_client(struct fake *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

void fake_stop(struct fake *f)
{
	fake_close_client(f);
	close(f->listen_fd);
	unlink(f->path);
	rmdir(f->dir);
}
