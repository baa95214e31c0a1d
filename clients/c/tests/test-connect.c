/* Connecting to a real `pressured --replay`: the hello's protocol checked, its device and settings read. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "helpers.h"

int main(void)
{
	struct daemon d;
	daemon_start(&d, "--replay", "Tests/Fixtures/peek-pop.evemu", "--speed", "0", NULL);

	struct pressured *p = pressured_new((void *)&d);
	REQUIRE(p);
	CHECK(pressured_get_user_data(p) == &d);
	CHECK(pressured_get_fd(p) >= 0);
	CHECK(pressured_get_timeout(p) == -1);
	CHECK(!pressured_is_connected(p));
	CHECK(pressured_request_status(p) == -ENOTCONN);
	CHECK(strlen(pressured_get_error_message(p)) > 0);

	/* The socket from $PRESSURED_SOCKET, as the Python client takes it. */
	setenv("PRESSURED_SOCKET", d.socket, 1);
	CHECK(pressured_connect(p, NULL) == 0);
	CHECK(strcmp(pressured_get_socket_path(p), d.socket) == 0);
	CHECK(pressured_connect(p, NULL) == -EALREADY);
	int fd = pressured_get_fd(p);

	struct pressured_event *hello = wait_for(p, PRESSURED_EVENT_CONNECTED, 10000);
	REQUIRE(hello);
	CHECK(pressured_get_fd(p) == fd);
	CHECK(pressured_is_connected(p));
	CHECK(pressured_event_get_protocol(hello) == PRESSURED_PROTOCOL_VERSION);
	CHECK(pressured_event_get_version(hello) && strlen(pressured_event_get_version(hello)) > 0);
	CHECK(strcmp(pressured_event_get_type_name(hello), "hello") == 0);
	CHECK(strncmp(pressured_event_get_json(hello), "{\"type\":\"hello\"", 15) == 0);
	CHECK(pressured_event_get_context(hello) == p);
	CHECK(pressured_event_get_settings_force_touch(hello));
	CHECK(strcmp(pressured_event_get_settings_sensitivity(hello), "medium") == 0);
	CHECK(pressured_event_get_device_count(hello) == 1);
	struct pressured_device *dev = pressured_event_get_device(hello, 0);
	REQUIRE(dev);
	CHECK(pressured_event_get_device(hello, 1) == NULL);
	CHECK(pressured_device_get_id(dev) == 1);
	CHECK(strcmp(pressured_device_get_name(dev), "pressured fixture: peek-pop") == 0);
	CHECK(strcmp(pressured_device_get_node(dev), "replay:Tests/Fixtures/peek-pop.evemu") == 0);
	CHECK(pressured_device_get_kind(dev) == PRESSURED_DEVICE_KIND_TOUCHSCREEN);
	CHECK(!pressured_device_has_force(dev));
	CHECK(strcmp(pressured_device_get_force_capability(dev), "unavailable") == 0);
	CHECK(strcmp(pressured_device_get_force_unavailable(dev), "learning") == 0);
	CHECK(pressured_device_get_maximum_possible_force(dev) == 0);
	double w, h, sw, sh, m[6];
	int rot;
	CHECK(pressured_device_get_size_mm(dev, &w, &h) && fabs(w - 255.9375) < 1e-9 && fabs(h - 255.9375) < 1e-9);
	int64_t min, max;
	pressured_device_get_x_range(dev, &min, &max);
	CHECK(min == 0 && max == 4095);
	pressured_device_get_y_range(dev, &min, &max);
	CHECK(min == 0 && max == 4095);
	pressured_device_get_screen(dev, &sw, &sh, &rot, m);
	CHECK(sw == 4095.0 && sh == 4095.0 && rot == 0);
	CHECK(m[0] == 1 && m[1] == 0 && m[2] == 0 && m[3] == 0 && m[4] == 1 && m[5] == 0);
	CHECK(pressured_device_get_assumed_count(dev) == 0);

	/* A device kept beyond its event. */
	pressured_device_ref(dev);
	pressured_event_unref(hello);
	CHECK(strcmp(pressured_device_get_name(dev), "pressured fixture: peek-pop") == 0);
	pressured_device_unref(dev);

	/* Wrong-type accessors are harmless. */
	int64_t id = pressured_ping(p);
	CHECK(id > 0);
	struct pressured_event *pong = wait_answer(p, id, 5000);
	REQUIRE(pong);
	CHECK(pressured_event_get_type(pong) == PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_request(pong) == PRESSURED_REQUEST_PING);
	CHECK(pressured_event_get_time(pong) > 0);
	CHECK(pressured_event_get_x(pong) == 0 && pressured_event_get_device(pong, 0) == NULL);
	CHECK(pressured_event_touch_get_phase(pong) == PRESSURED_TOUCH_UNKNOWN);
	CHECK(pressured_event_get_version(pong) == NULL && pressured_event_error_get_code(pong) == NULL);
	pressured_event_unref(pong);

	/* Two contexts are independent. */
	struct pressured *q = connect_to(d.socket, NULL);
	CHECK(pressured_is_connected(q) && pressured_get_fd(q) != fd);
	pressured_unref(q);

	pressured_disconnect(p);
	struct pressured_event *bye = wait_for(p, PRESSURED_EVENT_DISCONNECTED, 1000);
	CHECK(bye && pressured_event_disconnected_get_reason(bye) == 0);
	pressured_event_unref(bye);
	CHECK(pressured_get_timeout(p) == -1);
	CHECK(pressured_ref(p) == p);
	pressured_unref(p);
	pressured_unref(p);
	daemon_stop(&d);
	printf("connect: %d failures\n", failures);
	return failures ? 1 : 0;
}
