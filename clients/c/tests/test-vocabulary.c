/* libpressured handles every name of docs/protocol.md's table of names (between its `names` markers):
 * each gesture and message `type` parses into an event type of its own (a gesture into a gesture type),
 * each phase, device change and device kind into its enum, each request into its request type, each
 * event kind and want into its bit. A name the table adds fails here until the library knows it. The
 * vocabularies the library hands on as strings (error codes, reasons, capabilities, sensitivities,
 * average sources) have nothing to know; a vocabulary this test does not know fails too. And a `type`
 * the library does not know is PRESSURED_EVENT_UNKNOWN, never a gesture or a touch. */
#include <errno.h>
#include <string.h>

#include "helpers.h"
#include "private.h"

#define MAX_NAMES 256

struct name {
	char vocabulary[32];
	char name[64];
	int takes; /* 1 yes, 0 no, -1 no cell */
};

static struct name names[MAX_NAMES];
static size_t nnames;

/* The cells of a table row, trimmed, written over @p line; returns how many. */
static size_t cells(char *line, char **out, size_t max)
{
	size_t n = 0;
	char *p = line;
	if (*p == '|')
		p++;
	while (*p && n < max) {
		char *bar = strchr(p, '|');
		if (!bar)
			break;
		*bar = '\0';
		while (*p == ' ')
			p++;
		for (char *e = bar - 1; e >= p && *e == ' '; e--)
			*e = '\0';
		out[n++] = p;
		p = bar + 1;
	}
	return n;
}

/* Reads the table: one entry per name (the code spans of a row's third cell). */
static void read_table(void)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/docs/protocol.md", repo_root());
	FILE *doc = fopen(path, "r");
	REQUIRE(doc);
	char line[4096];
	bool inside = false;
	while (fgets(line, sizeof(line), doc)) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, "<!-- names -->") == 0) {
			inside = true;
			continue;
		}
		if (strcmp(line, "<!-- /names -->") == 0)
			break;
		char *c[8];
		if (!inside || line[0] != '|' || cells(line, c, 8) < 4 || strcmp(c[0], "vocabulary") == 0 || c[0][0] == '-')
			continue;
		for (char *tick = strchr(c[2], '`'); tick; tick = strchr(tick + 1, '`')) {
			char *end = strchr(tick + 1, '`');
			REQUIRE(end && nnames < MAX_NAMES && (size_t)(end - tick - 1) < sizeof(names[0].name));
			struct name *n = &names[nnames++];
			snprintf(n->vocabulary, sizeof(n->vocabulary), "%s", c[0]);
			memcpy(n->name, tick + 1, (size_t)(end - tick - 1));
			n->name[end - tick - 1] = '\0';
			n->takes = strcmp(c[3], "yes") == 0 ? 1 : strcmp(c[3], "no") == 0 ? 0 : -1;
			tick = end;
		}
	}
	fclose(doc);
	REQUIRE(nnames > 0);
}

static struct pressured_event *parse(const char *line)
{
	int err;
	struct pressured_event *ev = pressured_parse_line(NULL, line, strlen(line), &err, NULL, 0);
	REQUIRE(ev && err == 0);
	return ev;
}

static bool is_gesture(enum pressured_event_type t)
{
	return t >= PRESSURED_EVENT_PEEK && t < PRESSURED_EVENT_TOUCH;
}

/* Whether libpressured handles @p name of @p vocabulary; false with *known false for a vocabulary this
 * test does not know. */
static bool handles(const char *vocabulary, const char *name, bool *known)
{
	char line[512];
	struct pressured_event *ev;
	bool ok = false;
	*known = true;
	if (strcmp(vocabulary, "gesture") == 0 || strcmp(vocabulary, "message") == 0) {
		snprintf(line, sizeof(line), "{\"type\":\"%s\"}", name);
		ev = parse(line);
		enum pressured_event_type t = pressured_event_get_type(ev);
		ok = t != PRESSURED_EVENT_UNKNOWN && is_gesture(t) == (strcmp(vocabulary, "gesture") == 0) &&
		     strcmp(pressured_event_get_type_name(ev), name) == 0;
		pressured_event_unref(ev);
	} else if (strcmp(vocabulary, "phase") == 0) {
		snprintf(line, sizeof(line), "{\"type\":\"touch\",\"phase\":\"%s\"}", name);
		ev = parse(line);
		ok = pressured_event_touch_get_phase(ev) != PRESSURED_TOUCH_UNKNOWN;
		pressured_event_unref(ev);
	} else if (strcmp(vocabulary, "change") == 0) {
		snprintf(line, sizeof(line), "{\"type\":\"device\",\"change\":\"%s\",\"device\":{\"id\":1}}", name);
		ev = parse(line);
		ok = pressured_event_device_get_change(ev) != PRESSURED_DEVICE_CHANGE_UNKNOWN;
		pressured_event_unref(ev);
	} else if (strcmp(vocabulary, "kind") == 0) {
		snprintf(line, sizeof(line), "{\"type\":\"device\",\"change\":\"added\",\"device\":{\"id\":1,\"kind\":\"%s\"}}", name);
		ev = parse(line);
		ok = pressured_device_get_kind(pressured_event_get_device(ev, 0)) != PRESSURED_DEVICE_KIND_UNKNOWN;
		pressured_event_unref(ev);
	} else if (strcmp(vocabulary, "request") == 0) {
		ok = pressured_request_type_from_name(name) != PRESSURED_REQUEST_UNKNOWN;
	} else if (strcmp(vocabulary, "events") == 0) {
		ok = pressured_name_bit(pressured_event_kind_names, PRESSURED_EVENT_KINDS, name) != 0;
	} else if (strcmp(vocabulary, "wants") == 0) {
		ok = pressured_name_bit(pressured_wants_names, PRESSURED_WANTS, name) != 0;
	} else if (strcmp(vocabulary, "error") == 0 || strcmp(vocabulary, "reason") == 0 ||
		   strcmp(vocabulary, "capability") == 0 || strcmp(vocabulary, "sensitivity") == 0 ||
		   strcmp(vocabulary, "source") == 0) {
		ok = true; /* handed on as the daemon's string */
	} else {
		*known = false;
	}
	return ok;
}

int main(void)
{
	read_table();
	for (size_t i = 0; i < nnames; i++) {
		bool known;
		if (!handles(names[i].vocabulary, names[i].name, &known)) {
			fprintf(stderr, "docs/protocol.md: the %s `%s` is unknown to libpressured%s\n", names[i].vocabulary,
				names[i].name, known ? "" : " (a vocabulary this test does not know)");
			failures++;
		}
	}

	/* A type the library does not know is an unknown type: not a gesture, not a touch. */
	struct pressured_event *ev = parse("{\"type\":\"squeeze\",\"time\":1.0,\"device\":1,\"contact\":1,\"phase\":\"began\"}");
	CHECK(pressured_event_get_type(ev) == PRESSURED_EVENT_UNKNOWN);
	CHECK(strcmp(pressured_event_get_type_name(ev), "squeeze") == 0);
	CHECK(pressured_event_touch_get_phase(ev) == PRESSURED_TOUCH_UNKNOWN);
	pressured_event_unref(ev);

	fprintf(stderr, "%zu names of docs/protocol.md checked\n", nnames);
	return failures ? 1 : 0;
}
