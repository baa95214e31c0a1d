// Umbrella header so the Swift module sees libevdev's public API through pkg-config's include path.
#include <libevdev/libevdev.h>
// Filter mode's clone of a panel (TouchClone).
#include <libevdev/libevdev-uinput.h>
#include <stdio.h>

// libevdev's log callback takes a va_list. A Swift function of that type does not compile for every
// target (AArch64's va_list is a struct, and Swift 6.0's compiler crashes making the callback's C type), so
// the callback is this C function: it formats the message and hands the text to `sink`, a plain C
// function of Swift's, carried in libevdev's user data pointer.
typedef void (*pressured_evdev_log_sink)(const struct libevdev *dev, enum libevdev_log_priority priority,
                                         const char *message);

static inline void pressured_evdev_log(const struct libevdev *dev, enum libevdev_log_priority priority,
                                       void *data, const char *file, int line, const char *func,
                                       const char *format, va_list args) {
    (void)file; (void)line; (void)func;
    if (format == NULL) return;
    char message[512];
    vsnprintf(message, sizeof message, format, args);
    ((pressured_evdev_log_sink)data)(dev, priority, message);
}

// Sends what libevdev says about `dev` at `priority` or above to `sink`.
static inline void pressured_evdev_set_log_sink(struct libevdev *dev, pressured_evdev_log_sink sink,
                                                enum libevdev_log_priority priority) {
    libevdev_set_device_log_function(dev, pressured_evdev_log, priority, (void *)sink);
}
