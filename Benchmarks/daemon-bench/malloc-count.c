// malloc-count: an LD_PRELOAD library counting heap allocations, for tools/bench-daemon (which compiles
// it with gcc -shared -fPIC). Counts calls to malloc, calloc, realloc, posix_memalign, aligned_alloc,
// memalign, valloc, pvalloc (frees counted apart) and the bytes asked for; forwards to glibc's own
// __libc_* entry points, so there is no dlsym bootstrap problem.
//
// MALLOC_COUNT_OUT=FILE: on SIGUSR2 and at exit, one line "allocs BYTES_REQUESTED frees" is appended
// to FILE (async-signal-safe: open/write/close and hand-formatted numbers only). The process under test
// must not use SIGUSR2 itself (pressured does not).
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static uint64_t allocs, bytes, frees;

static inline void count(size_t n) {
    __atomic_fetch_add(&allocs, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&bytes, n, __ATOMIC_RELAXED);
}

void *malloc(size_t n) { count(n); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { count(a * b); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { count(n); return __libc_realloc(p, n); }
void free(void *p) { if (p) __atomic_fetch_add(&frees, 1, __ATOMIC_RELAXED); __libc_free(p); }
void *memalign(size_t a, size_t n) { count(n); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { count(n); return __libc_memalign(a, n); }
void *valloc(size_t n) { count(n); return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), n); }
void *pvalloc(size_t n) {
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    count(n);
    return __libc_memalign(pg, (n + pg - 1) / pg * pg);
}
int posix_memalign(void **out, size_t a, size_t n) {
    if (a < sizeof(void *) || (a & (a - 1)) != 0) return 22; /* EINVAL */
    count(n);
    void *p = __libc_memalign(a, n);
    if (!p && n) return 12; /* ENOMEM */
    *out = p;
    return 0;
}

static char *put(char *p, uint64_t v) {
    char tmp[24];
    int i = 0;
    do { tmp[i++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (i) *p++ = tmp[--i];
    return p;
}

static void report(void) {
    const char *path = getenv("MALLOC_COUNT_OUT");
    if (!path) return;
    char line[80], *p = line;
    p = put(p, __atomic_load_n(&allocs, __ATOMIC_RELAXED));
    *p++ = ' ';
    p = put(p, __atomic_load_n(&bytes, __ATOMIC_RELAXED));
    *p++ = ' ';
    p = put(p, __atomic_load_n(&frees, __ATOMIC_RELAXED));
    *p++ = '\n';
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return;
    ssize_t w = write(fd, line, (size_t)(p - line));
    (void)w;
    close(fd);
}

static void on_signal(int s) { (void)s; report(); }

__attribute__((constructor)) static void setup(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR2, &sa, NULL);
    atexit(report);
}
