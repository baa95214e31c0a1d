/* The context: life, user data, logging, errors, the event queue, dispatch. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "private.h"

static void default_log(struct pressured *p, enum pressured_log_priority priority, const char *format, va_list args)
{
	(void)p;
	fprintf(stderr, "libpressured %s: ", priority >= PRESSURED_LOG_PRIORITY_ERROR ? "error"
					      : priority >= PRESSURED_LOG_PRIORITY_INFO ? "info" : "debug");
	vfprintf(stderr, format, args);
	fputc('\n', stderr);
}

void pressured_log(struct pressured *p, enum pressured_log_priority priority, const char *format, ...)
{
	if (!p->log_handler || priority < p->log_priority)
		return;
	va_list args;
	va_start(args, format);
	p->log_handler(p, priority, format, args);
	va_end(args);
}

int pressured_fail(struct pressured *p, int err, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(p->error, sizeof(p->error), format, args);
	va_end(args);
	return err;
}

uint64_t pressured_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

PRESSURED_EXPORT struct pressured *pressured_new(void *user_data)
{
	struct pressured *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->refcount = 1;
	p->user_data = user_data;
	p->log_handler = default_log;
	p->log_priority = PRESSURED_LOG_PRIORITY_ERROR;
	p->sock_fd = p->epoll_fd = p->timer_fd = p->wake_fd = -1;
	p->reconnect_min_ms = 100;
	p->reconnect_max_ms = 5000;
	p->backoff_ms = 100;
	p->next_id = 1;
	p->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	p->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	p->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	p->tokener = json_tokener_new();
	struct epoll_event timer = {.events = EPOLLIN, .data.fd = p->timer_fd};
	struct epoll_event wake = {.events = EPOLLIN, .data.fd = p->wake_fd};
	if (p->epoll_fd < 0 || p->timer_fd < 0 || p->wake_fd < 0 || !p->tokener ||
	    line_reader_init(&p->reader, PRESSURED_LINE_MAX) < 0 ||
	    epoll_ctl(p->epoll_fd, EPOLL_CTL_ADD, p->timer_fd, &timer) < 0 ||
	    epoll_ctl(p->epoll_fd, EPOLL_CTL_ADD, p->wake_fd, &wake) < 0) {
		p->refcount = 1;
		return pressured_unref(p);
	}
	return p;
}

PRESSURED_EXPORT struct pressured *pressured_ref(struct pressured *p)
{
	if (p)
		p->refcount++;
	return p;
}

PRESSURED_EXPORT struct pressured *pressured_unref(struct pressured *p)
{
	if (!p || --p->refcount > 0)
		return NULL;
	if (p->sock_fd >= 0)
		close(p->sock_fd);
	while (p->head) {
		struct pressured_event *ev = p->head;
		p->head = ev->next;
		ev->context = NULL;
		pressured_event_unref(ev);
	}
	if (p->timer_fd >= 0)
		close(p->timer_fd);
	if (p->wake_fd >= 0)
		close(p->wake_fd);
	if (p->epoll_fd >= 0)
		close(p->epoll_fd);
	if (p->tokener)
		json_tokener_free(p->tokener);
	line_reader_release(&p->reader);
	pressured_unfinished_release(p);
	free(p->out.data);
	free(p->path);
	free(p);
	return NULL;
}

PRESSURED_EXPORT void pressured_set_user_data(struct pressured *p, void *user_data)
{
	p->user_data = user_data;
}

PRESSURED_EXPORT void *pressured_get_user_data(struct pressured *p)
{
	return p->user_data;
}

PRESSURED_EXPORT void pressured_log_set_handler(struct pressured *p, pressured_log_handler handler)
{
	p->log_handler = handler;
}

PRESSURED_EXPORT void pressured_log_set_priority(struct pressured *p, enum pressured_log_priority priority)
{
	p->log_priority = priority;
}

PRESSURED_EXPORT enum pressured_log_priority pressured_log_get_priority(struct pressured *p)
{
	return p->log_priority;
}

PRESSURED_EXPORT const char *pressured_get_error_message(struct pressured *p)
{
	return p->error;
}

void pressured_wake(struct pressured *p)
{
	uint64_t one = 1;
	if (!p->woken)
		p->woken = write(p->wake_fd, &one, sizeof(one)) == sizeof(one);
}

void pressured_queue_event(struct pressured *p, struct pressured_event *ev)
{
	/* An event queued by another call (pressured_disconnect, a request whose write failed) wakes the
	 * fd, so a loop that polls it, dispatches and drains sees the event. */
	if (!p->dispatching)
		pressured_wake(p);
	p->queued++;
	ev->context = p;
	ev->next = NULL;
	if (p->tail)
		p->tail->next = ev;
	else
		p->head = ev;
	p->tail = ev;
}

PRESSURED_EXPORT struct pressured_event *pressured_get_event(struct pressured *p)
{
	struct pressured_event *ev = p->head;
	if (!ev)
		return NULL;
	p->head = ev->next;
	if (!p->head)
		p->tail = NULL;
	ev->next = NULL;
	p->queued--;
	pressured_connection_drained(p);
	return ev;
}

PRESSURED_EXPORT enum pressured_event_type pressured_next_event_type(struct pressured *p)
{
	return p->head ? p->head->type : PRESSURED_EVENT_NONE;
}

PRESSURED_EXPORT int pressured_get_fd(struct pressured *p)
{
	return p->epoll_fd;
}

PRESSURED_EXPORT int pressured_get_timeout(struct pressured *p)
{
	if (!p->reconnect_pending)
		return -1;
	uint64_t now = pressured_now_ms();
	if (now >= p->reconnect_at_ms)
		return 0;
	uint64_t left = p->reconnect_at_ms - now;
	return left > INT32_MAX ? INT32_MAX : (int)left;
}

static int dispatch(struct pressured *p)
{
	uint64_t count;
	while (read(p->timer_fd, &count, sizeof(count)) > 0)
		; /* the timer is looked at below, by the clock */
	if (p->woken && read(p->wake_fd, &count, sizeof(count)) > 0)
		p->woken = false; /* the events it stood for are queued: the caller drains them next */
	if (p->reconnect_pending && pressured_now_ms() >= p->reconnect_at_ms) {
		p->reconnect_pending = false;
		pressured_connection_try(p); /* a failure schedules the next attempt */
	}
	if (p->sock_fd < 0)
		return 0;
	int rc = pressured_connection_read(p);
	if (rc == -ENOMEM)
		return rc;
	if (p->sock_fd >= 0)
		pressured_connection_flush(p);
	return 0;
}

static void dispatched(struct pressured *p)
{
	if (p->more && !p->queue_full && p->sock_fd >= 0)
		pressured_wake(p); /* lines left in the buffer: the socket alone may not wake the fd */
}

PRESSURED_EXPORT int pressured_dispatch(struct pressured *p)
{
	p->dispatching = true;
	int rc = dispatch(p);
	p->dispatching = false;
	dispatched(p);
	return rc;
}
