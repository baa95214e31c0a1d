/* libpressured: a C client library for the pressured daemon (docs/protocol.md).
 *
 * SPDX-License-Identifier: MIT
 *
 * The shape is libinput's and libei's: an opaque, reference-counted context (struct pressured) with one
 * file descriptor to poll (pressured_get_fd), a function that does the I/O (pressured_dispatch) and a
 * queue of reference-counted events (pressured_get_event) read through typed accessors.
 *
 *     struct pressured *p = pressured_new(NULL);
 *     pressured_connect(p, NULL);                       // $PRESSURED_SOCKET, else the default socket
 *     struct pollfd fds = { .fd = pressured_get_fd(p), .events = POLLIN };
 *     while (poll(&fds, 1, -1) >= 0) {
 *         pressured_dispatch(p);
 *         struct pressured_event *ev;
 *         while ((ev = pressured_get_event(p))) {
 *             switch (pressured_event_get_type(ev)) {
 *             case PRESSURED_EVENT_CONNECTED:
 *                 pressured_subscribe(p, PRESSURED_SUBSCRIBE_GESTURES, NULL, 0, NULL);
 *                 break;
 *             case PRESSURED_EVENT_PEEK: ...; break;
 *             default: break;                            // the list of types grows: ignore the others
 *             }
 *             pressured_event_unref(ev);
 *         }
 *     }
 *     pressured_unref(p);
 *
 * Errors: functions that can fail return a negative errno (-ENOTCONN, -EINVAL, -ENOMEM, ...);
 * pressured_get_error_message() says more about the last one. Nothing the socket sends makes the library
 * abort or assert: a line it cannot use drops the connection (PRESSURED_EVENT_DISCONNECTED with the
 * reason) and the context reconnects after a back-off. Lines are checked UTF-8 (RFC 3629, as JSON
 * requires): one that is not is such a line (-EPROTO), so every string an accessor returns is UTF-8.
 *
 * Threads: a context and its events are used from one thread at a time. There is no global state: two
 * contexts are independent.
 *
 * Strings returned by accessors are owned by the object they come from and stay valid as long as it does
 * (an event: until its last pressured_event_unref). Every "get" on an event of the wrong type (or a
 * field the line did not carry) returns 0, NULL or false: it never crashes. Integer fields (ids,
 * contacts, x and y, counts) are read as the protocol writes them, exact integers within ±2^53 (3.0
 * included); any other number there (3.5, 1e23, an integer beyond int64) reads as a field not carried: 0.
 */
#ifndef PRESSURED_H
#define PRESSURED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The protocol version this library speaks; a daemon whose `hello` says another is refused. */
#define PRESSURED_PROTOCOL_VERSION 1

/** The daemon's default socket; $PRESSURED_SOCKET (when set and not empty) overrides it. */
#define PRESSURED_DEFAULT_SOCKET "/run/pressured/pressured.sock"

/** The longest line the library accepts from the daemon, without its `\n` (the daemon's line limit, 64 KiB).
 * A longer line drops the connection (-EMSGSIZE). */
#define PRESSURED_LINE_MAX (64 * 1024)

/** The library context: one connection to the daemon, reconnected when it goes away. Opaque. */
struct pressured;
/** One message from the daemon (or a connection change). Opaque, reference-counted. */
struct pressured_event;
/** A device the daemon serves (in `hello`, `device` events and the `devices` reply). Opaque, ref-counted. */
struct pressured_device;
/** A list of quick-action items to send (setRegion, setQuickActions). Opaque. */
struct pressured_items;

/* ---------------------------------------------------------------------------------------------------- */
/* Context                                                                                               */

/** A new context with one reference, not connected. @p user_data is returned by pressured_get_user_data.
 * Returns NULL when memory runs out. */
struct pressured *pressured_new(void *user_data);
/** Takes a reference; returns @p p. */
struct pressured *pressured_ref(struct pressured *p);
/** Drops a reference; the last one closes the connection and frees the context. Returns NULL. Events
 * still referenced stay valid after their context is gone. NULL is accepted. */
struct pressured *pressured_unref(struct pressured *p);
void pressured_set_user_data(struct pressured *p, void *user_data);
void *pressured_get_user_data(struct pressured *p);

/** Log priorities, as libinput's. */
enum pressured_log_priority {
	PRESSURED_LOG_PRIORITY_DEBUG = 10,
	PRESSURED_LOG_PRIORITY_INFO = 20,
	PRESSURED_LOG_PRIORITY_ERROR = 30,
};
typedef void (*pressured_log_handler)(struct pressured *p, enum pressured_log_priority priority,
				      const char *format, va_list args);
/** Where messages go: the default writes ERROR (and above the priority set) to stderr; NULL silences. */
void pressured_log_set_handler(struct pressured *p, pressured_log_handler handler);
/** The lowest priority passed to the handler (default PRESSURED_LOG_PRIORITY_ERROR). */
void pressured_log_set_priority(struct pressured *p, enum pressured_log_priority priority);
enum pressured_log_priority pressured_log_get_priority(struct pressured *p);

/** The message of the last error a function of this context returned (or the last reason the
 * connection dropped); "" when there was none. Valid until the next call on the context. */
const char *pressured_get_error_message(struct pressured *p);

/* ---------------------------------------------------------------------------------------------------- */
/* Connection, file descriptor, dispatch                                                                 */

/** Connects to the socket at @p path (NULL: $PRESSURED_SOCKET where set and not empty, else
 * PRESSURED_DEFAULT_SOCKET); the path is kept for reconnecting. Non-blocking: returns 0 once the socket
 * is connected (PRESSURED_EVENT_CONNECTED follows when the daemon's `hello` is read), or a negative
 * errno (-ENOENT, -ECONNREFUSED, -EACCES, -ENAMETOOLONG, -EALREADY when connected already). Where the
 * connection fails and reconnecting is on (the default), the context tries again after the back-off
 * (pressured_get_timeout), so a program may start before the daemon. */
int pressured_connect(struct pressured *p, const char *path);

/** Closes the connection, if any, and stops reconnecting until the next pressured_connect. A
 * PRESSURED_EVENT_DISCONNECTED (reason 0) is queued if a connection was open, and the fd becomes
 * readable for it: the next pressured_dispatch and drain see it (as every event queued outside
 * pressured_dispatch). */
void pressured_disconnect(struct pressured *p);

/** Whether the daemon's `hello` was read on the current connection (requests may be sent). */
bool pressured_is_connected(struct pressured *p);

/** The path connected to (or to be reconnected to), NULL before pressured_connect. */
const char *pressured_get_socket_path(struct pressured *p);

/** Reconnection back-off: after a connection ends or an attempt fails, the next attempt waits
 * @p min_ms, doubled after each failed attempt up to @p max_ms; a `hello` resets it. Defaults 100 and
 * 5000 ms. @p min_ms < 0 turns reconnecting off. Returns 0 or -EINVAL (max_ms < min_ms). */
int pressured_set_reconnect(struct pressured *p, int min_ms, int max_ms);

/** One file descriptor for the whole life of the context (across reconnections): it becomes readable
 * whenever pressured_dispatch has work (data from the daemon, the reconnect timer due, queued requests
 * that can now be written) or events were queued outside it (pressured_disconnect, a request whose
 * write failed); pressured_dispatch clears the latter, so after it drain the queue. Poll it for reading
 * (POLLIN; a QSocketNotifier of type Read, a GSource...) and call pressured_dispatch when it is
 * readable. Do not read from or close it. */
int pressured_get_fd(struct pressured *p);

/** Does the I/O that is due, without blocking: reads and parses what the daemon sent (queuing events),
 * writes queued requests, and makes a reconnect attempt when its time has come. Returns 0, or a negative
 * errno where the context itself failed (-ENOMEM); a dropped connection is no error here (it is an
 * event). Call it when the fd is readable, or when the timeout expired.
 *
 * One call parses at most 256 lines (about 1 ms of work for touch lines), so a flood cannot keep the
 * caller in it; the fd stays readable while more waits. The queue is bounded: while 4096 events wait in
 * it, nothing more is read (the socket no longer wakes the fd), and reading resumes once the app takes
 * one; what then piles up is the daemon's to handle (it coalesces and drops `moved`, then disconnects a
 * client far behind with `too-slow`, docs/protocol.md). The ends made up when a connection ends (see
 * PRESSURED_EVENT_DISCONNECTED) go in beyond the bound. */
int pressured_dispatch(struct pressured *p);

/** Milliseconds until the next reconnect attempt (0: due now, call pressured_dispatch), or -1 when none
 * is scheduled. The fd also becomes readable at that time, so a program polling the fd alone needs
 * no timeout; this is for loops that prefer one. */
int pressured_get_timeout(struct pressured *p);

/** The next queued event, with one reference the caller owns (pressured_event_unref), or NULL. */
struct pressured_event *pressured_get_event(struct pressured *p);
/* pressured_next_event_type(), the next event's type without taking it, is declared with the event
 * types below (C++ needs an enum defined before a function returns it). */

/* ---------------------------------------------------------------------------------------------------- */
/* Requests. Each returns the request's id (> 0), which its PRESSURED_EVENT_REPLY or PRESSURED_EVENT_ERROR
 * carries back (pressured_event_get_request_id), or a negative errno: -ENOTCONN before the `hello`,
 * -EINVAL for an argument the protocol would refuse (docs/protocol.md, "Limits"): NULL or empty strings
 * where one is needed, strings over 256 bytes or not valid UTF-8 (RFC 3629: no overlong forms, no
 * surrogates), coordinates or sizes beyond ±10,000,000 pixels, sizes not above 0, z beyond ±1,000,000,
 * more than 64 items, device ids below 0 or beyond 2^53, a flag other than 0, 1 or -1, a sensitivity the
 * protocol does not name; nothing is sent then, and no id is used. -ENOMEM. -EPIPE (or the socket's
 * other error) where writing failed: the connection is over at once (pressured_is_connected false, later
 * requests -ENOTCONN), what the daemon sent before is queued, then DISCONNECTED, and the fd is readable.
 * Requests are queued and written by this call or by pressured_dispatch.
 * Nothing is resent on reconnection: re-subscribe and re-register regions on PRESSURED_EVENT_CONNECTED. */

/** What `subscribe` asks for (a bit mask). */
enum pressured_subscription {
	PRESSURED_SUBSCRIBE_GESTURES = 1 << 0,
	PRESSURED_SUBSCRIBE_TOUCHES = 1 << 1,
	PRESSURED_SUBSCRIBE_DEVICES = 1 << 2,
};

/** `subscribe`: @p events a mask of enum pressured_subscription (0 sends the daemon's default, gestures);
 * @p devices / @p ndevices the device ids (devices NULL: all, including later ones); @p app this
 * connection's app id, or NULL. */
int64_t pressured_subscribe(struct pressured *p, uint32_t events, const int64_t *devices, size_t ndevices,
			    const char *app);

/** What a region wants (a bit mask for pressured_set_region; 0 sends none, so the daemon's default,
 * previews and long press, applies). */
enum pressured_region_wants {
	PRESSURED_WANTS_PREVIEWS = 1 << 0,
	PRESSURED_WANTS_QUICK_ACTIONS = 1 << 1,
	PRESSURED_WANTS_LONG_PRESS = 1 << 2,
};

/** `setRegion`: registers (or replaces) the region @p region (an id unique on this connection) at
 * @p x, @p y, @p width × @p height screen pixels, stacked at @p z. @p wants a mask of enum
 * pressured_region_wants (0: the default); @p app the app this region is the icon of, or NULL; @p items
 * the region's own quick actions (64 at most), or NULL; @p haptics 0 (the daemon plays no effect for
 * touches here), 1, or -1 (the default, on). @p x, @p y, @p width, @p height within ±10,000,000 (sizes
 * above 0), @p z within ±1,000,000; anything else is -EINVAL. */
int64_t pressured_set_region(struct pressured *p, const char *region, double x, double y, double width,
			     double height, int z, uint32_t wants, const char *app,
			     const struct pressured_items *items, int haptics);
/** `removeRegion`. */
int64_t pressured_remove_region(struct pressured *p, const char *region);
/** `setQuickActions`: this app's dynamic quick actions (after subscribing with an app); @p items NULL
 * sends an empty list. */
int64_t pressured_set_quick_actions(struct pressured *p, const struct pressured_items *items);
/** `chooseAction`: the user chose @p action of @p app. */
int64_t pressured_choose_action(struct pressured *p, const char *app, const char *action);
/** `status`. */
int64_t pressured_request_status(struct pressured *p);
/** `devices`. */
int64_t pressured_request_devices(struct pressured *p);
/** `ping`: the reply's time (pressured_event_get_time) is the daemon's CLOCK_MONOTONIC. */
int64_t pressured_ping(struct pressured *p);
/** `set` (control): @p force_touch and @p haptics 0, 1 or -1 (unchanged); @p sensitivity "light",
 * "medium", "firm" or NULL (unchanged). -EINVAL when nothing is set. */
int64_t pressured_set_settings(struct pressured *p, int force_touch, const char *sensitivity, int haptics);
/** `reload` (control). */
int64_t pressured_reload(struct pressured *p);
/** `resetLearning` (control): @p device an id, or 0 for every device. */
int64_t pressured_reset_learning(struct pressured *p, int64_t device);

/** A new, empty list of items, or NULL when memory runs out. */
struct pressured_items *pressured_items_new(void);
/** Frees the list (NULL accepted). */
void pressured_items_free(struct pressured_items *items);
/** Appends an item: @p id and @p title needed, @p subtitle and @p icon may be NULL. Returns 0, -EINVAL
 * (NULL/empty id or title, a string over 256 bytes) or -ENOMEM. */
int pressured_items_add(struct pressured_items *items, const char *id, const char *title, const char *subtitle,
			const char *icon);

/* ---------------------------------------------------------------------------------------------------- */
/* Events                                                                                                */

/** Event types. NOT EXHAUSTIVE: later versions add types; a switch must have a default that ignores what
 * it does not know. */
enum pressured_event_type {
	PRESSURED_EVENT_NONE = 0,
	/** The daemon's `hello` was read and its protocol is ours: requests may be sent (subscribe now).
	 * Accessors: pressured_event_get_version, _get_protocol, _get_device_count/_get_device, settings.
	 * Once per connection: a second `hello` on the same connection is no new connection and comes as
	 * PRESSURED_EVENT_UNKNOWN (type name "hello"), changing nothing. */
	PRESSURED_EVENT_CONNECTED = 1,
	/** The connection ended (the daemon's end of file after `bye`, a fatal error, the daemon gone
	 * without `bye`, a read or write error, a line this library refused, pressured_disconnect).
	 * pressured_event_disconnected_get_reason: 0 for a clean stop, else a negative errno;
	 * pressured_event_disconnected_get_kind: bye, fatal, lost or closed; pressured_event_get_message:
	 * why. Before it, whatever was still open on the connection is ended (docs/protocol.md, "When the
	 * connection ends"), each event marked (pressured_event_is_synthesized): a PRESSURED_EVENT_DISMISS
	 * for each peek without its pop or dismiss, in the order the peeks came, then a
	 * PRESSURED_EVENT_TOUCH `cancelled` for each contact without its end, in the order they began (each
	 * with the time, position and force of the contact's last event; a dismiss with its peek's region),
	 * then a PRESSURED_EVENT_ERROR with code "disconnected", the request's id and the end's message for
	 * each request not answered. A daemon that stops cleanly ends its peeks and contacts itself and
	 * answers every request, so then nothing is made up. A reconnect attempt follows after the back-off
	 * (if on). */
	PRESSURED_EVENT_DISCONNECTED = 2,

	/* Gestures: point accessors (time, device, contact, x, y, screen x/y, force, maximum force) and
	 * the region tags (region, app, items). */
	PRESSURED_EVENT_PEEK = 100,
	PRESSURED_EVENT_POP = 101,
	PRESSURED_EVENT_DISMISS = 102,
	PRESSURED_EVENT_QUICK_ACTIONS = 103,
	PRESSURED_EVENT_LONG_PRESS = 104,
	/** `touch`: the point accessors, pressured_event_touch_get_phase, _get_progress. Touches carry no
	 * region tag, even in a region this connection registered (the daemon tags gestures only). */
	PRESSURED_EVENT_TOUCH = 200,

	/** `device`: pressured_event_device_get_change, pressured_event_get_device(ev, 0). */
	PRESSURED_EVENT_DEVICE = 300,
	/** `settings`: the settings accessors. */
	PRESSURED_EVENT_SETTINGS = 301,
	/** `action`: pressured_event_get_app, pressured_event_get_action. */
	PRESSURED_EVENT_ACTION = 302,
	/** `dropped`: pressured_event_dropped_get_touches, _get_contact_count, _get_contact, _is_truncated. */
	PRESSURED_EVENT_DROPPED = 303,
	/** `bye`: pressured_event_bye_get_reason. The connection closes after it. */
	PRESSURED_EVENT_BYE = 304,

	/** `reply` to a request: pressured_event_get_request_id, pressured_event_reply_get_request, and
	 * the accessors of that request's reply (below). */
	PRESSURED_EVENT_REPLY = 400,
	/** `error`: pressured_event_get_request_id (0 without one), pressured_event_error_get_code,
	 * pressured_event_get_message, pressured_event_error_is_fatal. */
	PRESSURED_EVENT_ERROR = 401,

	/** A line whose `type` this library does not know (the protocol grows): pressured_event_get_json and
	 * pressured_event_get_type_name. */
	PRESSURED_EVENT_UNKNOWN = 1000,
};

/** The request a reply answers. Not exhaustive either. */
enum pressured_request_type {
	PRESSURED_REQUEST_UNKNOWN = 0,
	PRESSURED_REQUEST_SUBSCRIBE,
	PRESSURED_REQUEST_DEVICES,
	PRESSURED_REQUEST_PING,
	PRESSURED_REQUEST_STATUS,
	PRESSURED_REQUEST_SET,
	PRESSURED_REQUEST_RELOAD,
	PRESSURED_REQUEST_RESET_LEARNING,
	PRESSURED_REQUEST_SET_REGION,
	PRESSURED_REQUEST_REMOVE_REGION,
	PRESSURED_REQUEST_SET_QUICK_ACTIONS,
	PRESSURED_REQUEST_CHOOSE_ACTION,
};

enum pressured_touch_phase {
	PRESSURED_TOUCH_UNKNOWN = 0, /* a phase this library does not know */
	PRESSURED_TOUCH_BEGAN,
	PRESSURED_TOUCH_MOVED,
	PRESSURED_TOUCH_ENDED,
	PRESSURED_TOUCH_CANCELLED,
};

enum pressured_device_change {
	PRESSURED_DEVICE_CHANGE_UNKNOWN = 0,
	PRESSURED_DEVICE_ADDED,
	PRESSURED_DEVICE_REMOVED,
	PRESSURED_DEVICE_CHANGED,
};

struct pressured_event *pressured_event_ref(struct pressured_event *ev);
/** Drops a reference; returns NULL. NULL accepted. */
struct pressured_event *pressured_event_unref(struct pressured_event *ev);
enum pressured_event_type pressured_event_get_type(struct pressured_event *ev);
/** The next event's type (of a context) without taking it, or PRESSURED_EVENT_NONE when none is queued. */
enum pressured_event_type pressured_next_event_type(struct pressured *p);
/** The line's `type` as sent ("peek", "hello" for CONNECTED, NULL for DISCONNECTED). */
const char *pressured_event_get_type_name(struct pressured_event *ev);
/** The line as received, without its newline (NULL for DISCONNECTED): for fields no accessor covers. */
const char *pressured_event_get_json(struct pressured_event *ev);
/** The context the event came from (not a new reference: valid only while the context is). */
struct pressured *pressured_event_get_context(struct pressured_event *ev);
/** Whether the library made this event up as the connection ended (an open peek's `dismiss`, an open
 * contact's `cancelled`, an unanswered request's "disconnected" error; see PRESSURED_EVENT_DISCONNECTED)
 * rather than read it from the daemon. Its line (pressured_event_get_json) carries "synthesized":true.
 * Since PRESSURED_1 (after 0.1.0). */
bool pressured_event_is_synthesized(struct pressured_event *ev);

/* Point events: gestures and touches. */
/** `time`, seconds on the input clock (also a `ping` reply's daemon time). */
double pressured_event_get_time(struct pressured_event *ev);
/** `time` in microseconds (the protocol sends six decimals). */
uint64_t pressured_event_get_time_usec(struct pressured_event *ev);
/** `device`: the device id of a gesture or touch. */
int64_t pressured_event_get_device_id(struct pressured_event *ev);
int64_t pressured_event_get_contact(struct pressured_event *ev);
int64_t pressured_event_get_x(struct pressured_event *ev);
int64_t pressured_event_get_y(struct pressured_event *ev);
double pressured_event_get_screen_x(struct pressured_event *ev);
double pressured_event_get_screen_y(struct pressured_event *ev);
/** `force`: 1.0 an average touch, 0 where force is unavailable. */
double pressured_event_get_force(struct pressured_event *ev);
double pressured_event_get_maximum_possible_force(struct pressured_event *ev);
enum pressured_touch_phase pressured_event_touch_get_phase(struct pressured_event *ev);
/** `progress` (0…1) into @p progress; false (and 0) where the touch carries none. */
bool pressured_event_touch_get_progress(struct pressured_event *ev, double *progress);

/* Region tags: gestures that began in a region this connection registered, and a setRegion reply.
 * Touches are never tagged (docs/protocol.md tags gestures only): match a touch to its gesture by
 * device and contact. */
/** `region`, or NULL. */
const char *pressured_event_get_region(struct pressured_event *ev);
/** `app` (an icon's quickActions gesture, an action, chooseAction and setQuickActions replies), or NULL. */
const char *pressured_event_get_app(struct pressured_event *ev);
/** Items of a quickActions gesture (ITEM objects): how many, and each one's fields (NULL past the end;
 * subtitle and icon NULL where absent). */
size_t pressured_event_get_item_count(struct pressured_event *ev);
const char *pressured_event_get_item_id(struct pressured_event *ev, size_t index);
const char *pressured_event_get_item_title(struct pressured_event *ev, size_t index);
const char *pressured_event_get_item_subtitle(struct pressured_event *ev, size_t index);
const char *pressured_event_get_item_icon(struct pressured_event *ev, size_t index);

/* Action. */
/** `action` (an action event, a chooseAction reply), or NULL. */
const char *pressured_event_get_action(struct pressured_event *ev);

/* Devices: CONNECTED (the hello's), DEVICE (one), the `devices` reply. */
size_t pressured_event_get_device_count(struct pressured_event *ev);
/** The device at @p index (not a new reference: valid while the event is; pressured_device_ref to keep
 * it), or NULL past the end. */
struct pressured_device *pressured_event_get_device(struct pressured_event *ev, size_t index);
enum pressured_device_change pressured_event_device_get_change(struct pressured_event *ev);

/* Settings: CONNECTED, SETTINGS, the `set` and `reload` replies. */
bool pressured_event_get_settings_force_touch(struct pressured_event *ev);
/** "light", "medium", "firm" (or a value this library does not know), NULL where absent. */
const char *pressured_event_get_settings_sensitivity(struct pressured_event *ev);
/** false where absent (a daemon from before haptics). */
bool pressured_event_get_settings_haptics(struct pressured_event *ev);

/* CONNECTED. */
/** The daemon's `version` ("0.1.0"). */
const char *pressured_event_get_version(struct pressured_event *ev);
/** The hello's `protocol` (always PRESSURED_PROTOCOL_VERSION on a CONNECTED event). */
int pressured_event_get_protocol(struct pressured_event *ev);

/* DISCONNECTED and ERROR. */
/** 0 for a clean stop (the end of file after `bye`, pressured_disconnect), or a negative errno:
 * -ECONNRESET (the daemon went without `bye`: killed or crashed, or ended within a line, whose
 * unfinished bytes are dropped; or the socket's read failed so), -EPIPE (a write failed), -EPROTO (the
 * daemon sent a fatal error or a line that is not a JSON object), -EMSGSIZE (a line over
 * PRESSURED_LINE_MAX), -EPROTONOSUPPORT (another protocol version in `hello`). */
int pressured_event_disconnected_get_reason(struct pressured_event *ev);
/** How a connection ended (docs/protocol.md, "When the connection ends"). Not exhaustive either. */
enum pressured_disconnect_kind {
	PRESSURED_DISCONNECT_UNKNOWN = 0, /* not a DISCONNECTED event */
	/** A clean stop: the daemon's `bye` came (as PRESSURED_EVENT_BYE), then its end of file. */
	PRESSURED_DISCONNECT_BYE,
	/** Let go: the daemon's fatal `error` came (as PRESSURED_EVENT_ERROR), then its end of file. */
	PRESSURED_DISCONNECT_FATAL,
	/** Lost, no clean stop: the daemon killed or crashed (an end of file without `bye`), a read or
	 * write failed, or a line this library refused. Treat every touch as over and force as unknown;
	 * the context reconnects (if on). */
	PRESSURED_DISCONNECT_LOST,
	/** The app called pressured_disconnect. */
	PRESSURED_DISCONNECT_CLOSED,
};
/** DISCONNECTED: how the connection ended (PRESSURED_DISCONNECT_UNKNOWN for other events). Since
 * PRESSURED_1 (after 0.1.0). */
enum pressured_disconnect_kind pressured_event_disconnected_get_kind(struct pressured_event *ev);
/** DISCONNECTED: why, in words; ERROR: the daemon's `message`. NULL otherwise. */
const char *pressured_event_get_message(struct pressured_event *ev);
/** `error`: the code ("invalid-argument", "not-permitted", "too-many-clients", ...; accept unknown codes). */
const char *pressured_event_error_get_code(struct pressured_event *ev);
/** `fatal`: the daemon closes the connection after this error. */
bool pressured_event_error_is_fatal(struct pressured_event *ev);

/* REPLY and ERROR. */
/** The id the request was given (its function's return value), 0 where the line has none or not an
 * integer one within 1 … 2^53. */
int64_t pressured_event_get_request_id(struct pressured_event *ev);
/** The `request` a reply answers. */
enum pressured_request_type pressured_event_reply_get_request(struct pressured_event *ev);
/** The `request` as sent ("subscribe"), NULL where absent. */
const char *pressured_event_reply_get_request_name(struct pressured_event *ev);
/** subscribe reply: the `events` as a mask of enum pressured_subscription. */
uint32_t pressured_event_reply_get_events(struct pressured_event *ev);
/** subscribe reply: how many `devices` (-1 for "all"); resetLearning reply: how many ids were reset. */
int64_t pressured_event_reply_get_device_id_count(struct pressured_event *ev);
int64_t pressured_event_reply_get_device_id(struct pressured_event *ev, size_t index);
/** setRegion and setQuickActions replies: the item ids kept (`items`) and those `cut`. */
size_t pressured_event_reply_get_kept_count(struct pressured_event *ev);
const char *pressured_event_reply_get_kept(struct pressured_event *ev, size_t index);
size_t pressured_event_reply_get_cut_count(struct pressured_event *ev);
const char *pressured_event_reply_get_cut(struct pressured_event *ev, size_t index);
/** chooseAction reply: `delivered` (false: the app is not connected; the choice waits). */
bool pressured_event_reply_get_delivered(struct pressured_event *ev);
/** status reply: the count @p name of `status` ("devices", "clients", "subscribers", "contacts",
 * "regionContacts", "regions", "quickActionApps", "pendingChoices", "queuedBytes") or of `activity`
 * ("wakeups", "accepted", "refused", "acceptErrors") into @p value; false where absent. The FORCE and
 * LATENCY lists: pressured_event_get_json. */
bool pressured_event_reply_get_status_count(struct pressured_event *ev, const char *name, int64_t *value);

/* DROPPED. */
int64_t pressured_event_dropped_get_touches(struct pressured_event *ev);
size_t pressured_event_dropped_get_contact_count(struct pressured_event *ev);
/** Contact @p index: its device, contact and `moved` count (any pointer may be NULL); false past the end. */
bool pressured_event_dropped_get_contact(struct pressured_event *ev, size_t index, int64_t *device,
					 int64_t *contact, int64_t *moved);
bool pressured_event_dropped_is_truncated(struct pressured_event *ev);

/* BYE. */
/** `reason` ("shutdown"). */
const char *pressured_event_bye_get_reason(struct pressured_event *ev);

/* ---------------------------------------------------------------------------------------------------- */
/* Devices                                                                                               */

enum pressured_device_kind {
	PRESSURED_DEVICE_KIND_UNKNOWN = 0,
	PRESSURED_DEVICE_KIND_TOUCHSCREEN,
	PRESSURED_DEVICE_KIND_TOUCHPAD,
};

struct pressured_device *pressured_device_ref(struct pressured_device *device);
struct pressured_device *pressured_device_unref(struct pressured_device *device);
/** `id`, as in events and subscribe. */
int64_t pressured_device_get_id(struct pressured_device *device);
const char *pressured_device_get_name(struct pressured_device *device);
/** `node`: "/dev/input/event5", "replay:FILE". */
const char *pressured_device_get_node(struct pressured_device *device);
enum pressured_device_kind pressured_device_get_kind(struct pressured_device *device);
/** `kind` as sent. */
const char *pressured_device_get_kind_name(struct pressured_device *device);
/** `forceCapability` == "available". */
bool pressured_device_has_force(struct pressured_device *device);
/** `forceCapability` as sent ("available", "unavailable"). */
const char *pressured_device_get_force_capability(struct pressured_device *device);
/** `forceUnavailable` ("learning", "off", "no-pressure", "too-few-levels", "flat", "pressure-is-size",
 * "no-headroom" or a code this library does not know), NULL where force is available. */
const char *pressured_device_get_force_unavailable(struct pressured_device *device);
double pressured_device_get_maximum_possible_force(struct pressured_device *device);
/** `width`/`height` in millimetres into the pointers; false where the device has no size. */
bool pressured_device_get_size_mm(struct pressured_device *device, double *width, double *height);
/** The `x` / `y` axis range in device units. */
void pressured_device_get_x_range(struct pressured_device *device, int64_t *min, int64_t *max);
void pressured_device_get_y_range(struct pressured_device *device, int64_t *min, int64_t *max);
/** `screen`: pixels, clockwise rotation (0/90/180/270) and the 3×2 calibration matrix (6 doubles; any
 * pointer may be NULL). */
void pressured_device_get_screen(struct pressured_device *device, double *width, double *height, int *rotation,
				 double matrix[6]);
/** `assumed`: what a replay's reader assumed, one sentence each (0 where absent). */
size_t pressured_device_get_assumed_count(struct pressured_device *device);
const char *pressured_device_get_assumed(struct pressured_device *device, size_t index);

#ifdef __cplusplus
}
#endif

#endif /* PRESSURED_H */
