/* floor-touch-line.h: the JSON touch line the C floors write (tools/bench-replay.d/replay_floor.c,
 * Benchmarks/daemon-bench/fanout_floor.c), one definition for both:
 *   {"type":"touch","time":S.UUUUUU,"contact":TID,"x":X,"y":Y,"force":P}\n
 * Written by hand into the caller's buffer (at most 128 bytes), as cheaply as C makes it: these programs
 * are the lower bounds pressured is measured against. */
#ifndef FLOOR_TOUCH_LINE_H
#define FLOOR_TOUCH_LINE_H

#include <string.h>

#define FLOOR_TOUCH_LINE_MAX 128

static char *put_str(char *p, const char *s, size_t n) {
    memcpy(p, s, n);
    return p + n;
}
#define PUT_LIT(p, s) put_str(p, s, sizeof(s) - 1)

static char *put_long(char *p, long v) {
    char tmp[24];
    int n = 0;
    unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;
    if (v < 0) *p++ = '-';
    do tmp[n++] = (char)('0' + u % 10); while ((u /= 10));
    while (n) *p++ = tmp[--n];
    return p;
}

/* One touch line at p (usec in 0..999999); returns the end. */
static char *put_touch_line(char *p, long sec, long usec, long tid, long x, long y, long pressure) {
    p = PUT_LIT(p, "{\"type\":\"touch\",\"time\":");
    p = put_long(p, sec);
    *p++ = '.';
    for (long d = 100000; d; d /= 10) *p++ = (char)('0' + (usec / d) % 10);
    p = PUT_LIT(p, ",\"contact\":");
    p = put_long(p, tid);
    p = PUT_LIT(p, ",\"x\":");
    p = put_long(p, x);
    p = PUT_LIT(p, ",\"y\":");
    p = put_long(p, y);
    p = PUT_LIT(p, ",\"force\":");
    p = put_long(p, pressure);
    return PUT_LIT(p, "}\n");
}

#endif
