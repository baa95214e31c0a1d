// subscribers: N clients of a running pressured, read by one epoll thread, timing every event line.
// Part of tools/bench-daemon (which compiles it with gcc); prints figures, asserts nothing.
//
//   subscribers SOCKET N EVENTS FROM_US TIMEOUT_S [--wait]
//
// Connects N clients and reads each one's hello; with --wait prints "ready" and waits for a line on
// stdin (so the caller can snapshot the daemon) before subscribing all N in a tight loop with EVENTS
// (a JSON array, e.g. ["gestures","touches"]). Then reads until every connection is closed (or TIMEOUT_S).
//
// For every event line (gesture or touch) whose capture time is >= FROM_US it records
//   d = (CLOCK_MONOTONIC when the read() that returned it completed) - (the line's "time" as ns)
// At the end the smallest d over all clients stands for "replay start + zero latency", and the latency of
// a line is d - min(d). Prints one JSON object: percentiles over all lines, per served position (first
// and last subscriber), counts -- among them whether every contact a client saw begin also ended
// (`unended`: touch `began` lines without their `ended`/`cancelled`, summed over clients) and whether a
// connection ended inside a line (`torn`).
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#define BUF (512 * 1024)

typedef struct {
    int fd;
    int open;
    size_t have;
    char *buf;
    int64_t *d;
    size_t n, cap;
    long lines, events, gestures, dropped_notices, errors, bytes;
    long began, ends;  // touch `began` and `ended`/`cancelled` lines: every contact seen begin must end
    int torn;          // the connection ended inside a line
} client;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "subscribers: %s: %s\n", what, strerror(errno));
    exit(1);
}

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct(const int64_t *s, size_t n, double p) {
    if (n == 0) return -1;
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    if (i >= n) i = n - 1;
    return (double)s[i] / 1000.0;  // µs
}

// "time":12.345678 -> microseconds; -1 when absent.
static int64_t parse_time(const char *line, size_t len) {
    const char *p = memmem(line, len, "\"time\":", 7);
    if (!p) return -1;
    p += 7;
    const char *end = line + len;
    int64_t sec = 0, us = 0;
    int frac = 0;
    while (p < end && *p >= '0' && *p <= '9') sec = sec * 10 + (*p++ - '0');
    if (p < end && *p == '.') {
        p++;
        while (p < end && *p >= '0' && *p <= '9' && frac < 6) { us = us * 10 + (*p++ - '0'); frac++; }
    }
    while (frac++ < 6) us *= 10;
    return sec * 1000000 + us;
}

static void handle_line(client *c, const char *line, size_t len, int64_t t, int64_t from_us) {
    c->lines++;
    // {"type":"touch",... or a gesture; anything else (hello, reply, device, bye, dropped, error) is counted only.
    if (len < 10 || memcmp(line, "{\"type\":\"", 9) != 0) return;
    const char *ty = line + 9;
    size_t rest = len - 9;
    int is_touch = rest >= 6 && memcmp(ty, "touch\"", 6) == 0;
    int is_gesture = 0;
    static const char *g[] = {"peek\"", "pop\"", "dismiss\"", "quickActions\"", "longPress\""};
    for (int i = 0; i < 5 && !is_touch; i++) {
        size_t gl = strlen(g[i]);
        if (rest >= gl && memcmp(ty, g[i], gl) == 0) is_gesture = 1;
    }
    if (rest >= 8 && memcmp(ty, "dropped\"", 8) == 0) c->dropped_notices++;
    if (rest >= 6 && memcmp(ty, "error\"", 6) == 0) c->errors++;
    if (!is_touch && !is_gesture) return;
    if (is_touch) {
        if (memmem(line, len, "\"phase\":\"began\"", 15)) c->began++;
        else if (memmem(line, len, "\"phase\":\"ended\"", 15) || memmem(line, len, "\"phase\":\"cancelled\"", 19))
            c->ends++;
    }
    c->events++;
    if (is_gesture) c->gestures++;
    int64_t cap = parse_time(line, len);
    if (cap < 0 || cap < from_us) return;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 1 << 16;
        c->d = realloc(c->d, c->cap * sizeof(int64_t));
        if (!c->d) die("realloc");
    }
    c->d[c->n++] = t - cap * 1000;
}

// Reads one line (blocking) into nothing; for the hello.
static void read_hello(client *c) {
    for (;;) {
        ssize_t r = read(c->fd, c->buf + c->have, BUF - c->have);
        if (r <= 0) die("reading hello");
        c->have += (size_t)r;
        char *nl = memchr(c->buf, '\n', c->have);
        if (nl) {
            size_t used = (size_t)(nl + 1 - c->buf);
            c->lines++;
            memmove(c->buf, nl + 1, c->have - used);
            c->have -= used;
            return;
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: subscribers SOCKET N EVENTS FROM_US TIMEOUT_S [--wait]\n");
        return 2;
    }
    const char *path = argv[1];
    int n = atoi(argv[2]);
    const char *events = argv[3];
    int64_t from_us = atoll(argv[4]);
    double timeout = atof(argv[5]);
    int wait = argc > 6 && strcmp(argv[6], "--wait") == 0;

    client *cs = calloc((size_t)n, sizeof(client));
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    strncpy(addr.sun_path, path, sizeof(addr.sun_path) - 1);
    for (int i = 0; i < n; i++) {
        cs[i].fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (cs[i].fd < 0) die("socket");
        int sz = 4 << 20;
        setsockopt(cs[i].fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
        if (connect(cs[i].fd, (struct sockaddr *)&addr, sizeof addr) != 0) die("connect");
        cs[i].buf = malloc(BUF);
        cs[i].open = 1;
        read_hello(&cs[i]);
    }
    if (wait) {
        printf("ready\n");
        fflush(stdout);
        char line[64];
        if (!fgets(line, sizeof line, stdin)) return 1;
    }
    char req[512];
    int rl = snprintf(req, sizeof req, "{\"request\":\"subscribe\",\"id\":1,\"events\":%s}\n", events);
    for (int i = 0; i < n; i++)
        if (write(cs[i].fd, req, (size_t)rl) != rl) die("subscribe");

    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < n; i++) {
        fcntl(cs[i].fd, F_SETFL, fcntl(cs[i].fd, F_GETFL) | O_NONBLOCK);
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, cs[i].fd, &e);
    }
    int open = n;
    int64_t deadline = now_ns() + (int64_t)(timeout * 1e9);
    struct epoll_event ready[256];
    int timed_out = 0;
    while (open > 0) {
        int64_t left = (deadline - now_ns()) / 1000000;
        if (left <= 0) { timed_out = 1; break; }
        int k = epoll_wait(ep, ready, 256, (int)(left > 1000 ? 1000 : left));
        if (k < 0) { if (errno == EINTR) continue; die("epoll_wait"); }
        for (int j = 0; j < k; j++) {
            client *c = &cs[ready[j].data.u32];
            for (;;) {
                ssize_t r = read(c->fd, c->buf + c->have, BUF - c->have);
                int64_t t = now_ns();
                if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
                if (r < 0 && errno == EINTR) continue;
                if (r <= 0) {
                    if (c->have > 0) c->torn = 1;
                    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                    close(c->fd);
                    c->open = 0;
                    open--;
                    break;
                }
                c->bytes += r;
                c->have += (size_t)r;
                size_t start = 0;
                char *nl;
                while ((nl = memchr(c->buf + start, '\n', c->have - start))) {
                    size_t end = (size_t)(nl - c->buf);
                    handle_line(c, c->buf + start, end - start, t, from_us);
                    start = end + 1;
                }
                memmove(c->buf, c->buf + start, c->have - start);
                c->have -= start;
                if (c->have == BUF) { fprintf(stderr, "subscribers: line too long\n"); return 1; }
                if ((size_t)r < BUF / 2) break;  // drained for now; let the others have a turn
            }
        }
    }

    size_t total = 0;
    int64_t mn = INT64_MAX;
    long lines = 0, evs = 0, gests = 0, drops = 0, errs = 0, bytes = 0, began = 0, unended = 0;
    int torn = 0;
    // Per-client gesture counts: tools/load-daemon checks every well-behaved client got every gesture.
    long gmin = n ? cs[0].gestures : 0, gmax = gmin;
    for (int i = 0; i < n; i++) {
        if (cs[i].gestures < gmin) gmin = cs[i].gestures;
        if (cs[i].gestures > gmax) gmax = cs[i].gestures;
        total += cs[i].n;
        for (size_t j = 0; j < cs[i].n; j++) if (cs[i].d[j] < mn) mn = cs[i].d[j];
        lines += cs[i].lines; evs += cs[i].events; gests += cs[i].gestures;
        drops += cs[i].dropped_notices; errs += cs[i].errors; bytes += cs[i].bytes;
        began += cs[i].began;
        unended += labs(cs[i].began - cs[i].ends);  // either way round, a contact is not whole
        torn += cs[i].torn;
    }
    int64_t *all = malloc((total ? total : 1) * sizeof(int64_t));
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        for (size_t j = 0; j < cs[i].n; j++) cs[i].d[j] -= mn;
        memcpy(all + off, cs[i].d, cs[i].n * sizeof(int64_t));
        off += cs[i].n;
    }
    qsort(all, total, sizeof(int64_t), cmp64);
    qsort(cs[0].d, cs[0].n, sizeof(int64_t), cmp64);
    qsort(cs[n - 1].d, cs[n - 1].n, sizeof(int64_t), cmp64);
    printf("{\"clients\":%d,\"samples\":%zu,\"lines\":%ld,\"events\":%ld,\"gestures\":%ld,"
           "\"gestures_min\":%ld,\"gestures_max\":%ld,"
           "\"dropped_notices\":%ld,\"errors\":%ld,\"bytes\":%ld,\"timed_out\":%d,"
           "\"began\":%ld,\"unended\":%ld,\"torn\":%d,"
           "\"p50\":%.1f,\"p90\":%.1f,\"p99\":%.1f,\"p999\":%.1f,\"max\":%.1f,"
           "\"first_p50\":%.1f,\"first_p99\":%.1f,\"last_p50\":%.1f,\"last_p99\":%.1f}\n",
           n, total, lines, evs, gests, gmin, gmax, drops, errs, bytes, timed_out, began, unended, torn,
           pct(all, total, .5), pct(all, total, .9), pct(all, total, .99), pct(all, total, .999),
           pct(all, total, 1.0),
           pct(cs[0].d, cs[0].n, .5), pct(cs[0].d, cs[0].n, .99),
           pct(cs[n - 1].d, cs[n - 1].n, .5), pct(cs[n - 1].d, cs[n - 1].n, .99));
    return 0;
}
