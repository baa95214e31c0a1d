/* How a connection ends, as an app with its own poll() sees it: every end makes the fd readable and
 * comes as a DISCONNECTED the documented loop (poll, dispatch, drain) reads. */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "helpers.h"

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
		struct pressured *p = fake_greeted(&f);
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
		struct pressured *p = fake_greeted(&f);
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
		CHECK(ev && pressured_event_disconnected_get_kind(ev) == PRESSURED_DISCONNECT_FATAL);
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
		struct pressured *p = fake_greeted(&f);
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
	/* The daemon goes away (killed: no bye) with a peek and a contact open and a request unanswered:
	 * the peek is dismissed, the contact cancelled, the request failed, each marked synthesized, then
	 * DISCONNECTED says it was no clean stop. */
	{
		struct fake f;
		struct pressured *p = fake_greeted(&f);
		int64_t ping = pressured_ping(p), status = pressured_request_status(p);
		CHECK(ping > 0 && status > 0);
		char *line = fake_read_line(&f, p);
		free(line);
		line = fake_read_line(&f, p);
		free(line);
		char reply[128];
		snprintf(reply, sizeof(reply), "{\"type\":\"reply\",\"id\":%lld,\"request\":\"status\"}\n", (long long)status);
		fake_sends(&f, reply);
		fake_sends(&f,
			   "{\"type\":\"touch\",\"phase\":\"began\",\"time\":1.0,\"device\":1,\"contact\":5,\"x\":10,\"y\":20}\n"
			   "{\"type\":\"touch\",\"phase\":\"began\",\"time\":1.1,\"device\":1,\"contact\":6,\"x\":1,\"y\":2}\n"
			   "{\"type\":\"peek\",\"time\":1.2,\"device\":1,\"contact\":5,\"x\":11,\"y\":21,\"region\":\"tile\"}\n"
			   "{\"type\":\"touch\",\"phase\":\"moved\",\"time\":1.3,\"device\":1,\"contact\":5,\"x\":12,\"y\":22}\n"
			   "{\"type\":\"touch\",\"phase\":\"ended\",\"time\":1.4,\"device\":1,\"contact\":6,\"x\":1,\"y\":2}\n"
			   "{\"type\":\"peek\",\"time\":1.5,\"device\":2,\"contact\":1,\"x\":0,\"y\":0}\n"
			   "{\"type\":\"pop\",\"time\":1.6,\"device\":2,\"contact\":1,\"x\":0,\"y\":0}\n"
			   "{\"type\":\"touch\",\"phase\":\"began\",\"time\":1.7,\"device\":2,\"contact\":1,\"x\":0,\"y\":0}\n"
			   "{\"type\":\"touch\",\"phase\":\"cancelled\",\"time\":1.8,\"device\":2,\"contact\":1,\"x\":0,\"y\":0}\n");
		fake_close_client(&f);
		struct pressured_event *got[32];
		int n = 0;
		while (n < 32 && (got[n] = next_event(p, 2000))) {
			if (pressured_event_get_type(got[n++]) == PRESSURED_EVENT_DISCONNECTED)
				break;
		}
		REQUIRE(n >= 4);
		for (int i = 0; i < n - 4; i++)
			CHECK(!pressured_event_is_synthesized(got[i]));
		struct pressured_event *dismiss = got[n - 4], *cancel = got[n - 3], *fail = got[n - 2], *end = got[n - 1];
		CHECK(pressured_event_get_type(dismiss) == PRESSURED_EVENT_DISMISS);
		CHECK(pressured_event_is_synthesized(dismiss));
		CHECK(pressured_event_get_device_id(dismiss) == 1 && pressured_event_get_contact(dismiss) == 5);
		CHECK(pressured_event_get_region(dismiss) && strcmp(pressured_event_get_region(dismiss), "tile") == 0);
		/* the contact's last event (the moved after the peek), as the daemon's own dismiss */
		CHECK(pressured_event_get_x(dismiss) == 12 && pressured_event_get_time(dismiss) == 1.3);
		CHECK(strstr(pressured_event_get_json(dismiss), "\"synthesized\":true") != NULL);
		CHECK(pressured_event_get_type(cancel) == PRESSURED_EVENT_TOUCH);
		CHECK(pressured_event_touch_get_phase(cancel) == PRESSURED_TOUCH_CANCELLED);
		CHECK(pressured_event_is_synthesized(cancel));
		CHECK(pressured_event_get_contact(cancel) == 5 && pressured_event_get_x(cancel) == 12);
		CHECK(pressured_event_get_time(cancel) == 1.3);
		CHECK(pressured_event_get_type(fail) == PRESSURED_EVENT_ERROR);
		CHECK(pressured_event_is_synthesized(fail));
		CHECK(pressured_event_get_request_id(fail) == ping);
		CHECK(pressured_event_error_get_code(fail) && strcmp(pressured_event_error_get_code(fail), "disconnected") == 0);
		CHECK(!pressured_event_error_is_fatal(fail));
		CHECK(pressured_event_get_type(end) == PRESSURED_EVENT_DISCONNECTED);
		CHECK(pressured_event_disconnected_get_reason(end) == -ECONNRESET);
		CHECK(pressured_event_disconnected_get_kind(end) == PRESSURED_DISCONNECT_LOST);
		CHECK(pressured_event_get_message(end) && strstr(pressured_event_get_message(end), "bye"));
		for (int i = 0; i < n; i++)
			pressured_event_unref(got[i]);
		pressured_unref(p);
		fake_stop(&f);
	}

	/* Two contacts: the second began last but peeked first; no touches heard. */
	{
		struct fake f;
		struct pressured *p = fake_greeted(&f);
		fake_sends(&f, "{\"type\":\"touch\",\"phase\":\"began\",\"time\":1,\"device\":1,\"contact\":1}\n"
			       "{\"type\":\"touch\",\"phase\":\"began\",\"time\":2,\"device\":1,\"contact\":2}\n"
			       "{\"type\":\"peek\",\"time\":3,\"device\":1,\"contact\":2,\"app\":\"a\",\"items\":[]}\n"
			       "{\"type\":\"peek\",\"time\":4,\"device\":1,\"contact\":1}\n"
			       "{\"type\":\"peek\",\"time\":5,\"device\":2,\"contact\":1}\n");
		fake_close_client(&f);
		int64_t want[][2] = {{PRESSURED_EVENT_DISMISS, 2}, {PRESSURED_EVENT_DISMISS, 1}, {PRESSURED_EVENT_DISMISS, 1},
				     {PRESSURED_EVENT_TOUCH, 1}, {PRESSURED_EVENT_TOUCH, 2}};
		struct pressured_event *ev;
		size_t i = 0;
		while ((ev = next_event(p, 2000)) && pressured_event_get_type(ev) != PRESSURED_EVENT_DISCONNECTED) {
			if (pressured_event_is_synthesized(ev)) {
				CHECK(i < 5 && pressured_event_get_type(ev) == want[i][0] &&
				      pressured_event_get_contact(ev) == want[i][1]);
				CHECK(!strstr(pressured_event_get_json(ev), "items") && !strstr(pressured_event_get_json(ev), "app"));
				i++;
			}
			pressured_event_unref(ev);
		}
		CHECK(i == 5);
		pressured_event_unref(ev);
		pressured_unref(p);
		fake_stop(&f);
	}

	/* A clean stop: bye, then the end; reason 0, and nothing left open to end. */
	{
		struct fake f;
		struct pressured *p = fake_greeted(&f);
		fake_sends(&f, "{\"type\":\"bye\",\"reason\":\"shutdown\"}\n");
		fake_close_client(&f);
		struct pressured_event *ev = next_event(p, 2000);
		CHECK(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_BYE);
		pressured_event_unref(ev);
		ev = next_event(p, 2000);
		CHECK(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_DISCONNECTED);
		CHECK(ev && pressured_event_disconnected_get_reason(ev) == 0);
		CHECK(ev && pressured_event_disconnected_get_kind(ev) == PRESSURED_DISCONNECT_BYE);
		CHECK(ev && !pressured_event_is_synthesized(ev));
		pressured_event_unref(ev);
		pressured_unref(p);
		fake_stop(&f);
	}

	/* pressured_disconnect ends what is open too, and unfinished lines are no clean stop. */
	{
		struct fake f;
		struct pressured *p = fake_greeted(&f);
		fake_sends(&f, "{\"type\":\"peek\",\"time\":1.0,\"device\":1,\"contact\":3}\n");
		struct pressured_event *ev = next_event(p, 2000);
		CHECK(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_PEEK);
		pressured_event_unref(ev);
		pressured_disconnect(p);
		CHECK(readable(p, 1000));
		CHECK(pressured_dispatch(p) == 0);
		ev = pressured_get_event(p);
		CHECK(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_DISMISS && pressured_event_is_synthesized(ev));
		pressured_event_unref(ev);
		ev = pressured_get_event(p);
		CHECK(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_DISCONNECTED);
		CHECK(ev && pressured_event_disconnected_get_reason(ev) == 0);
		CHECK(ev && pressured_event_disconnected_get_kind(ev) == PRESSURED_DISCONNECT_CLOSED);
		pressured_event_unref(ev);
		CHECK(pressured_get_event(p) == NULL);
		pressured_unref(p);
		fake_stop(&f);
	}
	{
		struct fake f;
		struct pressured *p = fake_greeted(&f);
		fake_sends(&f, "{\"type\":\"bye\",\"reason\":\"shutdown\"}\n{\"type\":\"pe");
		fake_close_client(&f);
		struct pressured_event *ev = wait_for(p, PRESSURED_EVENT_DISCONNECTED, 2000);
		CHECK(ev && pressured_event_disconnected_get_reason(ev) == -ECONNRESET);
		CHECK(ev && strstr(pressured_event_get_message(ev), "unfinished"));
		pressured_event_unref(ev);
		pressured_unref(p);
		fake_stop(&f);
	}
	printf("lifecycle: %d failures\n", failures);
	return failures ? 1 : 0;
}
