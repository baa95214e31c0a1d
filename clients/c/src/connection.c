/* The connection: a non-blocking Unix stream socket, the hello, reading lines into events, writing
 * queued requests, and reconnecting with back-off (a timerfd in the context's epoll fd). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include "private.h"

/* Lines one pressured_dispatch parses at most, so a flood cannot keep a caller in it (a dispatch of 256
 * touch lines takes about 1 ms); the fd stays readable for the rest. */
#define LINES_PER_DISPATCH 256
/* Events the queue holds at most before reading stops (until the app takes some): an app that does not
 * keep up leaves the rest to the daemon's back-pressure (`dropped`, then `too-slow`). */
#define QUEUE_MAX 4096

static void arm_timer(struct pressured *p, uint64_t delay_ms)
{
	struct itimerspec its = {0};
	if (delay_ms == 0)
		delay_ms = 1; /* 0 would disarm */
	its.it_value.tv_sec = (time_t)(delay_ms / 1000);
	its.it_value.tv_nsec = (long)(delay_ms % 1000) * 1000000;
	timerfd_settime(p->timer_fd, 0, &its, NULL);
}

void pressured_connection_cancel_timer(struct pressured *p)
{
	struct itimerspec its = {0};
	p->reconnect_pending = false;
	timerfd_settime(p->timer_fd, 0, &its, NULL);
}

void pressured_connection_schedule(struct pressured *p)
{
	if (!p->wanted || p->reconnect_min_ms < 0 || p->sock_fd >= 0)
		return;
	int delay = p->backoff_ms;
	int next = p->backoff_ms > p->reconnect_max_ms / 2 ? p->reconnect_max_ms
		   : p->backoff_ms > 0 ? p->backoff_ms * 2 : 1;
	p->backoff_ms = next > p->reconnect_max_ms ? p->reconnect_max_ms : next;
	p->reconnect_pending = true;
	p->reconnect_at_ms = pressured_now_ms() + (uint64_t)delay;
	arm_timer(p, (uint64_t)delay);
	pressured_log(p, PRESSURED_LOG_PRIORITY_DEBUG, "reconnecting to %s in %d ms", p->path, delay);
}

void pressured_connection_close(struct pressured *p, int reason, const char *message)
{
	if (p->sock_fd < 0)
		return;
	enum pressured_disconnect_kind kind = p->closing ? PRESSURED_DISCONNECT_CLOSED
					      : p->fatal_seen ? PRESSURED_DISCONNECT_FATAL
					      : reason == 0 && p->bye_seen ? PRESSURED_DISCONNECT_BYE
					      : PRESSURED_DISCONNECT_LOST;
	epoll_ctl(p->epoll_fd, EPOLL_CTL_DEL, p->sock_fd, NULL);
	close(p->sock_fd);
	p->sock_fd = -1;
	p->greeted = p->polling_out = p->fatal_seen = p->bye_seen = p->queue_full = false;
	p->write_error = 0;
	p->out.len = 0;
	line_reader_reset(&p->reader);
	if (reason < 0) {
		pressured_fail(p, reason, "%s", message);
		pressured_log(p, PRESSURED_LOG_PRIORITY_ERROR, "connection to %s dropped: %s", p->path, message);
	}
	pressured_unfinished_end(p, message);
	struct pressured_event *ev = pressured_event_new(PRESSURED_EVENT_DISCONNECTED);
	if (ev) {
		ev->reason = reason;
		ev->kind = kind;
		ev->message = strdup(message);
		pressured_queue_event(p, ev);
	}
	pressured_connection_schedule(p);
}

int pressured_connection_try(struct pressured *p)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(p->path) >= sizeof(addr.sun_path))
		return pressured_fail(p, -ENAMETOOLONG, "socket path too long: %s", p->path);
	memcpy(addr.sun_path, p->path, strlen(p->path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		int err = -errno;
		pressured_connection_schedule(p);
		return pressured_fail(p, err, "socket: %s", strerror(-err));
	}
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 && errno != EINPROGRESS) {
		int err = errno == EAGAIN ? -ECONNREFUSED : -errno; /* EAGAIN: the listen backlog is full */
		close(fd);
		pressured_log(p, PRESSURED_LOG_PRIORITY_DEBUG, "connecting to %s: %s", p->path, strerror(-err));
		pressured_connection_schedule(p);
		return pressured_fail(p, err, "connecting to %s: %s", p->path, strerror(-err));
	}
	struct epoll_event ee = {.events = EPOLLIN, .data.fd = fd};
	if (epoll_ctl(p->epoll_fd, EPOLL_CTL_ADD, fd, &ee) < 0) {
		int err = -errno;
		close(fd);
		pressured_connection_schedule(p);
		return pressured_fail(p, err, "epoll_ctl: %s", strerror(-err));
	}
	p->sock_fd = fd;
	p->greeted = p->fatal_seen = p->polling_out = p->bye_seen = p->queue_full = false;
	p->write_error = 0;
	p->out.len = 0;
	line_reader_reset(&p->reader);
	pressured_log(p, PRESSURED_LOG_PRIORITY_DEBUG, "connected to %s", p->path);
	return 0;
}

/* One line: the hello first, then events. Returns 0, or a negative errno after closing. */
static int handle_line(struct pressured *p, const char *line, size_t len)
{
	int err;
	char why[160];
	struct pressured_event *ev = pressured_parse_line(p->tokener, line, len, &err, why, sizeof(why));
	if (!ev) {
		char message[256];
		snprintf(message, sizeof(message), "the daemon sent %s: %.60s", why, line);
		pressured_connection_close(p, err, message);
		return err;
	}
	if (ev->type == PRESSURED_EVENT_ERROR && pressured_event_error_is_fatal(ev)) {
		p->fatal_seen = true;
		const char *code = pressured_event_error_get_code(ev), *text = pressured_event_get_message(ev);
		snprintf(p->fatal_message, sizeof(p->fatal_message), "%s: %s", code ? code : "?", text ? text : "");
	}
	if (!p->greeted) {
		if (ev->type == PRESSURED_EVENT_ERROR) { /* too-many-clients: the daemon closes */
			pressured_queue_event(p, ev);
			return 0;
		}
		if (ev->type != PRESSURED_EVENT_CONNECTED) {
			char message[128];
			snprintf(message, sizeof(message), "expected hello, the daemon sent \"%.40s\"", ev->type_name);
			pressured_event_unref(ev);
			pressured_connection_close(p, -EPROTO, message);
			return -EPROTO;
		}
		int64_t version = -1;
		if (!pj_int(ev->json, "protocol", &version) || version != PRESSURED_PROTOCOL_VERSION) {
			char message[128];
			snprintf(message, sizeof(message), "the daemon speaks protocol %lld, this library %d",
				 (long long)version, PRESSURED_PROTOCOL_VERSION);
			pressured_event_unref(ev);
			pressured_connection_close(p, -EPROTONOSUPPORT, message);
			return -EPROTONOSUPPORT;
		}
		p->greeted = true;
		p->backoff_ms = p->reconnect_min_ms > 0 ? p->reconnect_min_ms : 0;
	} else if (ev->type == PRESSURED_EVENT_CONNECTED) {
		ev->type = PRESSURED_EVENT_UNKNOWN; /* a second hello is no connection */
	}
	if (ev->type == PRESSURED_EVENT_BYE)
		p->bye_seen = true;
	pressured_unfinished_track(p, ev);
	pressured_queue_event(p, ev);
	return 0;
}

static void closed(struct pressured *p, int err)
{
	if (p->fatal_seen)
		pressured_connection_close(p, -EPROTO, p->fatal_message);
	else if (err || p->write_error)
		pressured_connection_close(p, err ? err : p->write_error, strerror(-(err ? err : p->write_error)));
	else if (line_reader_pending(&p->reader) > 0) {
		char message[128];
		snprintf(message, sizeof(message),
			 "the daemon closed the connection within a line (an unfinished last line of %zu bytes dropped)",
			 line_reader_pending(&p->reader));
		pressured_connection_close(p, -ECONNRESET, message);
	} else if (!p->bye_seen)
		/* Killed, crashed, or the socket broke: what was open for the app was not ended by it. */
		pressured_connection_close(p, -ECONNRESET, "the daemon closed the connection without bye");
	else
		pressured_connection_close(p, 0, "the daemon closed the connection");
}

static void update_epoll(struct pressured *p)
{
	if (p->sock_fd < 0)
		return;
	struct epoll_event ee = {.events = (p->queue_full ? 0 : EPOLLIN) | (p->polling_out ? EPOLLOUT : 0),
				 .data.fd = p->sock_fd};
	epoll_ctl(p->epoll_fd, EPOLL_CTL_MOD, p->sock_fd, &ee);
}

/* Parses at most @p lines lines, reading when none is buffered, until EAGAIN or the end; @p bounded:
 * stop too while the queue is full. Returns 0, or -ENOMEM. */
static int read_some(struct pressured *p, size_t lines, bool bounded)
{
	while (p->sock_fd >= 0) {
		const char *line;
		size_t len;
		int rc;
		while (lines > 0 && !(bounded && p->queued >= QUEUE_MAX) &&
		       (rc = line_reader_next(&p->reader, &line, &len)) > 0) {
			lines--;
			if (handle_line(p, line, len) < 0)
				return 0; /* closed */
		}
		if (lines == 0 || (bounded && p->queued >= QUEUE_MAX)) {
			p->more = true; /* left in the buffer or the socket for the next dispatch */
			return 0;
		}
		if (rc < 0) {
			char message[96];
			snprintf(message, sizeof(message), "the daemon sent a line over %d bytes", PRESSURED_LINE_MAX);
			pressured_connection_close(p, rc, message);
			return 0;
		}
		size_t avail;
		char *space = line_reader_space(&p->reader, &avail);
		if (!space)
			return pressured_fail(p, -ENOMEM, "out of memory");
		ssize_t n = recv(p->sock_fd, space, avail, 0);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			closed(p, -errno);
			return 0;
		}
		if (n == 0) {
			closed(p, 0);
			return 0;
		}
		line_reader_commit(&p->reader, (size_t)n);
	}
	return 0;
}

int pressured_connection_read(struct pressured *p)
{
	p->more = false;
	int rc = read_some(p, LINES_PER_DISPATCH, true);
	/* A full queue stops the socket waking the fd (an app that does not drain must not spin);
	 * pressured_connection_drained turns it back on. */
	bool full = p->sock_fd >= 0 && p->queued >= QUEUE_MAX;
	if (full != p->queue_full) {
		p->queue_full = full;
		update_epoll(p);
	}
	return rc;
}

void pressured_connection_drained(struct pressured *p)
{
	if (p->queue_full && p->queued < QUEUE_MAX) {
		p->queue_full = false;
		update_epoll(p);
		pressured_wake(p); /* lines may wait in the buffer, not the socket */
	}
}

/* A write failed: the daemon went (or is going). What it sent before is in the socket already and is
 * read now (a fatal error says why), then the connection ends here, not at the next dispatch, so no
 * request takes an id that will never be sent. The socket's buffer bounds the reading. */
static void write_failed(struct pressured *p, int err)
{
	p->write_error = err;
	p->out.len = 0;
	read_some(p, SIZE_MAX, false);
	if (p->sock_fd >= 0) {
		char message[160];
		snprintf(message, sizeof(message), "writing to %s: %s", p->path, strerror(-err));
		pressured_connection_close(p, err, message);
	}
}

static void want_out(struct pressured *p, bool on)
{
	if (p->polling_out == on || p->sock_fd < 0)
		return;
	p->polling_out = on;
	update_epoll(p);
}

int pressured_connection_flush(struct pressured *p)
{
	size_t done = 0;
	while (done < p->out.len) {
		ssize_t n = send(p->sock_fd, p->out.data + done, p->out.len - done, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN) {
				int err = -errno;
				write_failed(p, err);
				return err;
			}
			break;
		}
		done += (size_t)n;
	}
	if (done > 0 && done < p->out.len)
		memmove(p->out.data, p->out.data + done, p->out.len - done);
	p->out.len -= done;
	want_out(p, p->out.len > 0);
	return 0;
}

PRESSURED_EXPORT int pressured_connect(struct pressured *p, const char *path)
{
	if (p->sock_fd >= 0)
		return pressured_fail(p, -EALREADY, "connected already");
	if (!path || !*path) {
		const char *env = getenv("PRESSURED_SOCKET");
		path = env && *env ? env : PRESSURED_DEFAULT_SOCKET;
	}
	char *copy = strdup(path);
	if (!copy)
		return pressured_fail(p, -ENOMEM, "out of memory");
	free(p->path);
	p->path = copy;
	p->wanted = true;
	p->backoff_ms = p->reconnect_min_ms > 0 ? p->reconnect_min_ms : 0;
	pressured_connection_cancel_timer(p);
	return pressured_connection_try(p);
}

PRESSURED_EXPORT void pressured_disconnect(struct pressured *p)
{
	p->wanted = false;
	pressured_connection_cancel_timer(p);
	p->closing = true;
	pressured_connection_close(p, 0, "disconnected");
	p->closing = false;
}

PRESSURED_EXPORT bool pressured_is_connected(struct pressured *p)
{
	return p->sock_fd >= 0 && p->greeted;
}

PRESSURED_EXPORT const char *pressured_get_socket_path(struct pressured *p)
{
	return p->path;
}

PRESSURED_EXPORT int pressured_set_reconnect(struct pressured *p, int min_ms, int max_ms)
{
	if (min_ms >= 0 && max_ms < min_ms)
		return pressured_fail(p, -EINVAL, "max_ms %d < min_ms %d", max_ms, min_ms);
	p->reconnect_min_ms = min_ms;
	p->reconnect_max_ms = max_ms;
	p->backoff_ms = min_ms > 0 ? min_ms : 0;
	if (min_ms < 0)
		pressured_connection_cancel_timer(p);
	return 0;
}
