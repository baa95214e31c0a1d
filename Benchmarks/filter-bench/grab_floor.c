/* grab_floor: the least a filter between a touch panel and the compositor can do (issue 26's floor).
 *
 *   grab_floor /dev/input/eventN
 *
 * Grabs the panel (EVIOCGRAB through libevdev_grab), so nobody else reads it any more, makes its clone
 * through uinput (libevdev_uinput_create_from_device: same axes, ranges, resolution, properties), named
 * "<panel's name> (pressured floor)", and writes every frame of the panel to the clone: the frame's
 * events, ending in its SYN_REPORT, in one write() to the uinput descriptor, in the wake-up that read them.
 * What pressured's filter mode adds on top of this (its pipeline, the palm marking) is what
 * tools/bench-filter measures against it.
 *
 * SYN_DROPPED (the panel's kernel buffer overflowed): the half-read frame is thrown away and libevdev's
 * resync (the difference between what we last saw and the device's state now) goes to the clone as one
 * frame, so no touch stays down on the clone that is up on the panel.
 *
 * Prints the clone's node on stderr once it exists. Stops on SIGTERM/SIGINT (the clone goes with it), or
 * when the panel goes away. Exit 1 on any set-up failure, such as a panel somebody else holds grabbed.
 * Build: gcc -O2 -Wall grab_floor.c $(pkg-config --cflags --libs libevdev)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A 10-finger frame is about 50 events; a resync of every slot and axis stays well under this. */
#define FRAME_MAX 1024

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

static struct input_event frame[FRAME_MAX];
static size_t nframe;

/* The clone's input core stamps its own time, so only type, code and value matter here. */
static void add(const struct input_event *ev) {
    if (nframe < FRAME_MAX) frame[nframe++] = *ev;
}

static int flush_frame(int ufd) {
    size_t len = nframe * sizeof frame[0];
    ssize_t w;
    do w = write(ufd, frame, len); while (w < 0 && errno == EINTR);
    nframe = 0;
    return w == (ssize_t)len ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: grab_floor /dev/input/eventN\n");
        return 2;
    }
    /* No SA_RESTART: a signal ends poll() with EINTR and the loop sees stop. */
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    int fd = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct libevdev *dev = NULL;
    int rc;
    if (fd < 0 || (rc = libevdev_new_from_fd(fd, &dev)) < 0) {
        fprintf(stderr, "grab_floor: %s: %s\n", argv[1], strerror(fd < 0 ? errno : -rc));
        return 1;
    }
    if ((rc = libevdev_grab(dev, LIBEVDEV_GRAB)) < 0) {
        fprintf(stderr, "grab_floor: cannot grab %s: %s\n", argv[1], strerror(-rc));
        return 1;
    }
    char name[256];
    snprintf(name, sizeof name, "%s (pressured floor)", libevdev_get_name(dev));
    libevdev_set_name(dev, name); /* only the name the clone is created with; the panel keeps its own */
    struct libevdev_uinput *clone;
    if ((rc = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &clone)) < 0) {
        fprintf(stderr, "grab_floor: cannot create the clone: %s\n", strerror(-rc));
        return 1;
    }
    int ufd = libevdev_uinput_get_fd(clone);
    const char *node = libevdev_uinput_get_devnode(clone);
    fprintf(stderr, "grab_floor: %s grabbed, clone \"%s\" at %s\n", argv[1], name, node ? node : "?");

    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    unsigned flag = LIBEVDEV_READ_FLAG_NORMAL;
    unsigned long frames = 0, resyncs = 0;
    while (!stop) {
        if (poll(&pfd, 1, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (pfd.revents & (POLLERR | POLLHUP)) break; /* unplugged */
        /* Drain everything the kernel has: a wake-up may hold more than one frame. */
        for (;;) {
            struct input_event ev;
            rc = libevdev_next_event(dev, flag, &ev);
            if (rc == -EAGAIN) {
                if (flag == LIBEVDEV_READ_FLAG_SYNC) { /* resync done: it is one frame */
                    struct input_event syn = {.type = EV_SYN, .code = SYN_REPORT};
                    if (nframe == 0 || frame[nframe - 1].type != EV_SYN) add(&syn);
                    if (flush_frame(ufd) < 0) goto out;
                    frames++;
                    flag = LIBEVDEV_READ_FLAG_NORMAL;
                    continue; /* events may have come in behind the resync */
                }
                break;
            }
            if (rc < 0) goto out; /* -ENODEV: the panel is gone */
            if (rc == LIBEVDEV_READ_STATUS_SYNC && flag == LIBEVDEV_READ_FLAG_NORMAL) {
                nframe = 0; /* ev is the SYN_DROPPED: the frame it cut short is not sent */
                flag = LIBEVDEV_READ_FLAG_SYNC;
                resyncs++;
                continue;
            }
            add(&ev);
            /* In a resync libevdev ends the state with its own SYN_REPORT; it is sent with the rest at -EAGAIN. */
            if (ev.type == EV_SYN && ev.code == SYN_REPORT && flag == LIBEVDEV_READ_FLAG_NORMAL) {
                if (flush_frame(ufd) < 0) goto out;
                frames++;
            }
        }
    }
out:
    fprintf(stderr, "grab_floor: %lu frames re-emitted, %lu resyncs%s\n", frames, resyncs,
            stop ? "" : " (stopped: panel gone or write failed)");
    libevdev_uinput_destroy(clone);
    libevdev_grab(dev, LIBEVDEV_UNGRAB);
    libevdev_free(dev);
    close(fd);
    return 0;
}
