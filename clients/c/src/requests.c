/* Requests: each built as a json-c object, given an id, written as one line (queued when the socket
 * takes no more; pressured_dispatch writes the rest). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

struct pressured_items {
	json_object *list;
};

int pressured_out_append(struct pressured_out *out, const char *data, size_t len)
{
	if (out->len + len > out->cap) {
		size_t cap = out->cap ? out->cap : 4096;
		while (cap < out->len + len)
			cap *= 2;
		char *grown = realloc(out->data, cap);
		if (!grown)
			return -ENOMEM;
		out->data = grown;
		out->cap = cap;
	}
	memcpy(out->data + out->len, data, len);
	out->len += len;
	return 0;
}

/* A string the protocol takes: 1 to 256 bytes of UTF-8. */
static bool valid_string(const char *s)
{
	/* Not UTF-8, the daemon could not read the line: its error would carry no id. */
	return s && *s && strlen(s) <= PRESSURED_STRING_MAX && pressured_utf8(s, strlen(s));
}

/* The protocol's integers are exact up to 2^53 (docs/protocol.md, "Limits"). */
#define EXACT_MAX 9007199254740992.0
/* Region coordinates and sizes, and z. */
#define PIXELS_MAX 1e7
#define Z_MAX 1000000
/* Quick actions in one request. */
#define ITEMS_MAX 64

/* An optional boolean argument: 0, 1, or -1 (left out). */
static bool tristate(int v)
{
	return v >= -1 && v <= 1;
}

/* A number as the protocol writes it: an integer where it is one. */
static json_object *number(double v)
{
	if (isfinite(v) && v == floor(v) && fabs(v) < EXACT_MAX)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

static int add(json_object *obj, const char *key, json_object *value)
{
	if (!value || json_object_object_add(obj, key, value) < 0) {
		json_object_put(value);
		return -ENOMEM;
	}
	return 0;
}

/* The names of the bits set in @p mask, in bit order: a `subscribe`'s events, a `setRegion`'s wants. */
static json_object *name_list(const char *const *names, size_t n, uint32_t mask)
{
	json_object *list = json_object_new_array();
	for (size_t i = 0; list && i < n; i++)
		if (mask & (1u << i))
			json_object_array_add(list, json_object_new_string(names[i]));
	return list;
}

static json_object *start(struct pressured *p, const char *name, int *err)
{
	*err = 0;
	if (!pressured_is_connected(p)) {
		*err = pressured_fail(p, -ENOTCONN, "not connected (no hello yet)");
		return NULL;
	}
	json_object *obj = json_object_new_object();
	if (!obj || add(obj, "request", json_object_new_string(name)) < 0 ||
	    add(obj, "id", json_object_new_int64(p->next_id)) < 0) {
		json_object_put(obj);
		*err = pressured_fail(p, -ENOMEM, "out of memory");
		return NULL;
	}
	return obj;
}

/* Writes @p obj (taking it) as a line; returns its id or a negative errno. */
static int64_t send_request(struct pressured *p, json_object *obj, int err)
{
	if (err < 0 || !obj) {
		json_object_put(obj);
		return err < 0 ? err : pressured_fail(p, -ENOMEM, "out of memory");
	}
	size_t len;
	const char *text = json_object_to_json_string_length(obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
							     &len);
	if (!text || pressured_out_append(&p->out, text, len) < 0 || pressured_out_append(&p->out, "\n", 1) < 0) {
		json_object_put(obj);
		return pressured_fail(p, -ENOMEM, "out of memory");
	}
	json_object_put(obj);
	int64_t id = p->next_id++;
	int rc = pressured_connection_flush(p);
	if (rc < 0)
		return pressured_fail(p, rc, "writing to %s: %s", p->path, strerror(-rc));
	pressured_unfinished_request(p, id);
	return id;
}

static int64_t invalid(struct pressured *p, json_object *obj, const char *what)
{
	json_object_put(obj);
	return pressured_fail(p, -EINVAL, "invalid argument: %s", what);
}

PRESSURED_EXPORT int64_t pressured_subscribe(struct pressured *p, uint32_t events, const int64_t *devices,
					     size_t ndevices, const char *app)
{
	int err;
	json_object *obj = start(p, "subscribe", &err);
	if (!obj)
		return err;
	if (events & ~(uint32_t)(PRESSURED_SUBSCRIBE_GESTURES | PRESSURED_SUBSCRIBE_TOUCHES | PRESSURED_SUBSCRIBE_DEVICES))
		return invalid(p, obj, "unknown event kinds");
	if (app && !valid_string(app))
		return invalid(p, obj, "app must be 1 to 256 bytes of UTF-8");
	for (size_t i = 0; devices && i < ndevices; i++)
		if (devices[i] < 0 || (double)devices[i] > EXACT_MAX)
			return invalid(p, obj, "device ids are 0 to 2^53");
	if (events) {
		err = add(obj, "events", name_list(pressured_event_kind_names, PRESSURED_EVENT_KINDS, events));
	}
	if (devices && err == 0) {
		json_object *list = json_object_new_array();
		for (size_t i = 0; list && i < ndevices; i++)
			json_object_array_add(list, json_object_new_int64(devices[i]));
		err = add(obj, "devices", list);
	}
	if (app && err == 0)
		err = add(obj, "app", json_object_new_string(app));
	return send_request(p, obj, err < 0 ? pressured_fail(p, err, "out of memory") : 0);
}

PRESSURED_EXPORT int64_t pressured_set_region(struct pressured *p, const char *region, double x, double y,
					      double width, double height, int z, uint32_t wants, const char *app,
					      const struct pressured_items *items, int haptics)
{
	int err;
	json_object *obj = start(p, "setRegion", &err);
	if (!obj)
		return err;
	if (!valid_string(region))
		return invalid(p, obj, "region must be 1 to 256 bytes of UTF-8");
	/* The negated tests refuse NaN too. */
	if (!(fabs(x) <= PIXELS_MAX) || !(fabs(y) <= PIXELS_MAX) || !(width > 0 && width <= PIXELS_MAX) ||
	    !(height > 0 && height <= PIXELS_MAX))
		return invalid(p, obj, "coordinates must be within ±10,000,000 pixels, sizes above 0");
	if (z < -Z_MAX || z > Z_MAX)
		return invalid(p, obj, "z must be within ±1,000,000");
	if (!tristate(haptics))
		return invalid(p, obj, "haptics must be 0, 1 or -1");
	if (items && json_object_array_length(items->list) > ITEMS_MAX)
		return invalid(p, obj, "at most 64 items");
	if (app && !valid_string(app))
		return invalid(p, obj, "app must be 1 to 256 bytes of UTF-8");
	if (wants & ~(uint32_t)(PRESSURED_WANTS_PREVIEWS | PRESSURED_WANTS_QUICK_ACTIONS | PRESSURED_WANTS_LONG_PRESS))
		return invalid(p, obj, "unknown wants");
	err = add(obj, "region", json_object_new_string(region));
	err = err ? err : add(obj, "x", number(x));
	err = err ? err : add(obj, "y", number(y));
	err = err ? err : add(obj, "width", number(width));
	err = err ? err : add(obj, "height", number(height));
	if (z != 0 && !err)
		err = add(obj, "z", json_object_new_int(z));
	if (wants && !err) {
		err = add(obj, "wants", name_list(pressured_wants_names, PRESSURED_WANTS, wants));
	}
	if (app && !err)
		err = add(obj, "app", json_object_new_string(app));
	if (items && !err)
		err = add(obj, "items", json_object_get(items->list));
	if (haptics >= 0 && !err)
		err = add(obj, "haptics", json_object_new_boolean(haptics != 0));
	return send_request(p, obj, err < 0 ? pressured_fail(p, err, "out of memory") : 0);
}

/* A request whose fields are strings (NULL ones left out, non-NULL ones checked). */
static int64_t strings_request(struct pressured *p, const char *name, const char *k1, const char *v1, const char *k2,
			       const char *v2)
{
	int err;
	json_object *obj = start(p, name, &err);
	if (!obj)
		return err;
	if ((k1 && !valid_string(v1)) || (k2 && !valid_string(v2)))
		return invalid(p, obj, "strings must be 1 to 256 bytes of UTF-8");
	if (k1)
		err = add(obj, k1, json_object_new_string(v1));
	if (k2 && !err)
		err = add(obj, k2, json_object_new_string(v2));
	return send_request(p, obj, err < 0 ? pressured_fail(p, err, "out of memory") : 0);
}

PRESSURED_EXPORT int64_t pressured_remove_region(struct pressured *p, const char *region)
{
	return strings_request(p, "removeRegion", "region", region, NULL, NULL);
}

PRESSURED_EXPORT int64_t pressured_choose_action(struct pressured *p, const char *app, const char *action)
{
	return strings_request(p, "chooseAction", "app", app, "action", action);
}

PRESSURED_EXPORT int64_t pressured_request_status(struct pressured *p)
{
	return strings_request(p, "status", NULL, NULL, NULL, NULL);
}

PRESSURED_EXPORT int64_t pressured_request_devices(struct pressured *p)
{
	return strings_request(p, "devices", NULL, NULL, NULL, NULL);
}

PRESSURED_EXPORT int64_t pressured_ping(struct pressured *p)
{
	return strings_request(p, "ping", NULL, NULL, NULL, NULL);
}

PRESSURED_EXPORT int64_t pressured_reload(struct pressured *p)
{
	return strings_request(p, "reload", NULL, NULL, NULL, NULL);
}

PRESSURED_EXPORT int64_t pressured_set_quick_actions(struct pressured *p, const struct pressured_items *items)
{
	int err;
	json_object *obj = start(p, "setQuickActions", &err);
	if (!obj)
		return err;
	if (items && json_object_array_length(items->list) > ITEMS_MAX)
		return invalid(p, obj, "at most 64 items");
	err = add(obj, "items", items ? json_object_get(items->list) : json_object_new_array());
	return send_request(p, obj, err < 0 ? pressured_fail(p, err, "out of memory") : 0);
}

PRESSURED_EXPORT int64_t pressured_set_settings(struct pressured *p, int force_touch, const char *sensitivity,
						int haptics)
{
	int err;
	json_object *obj = start(p, "set", &err);
	if (!obj)
		return err;
	if (force_touch < 0 && !sensitivity && haptics < 0)
		return invalid(p, obj, "nothing to set");
	if (!tristate(force_touch) || !tristate(haptics))
		return invalid(p, obj, "force_touch and haptics must be 0, 1 or -1");
	if (sensitivity && strcmp(sensitivity, "light") != 0 && strcmp(sensitivity, "medium") != 0 &&
	    strcmp(sensitivity, "firm") != 0)
		return invalid(p, obj, "sensitivity must be \"light\", \"medium\" or \"firm\"");
	if (force_touch >= 0)
		err = add(obj, "forceTouch", json_object_new_boolean(force_touch != 0));
	if (sensitivity && !err)
		err = add(obj, "sensitivity", json_object_new_string(sensitivity));
	if (haptics >= 0 && !err)
		err = add(obj, "haptics", json_object_new_boolean(haptics != 0));
	return send_request(p, obj, err < 0 ? pressured_fail(p, err, "out of memory") : 0);
}

PRESSURED_EXPORT int64_t pressured_reset_learning(struct pressured *p, int64_t device)
{
	int err;
	json_object *obj = start(p, "resetLearning", &err);
	if (!obj)
		return err;
	if (device < 0 || (double)device > EXACT_MAX)
		return invalid(p, obj, "device must be an id (to 2^53) or 0");
	if (device > 0)
		err = add(obj, "device", json_object_new_int64(device));
	return send_request(p, obj, err < 0 ? pressured_fail(p, err, "out of memory") : 0);
}

PRESSURED_EXPORT struct pressured_items *pressured_items_new(void)
{
	struct pressured_items *items = calloc(1, sizeof(*items));
	if (items && !(items->list = json_object_new_array())) {
		free(items);
		return NULL;
	}
	return items;
}

PRESSURED_EXPORT void pressured_items_free(struct pressured_items *items)
{
	if (!items)
		return;
	json_object_put(items->list);
	free(items);
}

PRESSURED_EXPORT int pressured_items_add(struct pressured_items *items, const char *id, const char *title,
					 const char *subtitle, const char *icon)
{
	if (!items || !valid_string(id) || !valid_string(title) || (subtitle && !valid_string(subtitle)) ||
	    (icon && !valid_string(icon)))
		return -EINVAL;
	json_object *item = json_object_new_object();
	int err = item ? 0 : -ENOMEM;
	err = err ? err : add(item, "id", json_object_new_string(id));
	err = err ? err : add(item, "title", json_object_new_string(title));
	if (subtitle && !err)
		err = add(item, "subtitle", json_object_new_string(subtitle));
	if (icon && !err)
		err = add(item, "icon", json_object_new_string(icon));
	if (!err && json_object_array_add(items->list, item) < 0)
		err = -ENOMEM;
	else if (!err)
		item = NULL;
	json_object_put(item);
	return err;
}
