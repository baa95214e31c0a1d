/* Gestures and touches from `pressured --replay peek-pop.evemu`: exactly the lines `pressurectl replay
 * --touches` prints, in order, each read through the typed accessors. */
#include <math.h>
#include <string.h>

#include "helpers.h"

#define MAX_LINES 4096

static int replay_lines(char **lines)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s/pressurectl' replay --touches Tests/Fixtures/peek-pop.evemu", repo_root(),
		 bin_dir());
	FILE *f = popen(cmd, "r");
	REQUIRE(f);
	int n = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while (n < MAX_LINES && (len = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\n")] = '\0';
		lines[n++] = strdup(line);
	}
	free(line);
	REQUIRE(pclose(f) == 0);
	return n;
}

int main(void)
{
	struct daemon d;
	daemon_start(&d, "--replay", "Tests/Fixtures/peek-pop.evemu", "--speed", "0", "--exit-when-done", NULL);
	static char *expected[MAX_LINES];
	int nexpected = replay_lines(expected);
	REQUIRE(nexpected > 10);

	struct pressured *p = connect_to(d.socket, NULL);
	int64_t id = pressured_subscribe(p, PRESSURED_SUBSCRIBE_GESTURES | PRESSURED_SUBSCRIBE_TOUCHES, NULL, 0, NULL);
	REQUIRE(id > 0);
	struct pressured_event *reply = wait_answer(p, id, 5000);
	REQUIRE(reply && pressured_event_get_type(reply) == PRESSURED_EVENT_REPLY);
	CHECK(pressured_event_reply_get_request(reply) == PRESSURED_REQUEST_SUBSCRIBE);
	CHECK(pressured_event_reply_get_events(reply) == (PRESSURED_SUBSCRIBE_GESTURES | PRESSURED_SUBSCRIBE_TOUCHES));
	CHECK(pressured_event_reply_get_device_id_count(reply) == -1);
	pressured_event_unref(reply);

	int n = 0, peeks = 0, pops = 0, dismisses = 0, touches = 0, began = 0, ended = 0, with_progress = 0;
	bool bye = false, disconnected = false;
	double last_time = 0;
	while (!disconnected) {
		struct pressured_event *ev = next_event(p, 20000);
		if (!ev)
			break;
		enum pressured_event_type t = pressured_event_get_type(ev);
		const char *json = pressured_event_get_json(ev);
		bool served = t == PRESSURED_EVENT_TOUCH || (t >= PRESSURED_EVENT_PEEK && t <= PRESSURED_EVENT_LONG_PRESS) ||
			      (t == PRESSURED_EVENT_DEVICE && pressured_event_device_get_change(ev) == PRESSURED_DEVICE_CHANGED);
		if (served) {
			if (n < nexpected && strcmp(json, expected[n]) != 0) {
				fprintf(stderr, "line %d differs:\n  got  %s\n  want %s\n", n, json, expected[n]);
				failures++;
			}
			n++;
		}
		if (t == PRESSURED_EVENT_TOUCH || (t >= PRESSURED_EVENT_PEEK && t <= PRESSURED_EVENT_LONG_PRESS)) {
			CHECK(pressured_event_get_time(ev) >= last_time);
			last_time = pressured_event_get_time(ev);
			CHECK(pressured_event_get_device_id(ev) == 1);
			CHECK(pressured_event_get_screen_x(ev) == (double)pressured_event_get_x(ev));
			CHECK(pressured_event_get_screen_y(ev) == (double)pressured_event_get_y(ev));
			CHECK(pressured_event_get_time_usec(ev) == (uint64_t)llround(pressured_event_get_time(ev) * 1e6));
			CHECK(pressured_event_get_region(ev) == NULL);
		}
		switch (t) {
		case PRESSURED_EVENT_PEEK:
			if (peeks++ == 0) { /* {"type":"peek","time":1.900000,"contact":9,"x":1000,"y":1500,"force":1.4902,...} */
				CHECK(pressured_event_get_time_usec(ev) == 1900000);
				CHECK(pressured_event_get_contact(ev) == 9);
				CHECK(pressured_event_get_x(ev) == 1000 && pressured_event_get_y(ev) == 1500);
				CHECK(fabs(pressured_event_get_force(ev) - 1.4902) < 1e-9);
				CHECK(fabs(pressured_event_get_maximum_possible_force(ev) - 4.0118) < 1e-9);
				CHECK(pops == 0);
			}
			break;
		case PRESSURED_EVENT_POP:
			if (pops++ == 0) {
				CHECK(peeks == 1);
				CHECK(pressured_event_get_time_usec(ev) == 1924000);
				CHECK(pressured_event_get_contact(ev) == 9);
				CHECK(fabs(pressured_event_get_force(ev) - 2.1176) < 1e-9);
			}
			break;
		case PRESSURED_EVENT_DISMISS:
			dismisses++;
			CHECK(pressured_event_get_contact(ev) == 10);
			break;
		case PRESSURED_EVENT_TOUCH: {
			touches++;
			enum pressured_touch_phase ph = pressured_event_touch_get_phase(ev);
			CHECK(ph != PRESSURED_TOUCH_UNKNOWN);
			began += ph == PRESSURED_TOUCH_BEGAN;
			ended += ph == PRESSURED_TOUCH_ENDED || ph == PRESSURED_TOUCH_CANCELLED;
			double progress;
			if (pressured_event_touch_get_progress(ev, &progress)) {
				with_progress++;
				CHECK(progress >= 0 && progress <= 1);
				CHECK(strstr(json, "\"progress\":") != NULL);
			} else {
				CHECK(strstr(json, "\"progress\":") == NULL);
			}
			break;
		}
		case PRESSURED_EVENT_BYE:
			bye = true;
			CHECK(strcmp(pressured_event_bye_get_reason(ev), "shutdown") == 0);
			break;
		case PRESSURED_EVENT_DISCONNECTED:
			disconnected = true;
			CHECK(bye);
			CHECK(pressured_event_disconnected_get_reason(ev) == 0);
			break;
		default:
			break;
		}
		pressured_event_unref(ev);
	}
	CHECK(disconnected);
	CHECK(n == nexpected);
	CHECK(peeks == 2 && pops == 1 && dismisses == 1);
	CHECK(touches > 0 && began == ended && began > 0);
	CHECK(with_progress > 0);
	printf("gestures: %d served lines (%d expected), %d touches, %d peeks, %d pops, %d dismisses; %d failures\n", n,
	       nexpected, touches, peeks, pops, dismisses, failures);
	for (int i = 0; i < nexpected; i++)
		free(expected[i]);
	pressured_unref(p);
	daemon_stop(&d);
	return failures ? 1 : 0;
}
