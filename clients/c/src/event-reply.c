/* Accessors of replies, `dropped` and `bye`. */
#include <string.h>

#include "private.h"

static json_object *reply(struct pressured_event *ev)
{
	return ev && ev->type == PRESSURED_EVENT_REPLY ? ev->json : NULL;
}

PRESSURED_EXPORT int64_t pressured_event_get_request_id(struct pressured_event *ev)
{
	int64_t id = 0;
	if (!ev || (ev->type != PRESSURED_EVENT_REPLY && ev->type != PRESSURED_EVENT_ERROR))
		return 0;
	if (!pj_int(ev->json, "id", &id))
		return 0;
	return id > 0 ? id : 0;
}

PRESSURED_EXPORT const char *pressured_event_reply_get_request_name(struct pressured_event *ev)
{
	return pj_string(reply(ev), "request");
}

PRESSURED_EXPORT enum pressured_request_type pressured_event_reply_get_request(struct pressured_event *ev)
{
	return pressured_request_type_from_name(pressured_event_reply_get_request_name(ev));
}

PRESSURED_EXPORT uint32_t pressured_event_reply_get_events(struct pressured_event *ev)
{
	json_object *events = pj_get(reply(ev), "events", json_type_array);
	uint32_t mask = 0;
	for (size_t i = 0; events && i < json_object_array_length(events); i++) {
		json_object *e = json_object_array_get_idx(events, i);
		const char *name = json_object_is_type(e, json_type_string) ? json_object_get_string(e) : "";
		mask |= pressured_name_bit(pressured_event_kind_names, PRESSURED_EVENT_KINDS, name);
	}
	return mask;
}

static json_object *id_list(struct pressured_event *ev)
{
	enum pressured_request_type r = pressured_event_reply_get_request(ev);
	if (r != PRESSURED_REQUEST_SUBSCRIBE && r != PRESSURED_REQUEST_RESET_LEARNING)
		return NULL;
	return pj_get(reply(ev), "devices", json_type_array);
}

PRESSURED_EXPORT int64_t pressured_event_reply_get_device_id_count(struct pressured_event *ev)
{
	const char *all = pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_SUBSCRIBE
				  ? pj_string(reply(ev), "devices") : NULL;
	if (all && strcmp(all, "all") == 0)
		return -1;
	json_object *list = id_list(ev);
	return list ? (int64_t)json_object_array_length(list) : 0;
}

PRESSURED_EXPORT int64_t pressured_event_reply_get_device_id(struct pressured_event *ev, size_t index)
{
	json_object *list = id_list(ev);
	if (!list || index >= json_object_array_length(list))
		return 0;
	int64_t id = 0;
	pj_int_value(json_object_array_get_idx(list, index), &id);
	return id;
}

static json_object *strings(struct pressured_event *ev, const char *key)
{
	enum pressured_request_type r = pressured_event_reply_get_request(ev);
	if (r != PRESSURED_REQUEST_SET_REGION && r != PRESSURED_REQUEST_SET_QUICK_ACTIONS)
		return NULL;
	return pj_get(reply(ev), key, json_type_array);
}

static const char *string_at(json_object *list, size_t index)
{
	if (!list || index >= json_object_array_length(list))
		return NULL;
	json_object *v = json_object_array_get_idx(list, index);
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

PRESSURED_EXPORT size_t pressured_event_reply_get_kept_count(struct pressured_event *ev)
{
	json_object *l = strings(ev, "items");
	return l ? json_object_array_length(l) : 0;
}

PRESSURED_EXPORT const char *pressured_event_reply_get_kept(struct pressured_event *ev, size_t index)
{
	return string_at(strings(ev, "items"), index);
}

PRESSURED_EXPORT size_t pressured_event_reply_get_cut_count(struct pressured_event *ev)
{
	json_object *l = strings(ev, "cut");
	return l ? json_object_array_length(l) : 0;
}

PRESSURED_EXPORT const char *pressured_event_reply_get_cut(struct pressured_event *ev, size_t index)
{
	return string_at(strings(ev, "cut"), index);
}

PRESSURED_EXPORT bool pressured_event_reply_get_delivered(struct pressured_event *ev)
{
	bool b = false;
	pj_bool(reply(ev), "delivered", &b);
	return b;
}

PRESSURED_EXPORT bool pressured_event_reply_get_status_count(struct pressured_event *ev, const char *name,
							     int64_t *value)
{
	int64_t v = 0;
	bool found = false;
	if (name && pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_STATUS)
		found = pj_int(pj_get(reply(ev), "status", json_type_object), name, &v) ||
			pj_int(pj_get(reply(ev), "activity", json_type_object), name, &v);
	if (value)
		*value = found ? v : 0;
	return found;
}

static json_object *dropped(struct pressured_event *ev)
{
	return ev && ev->type == PRESSURED_EVENT_DROPPED ? ev->json : NULL;
}

PRESSURED_EXPORT int64_t pressured_event_dropped_get_touches(struct pressured_event *ev)
{
	int64_t n = 0;
	pj_int(dropped(ev), "touches", &n);
	return n;
}

PRESSURED_EXPORT size_t pressured_event_dropped_get_contact_count(struct pressured_event *ev)
{
	json_object *l = pj_get(dropped(ev), "contacts", json_type_array);
	return l ? json_object_array_length(l) : 0;
}

PRESSURED_EXPORT bool pressured_event_dropped_get_contact(struct pressured_event *ev, size_t index, int64_t *device,
							  int64_t *contact, int64_t *moved)
{
	json_object *l = pj_get(dropped(ev), "contacts", json_type_array);
	json_object *c = l && index < json_object_array_length(l) ? json_object_array_get_idx(l, index) : NULL;
	int64_t d = 0, k = 0, m = 0;
	if (c) {
		pj_int(c, "device", &d);
		pj_int(c, "contact", &k);
		pj_int(c, "moved", &m);
	}
	if (device)
		*device = d;
	if (contact)
		*contact = k;
	if (moved)
		*moved = m;
	return c != NULL;
}

PRESSURED_EXPORT bool pressured_event_dropped_is_truncated(struct pressured_event *ev)
{
	bool b = false;
	pj_bool(dropped(ev), "truncated", &b);
	return b;
}

PRESSURED_EXPORT const char *pressured_event_bye_get_reason(struct pressured_event *ev)
{
	return ev && ev->type == PRESSURED_EVENT_BYE ? pj_string(ev->json, "reason") : NULL;
}
