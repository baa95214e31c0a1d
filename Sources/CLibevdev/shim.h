// Umbrella header so the Swift module sees libevdev's public API through pkg-config's include path.
#include <libevdev/libevdev.h>
