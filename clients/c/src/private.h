/* libpressured internals: shared by the sources in src/, the tests and the fuzz target. */
#ifndef PRESSURED_PRIVATE_H
#define PRESSURED_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "pressured.h"
#include "line-reader.h"

#define PRESSURED_STRING_MAX 256
#define PRESSURED_EXPORT __attribute__((visibility("default")))

struct pressured_device {
	int refcount;
	json_object *json; /* one reference: the strings below point into it */
	int64_t id;
	const char *name, *node, *kind_name, *force_capability, *force_unavailable;
	enum pressured_device_kind kind;
	double maximum_possible_force;
	bool has_size;
	double width_mm, height_mm;
	int64_t x_min, x_max, y_min, y_max;
	double screen_width, screen_height, matrix[6];
	int rotation;
	json_object *assumed; /* borrowed from json, or NULL */
};

struct pressured_event {
	int refcount;
	struct pressured_event *next; /* in the context's queue */
	struct pressured *context;
	enum pressured_event_type type;
	json_object *json; /* the line's object, NULL for DISCONNECTED */
	char *line;        /* the line as received */
	const char *type_name;
	/* point events (and `time` of anything) */
	double time;
	int64_t device_id, contact, x, y;
	double screen_x, screen_y, force, maximum_possible_force;
	enum pressured_touch_phase phase;
	bool has_progress;
	double progress;
	/* devices: hello, device, devices reply */
	struct pressured_device **devices;
	size_t ndevices;
	/* DISCONNECTED */
	int reason;
	enum pressured_disconnect_kind kind;
	char *message;
	/* made by the library when the connection ended (unfinished.c), not read from the daemon */
	bool synthesized;
};

/* A contact with a peek or a touch open for the app. */
struct pressured_open {
	int64_t device, contact;
	uint64_t peek_seq, touch_seq; /* when each opened (the context's open_seq), 0: not open */
	json_object *last;            /* the contact's latest line, one reference */
	json_object *peek;            /* its open peek's line (for the region), or NULL */
};

struct pressured_out {
	char *data;
	size_t len, cap;
};

struct pressured {
	int refcount;
	void *user_data;
	pressured_log_handler log_handler;
	enum pressured_log_priority log_priority;
	char error[512];

	int epoll_fd, timer_fd, sock_fd;
	int wake_fd;      /* an eventfd: readable while events queued outside dispatch wait */
	bool dispatching; /* in pressured_dispatch: events it queues need no wake */
	bool woken;       /* wake_fd written since the last dispatch */
	bool more;        /* the last dispatch stopped at its bound with lines left */
	bool queue_full;  /* reading stopped: the queue holds its most */
	size_t queued;    /* events in the queue */
	char *path;
	bool wanted;      /* pressured_connect called, pressured_disconnect not since */
	bool greeted;     /* the hello was read on this connection */
	bool fatal_seen;  /* a fatal error line came on this connection */
	int write_error;  /* a write failed with it: the connection is being ended */
	bool closing;     /* in pressured_disconnect */
	bool polling_out; /* EPOLLOUT asked for */
	char fatal_message[256];
	int reconnect_min_ms, reconnect_max_ms, backoff_ms;
	bool reconnect_pending;
	uint64_t reconnect_at_ms;

	struct line_reader reader;
	json_tokener *tokener;
	struct pressured_out out;
	int64_t next_id;

	struct pressured_event *head, *tail;

	/* unfinished.c: what the connection leaves open */
	bool bye_seen;
	struct pressured_open *open;
	size_t nopen, open_cap;
	uint64_t open_seq;
	int64_t *pending; /* ids sent and not answered yet, in order */
	size_t npending, pending_cap;
};

/* context.c */
void pressured_log(struct pressured *p, enum pressured_log_priority priority, const char *format, ...)
	__attribute__((format(printf, 3, 4)));
/* Sets the error message and returns @p err (a negative errno). */
int pressured_fail(struct pressured *p, int err, const char *format, ...) __attribute__((format(printf, 3, 4)));
void pressured_queue_event(struct pressured *p, struct pressured_event *ev);
/* Makes the fd readable until the next dispatch. */
void pressured_wake(struct pressured *p);
uint64_t pressured_now_ms(void);

/* connection.c */
void pressured_connection_close(struct pressured *p, int reason, const char *message);
int pressured_connection_try(struct pressured *p);
/* Reads and parses a dispatch's share (LINES_PER_DISPATCH lines, while the queue is under QUEUE_MAX);
 * sets p->more where lines were left. */
int pressured_connection_read(struct pressured *p);
/* An event was taken from the queue: reading resumes once it is below its bound. */
void pressured_connection_drained(struct pressured *p);
/* Writes what is queued; a failed write ends the connection at once (after reading what the daemon
 * sent before it went). Returns 0 or the write's negative errno. */
int pressured_connection_flush(struct pressured *p);
void pressured_connection_schedule(struct pressured *p);
void pressured_connection_cancel_timer(struct pressured *p);

/* parse.c: one line (without its newline) into an event with one reference. NULL with *err set
 * (-EPROTO: not a JSON object or no `type`; -ENOMEM) and a message in @p why (may be NULL). @p tokener may
 * be NULL (one is made for the call). */
struct pressured_event *pressured_parse_line(json_tokener *tokener, const char *line, size_t len, int *err,
					     char *why, size_t whylen);
struct pressured_device *pressured_device_from_json(json_object *obj);
enum pressured_request_type pressured_request_type_from_name(const char *name);
/* The names of `subscribe`'s events and `setRegion`'s wants, by bit: name i is the mask's 1 << i
 * (enum pressured_subscription, enum pressured_region_wants). */
#define PRESSURED_EVENT_KINDS 3
#define PRESSURED_WANTS 3
extern const char *const pressured_event_kind_names[PRESSURED_EVENT_KINDS];
extern const char *const pressured_wants_names[PRESSURED_WANTS];
/* The bit of @p name in @p names (n of them), 0 when it is none of them. */
uint32_t pressured_name_bit(const char *const *names, size_t n, const char *name);

/* unfinished.c */
/* Follows what @p ev (read on this connection) opens or ends: peeks, contacts, answers. */
void pressured_unfinished_track(struct pressured *p, struct pressured_event *ev);
/* Request @p id was sent: it is open until its answer. */
void pressured_unfinished_request(struct pressured *p, int64_t id);
/* The connection ended (@p why): queues the synthesized ends of what is open, and forgets it. */
void pressured_unfinished_end(struct pressured *p, const char *why);
void pressured_unfinished_release(struct pressured *p);

/* event.c */
struct pressured_event *pressured_event_new(enum pressured_event_type type);
/* Whether @p ev is a gesture or a touch (has the point fields). */
bool pressured_event_is_point(const struct pressured_event *ev);

/* json helpers (parse.c) */
const char *pj_string(json_object *obj, const char *key);
/* An integer within ±2^53 (3.0 included) into *out; false (and *out untouched) for anything else. */
bool pj_int_value(json_object *v, int64_t *out);
bool pj_int(json_object *obj, const char *key, int64_t *out);
bool pj_double(json_object *obj, const char *key, double *out);
bool pj_bool(json_object *obj, const char *key, bool *out);
json_object *pj_get(json_object *obj, const char *key, json_type type);

/* utf8.c: whether the @p len bytes at @p s are UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing beyond U+10FFFF). */
bool pressured_utf8(const char *s, size_t len);

/* requests.c */
int pressured_out_append(struct pressured_out *out, const char *data, size_t len);

#endif
