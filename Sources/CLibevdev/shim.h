// Umbrella header so the Swift module sees libevdev's public API through pkg-config's include path.
#include <libevdev/libevdev.h>
// Filter mode's clone of a panel (TouchClone).
#include <libevdev/libevdev-uinput.h>
