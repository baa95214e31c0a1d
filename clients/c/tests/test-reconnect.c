/* The daemon goes away and comes back: DISCONNECTED, back-off, CONNECTED again, on the same fd. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>

#include "helpers.h"

int main(void)
{
	struct daemon d;
	daemon_start(&d, "--replay", "Tests/Fixtures/demo.evemu", NULL);
	struct pressured *p = pressured_new(NULL);
	REQUIRE(p);
	CHECK(pressured_set_reconnect(p, 50, 10) == -EINVAL);
	CHECK(pressured_set_reconnect(p, 50, 400) == 0);
	REQUIRE(pressured_connect(p, d.socket) == 0);
	int fd = pressured_get_fd(p);
	struct pressured_event *ev = wait_for(p, PRESSURED_EVENT_CONNECTED, 10000);
	REQUIRE(ev);
	pressured_event_unref(ev);

	/* SIGTERM: bye, then the end. */
	daemon_kill(&d, SIGTERM);
	ev = next_event(p, 5000);
	CHECK(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_BYE);
	pressured_event_unref(ev);
	ev = next_event(p, 5000);
	CHECK(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_DISCONNECTED);
	CHECK(pressured_event_disconnected_get_reason(ev) == 0);
	pressured_event_unref(ev);
	CHECK(!pressured_is_connected(p));
	CHECK(pressured_request_status(p) == -ENOTCONN);
	int t = pressured_get_timeout(p);
	CHECK(t >= 0 && t <= 50);

	/* Attempts fail while nothing serves the socket: the back-off grows to its maximum. */
	for (int i = 0; i < 5; i++) {
		struct pollfd pfd = {.fd = pressured_get_fd(p), .events = POLLIN};
		CHECK(poll(&pfd, 1, 2000) == 1); /* the fd wakes for the attempt: no timeout needed */
		CHECK(pressured_dispatch(p) == 0);
	}
	t = pressured_get_timeout(p);
	CHECK(t > 100 && t <= 400);
	CHECK(pressured_get_event(p) == NULL);

	/* Back: connected again, same fd. */
	daemon_restart(&d, "--replay", "Tests/Fixtures/demo.evemu", NULL);
	ev = wait_for(p, PRESSURED_EVENT_CONNECTED, 5000);
	CHECK(ev != NULL);
	pressured_event_unref(ev);
	CHECK(pressured_get_fd(p) == fd);
	CHECK(pressured_get_timeout(p) == -1);
	int64_t id = pressured_request_status(p);
	CHECK(id > 0);
	ev = wait_answer(p, id, 5000);
	CHECK(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_REPLY);
	pressured_event_unref(ev);

	/* SIGKILL: no bye, just the end; then back again. */
	daemon_kill(&d, SIGKILL);
	ev = wait_for(p, PRESSURED_EVENT_DISCONNECTED, 5000);
	CHECK(ev != NULL);
	pressured_event_unref(ev);
	daemon_restart(&d, "--replay", "Tests/Fixtures/demo.evemu", NULL);
	ev = wait_for(p, PRESSURED_EVENT_CONNECTED, 5000);
	CHECK(ev != NULL);
	pressured_event_unref(ev);

	/* Reconnecting off: the end is the end. */
	CHECK(pressured_set_reconnect(p, -1, 0) == 0);
	daemon_kill(&d, SIGTERM);
	ev = wait_for(p, PRESSURED_EVENT_DISCONNECTED, 5000);
	CHECK(ev != NULL);
	pressured_event_unref(ev);
	CHECK(pressured_get_timeout(p) == -1);

	/* A connect before the daemon starts succeeds later by itself. */
	struct pressured *early = pressured_new(NULL);
	pressured_log_set_handler(early, NULL);
	pressured_set_reconnect(early, 20, 100);
	char missing[400];
	snprintf(missing, sizeof(missing), "%s/later.sock", d.dir);
	int rc = pressured_connect(early, missing);
	CHECK(rc == -ENOENT);
	CHECK(pressured_get_timeout(early) >= 0);
	pressured_unref(early);

	pressured_unref(p);
	daemon_stop(&d);
	printf("reconnect: %d failures\n", failures);
	return failures ? 1 : 0;
}
