/* Every JSON example of docs/protocol.md (the ```json blocks, as
 * Tests/PressureCoreTests/ProtocolDocExamplesTests.swift extracts them) is what libpressured makes of it:
 * a daemon line parses into an event of a known type whose accessors give the line's values, and a
 * request line is what libpressured's request function writes for those fields (ids aside). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "private.h"

static uint32_t mask(json_object *list, const char *const *names, size_t n)
{
	uint32_t m = 0;
	for (size_t i = 0; list && i < json_object_array_length(list); i++)
		for (size_t k = 0; k < n; k++)
			if (strcmp(json_object_get_string(json_object_array_get_idx(list, i)), names[k]) == 0)
				m |= 1u << k;
	return m;
}

static int tri(json_object *o, const char *key)
{
	bool b;
	return pj_bool(o, key, &b) ? b : -1;
}

/* Makes the request @p line stands for through the public API. */
static int64_t make_request(struct pressured *p, json_object *o)
{
	const char *name = pj_string(o, "request");
	double x = 0, y = 0, w = 0, h = 0;
	int64_t z = 0;
	struct pressured_items *items = NULL;
	json_object *list = pj_get(o, "items", json_type_array);
	if (list) {
		items = pressured_items_new();
		for (size_t i = 0; i < json_object_array_length(list); i++) {
			json_object *it = json_object_array_get_idx(list, i);
			pressured_items_add(items, pj_string(it, "id"), pj_string(it, "title"), pj_string(it, "subtitle"),
					    pj_string(it, "icon"));
		}
	}
	int64_t id = -ENOSYS;
	if (strcmp(name, "subscribe") == 0) {
		json_object *devs = pj_get(o, "devices", json_type_array);
		int64_t ids[64];
		size_t n = 0;
		for (size_t i = 0; devs && i < json_object_array_length(devs) && i < 64; i++)
			ids[n++] = json_object_get_int64(json_object_array_get_idx(devs, i));
		id = pressured_subscribe(p, mask(pj_get(o, "events", json_type_array), pressured_event_kind_names, PRESSURED_EVENT_KINDS), devs ? ids : NULL, n,
					 pj_string(o, "app"));
	} else if (strcmp(name, "setRegion") == 0) {
		pj_double(o, "x", &x);
		pj_double(o, "y", &y);
		pj_double(o, "width", &w);
		pj_double(o, "height", &h);
		pj_int(o, "z", &z);
		id = pressured_set_region(p, pj_string(o, "region"), x, y, w, h, (int)z,
					  mask(pj_get(o, "wants", json_type_array), pressured_wants_names, PRESSURED_WANTS), pj_string(o, "app"), items,
					  tri(o, "haptics"));
	} else if (strcmp(name, "removeRegion") == 0) {
		id = pressured_remove_region(p, pj_string(o, "region"));
	} else if (strcmp(name, "chooseAction") == 0) {
		id = pressured_choose_action(p, pj_string(o, "app"), pj_string(o, "action"));
	} else if (strcmp(name, "setQuickActions") == 0) {
		id = pressured_set_quick_actions(p, items);
	} else if (strcmp(name, "set") == 0) {
		id = pressured_set_settings(p, tri(o, "forceTouch"), pj_string(o, "sensitivity"), tri(o, "haptics"));
	} else if (strcmp(name, "status") == 0) {
		id = pressured_request_status(p);
	} else if (strcmp(name, "ping") == 0) {
		id = pressured_ping(p);
	}
	pressured_items_free(items);
	return id;
}

static void check_event(struct pressured_event *ev, json_object *o, int lineno)
{
	enum pressured_event_type t = pressured_event_get_type(ev);
	if (t == PRESSURED_EVENT_UNKNOWN) {
		fprintf(stderr, "docs/protocol.md:%d: type %s unknown to libpressured\n", lineno, pressured_event_get_type_name(ev));
		failures++;
	}
	double d;
	int64_t i;
	if (t >= PRESSURED_EVENT_PEEK && t <= PRESSURED_EVENT_TOUCH) {
		CHECK(pj_double(o, "time", &d) && d == pressured_event_get_time(ev));
		CHECK(pressured_event_get_time_usec(ev) == (uint64_t)llround(d * 1e6));
		CHECK(pj_int(o, "device", &i) && i == pressured_event_get_device_id(ev));
		CHECK(pj_int(o, "contact", &i) && i == pressured_event_get_contact(ev));
		CHECK(pj_int(o, "x", &i) && i == pressured_event_get_x(ev));
		CHECK(pj_int(o, "y", &i) && i == pressured_event_get_y(ev));
		CHECK(pj_double(o, "screenX", &d) && d == pressured_event_get_screen_x(ev));
		CHECK(pj_double(o, "screenY", &d) && d == pressured_event_get_screen_y(ev));
		CHECK(pj_double(o, "force", &d) && d == pressured_event_get_force(ev));
		CHECK(pj_double(o, "maximumPossibleForce", &d) && d == pressured_event_get_maximum_possible_force(ev));
	}
	if (t == PRESSURED_EVENT_TOUCH) {
		CHECK(pressured_event_touch_get_phase(ev) == PRESSURED_TOUCH_BEGAN);
		CHECK(pressured_event_touch_get_progress(ev, &d) && d == 0.084);
	}
	if (t == PRESSURED_EVENT_QUICK_ACTIONS) {
		CHECK(strcmp(pressured_event_get_region(ev), "icon:mail") == 0);
		CHECK(strcmp(pressured_event_get_app(ev), "org.example.mail") == 0);
		CHECK(pressured_event_get_item_count(ev) == 1);
		CHECK(strcmp(pressured_event_get_item_id(ev, 0), "compose") == 0);
		CHECK(strcmp(pressured_event_get_item_title(ev, 0), "New Message") == 0);
		CHECK(strcmp(pressured_event_get_item_icon(ev, 0), "compose") == 0);
		CHECK(pressured_event_get_item_subtitle(ev, 0) == NULL);
	}
	if (t == PRESSURED_EVENT_CONNECTED) {
		CHECK(pressured_event_get_protocol(ev) == 1);
		CHECK(strcmp(pressured_event_get_version(ev), "0.1.0") == 0);
		CHECK(pressured_event_get_device_count(ev) == 1);
		struct pressured_device *dev = pressured_event_get_device(ev, 0);
		CHECK(strcmp(pressured_device_get_force_unavailable(dev), "learning") == 0);
		CHECK(pressured_device_get_kind(dev) == PRESSURED_DEVICE_KIND_TOUCHSCREEN);
		CHECK(pressured_event_get_settings_force_touch(ev) && pressured_event_get_settings_haptics(ev));
	}
	if (t == PRESSURED_EVENT_SETTINGS)
		CHECK(!pressured_event_get_settings_haptics(ev) && strcmp(pressured_event_get_settings_sensitivity(ev), "medium") == 0);
	if (t == PRESSURED_EVENT_ACTION)
		CHECK(strcmp(pressured_event_get_action(ev), "compose") == 0);
	if (t == PRESSURED_EVENT_ERROR)
		CHECK(strcmp(pressured_event_error_get_code(ev), "not-permitted") == 0 && pressured_event_get_request_id(ev) == 7);
	if (t == PRESSURED_EVENT_REPLY) {
		enum pressured_request_type r = pressured_event_reply_get_request(ev);
		CHECK(r != PRESSURED_REQUEST_UNKNOWN);
		if (r == PRESSURED_REQUEST_STATUS) {
			CHECK(pressured_event_reply_get_status_count(ev, "clients", &i) && i == 1);
			/* (each status example its own figure: read as the doc's line has it) */
			json_object *activity = NULL, *wakeups = NULL;
			CHECK(json_object_object_get_ex(o, "activity", &activity)
			      && json_object_object_get_ex(activity, "wakeups", &wakeups));
			CHECK(pressured_event_reply_get_status_count(ev, "wakeups", &i) && i == json_object_get_int64(wakeups));
		}
		if (r == PRESSURED_REQUEST_SUBSCRIBE)
			CHECK(pressured_event_reply_get_device_id_count(ev) == -1);
		if (r == PRESSURED_REQUEST_CHOOSE_ACTION)
			CHECK(pressured_event_reply_get_delivered(ev));
	}
}

int main(void)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/docs/protocol.md", repo_root());
	FILE *doc = fopen(path, "r");
	REQUIRE(doc);
	struct fake f;
	fake_listen(&f);
	struct pressured *p = pressured_new(NULL);
	REQUIRE(pressured_connect(p, f.path) == 0);
	fake_accept(&f);
	fake_sends(&f, "{\"type\":\"hello\",\"protocol\":1,\"version\":\"0\",\"devices\":[],\"settings\":{}}\n");
	struct pressured_event *hello = wait_for(p, PRESSURED_EVENT_CONNECTED, 5000);
	REQUIRE(hello);
	pressured_event_unref(hello);

	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, events = 0, requests = 0;
	bool in_block = false;
	ssize_t len;
	while ((len = getline(&line, &cap, doc)) > 0) {
		lineno++;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (strncmp(line, "```", 3) == 0) {
			in_block = strcmp(line, "```json") == 0;
			continue;
		}
		if (!in_block || len == 0)
			continue;
		json_object *o = json_tokener_parse(line);
		REQUIRE(o);
		if (pj_string(o, "request") && !pj_string(o, "type")) {
			requests++;
			int64_t id = make_request(p, o);
			if (id <= 0) {
				fprintf(stderr, "docs/protocol.md:%d: libpressured cannot make %s (%lld)\n", lineno, line, (long long)id);
				failures++;
			} else {
				char *sent = fake_read_line(&f, p);
				REQUIRE(sent);
				json_object *s = json_tokener_parse(sent);
				REQUIRE(s);
				json_object_object_del(s, "id");
				json_object_object_del(o, "id");
				if (!json_object_equal(s, o)) {
					fprintf(stderr, "docs/protocol.md:%d: libpressured wrote\n  %s\nfor\n  %s\n", lineno, sent, line);
					failures++;
				}
				json_object_put(s);
				free(sent);
			}
		} else {
			events++;
			int err;
			char why[128];
			struct pressured_event *ev = pressured_parse_line(NULL, line, (size_t)len, &err, why, sizeof(why));
			if (!ev) {
				fprintf(stderr, "docs/protocol.md:%d: %s\n", lineno, why);
				failures++;
			} else {
				check_event(ev, o, lineno);
				pressured_event_unref(ev);
			}
		}
		json_object_put(o);
	}
	free(line);
	fclose(doc);
	CHECK(events >= 10 && requests >= 5);
	pressured_unref(p);
	fake_stop(&f);
	printf("doc examples: %d daemon lines, %d requests; %d failures\n", events, requests, failures);
	return failures ? 1 : 0;
}
