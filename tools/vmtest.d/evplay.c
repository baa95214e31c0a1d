/* evplay: creates a uinput device from an evemu description and plays its events into the kernel.
 *
 *   evplay [-d DEVFILE] [-g] [-k] [-e MS] [-v] CAPTURE [DESCRIPTION]
 *
 * The device is made from the header (N: name, I: bus vendor product version, P: properties, B: event
 * types and codes, A: absolute axes) of DESCRIPTION, or of CAPTURE when there is none (a `.events` file
 * keeps its header in a `.desc`). Then the E: lines of CAPTURE are written, one write() per frame (the
 * events up to a SYN_REPORT), at their own pace: a frame goes out when as much time has passed since the
 * first frame as the capture says.
 *
 *   -d FILE  write the event node (/dev/input/eventN) to FILE once it exists (else to stdout)
 *   -g       gate: after creating the device wait for SIGUSR1 before playing
 *   -k       keep the device after the last frame until SIGUSR1 or SIGTERM (else destroy it -e ms later)
 *   -e MS    milliseconds between the last frame and destroying the device (default 50): a reader must
 *            have taken the last frames, since evdev discards what is unread when its device goes away
 *   -v       report each gate on stderr
 *   -r FILE  also read the node while playing and write what the kernel delivered, with the kernel's
 *            CLOCK_MONOTONIC time stamps, to FILE as an evemu capture (the header's lines, then E: lines):
 *            the stream every reader of the node got, which a replay can check a reader against
 *
 * A line `# vmtest: gate` among the E: lines is a gate too: playing stops there until SIGUSR1, and the pace
 * restarts from the next frame. SIGTERM or SIGINT at any time destroys the device at once (an unplug) and
 * exits 0. Progress and lateness go to stderr. A frame more than 20 ms late (the emulated guest did not run
 * the player: a busy host) shifts the rest of the capture by that much, and counts as a stall.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <linux/uinput.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#define PLAYER_NAME "evplay"
#include "player.h"

#define MAXEV 4096

struct frame_ev { int64_t t_us; uint16_t type, code; int32_t value; int gate; };

static int ufd = -1, sfd = -1, rfd = -1;
static const char *recordpath;
static struct input_event *rec;
static size_t nrec, caprec;
static char headerlines[1 << 16];
static size_t headerlen;
static struct frame_ev *evs;
static size_t nevs, capevs;

/* Takes what the kernel has for our own reader of the node (it never falls behind by more than a frame). */
static void drain_recorder(void) {
    if (rfd < 0) return;
    struct input_event buf[256];
    for (;;) {
        ssize_t n = read(rfd, buf, sizeof buf);
        if (n <= 0) return;
        for (size_t i = 0; i < (size_t)n / sizeof buf[0]; i++) {
            if (nrec == caprec) {
                caprec = caprec ? caprec * 2 : 4096;
                rec = realloc(rec, caprec * sizeof *rec);
                if (!rec) die("realloc");
            }
            rec[nrec++] = buf[i];
        }
    }
}

static void write_recording(void) {
    if (rfd < 0) return;
    drain_recorder();
    FILE *f = fopen(recordpath, "w");
    if (!f) die(recordpath);
    fprintf(f, "# EVEMU 1.3\n# as delivered by the kernel (evplay -r)\n");
    fwrite(headerlines, 1, headerlen, f);
    for (size_t i = 0; i < nrec; i++)
        fprintf(f, "E: %ld.%06ld %04x %04x %d\n", (long)rec[i].input_event_sec, (long)rec[i].input_event_usec,
                rec[i].type, rec[i].code, rec[i].value);
    if (fclose(f) != 0) die(recordpath);
}

static void destroy_and_exit(int status) {
    if (ufd >= 0) {
        ioctl(ufd, UI_DEV_DESTROY);
        close(ufd);
    }
    exit(status);
}

/* Waking from a sleep takes an emulated guest a millisecond or more now and then (more after a long idle
 * gap), which would move a frame across a long-press deadline that the capture misses by only that much: the
 * last SPIN_US before a frame are spent polling the clock instead of sleeping. */
#define SPIN_US 2000
/* A frame this late means the guest was not running us: the capture pauses rather than bursts. */
#define STALL_US 20000

/* Waits until `deadline_us` (CLOCK_MONOTONIC; -1: forever) or a signal. Returns the signal (0 on time). */
static int wait_signal(int64_t deadline_us) {
    for (;;) {
        struct timespec ts, *tp = NULL;
        if (deadline_us >= 0) {
            int64_t left = deadline_us - now_us();
            if (left <= 0) return 0;
            if (left <= SPIN_US) left = 0; /* a non-blocking look at the signals, then the clock again */
            else left -= SPIN_US;
            ts.tv_sec = left / 1000000;
            ts.tv_nsec = (left % 1000000) * 1000;
            tp = &ts;
        }
        struct pollfd p = {.fd = sfd, .events = POLLIN};
        int n = ppoll(&p, 1, tp, NULL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("ppoll");
        if (n == 0) continue; /* the loop looks at the clock again */
        struct signalfd_siginfo si;
        if (read(sfd, &si, sizeof si) != sizeof si) die("read signalfd");
        if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT) destroy_and_exit(0);
        return (int)si.ssi_signo;
    }
}

static void wait_usr1(void) {
    while (wait_signal(-1) != SIGUSR1) {}
}

/* --- the header ------------------------------------------------------------------------------------ */

static unsigned char bits[EV_CNT][(KEY_CNT + 7) / 8]; /* B: lines per type (type 0: the event types) */
static size_t bitfill[EV_CNT];
static unsigned char props[(INPUT_PROP_CNT + 7) / 8];
static size_t propfill;
struct absline { int code, min, max, fuzz, flat, res; };
static struct absline absl[ABS_CNT];
static int nabs;
static struct uinput_setup setup;

static int testbit(const unsigned char *b, int i) { return (b[i / 8] >> (i % 8)) & 1; }

static void parse_header(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die(path);
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (strlen(line) > 3 && line[1] == ':' && line[2] == ' ' && strchr("NIPBA", line[0]) &&
            headerlen + strlen(line) + 2 < sizeof headerlines)
            headerlen += (size_t)sprintf(headerlines + headerlen, "%s\n", line);
        if (strncmp(line, "N: ", 3) == 0) {
            snprintf(setup.name, sizeof setup.name, "%.79s", line + 3);
        } else if (strncmp(line, "I: ", 3) == 0) {
            unsigned b, v, p, ver;
            if (sscanf(line + 3, "%x %x %x %x", &b, &v, &p, &ver) == 4) {
                setup.id.bustype = b; setup.id.vendor = v; setup.id.product = p; setup.id.version = ver;
            }
        } else if (strncmp(line, "P: ", 3) == 0) {
            char *s = line + 3, *end;
            for (unsigned long x = strtoul(s, &end, 16); end != s; x = strtoul(s, &end, 16)) {
                if (propfill < sizeof props) props[propfill++] = (unsigned char)x;
                s = end;
            }
        } else if (strncmp(line, "B: ", 3) == 0) {
            char *s = line + 3, *end;
            unsigned long type = strtoul(s, &end, 16);
            if (end == s || type >= EV_CNT) continue;
            s = end;
            for (unsigned long x = strtoul(s, &end, 16); end != s; x = strtoul(s, &end, 16)) {
                if (bitfill[type] < sizeof bits[type]) bits[type][bitfill[type]++] = (unsigned char)x;
                s = end;
            }
        } else if (strncmp(line, "A: ", 3) == 0) {
            struct absline a = {0};
            int n = sscanf(line + 3, "%x %d %d %d %d %d", &a.code, &a.min, &a.max, &a.fuzz, &a.flat, &a.res);
            if (n >= 5 && a.code >= 0 && a.code < ABS_CNT && nabs < ABS_CNT) absl[nabs++] = a;
        }
    }
    fclose(f);
    if (!setup.name[0]) snprintf(setup.name, sizeof setup.name, "evplay device");
}

static void create_device(void) {
    ufd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (ufd < 0) die("open /dev/uinput");
    static const struct { int type; unsigned long req; int max; } kinds[] = {
        {EV_KEY, UI_SET_KEYBIT, KEY_MAX}, {EV_REL, UI_SET_RELBIT, REL_MAX}, {EV_MSC, UI_SET_MSCBIT, MSC_MAX},
        {EV_SW, UI_SET_SWBIT, SW_MAX},    {EV_LED, UI_SET_LEDBIT, LED_MAX}, {EV_SND, UI_SET_SNDBIT, SND_MAX},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int t = kinds[k].type;
        if (!testbit(bits[0], t)) continue;
        if (ioctl(ufd, UI_SET_EVBIT, t) < 0) die("UI_SET_EVBIT");
        for (int c = 0; c <= kinds[k].max && c / 8 < (int)bitfill[t]; c++)
            if (testbit(bits[t], c) && ioctl(ufd, kinds[k].req, c) < 0) die("UI_SET_*BIT");
    }
    if (nabs > 0 && ioctl(ufd, UI_SET_EVBIT, EV_ABS) < 0) die("UI_SET_EVBIT EV_ABS");
    for (int i = 0; i < nabs; i++) {
        struct uinput_abs_setup a;
        memset(&a, 0, sizeof a);
        a.code = absl[i].code;
        a.absinfo.minimum = absl[i].min;
        a.absinfo.maximum = absl[i].max;
        a.absinfo.fuzz = absl[i].fuzz;
        a.absinfo.flat = absl[i].flat;
        a.absinfo.resolution = absl[i].res;
        if (ioctl(ufd, UI_SET_ABSBIT, a.code) < 0) die("UI_SET_ABSBIT");
        if (ioctl(ufd, UI_ABS_SETUP, &a) < 0) die("UI_ABS_SETUP");
    }
    for (int p = 0; p < INPUT_PROP_CNT && p / 8 < (int)propfill; p++)
        if (testbit(props, p) && ioctl(ufd, UI_SET_PROPBIT, p) < 0) die("UI_SET_PROPBIT");
    if (ioctl(ufd, UI_DEV_SETUP, &setup) < 0) die("UI_DEV_SETUP");
    if (ioctl(ufd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");
}

/* /sys/devices/virtual/input/inputN/eventM -> /dev/input/eventM, once the node exists. */
static int find_node(char *out, size_t outlen) {
    char sys[64], dir[160];
    if (outlen < 300) return -1;
    if (ioctl(ufd, UI_GET_SYSNAME(sizeof sys), sys) < 0) return -1;
    snprintf(dir, sizeof dir, "/sys/devices/virtual/input/%s", sys);
    for (int tries = 0; tries < 500; tries++) {
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (strncmp(e->d_name, "event", 5) == 0) {
                snprintf(out, outlen, "/dev/input/%.200s", e->d_name);
                closedir(d);
                for (int t = 0; t < 500 && access(out, R_OK) != 0; t++) usleep(10000);
                return access(out, R_OK);
            }
        }
        if (d) closedir(d);
        usleep(10000); /* the evdev handler is not bound yet */
    }
    return -1;
}

/* --- the events ------------------------------------------------------------------------------------ */

static void push(struct frame_ev e) {
    if (nevs == capevs) {
        capevs = capevs ? capevs * 2 : 4096;
        evs = realloc(evs, capevs * sizeof *evs);
        if (!evs) die("realloc");
    }
    evs[nevs++] = e;
}

static void parse_events(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die(path);
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "# vmtest: gate", 14) == 0) {
            push((struct frame_ev){.gate = 1});
            continue;
        }
        if (strncmp(line, "E: ", 3) != 0) continue;
        long sec = 0, usec = 0;
        unsigned type, code;
        int value;
        if (sscanf(line + 3, "%ld.%ld %x %x %d", &sec, &usec, &type, &code, &value) != 5) continue;
        push((struct frame_ev){.t_us = sec * 1000000 + usec, .type = type, .code = code, .value = value});
    }
    fclose(f);
}

int main(int argc, char **argv) {
    const char *devfile = NULL;
    int gated = 0, keep = 0, verbose = 0;
    long end_ms = 50;
    int opt;
    while ((opt = getopt(argc, argv, "d:gke:vr:")) != -1) {
        switch (opt) {
        case 'd': devfile = optarg; break;
        case 'g': gated = 1; break;
        case 'k': keep = 1; break;
        case 'e': end_ms = atol(optarg); break;
        case 'v': verbose = 1; break;
        case 'r': recordpath = optarg; break;
        default:
            fprintf(stderr, "usage: evplay [-d DEVFILE] [-g] [-k] [-e MS] [-v] CAPTURE [DESCRIPTION]\n");
            return 2;
        }
    }
    if (optind >= argc) { fprintf(stderr, "evplay: no capture\n"); return 2; }
    const char *capture = argv[optind];
    const char *desc = optind + 1 < argc ? argv[optind + 1] : capture;

    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    if (sigprocmask(SIG_BLOCK, &set, NULL) < 0) die("sigprocmask");
    sfd = signalfd(-1, &set, SFD_CLOEXEC);
    if (sfd < 0) die("signalfd");

    parse_header(desc);
    parse_events(capture);
    create_device();
    char node[300];
    if (find_node(node, sizeof node) != 0) { fprintf(stderr, "evplay: no event node\n"); destroy_and_exit(1); }
    if (recordpath) {
        rfd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        int clock = CLOCK_MONOTONIC;
        if (rfd < 0 || ioctl(rfd, EVIOCSCLOCKID, &clock) < 0) die(node);
    }
    if (devfile) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s.tmp", devfile);
        FILE *f = fopen(tmp, "w");
        if (!f || fprintf(f, "%s\n", node) < 0 || fclose(f) != 0 || rename(tmp, devfile) != 0) die(devfile);
    } else {
        printf("%s\n", node);
        fflush(stdout);
    }
    if (gated) wait_usr1();

    struct input_event batch[MAXEV];
    size_t nb = 0, frames = 0;
    int64_t base_t = -1, base_now = 0, late_max = 0, late_sum = 0, stalled_us = 0, start = now_us();
    unsigned stalls = 0;
    for (size_t i = 0; i < nevs; i++) {
        struct frame_ev *e = &evs[i];
        if (e->gate) {
            if (verbose) fprintf(stderr, "evplay: at gate after %zu frames\n", frames);
            wait_usr1();
            base_t = -1;
            continue;
        }
        memset(&batch[nb], 0, sizeof batch[nb]);
        batch[nb].type = e->type;
        batch[nb].code = e->code;
        batch[nb].value = e->value;
        nb++;
        int last = e->type == EV_SYN && e->code == SYN_REPORT;
        if (!last && nb < MAXEV && i + 1 < nevs) continue;
        /* a frame: due at its SYN_REPORT's time, relative to the first frame (after the last gate) */
        if (base_t < 0) {
            base_t = e->t_us;
            base_now = now_us();
        }
        int64_t due = base_now + (e->t_us - base_t);
        while (wait_signal(due) != 0) {} /* SIGUSR1 outside a gate: ignored */
        int64_t late = now_us() - due;
        if (late > STALL_US) {
            /* The guest did not run us for a while (a busy host): writing every overdue frame at once would
             * squeeze their intervals and could overflow a reader's buffer; the capture pauses instead. */
            stalls++;
            stalled_us += late;
            base_now += late;
            late = 0;
        }
        if (late > late_max) late_max = late;
        late_sum += late;
        ssize_t want = (ssize_t)(nb * sizeof batch[0]);
        if (write(ufd, batch, want) != want) die("write");
        drain_recorder();
        frames++;
        nb = 0;
    }
    fprintf(stderr, "evplay: %s: %zu frames in %.3f s, lateness mean %.3f ms, max %.3f ms, %u stalls (%.0f ms)\n",
            node, frames, (now_us() - start) / 1e6, frames ? late_sum / 1000.0 / frames : 0.0, late_max / 1000.0,
            stalls, stalled_us / 1000.0);
    if (keep) wait_usr1();
    else wait_signal(now_us() + end_ms * 1000);
    write_recording();
    destroy_and_exit(0);
}
