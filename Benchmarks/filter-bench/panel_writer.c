/* panel_writer: the touch panel of tools/bench-filter, a uinput device written at a steady pace.
 *
 *   panel_writer -d DEVFILE -l LOG [-n FRAMES] [-r RATE_HZ] [-t | -g] [-c COUNT]
 *
 * The device, "filterbench panel": a 10-slot protocol-B touchscreen with pressure (ABS_MT_SLOT,
 * TRACKING_ID, POSITION_X/Y 0..4095 at 10 units/mm, PRESSURE 0..255), the single-touch axes a real panel
 * also sends (ABS_X/Y, ABS_PRESSURE, BTN_TOUCH), INPUT_PROP_DIRECT, so libinput takes it for a touchscreen.
 * Its /dev/input/eventN goes to DEVFILE (written whole, then renamed: a reader never sees half of it); then
 * it waits for SIGUSR1, writes, and waits for a second SIGUSR1 (or SIGTERM) before the device goes away,
 * so readers can drain.
 *
 * Stream (default): FRAMES frames at RATE_HZ, 10 fingers down from frame 0, all moving and pressing
 * differently every frame, then all lifted. Frame k carries its number: every finger's X, and ABS_X, is
 * 1 + k mod 4000 (never 0, the axis's initial value, which the kernel would drop as unchanged). Each frame
 * is one write() of all its events ending in SYN_REPORT, as a panel's driver sends it in one go;
 * CLOCK_MONOTONIC just before that write() is kept in memory and written to LOG ("k t_before_ns") after
 * the last frame, then renamed into place: LOG appearing means the stream is over.
 * Tap (-t): one finger down, 10 frames of slight movement at RATE_HZ (1 unit a frame: 0.1 mm), up: what
 * libinput must see as TOUCH_DOWN ... TOUCH_UP. Drag (-g): the same moving 5 units (0.5 mm) a frame across,
 * so it passes a 2 mm slop on its 4th move (20 units across, 4 down). -c COUNT: that many taps or drags (tracking ids 1..COUNT), 100 ms
 * apart, 12 frames each (frame 12g is touch g's down, 12g + 11 its lift). LOG is written the same way.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define FINGERS 10
#define SEQMOD 4000 /* clone_reader.c undoes the numbering with the same modulus */

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "panel_writer: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void axis(int fd, int code, int min, int max, int res) {
    struct uinput_abs_setup a = {.code = code, .absinfo = {.minimum = min, .maximum = max, .resolution = res}};
    if (ioctl(fd, UI_SET_ABSBIT, code) < 0 || ioctl(fd, UI_ABS_SETUP, &a) < 0) die("UI_ABS_SETUP");
}

/* uinput names the input device, not its event node: find eventN under it (evdev may bind late). */
static int event_node(int fd, char *out, size_t len) {
    char sys[64], dir[128];
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sys), sys) < 0) return -1;
    snprintf(dir, sizeof dir, "/sys/devices/virtual/input/%s", sys);
    for (int tries = 0; tries < 500; tries++, usleep(10000)) {
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (strncmp(e->d_name, "event", 5) == 0) {
                snprintf(out, len, "/dev/input/%s", e->d_name);
                closedir(d);
                while (access(out, R_OK) != 0 && tries++ < 500) usleep(10000); /* devtmpfs */
                return access(out, R_OK);
            }
        if (d) closedir(d);
    }
    return -1;
}

static void write_file(const char *path, const char *text, const int64_t *t, long n) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) die(tmp);
    if (text) fputs(text, f);
    for (long k = 0; k < n; k++) fprintf(f, "%ld %lld\n", k, (long long)t[k]);
    if (fclose(f) != 0 || rename(tmp, path) != 0) die(path);
}

static struct input_event ev[FINGERS * 6 + 8];
static int nev;
static void emit(int type, int code, int value) {
    ev[nev].type = type, ev[nev].code = code, ev[nev].value = value;
    nev++;
}

int main(int argc, char **argv) {
    long frames = 5000, rate = 250, count = 1;
    int tap = 0, step = 1, opt;
    const char *devfile = NULL, *logpath = NULL;
    while ((opt = getopt(argc, argv, "d:l:n:r:tgc:")) != -1) {
        switch (opt) {
        case 'd': devfile = optarg; break;
        case 'l': logpath = optarg; break;
        case 'n': frames = atol(optarg); break;
        case 'r': rate = atol(optarg); break;
        case 't': tap = 1; break;
        case 'g': tap = 1, step = 5; break;
        case 'c': count = atol(optarg); break;
        default: goto usage;
        }
    }
    if (!devfile || !logpath || frames < 1 || rate < 1 || count < 1) {
    usage:
        fprintf(stderr, "usage: panel_writer -d DEVFILE -l LOG [-n FRAMES] [-r RATE_HZ] [-t | -g] [-c COUNT]\n");
        return 2;
    }
    if (tap) frames = 12 * count; /* each: down, 10 moves, up */

    sigset_t ss; /* taken with sigwaitinfo, never delivered */
    sigemptyset(&ss);
    sigaddset(&ss, SIGUSR1);
    sigaddset(&ss, SIGTERM);
    sigaddset(&ss, SIGINT);
    sigprocmask(SIG_BLOCK, &ss, NULL);

    int fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
    if (fd < 0) die("/dev/uinput");
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 || ioctl(fd, UI_SET_EVBIT, EV_ABS) < 0 ||
        ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH) < 0 || ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT) < 0)
        die("UI_SET_*");
    axis(fd, ABS_X, 0, 4095, 10);
    axis(fd, ABS_Y, 0, 4095, 10);
    axis(fd, ABS_PRESSURE, 0, 255, 0);
    axis(fd, ABS_MT_SLOT, 0, FINGERS - 1, 0);
    axis(fd, ABS_MT_TRACKING_ID, 0, 65535, 0);
    axis(fd, ABS_MT_POSITION_X, 0, 4095, 10);
    axis(fd, ABS_MT_POSITION_Y, 0, 4095, 10);
    axis(fd, ABS_MT_PRESSURE, 0, 255, 0);
    struct uinput_setup us = {.id = {.bustype = BUS_VIRTUAL, .vendor = 0x1209, .product = 0x7a7b, .version = 1}};
    snprintf(us.name, sizeof us.name, "filterbench panel");
    if (ioctl(fd, UI_DEV_SETUP, &us) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");
    char node[300], line[400];
    if (event_node(fd, node, sizeof node) != 0) {
        fprintf(stderr, "panel_writer: no event node for the device (evdev not loaded?)\n");
        return 1;
    }
    snprintf(line, sizeof line, "%s\n", node);
    write_file(devfile, line, NULL, 0);

    /* Faulting pages in while streaming cost milliseconds under TCG: take them all now. */
    int64_t *tb = calloc((size_t)frames, sizeof *tb);
    if (!tb) die("calloc");
    mlockall(MCL_CURRENT | MCL_FUTURE);
    if (sigwaitinfo(&ss, NULL) != SIGUSR1) goto out;
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); /* wake on the period, not up to 50 us after it */

    const int64_t period = 1000000000LL / rate;
    const int64_t start = now_ns() + 2000000;
    long late = 0;
    for (long k = 0; k < frames; k++) {
        nev = 0;
        long g = k / 12, i = k % 12; /* tap or drag g, its frame i */
        if (tap) {
            emit(EV_ABS, ABS_MT_SLOT, 0);
            if (i == 11) {
                emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
                emit(EV_KEY, BTN_TOUCH, 0);
                emit(EV_ABS, ABS_PRESSURE, 0);
            } else {
                if (i == 0) emit(EV_ABS, ABS_MT_TRACKING_ID, 1 + (int)g);
                emit(EV_ABS, ABS_MT_POSITION_X, 2000 + step * (int)i);
                emit(EV_ABS, ABS_MT_POSITION_Y, 2000 + (int)i);
                emit(EV_ABS, ABS_MT_PRESSURE, 60);
                if (i == 0) emit(EV_KEY, BTN_TOUCH, 1);
                emit(EV_ABS, ABS_X, 2000 + step * (int)i);
                emit(EV_ABS, ABS_Y, 2000 + (int)i);
                emit(EV_ABS, ABS_PRESSURE, 60);
            }
        } else {
            int x = 1 + (int)(k % SEQMOD);
            for (int c = 0; c < FINGERS; c++) {
                emit(EV_ABS, ABS_MT_SLOT, c);
                if (k == 0) emit(EV_ABS, ABS_MT_TRACKING_ID, 100 + c);
                emit(EV_ABS, ABS_MT_POSITION_X, x);
                emit(EV_ABS, ABS_MT_POSITION_Y, 200 + c * 380 + (int)(k & 63)); /* a lane each, moving */
                emit(EV_ABS, ABS_MT_PRESSURE, 1 + (int)((k * 7 + c * 25) % 255));
            }
            if (k == 0) emit(EV_KEY, BTN_TOUCH, 1);
            emit(EV_ABS, ABS_X, x);
            emit(EV_ABS, ABS_Y, 200 + (int)(k & 63));
            emit(EV_ABS, ABS_PRESSURE, 1 + (int)((k * 7) % 255));
        }
        emit(EV_SYN, SYN_REPORT, 0);
        int64_t due = start + k * period + (tap ? g * 100000000LL : 0);
        struct timespec ts = {.tv_sec = due / 1000000000LL, .tv_nsec = due % 1000000000LL};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        tb[k] = now_ns();
        if (write(fd, ev, sizeof ev[0] * nev) != (ssize_t)(sizeof ev[0] * nev)) die("write");
        if (tb[k] - due > period) late++;
    }
    if (!tap) { /* lift every finger: not a numbered frame, the reader skips it */
        nev = 0;
        for (int c = 0; c < FINGERS; c++) emit(EV_ABS, ABS_MT_SLOT, c), emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
        emit(EV_KEY, BTN_TOUCH, 0);
        emit(EV_ABS, ABS_PRESSURE, 0);
        emit(EV_SYN, SYN_REPORT, 0);
        if (write(fd, ev, sizeof ev[0] * nev) < 0) die("write");
    }
    fprintf(stderr, "panel_writer: %ld frames at %ld Hz on %s, %ld more than a period late, %.3f s\n", frames, rate,
            node, late, (tb[frames - 1] - tb[0]) / 1e9);
    snprintf(line, sizeof line, "# panel_writer frames=%ld rate=%ld seqmod=%d device=%s\n", frames, rate, SEQMOD, node);
    write_file(logpath, line, tb, frames);
    sigwaitinfo(&ss, NULL);
out:
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return 0;
}
