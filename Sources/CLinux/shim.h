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

#endif
