/* Numbers as the header reads them: integers (ids, contacts, positions, counts) are those exact in the
 * protocol, up to 2^53 either way; anything else (a fraction, 1e23, an integer beyond int64) reads as a
 * field the line did not carry: 0. */
#include <errno.h>
#include <string.h>

#include "helpers.h"
#include "private.h"

static struct pressured_event *parse(const char *line)
{
	int err;
	struct pressured_event *ev = pressured_parse_line(NULL, line, strlen(line), &err, NULL, 0);
	REQUIRE(ev);
	return ev;
}

int main(void)
{
	struct pressured_event *ev = parse("{\"type\":\"reply\",\"id\":12345678901234567890123,\"request\":\"ping\"}");
	CHECK(pressured_event_get_request_id(ev) == 0);
	pressured_event_unref(ev);
	ev = parse("{\"type\":\"error\",\"id\":-12345678901234567890123,\"error\":\"invalid-argument\"}");
	CHECK(pressured_event_get_request_id(ev) == 0);
	pressured_event_unref(ev);
	ev = parse("{\"type\":\"reply\",\"id\":9007199254740993,\"request\":\"ping\"}");
	CHECK(pressured_event_get_request_id(ev) == 0);
	pressured_event_unref(ev);
	ev = parse("{\"type\":\"reply\",\"id\":9007199254740992,\"request\":\"ping\"}");
	CHECK(pressured_event_get_request_id(ev) == 9007199254740992LL);
	pressured_event_unref(ev);
	ev = parse("{\"type\":\"reply\",\"id\":7,\"request\":\"ping\"}");
	CHECK(pressured_event_get_request_id(ev) == 7);
	pressured_event_unref(ev);

	ev = parse("{\"type\":\"peek\",\"x\":1e23,\"y\":100000000000000000000000,\"contact\":-1e300,"
		   "\"device\":-100000000000000000000000}");
	CHECK(pressured_event_get_x(ev) == 0);
	CHECK(pressured_event_get_y(ev) == 0);
	CHECK(pressured_event_get_contact(ev) == 0);
	CHECK(pressured_event_get_device_id(ev) == 0);
	pressured_event_unref(ev);
	ev = parse("{\"type\":\"peek\",\"x\":-9007199254740992,\"y\":2.0,\"contact\":3,\"device\":1}");
	CHECK(pressured_event_get_x(ev) == -9007199254740992LL);
	CHECK(pressured_event_get_y(ev) == 2);
	CHECK(pressured_event_get_contact(ev) == 3);
	pressured_event_unref(ev);

	ev = parse("{\"type\":\"reply\",\"id\":1,\"request\":\"subscribe\",\"devices\":[1,100000000000000000000000,2]}");
	CHECK(pressured_event_reply_get_device_id(ev, 0) == 1);
	CHECK(pressured_event_reply_get_device_id(ev, 1) == 0);
	CHECK(pressured_event_reply_get_device_id(ev, 2) == 2);
	pressured_event_unref(ev);
	ev = parse("{\"type\":\"dropped\",\"touches\":100000000000000000000000,\"contacts\":"
		   "[{\"device\":1,\"contact\":1e30,\"moved\":3}]}");
	CHECK(pressured_event_dropped_get_touches(ev) == 0);
	int64_t d, c, m;
	CHECK(pressured_event_dropped_get_contact(ev, 0, &d, &c, &m) && d == 1 && c == 0 && m == 3);
	pressured_event_unref(ev);
	printf("numbers: %d failures\n", failures);
	return failures ? 1 : 0;
}
