import CLinux
import Glibc
import PressureSystem
import PressureWebBridge

/// A listening TCP socket: bound here to a configured address, or passed by systemd.
final class TCPListener {
    let fd: Int32
    let name: String
    /// Where it listens (nil for a socket that is not TCP over IPv4 or IPv6).
    let address: ListenAddress?

    /// Binds and listens on `address` (IPv6 sockets are v6-only, so `[::1]` and `127.0.0.1` can both be
    /// listened on at one port).
    init(address: ListenAddress) throws(SystemError) {
        name = address.description
        self.address = address
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        fd = try syscall("socket", name) {
            socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        do throws(SystemError) {
            if address.isIPv6 {
                _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
                var a = sockaddr_in6()
                a.sin6_family = sa_family_t(AF_INET6)
                a.sin6_port = UInt16(address.port).bigEndian
                guard inet_pton(AF_INET6, address.host, &a.sin6_addr) == 1 else { throw Self.notAnAddress(name) }
                try Self.bind(fd, &a, name)
            } else {
                var a = sockaddr_in()
                a.sin_family = sa_family_t(AF_INET)
                a.sin_port = UInt16(address.port).bigEndian
                guard inet_pton(AF_INET, address.host, &a.sin_addr) == 1 else { throw Self.notAnAddress(name) }
                try Self.bind(fd, &a, name)
            }
            _ = try syscall("listen", name) { listen(fd, 128) }
        } catch {
            close(fd)
            throw error
        }
    }

    /// `bind` with a `sockaddr_in` or `sockaddr_in6`.
    private static func bind<Address>(_ fd: Int32, _ address: inout Address, _ name: String) throws(SystemError) {
        _ = try syscall("bind", name) {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
            }
        }
    }

    private static func notAnAddress(_ name: String) -> SystemError {
        SystemError(call: "inet_pton", subject: name, errno: EINVAL)
    }

    /// A socket systemd passed (`pressured-web.socket`).
    init(inheritedFD: Int32) {
        fd = inheritedFD
        let local = Self.localName(inheritedFD)
        address = ListenAddress(parsing: local)
        name = "fd \(inheritedFD) from systemd (\(local))"
        let flags = fcntl(inheritedFD, F_GETFL)
        _ = fcntl(inheritedFD, F_SETFL, flags | O_NONBLOCK)
    }

    deinit { close(fd) }

    static let sendBuffer: Int32 = 64 * 1024

    /// One pending connection and its peer's address, through `acceptGuard` (shared by every listener:
    /// the descriptor limit is the process's): at `EMFILE` the browser waiting is sent `refusal` on the
    /// reserve descriptor and closed; where accepting cannot go on the loop rests the listeners.
    func accept(with acceptGuard: AcceptGuard, refusal: [UInt8]) -> GuardedAccept<(StreamSocket, peer: String)> {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = fd
        let outcome = acceptGuard.accept(name, {
            length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            return withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(fd, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
            }
        }, refuse: { c in Self.refuse(c, refusal) })
        return outcome.map { c in
            var on: Int32 = 1
            // Events are small and latency matters: no Nagle delay.
            _ = setsockopt(c, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            // A bounded kernel buffer, so a browser that stops reading backs up into the bridge's own queue
            // (where touches are dropped and counted) after about this much, not after megabytes of autotuning.
            var bytes = Self.sendBuffer
            _ = setsockopt(c, SOL_SOCKET, SO_SNDBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
            return (StreamSocket(fd: c), Self.describe(&storage))
        }
    }

    /// Answers a browser no descriptor was left for and closes it at once (the reserve must be had back).
    /// What it sent so far is read first: closing with unread bytes would reset the connection, and the
    /// browser could lose the answer; a fresh socket's buffer holds the short answer whole.
    private static func refuse(_ c: Int32, _ refusal: [UInt8]) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while scratch.withUnsafeMutableBytes({ recv(c, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        refusal.withUnsafeBytes { _ = send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(c, Int32(SHUT_WR))
        close(c)
    }

    static func localName(_ fd: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let r = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return r == 0 ? describe(&storage) : "unknown address"
    }

    /// `127.0.0.1:5000`, `[::1]:5000`.
    static func describe(_ storage: inout sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: 64)
        /// What inet_ntop wrote, up to its terminating zero.
        func written(_ text: [CChar]) -> String {
            String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
                    var addr = p.pointee.sin_addr
                    inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
                    return "\(written(text)):\(UInt16(bigEndian: p.pointee.sin_port))"
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                    var addr = p.pointee.sin6_addr
                    inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count))
                    return "[\(written(text))]:\(UInt16(bigEndian: p.pointee.sin6_port))"
                }
            }
        default:
            return "a peer of family \(storage.ss_family)"
        }
    }
}
