/* libFuzzer target: bytes from the daemon's socket through libpressured's line reader and JSON event
 * parser, every accessor read. Built and run by tools/fuzz (target `libpressured`):
 *
 *     clang -fsanitize=fuzzer,address,undefined -Iclients/c/include -Iclients/c/src \
 *         clients/c/fuzz/fuzz-lines.c clients/c/src/{line-reader,parse,event,event-reply,device,utf8}.c -ljson-c
 *
 * The first byte of an input says how the rest is cut into reads (1 to 256 bytes each). */
#include <stdint.h>
#include <string.h>

#include "private.h"

static volatile double sink; /* the fuzzer's own: keeps the reads */

static void touch_everything(struct pressured_event *ev)
{
	double d = 0;
	int64_t a, b, c;
	d += pressured_event_get_time(ev) + (double)pressured_event_get_time_usec(ev);
	d += (double)pressured_event_get_device_id(ev) + (double)pressured_event_get_contact(ev) +
	     (double)pressured_event_get_x(ev) + (double)pressured_event_get_y(ev);
	d += pressured_event_get_screen_x(ev) + pressured_event_get_screen_y(ev) + pressured_event_get_force(ev) +
	     pressured_event_get_maximum_possible_force(ev);
	pressured_event_touch_get_progress(ev, &d);
	d += pressured_event_touch_get_phase(ev) + pressured_event_device_get_change(ev);
	const char *s[] = {pressured_event_get_type_name(ev), pressured_event_get_json(ev), pressured_event_get_region(ev),
			   pressured_event_get_app(ev), pressured_event_get_action(ev),
			   pressured_event_get_settings_sensitivity(ev), pressured_event_get_version(ev),
			   pressured_event_get_message(ev), pressured_event_error_get_code(ev),
			   pressured_event_reply_get_request_name(ev), pressured_event_bye_get_reason(ev)};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		d += s[i] ? (double)strlen(s[i]) : 0;
	for (size_t i = 0; i <= pressured_event_get_item_count(ev); i++) {
		const char *f[] = {pressured_event_get_item_id(ev, i), pressured_event_get_item_title(ev, i),
				   pressured_event_get_item_subtitle(ev, i), pressured_event_get_item_icon(ev, i)};
		for (size_t k = 0; k < 4; k++)
			d += f[k] ? (double)strlen(f[k]) : 0;
	}
	d += pressured_event_get_settings_force_touch(ev) + pressured_event_get_settings_haptics(ev) +
	     pressured_event_get_protocol(ev) + pressured_event_error_is_fatal(ev);
	d += (double)pressured_event_get_request_id(ev) + pressured_event_reply_get_request(ev) +
	     pressured_event_reply_get_events(ev);
	int64_t n = pressured_event_reply_get_device_id_count(ev);
	for (int64_t i = 0; i <= n; i++)
		d += (double)pressured_event_reply_get_device_id(ev, (size_t)i);
	for (size_t i = 0; i <= pressured_event_reply_get_kept_count(ev); i++)
		d += pressured_event_reply_get_kept(ev, i) != NULL;
	for (size_t i = 0; i <= pressured_event_reply_get_cut_count(ev); i++)
		d += pressured_event_reply_get_cut(ev, i) != NULL;
	d += pressured_event_reply_get_delivered(ev);
	pressured_event_reply_get_status_count(ev, "clients", &a);
	d += (double)pressured_event_dropped_get_touches(ev) + pressured_event_dropped_is_truncated(ev);
	for (size_t i = 0; i <= pressured_event_dropped_get_contact_count(ev); i++)
		pressured_event_dropped_get_contact(ev, i, &a, &b, &c);
	for (size_t i = 0; i <= pressured_event_get_device_count(ev); i++) {
		struct pressured_device *dev = pressured_event_get_device(ev, i);
		double m[6], w, h;
		int rot;
		d += (double)pressured_device_get_id(dev) + pressured_device_has_force(dev) +
		     pressured_device_get_maximum_possible_force(dev) + pressured_device_get_kind(dev);
		const char *t[] = {pressured_device_get_name(dev), pressured_device_get_node(dev),
				   pressured_device_get_kind_name(dev), pressured_device_get_force_capability(dev),
				   pressured_device_get_force_unavailable(dev)};
		for (size_t k = 0; k < 5; k++)
			d += t[k] ? (double)strlen(t[k]) : 0;
		pressured_device_get_size_mm(dev, &w, &h);
		pressured_device_get_x_range(dev, &a, &b);
		pressured_device_get_y_range(dev, &a, &b);
		pressured_device_get_screen(dev, &w, &h, &rot, m);
		for (size_t k = 0; k <= pressured_device_get_assumed_count(dev); k++)
			d += pressured_device_get_assumed(dev, k) != NULL;
	}
	sink = d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	size_t chunk = (size_t)data[0] + 1;
	data++;
	size--;
	struct line_reader r;
	/* A small limit, so inputs of libFuzzer's sizes reach it too; the real one is tested in meson. */
	if (line_reader_init(&r, 512) < 0)
		return 0;
	json_tokener *tok = json_tokener_new();
	for (size_t off = 0; off < size;) {
		size_t n = size - off < chunk ? size - off : chunk;
		long fed = line_reader_feed(&r, (const char *)data + off, n);
		if (fed <= 0)
			break;
		off += (size_t)fed;
		const char *line;
		size_t len;
		int rc;
		while ((rc = line_reader_next(&r, &line, &len)) > 0) {
			int err;
			char why[128];
			struct pressured_event *ev = pressured_parse_line(tok, line, len, &err, why, sizeof(why));
			if (ev) {
				touch_everything(ev);
				pressured_event_ref(ev);
				pressured_event_unref(ev);
				pressured_event_unref(ev);
			}
		}
		if (rc < 0)
			line_reader_reset(&r); /* as a new connection would */
	}
	json_tokener_free(tok);
	line_reader_release(&r);
	return 0;
}
