/* What is still open when a connection ends: the app's peeks, contacts and unanswered requests. The
 * daemon ends each peek and contact itself when it stops or lets a client go; when it is killed (or the
 * connection is lost) nothing does, so the library ends them, on every end, as docs/protocol.md ("When
 * the connection ends") has every client library do: a `dismiss` for each open peek in the order the
 * peeks came, a touch `cancelled` for each open contact in the order they began, an `error`
 * ("disconnected") for each unanswered request, each marked synthesized, then DISCONNECTED. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* Contacts followed at once, so a hostile daemon cannot make the list grow without bound; a real one
 * has a few dozen at most. */
#define OPEN_MAX 1024

static struct pressured_open *find(struct pressured *p, int64_t device, int64_t contact)
{
	for (size_t i = 0; i < p->nopen; i++)
		if (p->open[i].device == device && p->open[i].contact == contact)
			return &p->open[i];
	return NULL;
}

static struct pressured_open *add(struct pressured *p, int64_t device, int64_t contact)
{
	if (p->nopen == OPEN_MAX)
		return NULL;
	if (p->nopen == p->open_cap) {
		size_t cap = p->open_cap ? p->open_cap * 2 : 8;
		struct pressured_open *grown = realloc(p->open, cap * sizeof(*grown));
		if (!grown)
			return NULL; /* not followed: it will not be ended for the app */
		p->open = grown;
		p->open_cap = cap;
	}
	struct pressured_open *o = &p->open[p->nopen++];
	*o = (struct pressured_open){.device = device, .contact = contact};
	return o;
}

static void set_json(json_object **slot, json_object *value)
{
	json_object_put(*slot);
	*slot = value ? json_object_get(value) : NULL;
}

/* A point event of a contact: what it opens or ends, and its line as the contact's latest. */
static void point(struct pressured *p, struct pressured_event *ev)
{
	bool opens = ev->type == PRESSURED_EVENT_PEEK ||
		     (ev->type == PRESSURED_EVENT_TOUCH && ev->phase == PRESSURED_TOUCH_BEGAN);
	struct pressured_open *o = find(p, ev->device_id, ev->contact);
	if (!o && !(opens && (o = add(p, ev->device_id, ev->contact))))
		return;
	set_json(&o->last, ev->json);
	switch (ev->type) {
	case PRESSURED_EVENT_PEEK:
		o->peek_seq = ++p->open_seq;
		set_json(&o->peek, ev->json);
		break;
	case PRESSURED_EVENT_POP:
	case PRESSURED_EVENT_DISMISS:
		o->peek_seq = 0;
		set_json(&o->peek, NULL);
		break;
	case PRESSURED_EVENT_TOUCH:
		if (ev->phase == PRESSURED_TOUCH_BEGAN)
			o->touch_seq = ++p->open_seq;
		else if (ev->phase == PRESSURED_TOUCH_ENDED || ev->phase == PRESSURED_TOUCH_CANCELLED)
			o->touch_seq = 0;
		break;
	default:
		break;
	}
	if (o->peek_seq == 0 && o->touch_seq == 0) { /* nothing open: forgotten */
		set_json(&o->last, NULL);
		size_t i = (size_t)(o - p->open);
		memmove(o, o + 1, (p->nopen - i - 1) * sizeof(*o));
		p->nopen--;
	}
}

void pressured_unfinished_track(struct pressured *p, struct pressured_event *ev)
{
	if (pressured_event_is_point(ev)) {
		point(p, ev);
		return;
	}
	switch (ev->type) {
	case PRESSURED_EVENT_REPLY:
	case PRESSURED_EVENT_ERROR: {
		int64_t id = pressured_event_get_request_id(ev);
		for (size_t i = 0; id > 0 && i < p->npending; i++) /* answers come in order: i is 0 */
			if (p->pending[i] == id) {
				memmove(&p->pending[i], &p->pending[i + 1], (p->npending - i - 1) * sizeof(*p->pending));
				p->npending--;
				break;
			}
		break;
	}
	default:
		break;
	}
}

void pressured_unfinished_request(struct pressured *p, int64_t id)
{
	if (p->npending == p->pending_cap) {
		size_t cap = p->pending_cap ? p->pending_cap * 2 : 16;
		int64_t *grown = realloc(p->pending, cap * sizeof(*grown));
		if (!grown)
			return; /* not followed: no error will be made up for it */
		p->pending = grown;
		p->pending_cap = cap;
	}
	p->pending[p->npending++] = id;
}

static void set(json_object *obj, const char *key, json_object *value)
{
	if (value && json_object_object_add(obj, key, value) < 0)
		json_object_put(value);
}

/* Queues @p obj (taken) as an event read from the daemon, marked synthesized in its line too. */
static void queue(struct pressured *p, json_object *obj)
{
	if (!obj)
		return;
	set(obj, "synthesized", json_object_new_boolean(1));
	size_t len;
	const char *text = json_object_to_json_string_length(obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
							     &len);
	int err;
	struct pressured_event *ev = text ? pressured_parse_line(p->tokener, text, len, &err, NULL, 0) : NULL;
	json_object_put(obj);
	if (!ev)
		return;
	ev->synthesized = true;
	pressured_queue_event(p, ev);
}

/* The end of contact @p o as the daemon's would be: its device and contact, and the time, position and
 * force of the last event seen for it; a dismiss also the region its peek was tagged with. */
static json_object *ended(const struct pressured_open *o, bool peek)
{
	static const char *const copied[] = {"device", "contact", "time", "x", "y", "screenX", "screenY",
					     "force", "maximumPossibleForce"};
	json_object *obj = json_object_new_object();
	if (!obj)
		return NULL;
	set(obj, "type", json_object_new_string(peek ? "dismiss" : "touch"));
	if (!peek)
		set(obj, "phase", json_object_new_string("cancelled"));
	for (size_t i = 0; i < sizeof(copied) / sizeof(copied[0]); i++) {
		json_object *v;
		if (json_object_object_get_ex(o->last, copied[i], &v))
			set(obj, copied[i], json_object_get(v));
	}
	json_object *region;
	if (peek && json_object_object_get_ex(o->peek, "region", &region))
		set(obj, "region", json_object_get(region));
	return obj;
}

/* The open entry with the smallest sequence number above @p after (peek's or touch's), or NULL. */
static const struct pressured_open *next_open(struct pressured *p, bool peek, uint64_t after)
{
	const struct pressured_open *best = NULL;
	for (size_t i = 0; i < p->nopen; i++) {
		uint64_t seq = peek ? p->open[i].peek_seq : p->open[i].touch_seq;
		if (seq > after && (!best || seq < (peek ? best->peek_seq : best->touch_seq)))
			best = &p->open[i];
	}
	return best;
}

void pressured_unfinished_end(struct pressured *p, const char *why)
{
	for (int pass = 0; pass < 2; pass++) { /* peeks first, then contacts, each in the order they opened */
		bool peek = pass == 0;
		const struct pressured_open *o;
		for (uint64_t after = 0; (o = next_open(p, peek, after)); after = peek ? o->peek_seq : o->touch_seq)
			queue(p, ended(o, peek));
	}
	for (size_t i = 0; i < p->npending; i++) {
		json_object *obj = json_object_new_object();
		if (!obj)
			break;
		set(obj, "type", json_object_new_string("error"));
		set(obj, "id", json_object_new_int64(p->pending[i]));
		set(obj, "error", json_object_new_string("disconnected"));
		set(obj, "message", json_object_new_string(why));
		set(obj, "fatal", json_object_new_boolean(0));
		queue(p, obj);
	}
	pressured_unfinished_release(p);
}

void pressured_unfinished_release(struct pressured *p)
{
	for (size_t i = 0; i < p->nopen; i++) {
		json_object_put(p->open[i].last);
		json_object_put(p->open[i].peek);
	}
	free(p->open);
	free(p->pending);
	p->open = NULL;
	p->pending = NULL;
	p->nopen = p->open_cap = p->npending = p->pending_cap = 0;
	p->open_seq = 0;
}
