/* A flood from the daemon: one dispatch does a bounded amount of work, the queue is bounded while the
 * app does not drain it, and nothing is lost or reordered once it does. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

#define LINES 20000
#define PER_DISPATCH 256 /* the header's figures */
#define QUEUE_MAX 4096

static bool readable(struct pressured *p)
{
	struct pollfd pfd = {.fd = pressured_get_fd(p), .events = POLLIN};
	return poll(&pfd, 1, 0) == 1;
}


static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	struct fake f;
	struct pressured *p = fake_greeted(&f);
	struct pressured_event *ev;

	pid_t child = fork();
	REQUIRE(child >= 0);
	if (child == 0) {
		char line[160];
		for (int i = 0; i < LINES; i++) {
			int n = snprintf(line, sizeof(line), "{\"type\":\"touch\",\"phase\":\"moved\",\"time\":%d.0,"
				"\"device\":1,\"contact\":1,\"x\":%d,\"y\":0,\"force\":1.0}\n", i + 1, i);
			fake_send(&f, line, (size_t)n);
		}
		pause(); /* the connection stays open: no end of file wakes the library */
		_exit(0);
	}
	/* Let the flood fill the socket. */
	struct pollfd pfd = {.fd = pressured_get_fd(p), .events = POLLIN};
	REQUIRE(poll(&pfd, 1, 5000) == 1);
	usleep(200000);

	/* One dispatch: a bounded number of lines, and the fd says there is more. */
	double t0 = now();
	CHECK(pressured_dispatch(p) == 0);
	double took = now() - t0;
	int n = 0, expect = 0;
	while ((ev = pressured_get_event(p))) {
		CHECK(pressured_event_get_x(ev) == expect);
		expect++, n++;
		pressured_event_unref(ev);
	}
	printf("one dispatch: %d events in %.1f ms\n", n, took * 1e3);
	CHECK(n > 0 && n <= PER_DISPATCH);
	CHECK(readable(p));

	/* An app that does not drain: the queue stops growing at its bound, and the fd goes quiet. */
	for (int i = 0; i < 2000; i++) {
		struct pollfd w = {.fd = pressured_get_fd(p), .events = POLLIN};
		if (poll(&w, 1, 300) != 1)
			break;
		CHECK(pressured_dispatch(p) == 0);
	}
	CHECK(!readable(p));
	int held = 0;
	while ((ev = pressured_get_event(p))) {
		CHECK(pressured_event_get_x(ev) == expect);
		expect++, held++;
		pressured_event_unref(ev);
	}
	printf("undrained: %d events held\n", held);
	CHECK(held >= QUEUE_MAX - PER_DISPATCH && held <= QUEUE_MAX);

	/* Drained: the fd wakes again, and every line comes, in order. */
	double deadline = now() + 20;
	while (expect < LINES && now() < deadline) {
		struct pollfd w = {.fd = pressured_get_fd(p), .events = POLLIN};
		if (poll(&w, 1, 1000) != 1)
			break;
		CHECK(pressured_dispatch(p) == 0);
		while ((ev = pressured_get_event(p))) {
			if (pressured_event_get_x(ev) != expect) {
				fprintf(stderr, "line %d came as %lld\n", expect, (long long)pressured_event_get_x(ev));
				failures++;
			}
			expect++;
			pressured_event_unref(ev);
		}
	}
	CHECK(expect == LINES);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	pressured_unref(p);
	fake_stop(&f);
	printf("flood: %d failures\n", failures);
	return failures ? 1 : 0;
}
