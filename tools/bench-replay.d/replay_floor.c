/* replay_floor: the lower bound for `pressurectl replay` of an evemu capture.
 *
 *   replay_floor CAPTURE.evemu > out.jsonl
 *
 * Reads the file in 64 KiB read(2) chunks (a line cut by a chunk's end is moved to the front of the
 * buffer and completed by the next read), so its memory is flat whatever the capture's length, as
 * pressured's streaming reader is. Parses every `E: sec.usec type code value` line by hand (comments and
 * header lines skipped), tracks multi-touch protocol B slots (ABS_MT_SLOT, ABS_MT_TRACKING_ID,
 * ABS_MT_POSITION_X/Y, ABS_MT_PRESSURE), and on every SYN_REPORT writes one JSON line per touching slot:
 *   {"type":"touch","time":S.UUUUUU,"contact":TID,"x":X,"y":Y,"force":P}
 * into a 64 KiB output buffer written out with write(2) when full. No allocation after start-up.
 * Prints `events=N frames=F lines=L` on stderr. Exit 1 when the file cannot be read.
 *
 * This is the honest minimum of what the replay does: every byte read and parsed, every frame's contacts
 * out as JSON. It does not check the file (a malformed line is skipped), learn, or detect gestures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../Benchmarks/floor-touch-line.h"

#define CHUNK (64 * 1024)
#define MAXSLOTS 64
#define EV_SYN 0x00
#define EV_ABS 0x03
#define SYN_REPORT 0x00
#define ABS_MT_SLOT 0x2f
#define ABS_MT_POSITION_X 0x35
#define ABS_MT_POSITION_Y 0x36
#define ABS_MT_TRACKING_ID 0x39
#define ABS_MT_PRESSURE 0x3a

struct slot {
    long tid, x, y, p;
};

static struct slot slots[MAXSLOTS];
static int cur;
static char in[2 * CHUNK];
static char out[CHUNK + FLOOR_TOUCH_LINE_MAX];
static size_t outlen;
static unsigned long nevents, nframes, nlines;

static void flush_out(void) {
    size_t off = 0;
    while (off < outlen) {
        ssize_t w = write(1, out + off, outlen - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            perror("replay_floor: write");
            exit(1);
        }
        off += (size_t)w;
    }
    outlen = 0;
}

static void emit_frame(long sec, long usec) {
    nframes++;
    for (int s = 0; s < MAXSLOTS; s++) {
        if (slots[s].tid < 0) continue;
        char *p = put_touch_line(out + outlen, sec, usec, slots[s].tid, slots[s].x, slots[s].y, slots[s].p);
        outlen = (size_t)(p - out);
        nlines++;
        if (outlen >= CHUNK) flush_out();
    }
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* One line [p, end) (without its newline). */
static void line(const char *p, const char *end) {
    if (end - p < 3 || p[0] != 'E' || p[1] != ':') return;
    p += 2;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    long sec = 0, usec = 0;
    while (p < end && *p >= '0' && *p <= '9') sec = sec * 10 + (*p++ - '0');
    if (p >= end || *p != '.') return;
    p++;
    int digits = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        if (digits++ < 6) usec = usec * 10 + (*p - '0');
        p++;
    }
    while (digits++ < 6) usec *= 10;
    unsigned type = 0, code = 0;
    int h;
    while (p < end && *p == ' ') p++;
    while (p < end && (h = hexval(*p)) >= 0) type = type << 4 | (unsigned)h, p++;
    while (p < end && *p == ' ') p++;
    while (p < end && (h = hexval(*p)) >= 0) code = code << 4 | (unsigned)h, p++;
    while (p < end && *p == ' ') p++;
    int neg = p < end && *p == '-';
    if (neg) p++;
    long v = 0;
    while (p < end && *p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
    if (neg) v = -v;
    nevents++;
    if (type == EV_SYN && code == SYN_REPORT) {
        emit_frame(sec, usec);
    } else if (type == EV_ABS) {
        switch (code) {
        case ABS_MT_SLOT: cur = v >= 0 && v < MAXSLOTS ? (int)v : 0; break;
        case ABS_MT_TRACKING_ID: slots[cur].tid = v; break;
        case ABS_MT_POSITION_X: slots[cur].x = v; break;
        case ABS_MT_POSITION_Y: slots[cur].y = v; break;
        case ABS_MT_PRESSURE: slots[cur].p = v; break;
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: replay_floor CAPTURE.evemu\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "replay_floor: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    for (int s = 0; s < MAXSLOTS; s++) slots[s].tid = -1;
    size_t have = 0; /* bytes in `in` not yet consumed, from in[0] */
    for (;;) {
        ssize_t n = read(fd, in + have, CHUNK);
        if (n < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "replay_floor: %s: read: %s\n", argv[1], strerror(errno));
            return 1;
        }
        have += (size_t)n;
        const char *p = in, *end = in + have;
        for (;;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl) break;
            line(p, nl);
            p = nl + 1;
        }
        if (n == 0) {
            if (p < end) line(p, end);
            break;
        }
        have = (size_t)(end - p);
        if (have > CHUNK) { /* a line longer than a chunk: not evemu; drop it */
            have = 0;
            continue;
        }
        memmove(in, p, have);
    }
    flush_out();
    fprintf(stderr, "events=%lu frames=%lu lines=%lu\n", nevents, nframes, nlines);
    return 0;
}
