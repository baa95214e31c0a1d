/* clone_reader: reads the clone a filter made of panel_writer's panel, as a compositor would, and says how
 * late each frame came out of it and how many never did.
 *
 *   clone_reader -d /dev/input/eventN -l WRITER_LOG -n FRAMES [-w WARMUP] [-L LABEL] [-R READYFILE]
 *
 * Opens the clone, writes READYFILE, then reads until SIGTERM/SIGINT. Each SYN_REPORT is stamped with
 * CLOCK_MONOTONIC taken when the read() that brought it returned (the arrival, as a reader of the node
 * sees it) and with the event's own kernel time stamp (set to CLOCK_MONOTONIC: when the filter's write
 * reached the clone's input core, before any reader woke); its frame number is ABS_X - 1 (panel_writer.c).
 * Then it waits for the writer's log and joins: a frame read with number v at time t is the latest frame
 * k written before t with k = v mod 4000. latency = t - (the writer's clock just before its write() of k).
 * Frames k < WARMUP are left out of the latency figures but not out of the count of lost ones.
 * Prints one line: RESULT label= written= read= lost= dup= dropped= p50_us= p99_us= max_us= mean_us=
 * emit_p50_us= emit_p99_us= (emit_*: write -> the clone's event time stamp, no reader wake-up in it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define SEQMOD 4000

struct rec {
    int64_t arrival, stamp;
    int32_t seq;
};

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* nearest-rank percentile of a sorted array, in microseconds */
static double pct(const int64_t *v, long n, double p) {
    if (n == 0) return -1;
    long i = (long)(p / 100.0 * n + 0.999999) - 1;
    return v[i < 0 ? 0 : (i >= n ? n - 1 : i)] / 1e3;
}

int main(int argc, char **argv) {
    const char *node = NULL, *logpath = NULL, *label = "server", *ready = NULL;
    long frames = 0, warmup = 0;
    int opt;
    while ((opt = getopt(argc, argv, "d:l:n:w:L:R:")) != -1) {
        switch (opt) {
        case 'd': node = optarg; break;
        case 'l': logpath = optarg; break;
        case 'n': frames = atol(optarg); break;
        case 'w': warmup = atol(optarg); break;
        case 'L': label = optarg; break;
        case 'R': ready = optarg; break;
        default: goto usage;
        }
    }
    if (!node || !logpath || frames < 1) {
    usage:
        fprintf(stderr, "usage: clone_reader -d NODE -l WRITER_LOG -n FRAMES [-w WARMUP] [-L LABEL] [-R READYFILE]\n");
        return 2;
    }
    struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: read() returns EINTR */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    int fd = open(node, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "clone_reader: %s: %s\n", node, strerror(errno));
        return 1;
    }
    int clk = CLOCK_MONOTONIC;
    if (ioctl(fd, EVIOCSCLOCKID, &clk) < 0) perror("clone_reader: EVIOCSCLOCKID");
    /* Room for every frame twice over, faulted in and locked now: a page fault mid-run costs ms under TCG. */
    long cap = frames * 2 + 64, n = 0, dropped = 0, unnumbered = 0;
    struct rec *r = calloc((size_t)cap, sizeof *r);
    if (!r) return 1;
    mlockall(MCL_CURRENT | MCL_FUTURE);
    if (ready) close(open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));

    struct input_event buf[512];
    int32_t seq = -1; /* this frame's number, if ABS_X came in it */
    while (!stop) {
        ssize_t got = read(fd, buf, sizeof buf);
        int64_t t = now_ns();
        if (got < 0) {
            if (errno == EINTR) continue;
            perror("clone_reader: read");
            break;
        }
        for (long i = 0; i < got / (ssize_t)sizeof buf[0]; i++) {
            const struct input_event *e = &buf[i];
            if (e->type == EV_ABS && e->code == ABS_X) seq = e->value - 1;
            if (e->type != EV_SYN) continue;
            if (e->code == SYN_DROPPED) dropped++;
            if (e->code != SYN_REPORT) continue;
            if (seq < 0) {
                unnumbered++; /* the final lift, or a frame without ABS_X */
            } else if (n < cap) {
                r[n].arrival = t;
                r[n].stamp = e->input_event_sec * 1000000000LL + e->input_event_usec * 1000LL;
                r[n++].seq = seq;
            }
            seq = -1;
        }
    }

    /* The writer's log: "k t_before_ns" per frame, there once its stream is over. */
    FILE *f = NULL;
    for (int i = 0; i < 400 && !(f = fopen(logpath, "r")); i++) usleep(50000);
    if (!f) {
        fprintf(stderr, "clone_reader: no writer log %s\n", logpath);
        return 1;
    }
    int64_t *tb = calloc((size_t)frames, sizeof *tb);
    char *seen = calloc((size_t)frames, 1);
    int64_t *lat = calloc((size_t)n + 1, sizeof *lat), *emit = calloc((size_t)n + 1, sizeof *emit);
    char line[256];
    long written = 0, k;
    long long t0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%ld %lld", &k, &t0) == 2 && k >= 0 && k < frames) tb[k] = t0, written = k + 1;
    fclose(f);

    long nl = 0, dup = 0, nread = 0, last = -1; /* last: the latest frame written before the arrival */
    double sum = 0;
    for (long i = 0; i < n; i++) {
        while (last + 1 < written && tb[last + 1] <= r[i].arrival) last++;
        if (last < 0) continue;
        long kk = last - ((last % SEQMOD) - r[i].seq + SEQMOD) % SEQMOD;
        if (kk < 0) continue;
        if (seen[kk]++) {
            dup++;
            continue;
        }
        nread++;
        if (kk < warmup) continue;
        lat[nl] = r[i].arrival - tb[kk];
        emit[nl] = r[i].stamp - tb[kk];
        sum += lat[nl++];
    }
    qsort(lat, (size_t)nl, sizeof *lat, cmp64);
    qsort(emit, (size_t)nl, sizeof *emit, cmp64);
    printf("RESULT label=%s written=%ld read=%ld lost=%ld dup=%ld dropped=%ld unnumbered=%ld p50_us=%.1f "
           "p99_us=%.1f max_us=%.1f mean_us=%.1f emit_p50_us=%.1f emit_p99_us=%.1f\n",
           label, written, nread, written - nread, dup, dropped, unnumbered, pct(lat, nl, 50), pct(lat, nl, 99),
           nl ? lat[nl - 1] / 1e3 : -1.0, nl ? sum / nl / 1e3 : -1.0, pct(emit, nl, 50), pct(emit, nl, 99));
    return 0;
}
