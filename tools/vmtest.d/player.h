/* What the vmtest players (evplay.c, uhidplay.c) share: how they fail, and their clock. A player defines
 * PLAYER_NAME (its name in messages) before including this. */
#ifndef VMTEST_PLAYER_H
#define VMTEST_PLAYER_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A system call failed: says which, with errno's words, and exits 1. */
static void die(const char *what) {
    fprintf(stderr, PLAYER_NAME ": %s: %s\n", what, strerror(errno));
    exit(1);
}

/* CLOCK_MONOTONIC in microseconds: the clock evdev stamps events with (EVIOCSCLOCKID). */
static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
#endif
