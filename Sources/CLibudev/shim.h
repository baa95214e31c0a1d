// Umbrella header for libudev (device discovery and hot-plug monitoring).
#include <libudev.h>
