// What one client of the Hub reads, checked by the checker the tests use too (ClientStreamChecker in
// Tests/WireInvariants, built by tools/fuzz as a module of its own): whole JSON lines that decode, every
// contact it saw begin ending once and nothing of it after, a `pop` or `dismiss` only for a peek it was
// sent, nothing after a fatal error; and, when the daemon closed the connection, nothing torn and nothing
// left open. A broken promise aborts with fatalError so libFuzzer saves the input as a crash: this file
// is compiled only into the fuzz binaries.

import WireInvariants

struct ClientStreamInvariants {
    private var checker: ClientStreamChecker

    init(name: String) { checker = ClientStreamChecker(name: name) }

    /// Bytes the client read, in order.
    mutating func read(_ bytes: UnsafeRawBufferPointer) {
        if let v = checker.read(bytes).first { fatalError(v.description) }
    }

    /// The daemon closed the connection once its last lines were written: nothing is torn, nothing open.
    mutating func closedByDaemon() {
        if let v = checker.finish(closedByDaemon: true).first { fatalError(v.description) }
    }
}
