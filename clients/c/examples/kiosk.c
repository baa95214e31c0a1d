/* An example kiosk app: prints what a kiosk would do with pressured's gestures, line for line what
 * clients/python/examples/kiosk_example.py prints.
 *
 *     kiosk [--socket PATH] [--reconnect]
 *
 * The socket defaults to $PRESSURED_SOCKET, else /run/pressured/pressured.sock. Without --reconnect it
 * ends when the daemon closes the connection (after its `bye`), as the Python example does; with it, it
 * waits for the daemon to come back. Build: cc kiosk.c $(pkg-config --cflags --libs libpressured). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pressured.h>

#define MAX_DEVICES 64

struct kiosk {
	int64_t ids[MAX_DEVICES];
	bool force[MAX_DEVICES];
	size_t n;
	bool reconnect;
	bool done;
};

static int find(struct kiosk *k, int64_t id)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->ids[i] == id)
			return (int)i;
	return -1;
}

static const char *action_for(enum pressured_event_type type)
{
	switch (type) {
	case PRESSURED_EVENT_PEEK: return "show a preview";
	case PRESSURED_EVENT_POP: return "open the item";
	case PRESSURED_EVENT_DISMISS: return "close the preview";
	case PRESSURED_EVENT_QUICK_ACTIONS: return "show the item's quick actions";
	case PRESSURED_EVENT_LONG_PRESS: return "show the item's menu (touch and hold)";
	default: return NULL;
	}
}

static void connected(struct pressured *p, struct kiosk *k, struct pressured_event *ev)
{
	k->n = 0;
	for (size_t i = 0; i < pressured_event_get_device_count(ev); i++) {
		struct pressured_device *d = pressured_event_get_device(ev, i);
		const char *why = pressured_device_get_force_unavailable(d);
		char detail[160] = "";
		if (why && strcmp(why, "learning") == 0)
			snprintf(detail, sizeof(detail), " (learning the panel's average touch: long press until then)");
		else if (why)
			snprintf(detail, sizeof(detail), " (%s)", why);
		printf("device %lld: %s (%s), force %s%s\n", (long long)pressured_device_get_id(d),
		       pressured_device_get_name(d), pressured_device_get_kind_name(d),
		       pressured_device_get_force_capability(d), detail);
		if (k->n < MAX_DEVICES) {
			k->ids[k->n] = pressured_device_get_id(d);
			k->force[k->n++] = pressured_device_has_force(d);
		}
	}
	fflush(stdout);
	int64_t rc = pressured_subscribe(p, PRESSURED_SUBSCRIBE_GESTURES | PRESSURED_SUBSCRIBE_DEVICES, NULL, 0, NULL);
	if (rc < 0)
		fprintf(stderr, "kiosk: subscribe: %s\n", pressured_get_error_message(p));
}

static void device_event(struct kiosk *k, struct pressured_event *ev)
{
	struct pressured_device *d = pressured_event_get_device(ev, 0);
	if (!d)
		return;
	bool force = pressured_device_has_force(d);
	int i = find(k, pressured_device_get_id(d));
	if (i < 0 || k->force[i] != force) {
		const char *change = "";
		switch (pressured_event_device_get_change(ev)) {
		case PRESSURED_DEVICE_ADDED: change = "added"; break;
		case PRESSURED_DEVICE_REMOVED: change = "removed"; break;
		case PRESSURED_DEVICE_CHANGED: change = "changed"; break;
		default: change = "?"; break;
		}
		printf("device %lld %s: force %s: %s\n", (long long)pressured_device_get_id(d), change,
		       pressured_device_get_force_capability(d), force ? "force gestures on" : "use long press instead");
		fflush(stdout);
	}
	if (i < 0 && k->n < MAX_DEVICES) {
		k->ids[k->n] = pressured_device_get_id(d);
		i = (int)k->n++;
	}
	if (i >= 0)
		k->force[i] = force;
}

static void handle(struct pressured *p, struct kiosk *k, struct pressured_event *ev)
{
	enum pressured_event_type type = pressured_event_get_type(ev);
	const char *action = action_for(type);
	if (action) {
		printf("%.6f device %lld contact %lld: %s at (%lld, %lld), force %.2f -> %s\n", pressured_event_get_time(ev),
		       (long long)pressured_event_get_device_id(ev), (long long)pressured_event_get_contact(ev),
		       pressured_event_get_type_name(ev), (long long)pressured_event_get_x(ev),
		       (long long)pressured_event_get_y(ev), pressured_event_get_force(ev), action);
		fflush(stdout);
		return;
	}
	switch (type) {
	case PRESSURED_EVENT_CONNECTED:
		connected(p, k, ev);
		break;
	case PRESSURED_EVENT_DEVICE:
		device_event(k, ev);
		break;
	case PRESSURED_EVENT_BYE:
		printf("pressured stopped\n");
		fflush(stdout);
		break;
	case PRESSURED_EVENT_ERROR:
		fprintf(stderr, "kiosk: %s: %s\n", pressured_event_error_get_code(ev), pressured_event_get_message(ev));
		break;
	case PRESSURED_EVENT_DISCONNECTED:
		if (!k->reconnect)
			k->done = true;
		break;
	default: /* the list of types grows: what this program does not know it ignores */
		break;
	}
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	struct kiosk k = {0};
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc)
			path = argv[++i];
		else if (strcmp(argv[i], "--reconnect") == 0)
			k.reconnect = true;
		else {
			fprintf(stderr, "usage: kiosk [--socket PATH] [--reconnect]\n");
			return 2;
		}
	}
	struct pressured *p = pressured_new(&k);
	if (!p)
		return 1;
	if (!k.reconnect)
		pressured_set_reconnect(p, -1, 0);
	if (pressured_connect(p, path) < 0 && !k.reconnect) {
		fprintf(stderr, "kiosk: %s\n", pressured_get_error_message(p));
		pressured_unref(p);
		return 1;
	}
	struct pollfd fd = {.fd = pressured_get_fd(p), .events = POLLIN};
	while (!k.done) {
		if (poll(&fd, 1, -1) < 0 && errno != EINTR)
			break;
		if (pressured_dispatch(p) < 0)
			break;
		struct pressured_event *ev;
		while ((ev = pressured_get_event(p))) {
			handle(p, &k, ev);
			pressured_event_unref(ev);
		}
	}
	pressured_unref(p);
	return 0;
}
