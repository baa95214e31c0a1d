/* Requests against a real daemon: every one gets its answer, with the id its function returned. */
#include <errno.h>
#include <string.h>

#include "helpers.h"

static struct pressured_event *ask(struct pressured *p, int64_t id, enum pressured_event_type type)
{
	REQUIRE(id > 0);
	struct pressured_event *ev = wait_answer(p, id, 5000);
	REQUIRE(ev);
	if (pressured_event_get_type(ev) != type)
		fprintf(stderr, "unexpected answer: %s\n", pressured_event_get_json(ev));
	CHECK(pressured_event_get_type(ev) == type);
	CHECK(pressured_event_get_request_id(ev) == id);
	return ev;
}

int main(void)
{
	struct daemon d;
	daemon_start(&d, "--replay", "Tests/Fixtures/quick-actions-hold.evemu", "--speed", "0", NULL);
	struct pressured *p = connect_to(d.socket, NULL);
	struct pressured *app = connect_to(d.socket, NULL);

	/* status */
	struct pressured_event *ev = ask(p, pressured_request_status(p), PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_STATUS);
	int64_t v;
	CHECK(pressured_event_reply_get_status_count(ev, "clients", &v) && v == 2);
	CHECK(pressured_event_reply_get_status_count(ev, "devices", &v) && v == 1);
	CHECK(pressured_event_reply_get_status_count(ev, "regions", &v) && v == 0);
	CHECK(pressured_event_reply_get_status_count(ev, "accepted", &v) && v >= 2);
	CHECK(!pressured_event_reply_get_status_count(ev, "no-such-count", &v) && v == 0);
	pressured_event_unref(ev);

	/* devices */
	ev = ask(p, pressured_request_devices(p), PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_get_device_count(ev) == 1);
	CHECK(pressured_device_get_id(pressured_event_get_device(ev, 0)) == 1);
	pressured_event_unref(ev);

	/* subscribe to one device, as an app */
	int64_t one = 1;
	ev = ask(app, pressured_subscribe(app, PRESSURED_SUBSCRIBE_GESTURES, &one, 1, "org.example.mail"), PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_device_id_count(ev) == 1 && pressured_event_reply_get_device_id(ev, 0) == 1);
	CHECK(pressured_event_reply_get_events(ev) == PRESSURED_SUBSCRIBE_GESTURES);
	pressured_event_unref(ev);

	/* setQuickActions: five items, four kept */
	struct pressured_items *items = pressured_items_new();
	REQUIRE(items);
	CHECK(pressured_items_add(items, "compose", "New Message", NULL, "compose") == 0);
	CHECK(pressured_items_add(items, "inbox", "Inbox", "3 unread", "tray") == 0);
	CHECK(pressured_items_add(items, "a", "A", NULL, NULL) == 0);
	CHECK(pressured_items_add(items, "b", "B", NULL, NULL) == 0);
	CHECK(pressured_items_add(items, "c", "C", NULL, NULL) == 0);
	CHECK(pressured_items_add(items, "", "empty id", NULL, NULL) == -EINVAL);
	CHECK(pressured_items_add(items, "x", NULL, NULL, NULL) == -EINVAL);
	ev = ask(app, pressured_set_quick_actions(app, items), PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_SET_QUICK_ACTIONS);
	CHECK(pressured_event_reply_get_kept_count(ev) == 4);
	CHECK(pressured_event_reply_get_cut_count(ev) == 1);
	CHECK(pressured_event_reply_get_kept(ev, 0) && strcmp(pressured_event_reply_get_kept(ev, 0), "compose") == 0);
	CHECK(pressured_event_reply_get_cut(ev, 0) && strcmp(pressured_event_reply_get_cut(ev, 0), "c") == 0);
	CHECK(pressured_event_reply_get_kept(ev, 4) == NULL);
	pressured_event_unref(ev);

	/* setRegion (an icon with its own item), then removeRegion, twice */
	struct pressured_items *own = pressured_items_new();
	CHECK(pressured_items_add(own, "remove", "Remove App", NULL, NULL) == 0);
	ev = ask(p, pressured_set_region(p, "icon:mail", 40, 40, 96.5, 96, 2, PRESSURED_WANTS_QUICK_ACTIONS |
					 PRESSURED_WANTS_LONG_PRESS, "org.example.mail", own, 0), PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_SET_REGION);
	CHECK(pressured_event_get_region(ev) && strcmp(pressured_event_get_region(ev), "icon:mail") == 0);
	CHECK(pressured_event_reply_get_cut_count(ev) == 0);
	CHECK(pressured_event_reply_get_kept_count(ev) == 1);
	pressured_event_unref(ev);
	pressured_items_free(own);
	ev = ask(p, pressured_request_status(p), PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_status_count(ev, "regions", &v) && v == 1);
	CHECK(pressured_event_reply_get_status_count(ev, "quickActionApps", &v) && v == 1);
	pressured_event_unref(ev);
	ev = ask(p, pressured_remove_region(p, "icon:mail"), PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_REMOVE_REGION);
	pressured_event_unref(ev);
	ev = ask(p, pressured_remove_region(p, "icon:mail"), PRESSURED_EVENT_ERROR);
	CHECK(strcmp(pressured_event_error_get_code(ev), "invalid-argument") == 0);
	CHECK(pressured_event_get_message(ev) && strlen(pressured_event_get_message(ev)) > 0);
	CHECK(!pressured_event_error_is_fatal(ev));
	pressured_event_unref(ev);

	/* chooseAction: delivered to the app's connection */
	ev = ask(p, pressured_choose_action(p, "org.example.mail", "compose"), PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_CHOOSE_ACTION);
	CHECK(pressured_event_reply_get_delivered(ev));
	CHECK(strcmp(pressured_event_get_app(ev), "org.example.mail") == 0);
	CHECK(strcmp(pressured_event_get_action(ev), "compose") == 0);
	pressured_event_unref(ev);
	ev = wait_for(app, PRESSURED_EVENT_ACTION, 5000);
	CHECK(ev && strcmp(pressured_event_get_app(ev), "org.example.mail") == 0 &&
	      strcmp(pressured_event_get_action(ev), "compose") == 0);
	pressured_event_unref(ev);
	/* ... to an app not connected: it waits */
	ev = ask(p, pressured_choose_action(p, "org.example.camera", "selfie"), PRESSURED_EVENT_REPLY);
	CHECK(!pressured_event_reply_get_delivered(ev));
	pressured_event_unref(ev);
	/* the error paths: what the protocol refuses is refused before sending */
	char long_name[300];
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	CHECK(pressured_choose_action(p, "org.example.mail", "") == -EINVAL);
	CHECK(pressured_choose_action(p, NULL, "compose") == -EINVAL);
	CHECK(pressured_choose_action(p, long_name, "compose") == -EINVAL);
	CHECK(strstr(pressured_get_error_message(p), "invalid argument") != NULL);
	CHECK(pressured_set_region(p, "", 0, 0, 1, 1, 0, 0, NULL, NULL, -1) == -EINVAL);
	CHECK(pressured_subscribe(p, 1u << 10, NULL, 0, NULL) == -EINVAL);
	CHECK(pressured_set_settings(p, -1, NULL, -1) == -EINVAL);
	/* ... and what only the daemon knows comes back as an error with its id */
	ev = ask(p, pressured_reset_learning(p, 42), PRESSURED_EVENT_ERROR);
	CHECK(strcmp(pressured_event_error_get_code(ev), "invalid-argument") == 0);
	pressured_event_unref(ev);

	/* control requests (the tests run as the daemon's user) */
	ev = ask(p, pressured_set_settings(p, -1, "firm", -1), PRESSURED_EVENT_REPLY);
	if (pressured_event_get_type(ev) == PRESSURED_EVENT_REPLY) {
		CHECK(pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_SET);
		CHECK(strcmp(pressured_event_get_settings_sensitivity(ev), "firm") == 0);
		struct pressured_event *s = wait_for(app, PRESSURED_EVENT_SETTINGS, 5000);
		CHECK(s && strcmp(pressured_event_get_settings_sensitivity(s), "firm") == 0);
		pressured_event_unref(s);
	}
	pressured_event_unref(ev);
	ev = ask(p, pressured_reset_learning(p, 0), PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_RESET_LEARNING);
	CHECK(pressured_event_reply_get_device_id_count(ev) >= 0);
	pressured_event_unref(ev);

	/* many requests in one go: every answer, in order */
	int64_t ids[50];
	for (int i = 0; i < 50; i++)
		ids[i] = pressured_ping(p);
	for (int i = 0; i < 50; i++) {
		ev = ask(p, ids[i], PRESSURED_EVENT_REPLY);
		pressured_event_unref(ev);
	}
	pressured_items_free(items);
	pressured_unref(app);
	pressured_unref(p);
	daemon_stop(&d);
	printf("requests: %d failures\n", failures);
	return failures ? 1 : 0;
}
