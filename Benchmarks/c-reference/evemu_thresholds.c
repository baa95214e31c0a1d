/*
 * evemu_thresholds.c -- C yardstick for the pressured event pipeline.
 *
 * What it is
 *   The smallest reasonable C program that does the same job as the hot path
 *   of the pressured daemon, so the Swift implementation has a number to be
 *   compared against: read an evemu text recording, decode every event, track
 *   multi-touch protocol B contacts, and detect "peek" and "pop" force
 *   thresholds per contact.
 *
 * What it does
 *   1. Reads the whole file given as argv[1] into memory (not timed).
 *   2. Takes the ABS_MT_PRESSURE range from the header line "A: 3a min max ..."
 *      and the slot count from "A: 2f min max ...".
 *   3. Timed with clock_gettime(CLOCK_MONOTONIC): a single pointer loop over
 *      the buffer parses each "E: <sec>.<usec> <type hex> <code hex> <value>"
 *      line by hand (no sscanf/strtol on the hot path; the trailing
 *      "\t# comment" evemu writes is skipped with memchr), and feeds the event
 *      to a protocol B state machine:
 *        ABS_MT_SLOT          selects the current slot
 *        ABS_MT_TRACKING_ID   >= 0 starts a new contact (latches cleared;
 *                             the slot's last pressure still holds, as the
 *                             kernel only sends values that changed),
 *                             -1 ends it
 *        ABS_MT_PRESSURE      stores the slot's pressure, marks slot dirty
 *        SYN_REPORT           evaluates the dirty slots:
 *                               peek when p - min >= 20% of (max - min)
 *                               pop  when p - min >= 75% of (max - min)
 *                             each latched: fires at most once per contact
 *                             (per tracking id), however often the pressure
 *                             crosses the threshold back and forth.
 *        SYN_DROPPED          events are discarded up to the next SYN_REPORT
 *                             (as the evdev documentation asks).
 *      Thresholds are compared in integers (100*(p-min) >= 20*(max-min)).
 *   4. Prints on stdout
 *        events=N peeks=P pops=Q seconds=T events_per_second=R
 *      where N counts the E: lines and T covers step 3 only.  Some details
 *      (pressure range, slots, contacts, recording length) go to stderr.
 *
 * Build and run:  gcc -O2 -o evemu_thresholds evemu_thresholds.c
 *                 ./evemu_thresholds capture.evemu
 *   or            Benchmarks/c-reference/run.sh capture.evemu
 * Synthetic input: tools/gen-capture.py -o /tmp/bench.evemu
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EV_SYN 0x00
#define EV_ABS 0x03
#define SYN_REPORT 0
#define SYN_DROPPED 3
#define ABS_MT_SLOT 0x2f
#define ABS_MT_TRACKING_ID 0x39
#define ABS_MT_PRESSURE 0x3a

#define PEEK_PERCENT 20
#define POP_PERCENT 75

struct contact {
    int32_t tracking_id; /* -1: no contact in this slot */
    int32_t pressure;
    uint8_t peeked, popped, dirty;
};

static signed char hexval[256];

static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) { perror(path); return NULL; }
    if (fseek(fp, 0, SEEK_END) != 0) { perror(path); fclose(fp); return NULL; }
    long n = ftell(fp);
    if (n < 0) { perror(path); fclose(fp); return NULL; }
    rewind(fp);
    char *buf = malloc((size_t)n + 1);
    if (!buf) { fprintf(stderr, "out of memory\n"); fclose(fp); return NULL; }
    size_t got = fread(buf, 1, (size_t)n, fp);
    fclose(fp);
    if (got != (size_t)n) { fprintf(stderr, "%s: short read\n", path); free(buf); return NULL; }
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

/* Header only (not timed): find "A: <code> <min> <max> ..." */
static int find_absinfo(const char *buf, const char *end, int code, long *min, long *max)
{
    const char *p = buf;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) nl = end;
        if (p[0] == 'E' && p[1] == ':') break; /* header is over */
        if (p[0] == 'A' && p[1] == ':') {
            char *q;
            long c = strtol(p + 2, &q, 16);
            if (c == code) {
                *min = strtol(q, &q, 10);
                *max = strtol(q, &q, 10);
                return 1;
            }
        }
        p = nl + 1;
    }
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s capture.evemu\n", argv[0]);
        return 2;
    }
    size_t len;
    char *buf = read_file(argv[1], &len);
    if (!buf) return 1;
    const char *end = buf + len;

    for (int i = 0; i < 256; i++) hexval[i] = -1;
    for (int i = 0; i < 10; i++) hexval['0' + i] = (signed char)i;
    for (int i = 0; i < 6; i++) {
        hexval['a' + i] = (signed char)(10 + i);
        hexval['A' + i] = (signed char)(10 + i);
    }

    long pmin = 0, pmax = 0, smin = 0, smax = 0;
    if (!find_absinfo(buf, end, ABS_MT_PRESSURE, &pmin, &pmax) || pmax <= pmin) {
        fprintf(stderr, "%s: no usable \"A: 3a\" (ABS_MT_PRESSURE) line\n", argv[1]);
        return 1;
    }
    if (!find_absinfo(buf, end, ABS_MT_SLOT, &smin, &smax) || smax < smin)
        smin = smax = 0; /* single slot */
    int nslots = (int)(smax + 1);
    if (nslots < 1) nslots = 1;
    struct contact *slot = malloc(sizeof *slot * (size_t)nslots);
    if (!slot) return 1;
    for (int i = 0; i < nslots; i++)
        slot[i] = (struct contact){ .tracking_id = -1 };

    const int64_t range = pmax - pmin;
    const int64_t peek_lhs = PEEK_PERCENT * range; /* 100*(p-min) >= this */
    const int64_t pop_lhs = POP_PERCENT * range;

    uint64_t events = 0, peeks = 0, pops = 0, contacts = 0, bad = 0;
    uint64_t last_us = 0;
    int cur = 0;           /* current slot index, -1 if out of range */
    int dropping = 0;      /* after SYN_DROPPED until next SYN_REPORT */
    int dirty_any = 0;

    double t0 = now();
    const char *p = buf;
    while (p < end) {
        if (!(p[0] == 'E' && p[1] == ':')) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl) break;
            p = nl + 1;
            continue;
        }
        p += 2;
        while (*p == ' ') p++;
        /* timestamp: seconds '.' microseconds */
        uint64_t sec = 0, usec = 0;
        while ((unsigned)(*p - '0') < 10) sec = sec * 10 + (uint64_t)(*p++ - '0');
        if (*p == '.') {
            p++;
            int digits = 0;
            while ((unsigned)(*p - '0') < 10) {
                if (digits < 6) { usec = usec * 10 + (uint64_t)(*p - '0'); digits++; }
                p++;
            }
            while (digits++ < 6) usec *= 10;
        }
        while (*p == ' ') p++;
        /* type and code: hex */
        unsigned type = 0, code = 0;
        int h;
        while ((h = hexval[(unsigned char)*p]) >= 0) { type = (type << 4) | (unsigned)h; p++; }
        while (*p == ' ') p++;
        while ((h = hexval[(unsigned char)*p]) >= 0) { code = (code << 4) | (unsigned)h; p++; }
        while (*p == ' ') p++;
        /* value: decimal, possibly negative ("-001") */
        int neg = 0;
        if (*p == '-') { neg = 1; p++; }
        if ((unsigned)(*p - '0') >= 10) bad++;
        int32_t value = 0;
        while ((unsigned)(*p - '0') < 10) value = value * 10 + (*p++ - '0');
        if (neg) value = -value;
        /* rest of line (evemu's "\t# comment") */
        if (*p != '\n') {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl : end;
        }
        p++;
        events++;
        last_us = sec * 1000000u + usec;

        if (type == EV_SYN) {
            if (code == SYN_REPORT) {
                if (dropping) {
                    dropping = 0;
                    continue;
                }
                if (!dirty_any) continue;
                dirty_any = 0;
                for (int i = 0; i < nslots; i++) {
                    struct contact *c = &slot[i];
                    if (!c->dirty) continue;
                    c->dirty = 0;
                    if (c->tracking_id < 0) continue;
                    int64_t lhs = 100 * (int64_t)(c->pressure - pmin);
                    if (!c->peeked && lhs >= peek_lhs) { c->peeked = 1; peeks++; }
                    if (!c->popped && lhs >= pop_lhs) { c->popped = 1; pops++; }
                }
            } else if (code == SYN_DROPPED) {
                dropping = 1;
            }
            continue;
        }
        if (type != EV_ABS || dropping) continue;
        switch (code) {
        case ABS_MT_SLOT:
            cur = (value >= smin && value <= smax) ? (int)(value - smin) : -1;
            break;
        case ABS_MT_TRACKING_ID:
            if (cur < 0) break;
            if (value >= 0) {
                if (value != slot[cur].tracking_id) {
                    /* new contact: latches cleared; the slot keeps its last
                     * pressure (the kernel does not resend unchanged values),
                     * so evaluate it at the next SYN_REPORT */
                    slot[cur].peeked = slot[cur].popped = 0;
                    slot[cur].dirty = 1;
                    dirty_any = 1;
                    contacts++;
                }
            }
            slot[cur].tracking_id = value < 0 ? -1 : value;
            break;
        case ABS_MT_PRESSURE:
            if (cur < 0) break;
            slot[cur].pressure = value;
            slot[cur].dirty = 1;
            dirty_any = 1;
            break;
        default:
            break;
        }
    }
    double t1 = now();

    double secs = t1 - t0;
    printf("events=%llu peeks=%llu pops=%llu seconds=%.6f events_per_second=%.0f\n",
           (unsigned long long)events, (unsigned long long)peeks,
           (unsigned long long)pops, secs, secs > 0 ? (double)events / secs : 0.0);
    fprintf(stderr, "pressure_range=%ld..%ld peek>=%ld pop>=%ld slots=%d contacts=%llu "
            "recording_seconds=%.6f malformed_values=%llu\n",
            pmin, pmax, pmin + (peek_lhs + 99) / 100, pmin + (pop_lhs + 99) / 100, nslots,
            (unsigned long long)contacts, (double)last_us / 1e6, (unsigned long long)bad);
    free(slot);
    free(buf);
    return 0;
}
