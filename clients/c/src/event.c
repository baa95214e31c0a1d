/* Events: reference counting and the accessors of what every event carries (points, regions, items,
 * devices, settings, connection changes). Reply, dropped and bye accessors: event-reply.c. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

struct pressured_event *pressured_event_new(enum pressured_event_type type)
{
	struct pressured_event *ev = calloc(1, sizeof(*ev));
	if (!ev)
		return NULL;
	ev->refcount = 1;
	ev->type = type;
	return ev;
}

PRESSURED_EXPORT struct pressured_event *pressured_event_ref(struct pressured_event *ev)
{
	if (ev)
		ev->refcount++;
	return ev;
}

PRESSURED_EXPORT struct pressured_event *pressured_event_unref(struct pressured_event *ev)
{
	if (!ev || --ev->refcount > 0)
		return NULL;
	for (size_t i = 0; i < ev->ndevices; i++)
		pressured_device_unref(ev->devices[i]);
	free(ev->devices);
	json_object_put(ev->json);
	free(ev->line);
	free(ev->message);
	free(ev);
	return NULL;
}

PRESSURED_EXPORT enum pressured_event_type pressured_event_get_type(struct pressured_event *ev)
{
	return ev ? ev->type : PRESSURED_EVENT_NONE;
}

PRESSURED_EXPORT const char *pressured_event_get_type_name(struct pressured_event *ev)
{
	return ev ? ev->type_name : NULL;
}

PRESSURED_EXPORT const char *pressured_event_get_json(struct pressured_event *ev)
{
	return ev ? ev->line : NULL;
}

PRESSURED_EXPORT struct pressured *pressured_event_get_context(struct pressured_event *ev)
{
	return ev ? ev->context : NULL;
}

bool pressured_event_is_point(const struct pressured_event *ev)
{
	if (!ev)
		return false;
	switch (ev->type) {
	case PRESSURED_EVENT_PEEK:
	case PRESSURED_EVENT_POP:
	case PRESSURED_EVENT_DISMISS:
	case PRESSURED_EVENT_QUICK_ACTIONS:
	case PRESSURED_EVENT_LONG_PRESS:
	case PRESSURED_EVENT_TOUCH:
		return true;
	default:
		return false;
	}
}

PRESSURED_EXPORT double pressured_event_get_time(struct pressured_event *ev)
{
	return ev ? ev->time : 0;
}

PRESSURED_EXPORT uint64_t pressured_event_get_time_usec(struct pressured_event *ev)
{
	if (!ev || !(ev->time > 0) || ev->time > 1.8e13)
		return 0;
	return (uint64_t)llround(ev->time * 1e6);
}

#define POINT_GETTER(rtype, name, field)                                                                  \
	PRESSURED_EXPORT rtype pressured_event_get_##name(struct pressured_event *ev)                    \
	{                                                                                                 \
		return pressured_event_is_point(ev) ? ev->field : 0;                                                      \
	}
POINT_GETTER(int64_t, device_id, device_id)
POINT_GETTER(int64_t, contact, contact)
POINT_GETTER(int64_t, x, x)
POINT_GETTER(int64_t, y, y)
POINT_GETTER(double, screen_x, screen_x)
POINT_GETTER(double, screen_y, screen_y)
POINT_GETTER(double, force, force)
POINT_GETTER(double, maximum_possible_force, maximum_possible_force)

PRESSURED_EXPORT enum pressured_touch_phase pressured_event_touch_get_phase(struct pressured_event *ev)
{
	return ev && ev->type == PRESSURED_EVENT_TOUCH ? ev->phase : PRESSURED_TOUCH_UNKNOWN;
}

PRESSURED_EXPORT bool pressured_event_touch_get_progress(struct pressured_event *ev, double *progress)
{
	bool has = ev && ev->type == PRESSURED_EVENT_TOUCH && ev->has_progress;
	if (progress)
		*progress = has ? ev->progress : 0;
	return has;
}

PRESSURED_EXPORT const char *pressured_event_get_region(struct pressured_event *ev)
{
	return ev ? pj_string(ev->json, "region") : NULL;
}

PRESSURED_EXPORT const char *pressured_event_get_app(struct pressured_event *ev)
{
	return ev ? pj_string(ev->json, "app") : NULL;
}

PRESSURED_EXPORT const char *pressured_event_get_action(struct pressured_event *ev)
{
	return ev ? pj_string(ev->json, "action") : NULL;
}

static json_object *gesture_items(struct pressured_event *ev)
{
	return pressured_event_is_point(ev) ? pj_get(ev->json, "items", json_type_array) : NULL;
}

PRESSURED_EXPORT size_t pressured_event_get_item_count(struct pressured_event *ev)
{
	json_object *items = gesture_items(ev);
	return items ? json_object_array_length(items) : 0;
}

static const char *item_field(struct pressured_event *ev, size_t index, const char *key)
{
	json_object *items = gesture_items(ev);
	if (!items || index >= json_object_array_length(items))
		return NULL;
	return pj_string(json_object_array_get_idx(items, index), key);
}

PRESSURED_EXPORT const char *pressured_event_get_item_id(struct pressured_event *ev, size_t index)
{
	return item_field(ev, index, "id");
}

PRESSURED_EXPORT const char *pressured_event_get_item_title(struct pressured_event *ev, size_t index)
{
	return item_field(ev, index, "title");
}

PRESSURED_EXPORT const char *pressured_event_get_item_subtitle(struct pressured_event *ev, size_t index)
{
	return item_field(ev, index, "subtitle");
}

PRESSURED_EXPORT const char *pressured_event_get_item_icon(struct pressured_event *ev, size_t index)
{
	return item_field(ev, index, "icon");
}

PRESSURED_EXPORT size_t pressured_event_get_device_count(struct pressured_event *ev)
{
	return ev ? ev->ndevices : 0;
}

PRESSURED_EXPORT struct pressured_device *pressured_event_get_device(struct pressured_event *ev, size_t index)
{
	return ev && index < ev->ndevices ? ev->devices[index] : NULL;
}

PRESSURED_EXPORT enum pressured_device_change pressured_event_device_get_change(struct pressured_event *ev)
{
	const char *change = ev && ev->type == PRESSURED_EVENT_DEVICE ? pj_string(ev->json, "change") : NULL;
	if (!change)
		return PRESSURED_DEVICE_CHANGE_UNKNOWN;
	if (strcmp(change, "added") == 0)
		return PRESSURED_DEVICE_ADDED;
	if (strcmp(change, "removed") == 0)
		return PRESSURED_DEVICE_REMOVED;
	if (strcmp(change, "changed") == 0)
		return PRESSURED_DEVICE_CHANGED;
	return PRESSURED_DEVICE_CHANGE_UNKNOWN;
}

static json_object *settings(struct pressured_event *ev)
{
	return ev ? pj_get(ev->json, "settings", json_type_object) : NULL;
}

PRESSURED_EXPORT bool pressured_event_get_settings_force_touch(struct pressured_event *ev)
{
	bool b = false;
	pj_bool(settings(ev), "forceTouch", &b);
	return b;
}

PRESSURED_EXPORT const char *pressured_event_get_settings_sensitivity(struct pressured_event *ev)
{
	return pj_string(settings(ev), "sensitivity");
}

PRESSURED_EXPORT bool pressured_event_get_settings_haptics(struct pressured_event *ev)
{
	bool b = false;
	pj_bool(settings(ev), "haptics", &b);
	return b;
}

PRESSURED_EXPORT const char *pressured_event_get_version(struct pressured_event *ev)
{
	return ev && ev->type == PRESSURED_EVENT_CONNECTED ? pj_string(ev->json, "version") : NULL;
}

PRESSURED_EXPORT int pressured_event_get_protocol(struct pressured_event *ev)
{
	int64_t v = 0;
	if (!ev || ev->type != PRESSURED_EVENT_CONNECTED || !pj_int(ev->json, "protocol", &v) || v < 0 || v > INT32_MAX)
		return 0;
	return (int)v;
}

PRESSURED_EXPORT int pressured_event_disconnected_get_reason(struct pressured_event *ev)
{
	return ev && ev->type == PRESSURED_EVENT_DISCONNECTED ? ev->reason : 0;
}

PRESSURED_EXPORT enum pressured_disconnect_kind pressured_event_disconnected_get_kind(struct pressured_event *ev)
{
	return ev && ev->type == PRESSURED_EVENT_DISCONNECTED ? ev->kind : PRESSURED_DISCONNECT_UNKNOWN;
}

PRESSURED_EXPORT const char *pressured_event_get_message(struct pressured_event *ev)
{
	if (!ev)
		return NULL;
	if (ev->type == PRESSURED_EVENT_DISCONNECTED)
		return ev->message;
	if (ev->type == PRESSURED_EVENT_ERROR)
		return pj_string(ev->json, "message");
	return NULL;
}

PRESSURED_EXPORT const char *pressured_event_error_get_code(struct pressured_event *ev)
{
	return ev && ev->type == PRESSURED_EVENT_ERROR ? pj_string(ev->json, "error") : NULL;
}

PRESSURED_EXPORT bool pressured_event_error_is_fatal(struct pressured_event *ev)
{
	bool b = false;
	if (ev && ev->type == PRESSURED_EVENT_ERROR)
		pj_bool(ev->json, "fatal", &b);
	return b;
}

PRESSURED_EXPORT bool pressured_event_is_synthesized(struct pressured_event *ev)
{
	return ev && ev->synthesized;
}
