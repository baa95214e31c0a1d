/* A fake daemon that sends what pressured never would: the library reports it and never crashes. */
#include <errno.h>
#include <string.h>

#include "helpers.h"


static const char *HELLO = "{\"type\":\"hello\",\"protocol\":1,\"version\":\"9\",\"devices\":[],\"settings\":{}}\n";

/* Sends @p data (after a hello when @p greet) and returns the reason of the DISCONNECTED that follows. */
static int disconnect_reason(const char *data, size_t len, bool greet, const char *want_message)
{
	struct fake f;
	fake_listen(&f);
	struct pressured *p = fake_connect(&f);
	if (greet)
		fake_sends(&f, HELLO);
	fake_send(&f, data, len);
	fake_close_client(&f); /* what was sent is read before the end */
	struct pressured_event *ev = wait_for(p, PRESSURED_EVENT_DISCONNECTED, 5000);
	int reason = ev ? pressured_event_disconnected_get_reason(ev) : 1;
	if (ev && want_message && !strstr(pressured_event_get_message(ev), want_message)) {
		fprintf(stderr, "message \"%s\" lacks \"%s\"\n", pressured_event_get_message(ev), want_message);
		failures++;
	}
	CHECK(!ev || reason == 0 || strlen(pressured_get_error_message(p)) > 0);
	pressured_event_unref(ev);
	pressured_unref(p);
	fake_stop(&f);
	return reason;
}

int main(void)
{
	/* An overlong line, with and without its newline. */
	size_t big = PRESSURED_LINE_MAX + 100;
	char *line = malloc(big + 1);
	memset(line, 'x', big);
	line[big] = '\n';
	CHECK(disconnect_reason(line, big, true, "over") == -EMSGSIZE);
	CHECK(disconnect_reason(line, big + 1, true, "over") == -EMSGSIZE);
	CHECK(disconnect_reason(line, big + 1, false, "over") == -EMSGSIZE);
	free(line);
	/* Not JSON, not an object, no type, binary garbage, two values on a line, nesting beyond json-c's. */
	CHECK(disconnect_reason("{\"type\":\"peek\",\n", 16, true, "not JSON") == -EPROTO);
	CHECK(disconnect_reason("[1,2,3]\n", 8, true, "not a JSON object") == -EPROTO);
	CHECK(disconnect_reason("{\"type\":5}\n", 11, true, "type") == -EPROTO);
	CHECK(disconnect_reason("\xff\xfe\x00\x01\x80garbage\n", 13, true, NULL) == -EPROTO);
	CHECK(disconnect_reason("{\"type\":\"bye\"} {}\n", 18, true, NULL) == -EPROTO);
	char deep[2000];
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\n';
	CHECK(disconnect_reason(deep, sizeof(deep), true, NULL) == -EPROTO);
	/* Bytes that are not UTF-8 inside a string: the line is refused as not JSON (RFC 8259), so no
	 * accessor ever hands the app a string that is not UTF-8. */
	const char *latin1 = "{\"type\":\"peek\",\"region\":\"caf\xe9\"}\n";
	CHECK(disconnect_reason(latin1, strlen(latin1), true, "not JSON") == -EPROTO);
	const char *surrogate = "{\"type\":\"action\",\"app\":\"\xed\xa0\x80\"}\n";
	CHECK(disconnect_reason(surrogate, strlen(surrogate), true, "not JSON") == -EPROTO);
	/* The hello: another protocol, none at all, another line first. */
	const char *v2 = "{\"type\":\"hello\",\"protocol\":2,\"version\":\"9\",\"devices\":[],\"settings\":{}}\n";
	CHECK(disconnect_reason(v2, strlen(v2), false, "protocol 2") == -EPROTONOSUPPORT);
	const char *vs = "{\"type\":\"hello\",\"protocol\":\"1\"}\n";
	CHECK(disconnect_reason(vs, strlen(vs), false, "protocol") == -EPROTONOSUPPORT);
	const char *peek = "{\"type\":\"peek\",\"time\":1.0}\n";
	CHECK(disconnect_reason(peek, strlen(peek), false, "expected hello") == -EPROTO);
	/* The end of file mid-line is no clean stop: the unfinished line is dropped, and said so. */
	CHECK(disconnect_reason("{\"type\":\"pe", 11, true, "unfinished") == -ECONNRESET);

	/* too-many-clients instead of hello: the error, then the end with its message. */
	{
		struct fake f;
		fake_listen(&f);
		struct pressured *p = fake_connect(&f);
		fake_sends(&f, "{\"type\":\"error\",\"error\":\"too-many-clients\",\"message\":\"256 clients\",\"fatal\":true}\n");
		fake_close_client(&f);
		struct pressured_event *ev = next_event(p, 5000);
		REQUIRE(ev);
		CHECK(pressured_event_get_type(ev) == PRESSURED_EVENT_ERROR);
		CHECK(pressured_event_error_is_fatal(ev));
		CHECK(strcmp(pressured_event_error_get_code(ev), "too-many-clients") == 0);
		CHECK(pressured_event_get_request_id(ev) == 0);
		pressured_event_unref(ev);
		ev = next_event(p, 5000);
		CHECK(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_DISCONNECTED);
		CHECK(ev && pressured_event_disconnected_get_reason(ev) == -EPROTO);
		CHECK(ev && strstr(pressured_event_get_message(ev), "too-many-clients") != NULL);
		CHECK(!pressured_is_connected(p));
		pressured_event_unref(ev);
		pressured_unref(p);
		fake_stop(&f);
	}

	/* Lines the library can use although their fields are wrong: read, the accessors give 0/NULL. */
	{
		struct fake f;
		fake_listen(&f);
		struct pressured *p = fake_connect(&f);
		const char *lines =
			"{\"type\":\"hello\",\"protocol\":1.0,\"devices\":[5,\"x\",{\"id\":\"one\",\"x\":7,\"screen\":{\"matrix\":[1]}},"
			"{\"id\":2,\"name\":3,\"kind\":\"hologram\",\"width\":1e999}],\"settings\":[]}\n"
			"\n \t\r\n"
			"{\"type\":\"peek\",\"time\":\"soon\",\"x\":1.5,\"y\":99999999999999999999,\"force\":null,\"items\":7}\n"
			"{\"type\":\"touch\",\"phase\":\"hovering\",\"progress\":\"half\"}\n"
			"{\"type\":\"quickActions\",\"items\":[1,{\"id\":2},{\"id\":\"ok\",\"title\":\"OK\"}]}\n"
			"{\"type\":\"device\",\"change\":\"exploded\",\"device\":[]}\n"
			"{\"type\":\"dropped\",\"touches\":-1,\"contacts\":[1,{\"device\":1,\"contact\":2,\"moved\":3}]}\n"
			"{\"type\":\"reply\",\"id\":\"abc\",\"request\":\"status\",\"status\":5}\n"
			"{\"type\":\"reply\",\"id\":-4,\"request\":\"subscribe\",\"events\":[1,\"touches\"],\"devices\":[\"a\",2]}\n"
			"{\"type\":\"error\"}\n"
			"{\"type\":\"hello\",\"protocol\":1}\n"
			"{\"type\":\"teleport\",\"to\":\"mars\",\"\\u0000\":\"nul\"}\n";
		for (const char *c = lines; *c; c++) { /* a byte at a time */
			fake_send(&f, c, 1);
			CHECK(pressured_dispatch(p) == 0);
		}
		struct pressured_event *ev = next_event(p, 5000);
		REQUIRE(ev && pressured_event_get_type(ev) == PRESSURED_EVENT_CONNECTED);
		CHECK(pressured_event_get_device_count(ev) == 2);
		struct pressured_device *d = pressured_event_get_device(ev, 0);
		CHECK(pressured_device_get_id(d) == 0 && pressured_device_get_name(d) == NULL);
		int64_t min, max;
		pressured_device_get_x_range(d, &min, &max);
		CHECK(min == 0 && max == 0);
		double m[6];
		pressured_device_get_screen(d, NULL, NULL, NULL, m);
		CHECK(m[0] == 1 && m[4] == 1);
		d = pressured_event_get_device(ev, 1);
		CHECK(pressured_device_get_kind(d) == PRESSURED_DEVICE_KIND_UNKNOWN);
		CHECK(strcmp(pressured_device_get_kind_name(d), "hologram") == 0);
		CHECK(!pressured_device_get_size_mm(d, NULL, NULL));
		CHECK(pressured_event_get_settings_sensitivity(ev) == NULL && !pressured_event_get_settings_haptics(ev));
		pressured_event_unref(ev);
		enum pressured_event_type want[] = {PRESSURED_EVENT_PEEK, PRESSURED_EVENT_TOUCH, PRESSURED_EVENT_QUICK_ACTIONS,
						    PRESSURED_EVENT_DEVICE, PRESSURED_EVENT_DROPPED, PRESSURED_EVENT_REPLY,
						    PRESSURED_EVENT_REPLY, PRESSURED_EVENT_ERROR, PRESSURED_EVENT_UNKNOWN,
						    PRESSURED_EVENT_UNKNOWN};
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			ev = next_event(p, 5000);
			REQUIRE(ev);
			CHECK(pressured_event_get_type(ev) == want[i]);
			switch (i) {
			case 0:
				CHECK(pressured_event_get_time(ev) == 0 && pressured_event_get_x(ev) == 0);
				CHECK(pressured_event_get_force(ev) == 0 && pressured_event_get_item_count(ev) == 0);
				break;
			case 1:
				CHECK(pressured_event_touch_get_phase(ev) == PRESSURED_TOUCH_UNKNOWN);
				CHECK(!pressured_event_touch_get_progress(ev, NULL));
				break;
			case 2:
				CHECK(pressured_event_get_item_count(ev) == 3);
				CHECK(pressured_event_get_item_id(ev, 0) == NULL && pressured_event_get_item_id(ev, 1) == NULL);
				CHECK(strcmp(pressured_event_get_item_title(ev, 2), "OK") == 0);
				CHECK(pressured_event_get_item_icon(ev, 2) == NULL && pressured_event_get_item_id(ev, 3) == NULL);
				break;
			case 3:
				CHECK(pressured_event_device_get_change(ev) == PRESSURED_DEVICE_CHANGE_UNKNOWN);
				CHECK(pressured_event_get_device(ev, 0) == NULL);
				break;
			case 4: {
				int64_t dd, cc, mm;
				CHECK(pressured_event_dropped_get_touches(ev) == -1);
				CHECK(pressured_event_dropped_get_contact_count(ev) == 2);
				CHECK(pressured_event_dropped_get_contact(ev, 0, &dd, &cc, &mm) && dd == 0);
				CHECK(pressured_event_dropped_get_contact(ev, 1, &dd, &cc, &mm) && dd == 1 && cc == 2 && mm == 3);
				CHECK(!pressured_event_dropped_get_contact(ev, 2, NULL, NULL, NULL));
				break;
			}
			case 5:
				CHECK(pressured_event_get_request_id(ev) == 0);
				CHECK(!pressured_event_reply_get_status_count(ev, "clients", NULL));
				break;
			case 6:
				CHECK(pressured_event_get_request_id(ev) == 0);
				CHECK(pressured_event_reply_get_events(ev) == PRESSURED_SUBSCRIBE_TOUCHES);
				CHECK(pressured_event_reply_get_device_id_count(ev) == 2);
				CHECK(pressured_event_reply_get_device_id(ev, 0) == 0 && pressured_event_reply_get_device_id(ev, 1) == 2);
				break;
			case 7:
				CHECK(pressured_event_error_get_code(ev) == NULL && pressured_event_get_message(ev) == NULL);
				break;
			case 9:
				CHECK(strcmp(pressured_event_get_type_name(ev), "teleport") == 0);
				break;
			}
			pressured_event_unref(ev);
		}
		CHECK(pressured_is_connected(p));
		pressured_unref(p);
		fake_stop(&f);
	}
	/* Events outlive their context. */
	{
		struct fake f;
		fake_listen(&f);
		struct pressured *p = fake_connect(&f);
		fake_sends(&f, HELLO);
		fake_sends(&f, "{\"type\":\"bye\",\"reason\":\"shutdown\"}\n");
		struct pressured_event *hello = next_event(p, 5000);
		struct pressured_event *bye = next_event(p, 5000);
		fake_sends(&f, "{\"type\":\"bye\"}\n"); /* left queued, freed with the context */
		pressured_dispatch(p);
		pressured_unref(p);
		CHECK(hello && pressured_event_get_type(hello) == PRESSURED_EVENT_CONNECTED);
		CHECK(bye && strcmp(pressured_event_bye_get_reason(bye), "shutdown") == 0);
		pressured_event_unref(hello);
		pressured_event_unref(bye);
		fake_stop(&f);
	}
	printf("hostile: %d failures\n", failures);
	return failures ? 1 : 0;
}
