// fanout_floor: the floor of tools/bench-daemon's latency runs -- a server in C that does only what those
// runs measure: pace an evemu capture's frames on CLOCK_MONOTONIC and write each frame's touches to every
// subscriber from one epoll loop.
//
//   fanout_floor CAPTURE.evemu SOCKET
//
// Loads the capture's multi-touch frames into memory first (a replay's loading is not measured), listens
// on SOCKET, sends each client a hello line and, once the first `subscribe` request arrives, plays the
// frames at the capture's pace from that moment (an absolute timerfd per frame, as `pressured --replay
// --speed 1` paces them). On every SYN_REPORT it formats one JSON line per touching slot,
//   {"type":"touch","time":S.UUUUUU,"contact":TID,"x":X,"y":Y,"force":P}
// into one buffer and sends it to each subscribed client in turn (MSG_DONTWAIT); what a socket does not
// take waits in that client's backlog (up to 1 MiB, then the frame is dropped for it and counted) and is
// written when epoll says it can be. After the last frame and every backlog written (or 5 s), it closes
// the clients and exits, printing `frames=F lines=L clients=N drops=D` on stderr.
//
// It learns nothing, detects no gesture, checks nothing and answers no request: with the same subscribers
// (subscribers.c) its p99 at 64 subscribers is what this machine gives any server that writes a frame to
// 64 sockets from one loop.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../floor-touch-line.h"

#define MAXSLOTS 16
#define MAXFD 1024
#define BACKLOG (1024 * 1024)

typedef struct {
    long tid, x, y, p;
} slot;

typedef struct {
    int64_t us;  // the frame's SYN_REPORT time
    int first;   // index of its first touching slot in `touches`
    int count;
} frame;

typedef struct {
    int open, subscribed;
    char *pend;
    size_t poff, plen;
    char in[4096];
    size_t have;
} client;

static frame *frames;
static slot *touches;
static size_t nframes, ntouches, cap_frames, cap_touches;
static client cl[MAXFD];
static int act[MAXFD], nact, ep;
// 0: no subscriber yet; 1: the first `subscribe` was read; 2: playing, from start_ns.
static int started;
static unsigned long nlines, drops;

static void die(const char *what) {
    fprintf(stderr, "fanout_floor: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return p;
    *cap = *cap ? *cap * 2 : 4096;
    if (!(p = realloc(p, *cap * size))) die("memory");
    return p;
}

// The capture's frames: `E: sec.usec type code value` lines, protocol B slots.
static void load(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die(path);
    slot s[MAXSLOTS];
    for (int i = 0; i < MAXSLOTS; i++) s[i].tid = -1;
    int cur = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        long sec, usec, value;
        unsigned type, code;
        if (sscanf(line, "E: %ld.%ld %x %x %ld", &sec, &usec, &type, &code, &value) != 5) continue;
        if (type == 3) {
            if (code == 0x2f) cur = value >= 0 && value < MAXSLOTS ? (int)value : 0;
            else if (code == 0x39) s[cur].tid = value;
            else if (code == 0x35) s[cur].x = value;
            else if (code == 0x36) s[cur].y = value;
            else if (code == 0x3a) s[cur].p = value;
        } else if (type == 0 && code == 0) {
            frames = grow(frames, &cap_frames, nframes + 1, sizeof *frames);
            frame *fr = &frames[nframes++];
            fr->us = sec * 1000000 + usec;
            fr->first = (int)ntouches;
            fr->count = 0;
            for (int i = 0; i < MAXSLOTS; i++) {
                if (s[i].tid < 0) continue;
                touches = grow(touches, &cap_touches, ntouches + 1, sizeof *touches);
                touches[ntouches++] = s[i];
                fr->count++;
            }
        }
    }
    fclose(f);
}

static void drop_client(int fd) {
    client *c = &cl[fd];
    if (!c->open) return;
    epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
    close(fd);
    free(c->pend);
    memset(c, 0, sizeof *c);
    for (int i = 0; i < nact; i++)
        if (act[i] == fd) {
            act[i] = act[--nact];
            break;
        }
}

static void watch(int fd, int out) {
    struct epoll_event e = {.events = EPOLLIN | (out ? EPOLLOUT : 0), .data.fd = fd};
    epoll_ctl(ep, EPOLL_CTL_MOD, fd, &e);
}

static void flush_client(int fd) {
    client *c = &cl[fd];
    while (c->poff < c->plen) {
        ssize_t w = send(fd, c->pend + c->poff, c->plen - c->poff, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EAGAIN || errno == EINTR) return;
            drop_client(fd);
            return;
        }
        c->poff += (size_t)w;
    }
    c->poff = c->plen = 0;
    watch(fd, 0);
}

static void deliver(int fd, const char *buf, size_t len) {
    client *c = &cl[fd];
    size_t w0 = 0;
    if (c->plen == 0) {
        ssize_t w = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w == (ssize_t)len) return;
        if (w < 0 && errno != EAGAIN && errno != EINTR) {
            drop_client(fd);
            return;
        }
        w0 = w < 0 ? 0 : (size_t)w;
        watch(fd, 1);
    }
    if (!c->pend && !(c->pend = malloc(BACKLOG))) die("memory");
    if (c->plen + len - w0 > BACKLOG) {
        drops++;
        return;
    }
    memcpy(c->pend + c->plen, buf + w0, len - w0);
    c->plen += len - w0;
}

static void emit(const frame *fr) {
    static char buf[MAXSLOTS * FLOOR_TOUCH_LINE_MAX];
    char *p = buf;
    for (int i = 0; i < fr->count; i++) {
        const slot *s = &touches[fr->first + i];
        p = put_touch_line(p, (long)(fr->us / 1000000), (long)(fr->us % 1000000), s->tid, s->x, s->y, s->p);
        nlines++;
    }
    if (p == buf) return;
    for (int i = 0; i < nact;) {
        int fd = act[i];
        if (cl[fd].subscribed) deliver(fd, buf, (size_t)(p - buf));
        if (i < nact && act[i] == fd) i++;  // else act[i] now holds another client
    }
}

static void on_client(int fd, uint32_t events) {
    client *c = &cl[fd];
    if (events & EPOLLOUT) flush_client(fd);
    if (!cl[fd].open || !(events & (EPOLLIN | EPOLLHUP | EPOLLERR))) return;
    for (;;) {
        ssize_t r = read(fd, c->in + c->have, sizeof c->in - c->have);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
            drop_client(fd);
            return;
        }
        if (r < 0) return;
        c->have += (size_t)r;
        char *nl;
        while ((nl = memchr(c->in, '\n', c->have))) {
            if (memmem(c->in, (size_t)(nl - c->in), "subscribe", 9)) {
                c->subscribed = 1;
                if (!started) started = 1;  // the main loop starts the clock
            }
            c->have -= (size_t)(nl + 1 - c->in);
            memmove(c->in, nl + 1, c->have);
        }
        if (c->have == sizeof c->in) c->have = 0;  // a request longer than a line: not ours to read
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: fanout_floor CAPTURE.evemu SOCKET\n");
        return 2;
    }
    load(argv[1]);
    if (!nframes) {
        fprintf(stderr, "fanout_floor: %s: no frames\n", argv[1]);
        return 1;
    }
    int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(argv[2]) >= sizeof a.sun_path) die("socket path too long");
    strcpy(a.sun_path, argv[2]);
    unlink(argv[2]);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 || listen(lfd, 128) < 0) die(argv[2]);
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if ((ep = epoll_create1(EPOLL_CLOEXEC)) < 0 || tfd < 0) die("epoll");
    struct epoll_event e = {.events = EPOLLIN, .data.fd = lfd};
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &e);
    e.data.fd = tfd;
    epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &e);
    fprintf(stderr, "fanout_floor: %zu frames, serving %s\n", nframes, argv[2]);
    size_t next = 0;
    int64_t start_ns = 0, done_ns = 0;
    for (;;) {
        if (started == 1) {  // the first subscription: the replay starts now
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            start_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
            started = 2;
        }
        if (started == 2 && next < nframes) {
            int64_t due = start_ns + (frames[next].us - frames[0].us) * 1000;
            struct itimerspec it = {.it_value = {.tv_sec = due / 1000000000, .tv_nsec = due % 1000000000}};
            timerfd_settime(tfd, TFD_TIMER_ABSTIME, &it, NULL);
        }
        struct epoll_event ready[64];
        int n = epoll_wait(ep, ready, 64, next == nframes && started ? 100 : -1);
        if (n < 0 && errno != EINTR) die("epoll_wait");
        for (int i = 0; i < n; i++) {
            int fd = ready[i].data.fd;
            if (fd == lfd) {
                int c;
                while ((c = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    if (c >= MAXFD) {
                        close(c);
                        continue;
                    }
                    cl[c].open = 1;
                    act[nact++] = c;
                    struct epoll_event ce = {.events = EPOLLIN, .data.fd = c};
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &ce);
                    static const char hello[] = "{\"type\":\"hello\",\"server\":\"fanout_floor\"}\n";
                    deliver(c, hello, sizeof hello - 1);
                }
            } else if (fd == tfd) {
                uint64_t ticks;
                if (read(tfd, &ticks, sizeof ticks) < 0 && errno != EAGAIN) die("timerfd");
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
                while (next < nframes && start_ns + (frames[next].us - frames[0].us) * 1000 <= now)
                    emit(&frames[next++]);
            } else if (cl[fd].open) {
                on_client(fd, ready[i].events);
            }
        }
        if (started == 2 && next == nframes) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
            if (!done_ns) done_ns = now;
            int pending = 0;
            for (int i = 0; i < nact; i++) pending |= cl[act[i]].plen > 0;
            if (!pending || now - done_ns > 5000000000LL) break;
        }
    }
    int clients = nact;
    while (nact) drop_client(act[0]);
    unlink(argv[2]);
    fprintf(stderr, "fanout_floor: frames=%zu lines=%lu clients=%d drops=%lu\n", nframes, nlines, clients, drops);
    return 0;
}
