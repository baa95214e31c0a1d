// The promises the wire format makes to apps, checked event by event inside the fuzz harnesses by the
// checker the tests use too (Tests/WireInvariants, built by tools/fuzz as a module of its own). A broken
// promise aborts with fatalError so libFuzzer saves the input as a crash: this file is compiled only into
// the fuzz binaries, never into the daemon.

import PressureCore
import WireInvariants

struct FuzzInvariants {
    var checker: WireInvariantChecker

    /// `touches`: see ``WireInvariantChecker/touches``.
    init(name: String, touches: Bool = true) {
        checker = WireInvariantChecker(name: name, touches: touches)
    }

    /// One output event.
    mutating func see(_ e: PressureEvent) {
        if let v = checker.see(e).first { fatalError(v.description) }
    }

    /// At the end of a stream (after cancelAll): every contact ended once, every peek ended.
    func finish() {
        if let v = checker.finish().first { fatalError(v.description) }
    }
}
