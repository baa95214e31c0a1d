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
