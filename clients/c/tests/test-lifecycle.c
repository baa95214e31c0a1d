/* How a connection ends, as an app with its own poll() sees it: every end makes the fd readable and
 * comes as a DISCONNECTED the documented loop (poll, dispatch, drain) reads. */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "helpers.h"

static const char *HELLO = "{\"type\":\"hello\",\"protocol\":1,\"version\":\"9\",\"devices\":[],\"settings\":{}}\n";

static struct pressured *greeted(struct fake *f)
{
	fake_listen(f);
	struct pressured *p = pressured_new(NULL);
	REQUIRE(p);
	pressured_log_set_handler(p, NULL);
	pressured_set_reconnect(p, -1, 0);
	REQUIRE(pressured_connect(p, f->path) == 0);
	fake_accept(f);
	fake_sends(f, HELLO);
	struct pressured_event *ev = wait_for(p, PRESSURED_EVENT_CONNECTED, 5000);
	REQUIRE(ev);
	pressured_event_unref(ev);
	return p;
}

static bool readable(struct pressured *p, int timeout_ms)
{
	struct pollfd pfd = {.fd = pressured_get_fd(p), .events = POLLIN};
	return poll(&pfd, 1, timeout_ms) == 1;
}

/* One turn of the documented loop: dispatch, then take every event; returns how many of @p type. */
static int turn(struct pressured *p, enum pressured_event_type type, struct pressured_event **last)
{
	int n = 0;
	CHECK(pressured_dispatch(p) == 0);
	struct pressured_event *ev;
	while ((ev = pressured_get_event(p))) {
		if (pressured_event_get_type(ev) == type) {
			n++;
			if (last) {
				pressured_event_unref(*last);
				*last = pressured_event_ref(ev);
			}
		}
		pressured_event_unref(ev);
	}
	return n;
}

int main(void)
{
	/* pressured_disconnect: the fd wakes for its DISCONNECTED, and sleeps once it is read. */
	{
		struct fake f;
		struct pressured *p = greeted(&f);
		CHECK(!readable(p, 0));
		pressured_disconnect(p);
		CHECK(readable(p, 1000));
		struct pressured_event *ev = NULL;
		CHECK(turn(p, PRESSURED_EVENT_DISCONNECTED, &ev) == 1);
		CHECK(ev && pressured_event_disconnected_get_reason(ev) == 0);
		pressured_event_unref(ev);
		CHECK(!readable(p, 0));
		pressured_unref(p);
		fake_stop(&f);
	}

	/* A write that fails: the connection is over at once, what the daemon said before is read first. */
	{
		struct fake f;
		struct pressured *p = greeted(&f);
		fake_sends(&f, "{\"type\":\"error\",\"error\":\"too-many-errors\",\"message\":\"100\",\"fatal\":true}\n");
		fake_close_client(&f);
		int64_t id = pressured_ping(p);
		CHECK(id == -EPIPE || id == -ECONNRESET);
		CHECK(!pressured_is_connected(p));
		CHECK(pressured_ping(p) == -ENOTCONN);
		CHECK(readable(p, 1000));
		CHECK(pressured_next_event_type(p) == PRESSURED_EVENT_ERROR);
		struct pressured_event *ev = NULL;
		CHECK(turn(p, PRESSURED_EVENT_DISCONNECTED, &ev) == 1);
		CHECK(ev && pressured_event_disconnected_get_reason(ev) == -EPROTO);
		CHECK(ev && strstr(pressured_event_get_message(ev), "too-many-errors"));
		pressured_event_unref(ev);
		CHECK(!readable(p, 0));
		CHECK(turn(p, PRESSURED_EVENT_DISCONNECTED, NULL) == 0);
		pressured_unref(p);
		fake_stop(&f);
	}

	/* ... and with nothing said before: the write's error is the reason. */
	{
		struct fake f;
		struct pressured *p = greeted(&f);
		fake_close_client(&f);
		CHECK(pressured_request_status(p) < 0);
		CHECK(!pressured_is_connected(p));
		CHECK(readable(p, 1000));
		struct pressured_event *ev = NULL;
		CHECK(turn(p, PRESSURED_EVENT_DISCONNECTED, &ev) == 1);
		CHECK(ev && pressured_event_disconnected_get_reason(ev) < 0);
		pressured_event_unref(ev);
		pressured_unref(p);
		fake_stop(&f);
	}
	printf("lifecycle: %d failures\n", failures);
	return failures ? 1 : 0;
}
