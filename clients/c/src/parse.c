/* One line from the daemon into an event: json-c, and the fields every event type carries. Nothing the
 * line holds can make this fail other than by returning NULL: every field is checked for its type. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

json_object *pj_get(json_object *obj, const char *key, json_type type)
{
	json_object *value;
	if (!obj || !json_object_is_type(obj, json_type_object) || !json_object_object_get_ex(obj, key, &value))
		return NULL;
	return json_object_is_type(value, type) ? value : NULL;
}

const char *pj_string(json_object *obj, const char *key)
{
	json_object *v = pj_get(obj, key, json_type_string);
	return v ? json_object_get_string(v) : NULL;
}

/* The protocol's integers are exact up to 2^53 either way (docs/protocol.md, "Limits"). */
#define EXACT_INT_MAX ((int64_t)1 << 53)

bool pj_int_value(json_object *v, int64_t *out)
{
	if (json_object_is_type(v, json_type_int)) {
		/* json-c gives INT64_MIN/MAX for an integer beyond int64: out of range like any beyond 2^53. */
		int64_t i = json_object_get_int64(v);
		if (i < -EXACT_INT_MAX || i > EXACT_INT_MAX)
			return false;
		*out = i;
		return true;
	}
	if (json_object_is_type(v, json_type_double)) { /* 3.0 is an integer too; 3.5 and 1e300 are not */
		double d = json_object_get_double(v);
		if (isfinite(d) && d == floor(d) && fabs(d) <= (double)EXACT_INT_MAX) {
			*out = (int64_t)d;
			return true;
		}
	}
	return false;
}

bool pj_int(json_object *obj, const char *key, int64_t *out)
{
	json_object *v;
	if (!obj || !json_object_object_get_ex(obj, key, &v))
		return false;
	return pj_int_value(v, out);
}

bool pj_double(json_object *obj, const char *key, double *out)
{
	json_object *v;
	if (!obj || !json_object_object_get_ex(obj, key, &v))
		return false;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return false;
	double d = json_object_get_double(v);
	if (!isfinite(d))
		return false;
	*out = d;
	return true;
}

bool pj_bool(json_object *obj, const char *key, bool *out)
{
	json_object *v = pj_get(obj, key, json_type_boolean);
	if (!v)
		return false;
	*out = json_object_get_boolean(v);
	return true;
}

static void axis(json_object *obj, const char *key, int64_t *min, int64_t *max)
{
	json_object *a = pj_get(obj, key, json_type_object);
	if (!pj_int(a, "min", min))
		*min = 0;
	if (!pj_int(a, "max", max))
		*max = 0;
}

struct pressured_device *pressured_device_from_json(json_object *obj)
{
	if (!json_object_is_type(obj, json_type_object))
		return NULL;
	struct pressured_device *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->refcount = 1;
	d->json = json_object_get(obj);
	pj_int(obj, "id", &d->id);
	d->name = pj_string(obj, "name");
	d->node = pj_string(obj, "node");
	d->kind_name = pj_string(obj, "kind");
	if (d->kind_name && strcmp(d->kind_name, "touchscreen") == 0)
		d->kind = PRESSURED_DEVICE_KIND_TOUCHSCREEN;
	else if (d->kind_name && strcmp(d->kind_name, "touchpad") == 0)
		d->kind = PRESSURED_DEVICE_KIND_TOUCHPAD;
	d->force_capability = pj_string(obj, "forceCapability");
	d->force_unavailable = pj_string(obj, "forceUnavailable");
	pj_double(obj, "maximumPossibleForce", &d->maximum_possible_force);
	d->has_size = pj_double(obj, "width", &d->width_mm) && pj_double(obj, "height", &d->height_mm);
	if (!d->has_size)
		d->width_mm = d->height_mm = 0;
	axis(obj, "x", &d->x_min, &d->x_max);
	axis(obj, "y", &d->y_min, &d->y_max);
	json_object *screen = pj_get(obj, "screen", json_type_object);
	pj_double(screen, "width", &d->screen_width);
	pj_double(screen, "height", &d->screen_height);
	int64_t rotation = 0;
	if (pj_int(screen, "rotation", &rotation) && rotation >= 0 && rotation < 360)
		d->rotation = (int)rotation;
	json_object *matrix = pj_get(screen, "matrix", json_type_array);
	d->matrix[0] = d->matrix[4] = 1.0; /* identity where absent */
	if (matrix && json_object_array_length(matrix) == 6) {
		for (size_t i = 0; i < 6; i++) {
			json_object *m = json_object_array_get_idx(matrix, i);
			if (json_object_is_type(m, json_type_double) || json_object_is_type(m, json_type_int))
				d->matrix[i] = json_object_get_double(m);
		}
	}
	d->assumed = pj_get(obj, "assumed", json_type_array);
	return d;
}

static const struct {
	const char *name;
	enum pressured_event_type type;
} event_types[] = {
	{"peek", PRESSURED_EVENT_PEEK},
	{"pop", PRESSURED_EVENT_POP},
	{"dismiss", PRESSURED_EVENT_DISMISS},
	{"quickActions", PRESSURED_EVENT_QUICK_ACTIONS},
	{"longPress", PRESSURED_EVENT_LONG_PRESS},
	{"touch", PRESSURED_EVENT_TOUCH},
	{"hello", PRESSURED_EVENT_CONNECTED},
	{"device", PRESSURED_EVENT_DEVICE},
	{"settings", PRESSURED_EVENT_SETTINGS},
	{"action", PRESSURED_EVENT_ACTION},
	{"dropped", PRESSURED_EVENT_DROPPED},
	{"bye", PRESSURED_EVENT_BYE},
	{"reply", PRESSURED_EVENT_REPLY},
	{"error", PRESSURED_EVENT_ERROR},
};

static const char *const request_names[] = {
	[PRESSURED_REQUEST_SUBSCRIBE] = "subscribe",
	[PRESSURED_REQUEST_DEVICES] = "devices",
	[PRESSURED_REQUEST_PING] = "ping",
	[PRESSURED_REQUEST_STATUS] = "status",
	[PRESSURED_REQUEST_SET] = "set",
	[PRESSURED_REQUEST_RELOAD] = "reload",
	[PRESSURED_REQUEST_RESET_LEARNING] = "resetLearning",
	[PRESSURED_REQUEST_SET_REGION] = "setRegion",
	[PRESSURED_REQUEST_REMOVE_REGION] = "removeRegion",
	[PRESSURED_REQUEST_SET_QUICK_ACTIONS] = "setQuickActions",
	[PRESSURED_REQUEST_CHOOSE_ACTION] = "chooseAction",
};

const char *const pressured_event_kind_names[PRESSURED_EVENT_KINDS] = {"gestures", "touches", "devices"};
const char *const pressured_wants_names[PRESSURED_WANTS] = {"previews", "quickActions", "longPress"};
_Static_assert(PRESSURED_SUBSCRIBE_DEVICES == 1 << (PRESSURED_EVENT_KINDS - 1), "a bit for each event kind");
_Static_assert(PRESSURED_WANTS_LONG_PRESS == 1 << (PRESSURED_WANTS - 1), "a bit for each want");

uint32_t pressured_name_bit(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (strcmp(names[i], name) == 0)
			return 1u << i;
	return 0;
}

enum pressured_request_type pressured_request_type_from_name(const char *name)
{
	if (!name)
		return PRESSURED_REQUEST_UNKNOWN;
	for (size_t i = 1; i < sizeof(request_names) / sizeof(request_names[0]); i++)
		if (request_names[i] && strcmp(request_names[i], name) == 0)
			return (enum pressured_request_type)i;
	return PRESSURED_REQUEST_UNKNOWN;
}

static enum pressured_touch_phase phase_from_name(const char *name)
{
	if (!name)
		return PRESSURED_TOUCH_UNKNOWN;
	if (strcmp(name, "began") == 0)
		return PRESSURED_TOUCH_BEGAN;
	if (strcmp(name, "moved") == 0)
		return PRESSURED_TOUCH_MOVED;
	if (strcmp(name, "ended") == 0)
		return PRESSURED_TOUCH_ENDED;
	if (strcmp(name, "cancelled") == 0)
		return PRESSURED_TOUCH_CANCELLED;
	return PRESSURED_TOUCH_UNKNOWN;
}

static int add_devices(struct pressured_event *ev, json_object *list)
{
	size_t n = json_object_array_length(list);
	if (n == 0)
		return 0;
	ev->devices = calloc(n, sizeof(*ev->devices));
	if (!ev->devices)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(list, i);
		if (!json_object_is_type(o, json_type_object))
			continue; /* not a device: passed over */
		struct pressured_device *d = pressured_device_from_json(o);
		if (!d)
			return -ENOMEM;
		ev->devices[ev->ndevices++] = d;
	}
	return 0;
}

static int fill(struct pressured_event *ev)
{
	json_object *o = ev->json;
	pj_double(o, "time", &ev->time);
	pj_int(o, "device", &ev->device_id);
	pj_int(o, "contact", &ev->contact);
	pj_int(o, "x", &ev->x);
	pj_int(o, "y", &ev->y);
	pj_double(o, "screenX", &ev->screen_x);
	pj_double(o, "screenY", &ev->screen_y);
	pj_double(o, "force", &ev->force);
	pj_double(o, "maximumPossibleForce", &ev->maximum_possible_force);
	if (ev->type == PRESSURED_EVENT_TOUCH) {
		ev->phase = phase_from_name(pj_string(o, "phase"));
		ev->has_progress = pj_double(o, "progress", &ev->progress);
	}
	json_object *list;
	switch (ev->type) {
	case PRESSURED_EVENT_CONNECTED:
		if ((list = pj_get(o, "devices", json_type_array)))
			return add_devices(ev, list);
		break;
	case PRESSURED_EVENT_REPLY:
		if (pressured_request_type_from_name(pj_string(o, "request")) == PRESSURED_REQUEST_DEVICES &&
		    (list = pj_get(o, "devices", json_type_array)))
			return add_devices(ev, list);
		break;
	case PRESSURED_EVENT_DEVICE: {
		json_object *d = pj_get(o, "device", json_type_object);
		ev->device_id = 0;
		if (d) {
			ev->devices = calloc(1, sizeof(*ev->devices));
			if (!ev->devices || !(ev->devices[0] = pressured_device_from_json(d)))
				return -ENOMEM;
			ev->ndevices = 1;
			ev->device_id = ev->devices[0]->id;
		}
		break;
	}
	default:
		break;
	}
	return 0;
}

struct pressured_event *pressured_parse_line(json_tokener *tokener, const char *line, size_t len, int *err,
					     char *why, size_t whylen)
{
	json_tokener *own = NULL;
	char dummy[1];
	if (!why) {
		why = dummy;
		whylen = sizeof(dummy);
	}
	*err = 0;
	if (len > INT32_MAX) {
		*err = -EMSGSIZE;
		return NULL;
	}
	if (!pressured_utf8(line, len)) { /* JSON is UTF-8 (RFC 8259): so is every string an accessor gives */
		snprintf(why, whylen, "a line that is not JSON (not UTF-8)");
		*err = -EPROTO;
		return NULL;
	}
	if (!tokener && !(tokener = own = json_tokener_new())) {
		*err = -ENOMEM;
		return NULL;
	}
	json_tokener_reset(tokener);
	json_object *obj = json_tokener_parse_ex(tokener, line, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tokener);
	size_t used = json_tokener_get_parse_end(tokener);
	struct pressured_event *ev = NULL;
	if (!obj || jerr != json_tokener_success) {
		snprintf(why, whylen, "a line that is not JSON (%s)",
			 jerr == json_tokener_continue ? "unexpected end" : json_tokener_error_desc(jerr));
		*err = -EPROTO;
		goto out;
	}
	while (used < len && (line[used] == ' ' || line[used] == '\t' || line[used] == '\r'))
		used++;
	if (used != len) {
		snprintf(why, whylen, "a line with more than one JSON value");
		*err = -EPROTO;
		goto out;
	}
	if (!json_object_is_type(obj, json_type_object)) {
		snprintf(why, whylen, "a line that is not a JSON object");
		*err = -EPROTO;
		goto out;
	}
	const char *type = pj_string(obj, "type");
	if (!type) {
		snprintf(why, whylen, "a line without a string `type`");
		*err = -EPROTO;
		goto out;
	}
	enum pressured_event_type t = PRESSURED_EVENT_UNKNOWN;
	for (size_t i = 0; i < sizeof(event_types) / sizeof(event_types[0]); i++)
		if (strcmp(event_types[i].name, type) == 0)
			t = event_types[i].type;
	ev = pressured_event_new(t);
	if (!ev || !(ev->line = malloc(len + 1))) {
		*err = -ENOMEM;
		goto out;
	}
	memcpy(ev->line, line, len);
	ev->line[len] = '\0';
	ev->json = obj;
	obj = NULL;
	ev->type_name = type;
	if ((*err = fill(ev)) < 0)
		snprintf(why, whylen, "out of memory");
out:
	if (*err < 0)
		ev = pressured_event_unref(ev);
	json_object_put(obj);
	if (own)
		json_tokener_free(own);
	return ev;
}
