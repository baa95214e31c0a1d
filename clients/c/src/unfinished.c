/* What is still open when a connection ends: the app's peeks, contacts and unanswered requests. The
 * daemon ends each peek and contact itself when it stops or drops a client; when it is killed (or the
 * connection breaks) nothing does, so the library ends them: a `dismiss` for each open peek, a touch
 * `cancelled` for each open contact, an `error` ("disconnected") for each unanswered request, each
 * marked synthesized, in the order the daemon itself uses (docs/protocol.md), before DISCONNECTED. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* Peeks and contacts followed at once, so a hostile daemon cannot make the list grow without bound;
 * a real one has a few dozen contacts at most. */
#define OPEN_MAX 1024

static struct pressured_open *find(struct pressured *p, int64_t device, int64_t contact, bool peek)
{
	for (size_t i = 0; i < p->nopen; i++)
		if (p->open[i].device == device && p->open[i].contact == contact && p->open[i].peek == peek)
			return &p->open[i];
	return NULL;
}

static void forget(struct pressured *p, struct pressured_open *o)
{
	if (!o)
		return;
	json_object_put(o->last);
	size_t i = (size_t)(o - p->open);
	memmove(o, o + 1, (p->nopen - i - 1) * sizeof(*o));
	p->nopen--;
}

/* Keeps @p ev's line as the latest of its contact (or peek). */
static void keep(struct pressured *p, struct pressured_event *ev, bool peek)
{
	struct pressured_open *o = find(p, ev->device_id, ev->contact, peek);
	if (!o) {
		if (p->nopen == OPEN_MAX)
			return;
		if (p->nopen == p->open_cap) {
			size_t cap = p->open_cap ? p->open_cap * 2 : 8;
			struct pressured_open *grown = realloc(p->open, cap * sizeof(*grown));
			if (!grown)
				return; /* not followed: it will not be ended for the app */
			p->open = grown;
			p->open_cap = cap;
		}
		o = &p->open[p->nopen++];
		*o = (struct pressured_open){.device = ev->device_id, .contact = ev->contact, .peek = peek};
	}
	json_object_put(o->last);
	o->last = json_object_get(ev->json);
}

void pressured_unfinished_track(struct pressured *p, struct pressured_event *ev)
{
	switch (ev->type) {
	case PRESSURED_EVENT_PEEK:
		keep(p, ev, true);
		break;
	case PRESSURED_EVENT_POP:
	case PRESSURED_EVENT_DISMISS:
		forget(p, find(p, ev->device_id, ev->contact, true));
		break;
	case PRESSURED_EVENT_TOUCH:
		if (ev->phase == PRESSURED_TOUCH_BEGAN || ev->phase == PRESSURED_TOUCH_MOVED)
			keep(p, ev, false);
		else if (ev->phase == PRESSURED_TOUCH_ENDED || ev->phase == PRESSURED_TOUCH_CANCELLED)
			forget(p, find(p, ev->device_id, ev->contact, false));
		break;
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

/* The last line of a contact as another type (or phase). */
static json_object *ended(json_object *last, const char *type, const char *phase)
{
	json_object *copy = NULL;
	if (json_object_deep_copy(last, &copy, NULL) < 0)
		return NULL;
	set(copy, "type", json_object_new_string(type));
	if (phase)
		set(copy, "phase", json_object_new_string(phase));
	json_object_object_del(copy, "progress"); /* an end carries none */
	return copy;
}

void pressured_unfinished_end(struct pressured *p, const char *why)
{
	for (int pass = 0; pass < 2; pass++) /* peeks first, then contacts */
		for (size_t i = 0; i < p->nopen; i++)
			if (p->open[i].peek == (pass == 0))
				queue(p, ended(p->open[i].last, p->open[i].peek ? "dismiss" : "touch",
					       p->open[i].peek ? NULL : "cancelled"));
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
	for (size_t i = 0; i < p->nopen; i++)
		json_object_put(p->open[i].last);
	free(p->open);
	free(p->pending);
	p->open = NULL;
	p->pending = NULL;
	p->nopen = p->open_cap = p->npending = p->pending_cap = 0;
}
