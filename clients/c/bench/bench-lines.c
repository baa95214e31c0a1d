/* Benchmark: touch lines parsed a second, and allocations a line, through libpressured's own path
 * (line reader, json-c, the event and its accessors, unref). Prints figures; asserts nothing.
 *
 *     bench-lines [LINES]
 *
 * Allocations are counted by interposing malloc, calloc, realloc and free in this program: json-c's
 * allocations (a shared library) come through them too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "private.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static unsigned long long allocations; /* this benchmark program's own counter */

__attribute__((visibility("default"))) void *malloc(size_t n)
{
	allocations++;
	return __libc_malloc(n);
}

__attribute__((visibility("default"))) void *calloc(size_t n, size_t size)
{
	allocations++;
	return __libc_calloc(n, size);
}

__attribute__((visibility("default"))) void *realloc(void *p, size_t n)
{
	allocations++;
	return __libc_realloc(p, n);
}

__attribute__((visibility("default"))) void free(void *p)
{
	__libc_free(p);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long lines = argc > 1 ? atol(argv[1]) : 500000;
	/* The lines: touches as the daemon writes them, in 64 KiB reads. */
	size_t cap = 64 * 1024 * 1024, len = 0; /* about 350,000 lines at most */
	char *data = __libc_malloc(cap);
	static const char *const phases[] = {"began", "moved", "moved", "ended"};
	for (long i = 0; i < lines && len + 512 < cap; i++)
		len += (size_t)snprintf(data + len, cap - len,
					"{\"type\":\"touch\",\"phase\":\"%s\",\"time\":%ld.%06ld,\"device\":1,\"contact\":%ld,"
					"\"x\":%ld,\"y\":%ld,\"screenX\":%ld.0,\"screenY\":%ld.0,\"force\":0.%04ld,"
					"\"maximumPossibleForce\":4.0118,\"progress\":0.%03ld}\n",
					phases[i % 4], i / 1000, (i % 1000) * 1000, i / 4 + 1, 1000 + i % 3000, 1500 + i % 2000,
					1000 + i % 3000, 1500 + i % 2000, i % 10000, i % 1000);
	struct line_reader r;
	if (line_reader_init(&r, PRESSURED_LINE_MAX) < 0)
		return 1;
	json_tokener *tok = json_tokener_new();
	double checksum = 0;
	long parsed = 0;
	unsigned long long before = allocations;
	double start = now();
	for (size_t off = 0; off < len;) {
		size_t chunk = len - off < 65536 ? len - off : 65536;
		long fed = line_reader_feed(&r, data + off, chunk);
		if (fed < 0)
			return 1;
		off += (size_t)fed;
		const char *line;
		size_t l;
		while (line_reader_next(&r, &line, &l) > 0) {
			int err;
			struct pressured_event *ev = pressured_parse_line(tok, line, l, &err, NULL, 0);
			if (!ev)
				return 1;
			checksum += pressured_event_get_force(ev) + (double)pressured_event_get_x(ev) +
				    pressured_event_get_time(ev) + (double)pressured_event_touch_get_phase(ev);
			pressured_event_unref(ev);
			parsed++;
		}
	}
	double elapsed = now() - start;
	unsigned long long allocs = allocations - before;
	printf("libpressured bench-lines: %ld touch lines (%.1f MB) in %.3f s\n", parsed, (double)len / 1e6, elapsed);
	printf("  lines parsed a second: %.0f\n", (double)parsed / elapsed);
	printf("  MB parsed a second:    %.1f\n", (double)len / 1e6 / elapsed);
	printf("  allocations a line:    %.2f (malloc/calloc/realloc, json-c's included)\n", (double)allocs / (double)parsed);
	printf("  (checksum %.1f)\n", checksum);
	json_tokener_free(tok);
	line_reader_release(&r);
	__libc_free(data);
	return 0;
}
