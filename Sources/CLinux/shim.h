// Linux system headers that Swift's Glibc module does not bring in (epoll, timerfd, signalfd, inotify),
// plus small inline shims where a C struct does not import cleanly.
#ifndef PRESSURED_CLINUX_SHIM_H
#define PRESSURED_CLINUX_SHIM_H

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/ioctl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <linux/sockios.h>
#include <unistd.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// struct epoll_event is packed on x86_64; these keep Swift from depending on how a packed struct imports.
static inline void pressured_epoll_set(struct epoll_event *e, uint32_t events, uint64_t token) {
    e->events = events;
    e->data.u64 = token;
}
static inline uint32_t pressured_epoll_events(const struct epoll_event *e) { return e->events; }
static inline uint64_t pressured_epoll_token(const struct epoll_event *e) { return e->data.u64; }

// sun_path is a fixed char array; filling it from Swift needs pointer gymnastics this keeps in one place.
// Returns the address length, or -1 if the path does not fit.
static inline int pressured_sockaddr_un(struct sockaddr_un *addr, const char *path) {
    size_t n = strlen(path);
    if (n >= sizeof(addr->sun_path)) return -1;
    memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    memcpy(addr->sun_path, path, n + 1);
    return (int)(offsetof(struct sockaddr_un, sun_path) + n + 1);
}

// accept4 and struct ucred are behind _GNU_SOURCE, which Swift's Glibc module was not built with; these
// spell out what the kernel ABI guarantees.
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
struct pressured_ucred {
    int32_t pid;
    uint32_t uid;
    uint32_t gid;
};
static inline int pressured_peer_credentials(int fd, struct pressured_ucred *out) {
    socklen_t len = sizeof(*out);
    return getsockopt(fd, SOL_SOCKET, 17 /* SO_PEERCRED */, out, &len);
}
static inline int pressured_accept(int fd) {
    return accept4(fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

// Force feedback (Documentation/input/ff.rst). struct ff_effect is a union whose member Swift would have
// to fill through pointer casts, and FF_HAPTIC (Linux 6.18) is missing from older headers: these fill the
// struct in C, with the haptic member laid out as the kernel defines it where the headers lack it.
struct pressured_ff_haptic_effect {
    uint16_t hid_usage;
    uint16_t vendor_id;
    uint8_t vendor_waveform_page;
    uint16_t intensity;
    uint16_t repeat_count;
    uint16_t retrigger_period;
};
#define PRESSURED_FF_HAPTIC 0x4f
// Two words of custom data: the waveform bank and index in a chip's memory (DA7280, CS40L50); 0, 0 is the
// first stored waveform.
static int16_t pressured_ff_custom_data[2] = {0, 0};

// Uploads an effect (EVIOCSFF) and returns the ioctl's result; *id is the kernel's id for it. `type` is
// FF_RUMBLE, FF_PERIODIC or PRESSURED_FF_HAPTIC; `waveform` (FF_SINE, FF_CUSTOM) for periodic effects.
static inline int pressured_ff_upload(int fd, uint16_t type, uint16_t waveform, uint16_t magnitude,
                                      uint16_t length_ms, uint16_t hid_usage, int16_t *id) {
    struct ff_effect e;
    memset(&e, 0, sizeof(e));
    e.type = type;
    e.id = -1;
    e.replay.length = length_ms;
    if (type == FF_RUMBLE) {
        e.u.rumble.strong_magnitude = magnitude;
        e.u.rumble.weak_magnitude = magnitude;
    } else if (type == FF_PERIODIC) {
        e.u.periodic.waveform = waveform;
        e.u.periodic.period = 5;  // 200 Hz: near a linear actuator's resonance, felt on a motor too
        e.u.periodic.magnitude = (int16_t)(magnitude / 2);
        if (waveform == 0x5d /* FF_CUSTOM */) {
            e.u.periodic.custom_len = 2;
            e.u.periodic.custom_data = pressured_ff_custom_data;
        }
    } else if (type == PRESSURED_FF_HAPTIC) {
        struct pressured_ff_haptic_effect *h = (struct pressured_ff_haptic_effect *)&e.u;
        h->hid_usage = hid_usage;
        h->intensity = (uint16_t)(magnitude / 655);  // percent, as HID haptic intensity
        h->repeat_count = 0;
    }
    int rc = ioctl(fd, EVIOCSFF, &e);
    *id = e.id;
    return rc;
}

// Plays an uploaded effect once: the play event (EV_FF, code = id, value = 1). Returns write's result.
static inline ssize_t pressured_ff_play(int fd, int16_t id) {
    struct input_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.type = EV_FF;
    ev.code = (uint16_t)id;
    ev.value = 1;
    return write(fd, &ev, sizeof(ev));
}

static inline int pressured_ff_erase(int fd, int16_t id) { return ioctl(fd, EVIOCRMFF, (int)id); }

// How many effects the device holds at once (EVIOCGEFFECTS).
static inline int pressured_ff_slots(int fd, int *n) { return ioctl(fd, EVIOCGEFFECTS, n); }

// The EV_FF bits (FF_CNT of them) and EV_ABS bits, into `bits` of `len` bytes.
static inline int pressured_ff_bits(int fd, uint8_t *bits, size_t len) { return ioctl(fd, EVIOCGBIT(EV_FF, len), bits); }
static inline int pressured_device_name(int fd, char *name, size_t len) { return ioctl(fd, EVIOCGNAME(len), name); }
static inline int pressured_abs_bits(int fd, uint8_t *bits, size_t len) { return ioctl(fd, EVIOCGBIT(EV_ABS, len), bits); }

// A Unix stream socket's bytes sent and not yet read by its peer (SIOCOUTQ): ioctl is variadic, which Swift
// does not import.
static inline int pressured_unread_by_peer(int fd, int *n) { return ioctl(fd, SIOCOUTQ, n); }

// systemd's notify socket: one datagram, carrying `fd` as SCM_RIGHTS for its file descriptor store
// (sd_pid_notify_with_fds) unless `fd` is negative; Swift cannot build the control message (CMSG_* are
// macros). Returns sendmsg's result.
static inline ssize_t pressured_send_datagram(int sock, const void *buf, size_t len, const struct sockaddr *to,
                                             socklen_t tolen, int fd) {
    struct iovec iov = { (void *)buf, len };
    union { char bytes[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    memset(&control, 0, sizeof(control));
    struct msghdr msg;
    memset(&msg, 0, sizeof(msg));
    msg.msg_name = (void *)to;
    msg.msg_namelen = tolen;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (fd < 0) return sendmsg(sock, &msg, MSG_NOSIGNAL);
    msg.msg_control = control.bytes;
    msg.msg_controllen = sizeof(control.bytes);
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    return sendmsg(sock, &msg, MSG_NOSIGNAL);
}

// The descriptor a datagram carried (SCM_RIGHTS), or -1, and its bytes into buf (len - 1 at most, NUL-ended);
// for tests of the above. Returns recvmsg's result.
static inline ssize_t pressured_receive_with_fd(int sock, char *buf, size_t len, int *fd) {
    struct iovec iov = { buf, len - 1 };
    union { char bytes[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr msg;
    memset(&msg, 0, sizeof(msg));
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.bytes;
    msg.msg_controllen = sizeof(control.bytes);
    ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    buf[n > 0 ? n : 0] = 0;
    *fd = -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (n >= 0 && c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) memcpy(fd, CMSG_DATA(c), sizeof(int));
    return n;
}

// A uinput device's name under /sys/devices/virtual/input (UI_GET_SYSNAME), and its end (UI_DEV_DESTROY):
// for a clone taken back from systemd's store, which has no libevdev_uinput of its own.
static inline int pressured_uinput_sysname(int fd, char *buf, size_t len) { return ioctl(fd, UI_GET_SYSNAME(len), buf); }
static inline int pressured_uinput_destroy(int fd) { return ioctl(fd, UI_DEV_DESTROY); }
// The device's phys, before it is created (libevdev_uinput_create_from_device leaves it empty).
static inline int pressured_uinput_set_phys(int fd, const char *phys) { return ioctl(fd, UI_SET_PHYS, phys); }

#endif
