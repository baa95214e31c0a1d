/* uhidplay: replays a hid-recorder file through /dev/uhid, so that the kernel's own HID drivers (here
 * hid-multitouch) turn the reports into an evdev device, as they do for real hardware.
 *
 *   uhidplay [-g] [-r FILE] [-e MS] RECORDING
 *
 * RECORDING: hid-recorder text: `R: <len> <bytes>` the report descriptor, `N: name`, `I: bus vendor
 * product` (hex; the bus is kept: hid-multitouch's quirks match per bus), `E: <sec.usec> <len> <bytes>`
 * the input reports. The device is created with UHID_CREATE2; input reports are accepted only after the
 * kernel's UHID_START, so it waits for that. The driver's GET_REPORT requests (feature reports, while
 * probing) are answered with an error and its SET_REPORTs with success: unanswered, each stalls the
 * probe for seconds.
 *
 *   -g       after UHID_START, write "started" to the -r FILE (if given) and wait for SIGUSR1 to play
 *   -r FILE  ready file (see -g)
 *   -e MS    after the last report keep the device this long, then destroy it (default 50)
 *
 * Reports go out at their recorded pace (relative to the first); one more than 20 ms late (the guest did not
 * run us) shifts the rest by that much. SIGTERM/SIGINT destroy the device and exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/uhid.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#define PLAYER_NAME "uhidplay"
#include "player.h"

struct report { int64_t t_us; uint16_t size; unsigned char *data; };

static int hfd = -1, sfd = -1;
static int started = 0, go = 0;
static unsigned gets = 0, sets = 0;

static void send_event(struct uhid_event *ev) {
    if (write(hfd, ev, sizeof *ev) != sizeof *ev) die("write /dev/uhid");
}

static void destroy_and_exit(int status) {
    if (hfd >= 0) {
        struct uhid_event ev;
        memset(&ev, 0, sizeof ev);
        ev.type = UHID_DESTROY;
        (void)!write(hfd, &ev, sizeof ev);
        close(hfd);
    }
    exit(status);
}

/* One message from the kernel: START, and the requests that must be answered. */
static void handle_uhid(void) {
    struct uhid_event ev, reply;
    ssize_t n = read(hfd, &ev, sizeof ev);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) die("read /dev/uhid");
    memset(&reply, 0, sizeof reply);
    switch (ev.type) {
    case UHID_START: started = 1; break;
    case UHID_GET_REPORT:
        gets++;
        reply.type = UHID_GET_REPORT_REPLY;
        reply.u.get_report_reply.id = ev.u.get_report.id;
        reply.u.get_report_reply.err = EIO;
        send_event(&reply);
        break;
    case UHID_SET_REPORT:
        sets++;
        reply.type = UHID_SET_REPORT_REPLY;
        reply.u.set_report_reply.id = ev.u.set_report.id;
        reply.u.set_report_reply.err = 0;
        send_event(&reply);
        break;
    default: break; /* OPEN, CLOSE, OUTPUT, STOP */
    }
}

/* Serves /dev/uhid and signals until `deadline_us` (-1: until a signal sets `go` or START arrives). */
static void serve(int64_t deadline_us, int until_start) {
    for (;;) {
        if (until_start && started) return;
        if (!until_start && deadline_us < 0 && go) return;
        struct timespec ts, *tp = NULL;
        if (deadline_us >= 0) {
            int64_t left = deadline_us - now_us();
            if (left <= 0) return;
            /* the last 2 ms are spent polling the clock: waking from a sleep is slow in an emulated guest */
            left = left <= 2000 ? 0 : left - 2000;
            ts.tv_sec = left / 1000000;
            ts.tv_nsec = (left % 1000000) * 1000;
            tp = &ts;
        }
        struct pollfd p[2] = {{.fd = hfd, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
        int n = ppoll(p, 2, tp, NULL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("ppoll");
        if (p[0].revents & POLLIN) handle_uhid();
        if (p[1].revents & POLLIN) {
            struct signalfd_siginfo si;
            if (read(sfd, &si, sizeof si) != sizeof si) die("read signalfd");
            if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT) destroy_and_exit(0);
            if (si.ssi_signo == SIGUSR1) go = 1;
        }
    }
}

static size_t hexbytes(const char *s, unsigned char *out, size_t max) {
    size_t n = 0;
    char *end;
    for (unsigned long x = strtoul(s, &end, 16); end != s && n < max; x = strtoul(s, &end, 16)) {
        out[n++] = (unsigned char)x;
        s = end;
    }
    return n;
}

int main(int argc, char **argv) {
    int gated = 0;
    long end_ms = 50;
    const char *readyfile = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "gr:e:")) != -1) {
        switch (opt) {
        case 'g': gated = 1; break;
        case 'r': readyfile = optarg; break;
        case 'e': end_ms = atol(optarg); break;
        default: fprintf(stderr, "usage: uhidplay [-g] [-r FILE] [-e MS] RECORDING\n"); return 2;
        }
    }
    if (optind >= argc) { fprintf(stderr, "uhidplay: no recording\n"); return 2; }

    static struct uhid_event create;
    memset(&create, 0, sizeof create);
    create.type = UHID_CREATE2;
    struct uhid_create2_req *c = &create.u.create2;
    struct report *reports = NULL;
    size_t nreports = 0, cap = 0;
    FILE *f = fopen(argv[optind], "r");
    if (!f) die(argv[optind]);
    static char line[65536];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (strncmp(line, "R: ", 3) == 0) {
            char *end;
            unsigned long len = strtoul(line + 3, &end, 10);
            size_t got = hexbytes(end, c->rd_data, sizeof c->rd_data);
            if (got != len) { fprintf(stderr, "uhidplay: descriptor: %zu of %lu bytes\n", got, len); return 1; }
            c->rd_size = (uint16_t)len;
        } else if (strncmp(line, "N: ", 3) == 0) {
            snprintf((char *)c->name, sizeof c->name, "%.127s", line + 3);
        } else if (strncmp(line, "I: ", 3) == 0) {
            unsigned bus = 0, vendor = 0, product = 0;
            sscanf(line + 3, "%x %x %x", &bus, &vendor, &product);
            c->bus = (uint16_t)bus; c->vendor = vendor; c->product = product;
        } else if (strncmp(line, "E: ", 3) == 0) {
            long sec, usec;
            unsigned long len;
            int used = 0;
            if (sscanf(line + 3, "%ld.%ld %lu%n", &sec, &usec, &len, &used) != 3 || len > UHID_DATA_MAX) continue;
            if (nreports == cap) {
                cap = cap ? cap * 2 : 1024;
                reports = realloc(reports, cap * sizeof *reports);
                if (!reports) die("realloc");
            }
            struct report *r = &reports[nreports];
            r->data = malloc(len ? len : 1);
            if (!r->data) die("malloc");
            size_t got = hexbytes(line + 3 + used, r->data, len);
            if (got != len) { fprintf(stderr, "uhidplay: report %zu: %zu of %lu bytes\n", nreports, got, len); return 1; }
            r->size = (uint16_t)len;
            r->t_us = sec * 1000000 + usec;
            nreports++;
        }
    }
    fclose(f);
    if (c->rd_size == 0) { fprintf(stderr, "uhidplay: no R: line\n"); return 1; }

    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    if (sigprocmask(SIG_BLOCK, &set, NULL) < 0) die("sigprocmask");
    sfd = signalfd(-1, &set, SFD_CLOEXEC);
    if (sfd < 0) die("signalfd");

    hfd = open("/dev/uhid", O_RDWR | O_CLOEXEC | O_NONBLOCK);
    if (hfd < 0) die("open /dev/uhid");
    int64_t t0 = now_us();
    send_event(&create);
    serve(now_us() + 20 * 1000000, 1);
    if (!started) { fprintf(stderr, "uhidplay: no UHID_START within 20 s\n"); destroy_and_exit(1); }
    fprintf(stderr, "uhidplay: started after %.3f s (%u GET_REPORT, %u SET_REPORT answered)\n",
            (now_us() - t0) / 1e6, gets, sets);
    if (readyfile) {
        FILE *r = fopen(readyfile, "w");
        if (!r || fputs("started\n", r) < 0 || fclose(r) != 0) die(readyfile);
    }
    if (gated) serve(-1, 0);

    int64_t base = now_us(), late_max = 0, stalled_us = 0;
    unsigned stalls = 0;
    static struct uhid_event in;
    for (size_t i = 0; i < nreports; i++) {
        int64_t due = base + (reports[i].t_us - reports[0].t_us);
        serve(due, 0);
        int64_t late = now_us() - due;
        if (late > 20000) { /* not run for a while (busy host): pause the recording rather than burst */
            stalls++;
            stalled_us += late;
            base += late;
            late = 0;
        }
        if (late > late_max) late_max = late;
        memset(&in, 0, sizeof in);
        in.type = UHID_INPUT2;
        in.u.input2.size = reports[i].size;
        memcpy(in.u.input2.data, reports[i].data, reports[i].size);
        send_event(&in);
    }
    fprintf(stderr, "uhidplay: %zu reports in %.3f s, max lateness %.3f ms, %u stalls (%.0f ms)\n", nreports,
            (now_us() - base) / 1e6, late_max / 1000.0, stalls, stalled_us / 1000.0);
    serve(now_us() + end_ms * 1000, 0);
    destroy_and_exit(0);
}
