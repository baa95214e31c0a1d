import Glibc

/// A command the tools run on the host (`systemctl`, `udevadm`), with its output going where the tool's
/// goes: run to the end, its exit status returned.
struct HostCommand: CustomStringConvertible {
    var arguments: [String]

    init(_ arguments: String...) { self.arguments = arguments }

    var description: String { arguments.joined(separator: " ") }

    /// Runs it (found on PATH) and waits; 127 when it cannot be started, as a shell says.
    func run() -> Int32 {
        var pid = pid_t()
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        guard let program = argv.first ?? nil, posix_spawnp(&pid, program, nil, nil, argv, environ) == 0 else {
            return 127
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Glibc's Swift overlay does not import (macros).
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Runs it; a non-zero exit is ``FilterAccessError/commandFailed(command:status:)``.
    func runOrThrow() throws(FilterAccessError) {
        let status = run()
        guard status == 0 else { throw .commandFailed(command: description, status: status) }
    }
}
