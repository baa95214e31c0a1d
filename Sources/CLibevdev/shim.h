// Umbrella header so the Swift module sees libevdev's public API through pkg-config's include path.
#include <libevdev/libevdev.h>
// Filter mode's clone of a panel (TouchClone).
#include <libevdev/libevdev-uinput.h>
#include <stdio.h>

// libevdev's log callback takes a va_list. A Swift function of that type does not compile for every
// target (AArch64's va_list is a struct, and Swift 6.0's compiler crashes making the callback's C type), so
// the callback is this C function on every target: it formats the message and hands the text to the sink,
// a plain C function of Swift's.
//
// The sink is kept here, not in libevdev's user data pointer: libevdev_set_fd resets the device and keeps
// its log function and priority but not that pointer, so every message after the fd was set would call a
// null sink.
typedef void (*pressured_evdev_log_sink)(const struct libevdev *dev, enum libevdev_log_priority priority,
                                         const char *message);

// Where the one sink is kept: a function's static, which Swift's importer emits with the function (a
// file-scope static in a header it does not). One copy per Swift object file that calls
// pressured_evdev_set_log_sink, each read by that file's own copy of pressured_evdev_log.
static inline pressured_evdev_log_sink *pressured_evdev_sink(void) {
    static pressured_evdev_log_sink sink;
    return &sink;
}

static inline void pressured_evdev_log(const struct libevdev *dev, enum libevdev_log_priority priority,
                                       void *data, const char *file, int line, const char *func,
                                       const char *format, va_list args) {
    (void)data; (void)file; (void)line; (void)func;
    pressured_evdev_log_sink sink = *pressured_evdev_sink();
    if (format == NULL || sink == NULL) return;
    char message[512];
    vsnprintf(message, sizeof message, format, args);
    sink(dev, priority, message);
}

// Sends what libevdev says about `dev` at `priority` or above to `sink`.
static inline void pressured_evdev_set_log_sink(struct libevdev *dev, pressured_evdev_log_sink sink,
                                                enum libevdev_log_priority priority) {
    *pressured_evdev_sink() = sink;
    libevdev_set_device_log_function(dev, pressured_evdev_log, priority, NULL);
}

// The kernel's state of a device now, by ioctl, for what libevdev's copy no longer holds between resyncs:
// the daemon reads a device's events with read(2) itself (EvdevReader) and asks libevdev for a device's
// state only after a resync. Each returns 0 or -errno.
#include <errno.h>
#include <linux/input.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

// An absolute axis's value (EVIOCGABS): `ABS_MT_SLOT` is the slot the device's events go to now.
static inline int pressured_evdev_abs_value(int fd, unsigned int code, int32_t *value) {
    struct input_absinfo info;
    if (code > ABS_MAX) return -EINVAL;
    if (ioctl(fd, EVIOCGABS(code), &info) < 0) return -errno;
    *value = info.value;
    return 0;
}

// Whether a key is down (EVIOCGKEY): 1 or 0 in `down`.
static inline int pressured_evdev_key_down(int fd, unsigned int code, int32_t *down) {
    unsigned char bits[KEY_MAX / 8 + 1];
    memset(bits, 0, sizeof bits);
    if (code > KEY_MAX) return -EINVAL;
    if (ioctl(fd, EVIOCGKEY(sizeof bits), bits) < 0) return -errno;
    *down = (bits[code / 8] >> (code % 8)) & 1;
    return 0;
}

// A multi-touch axis's value in each of the first `count` slots (EVIOCGMTSLOTS), at most 64.
static inline int pressured_evdev_slot_values(int fd, unsigned int code, int32_t *values, unsigned int count) {
    int32_t request[1 + 64];
    if (count > 64) return -EINVAL;
    request[0] = (int32_t)code;
    if (ioctl(fd, EVIOCGMTSLOTS(sizeof(int32_t) * (1 + count)), request) < 0) return -errno;
    memcpy(values, request + 1, sizeof(int32_t) * count);
    return 0;
}
