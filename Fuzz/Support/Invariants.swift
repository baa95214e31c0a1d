// The promises the wire format makes to apps (docs/protocol.md), checked event by event inside the fuzz
// harnesses. A broken promise aborts with fatalError so libFuzzer saves the input as a crash: this file
// is compiled only into the fuzz binaries, never into the daemon.
//
// It mirrors Tests/PressureCoreTests/SharedCaptureTests.swift's InvariantChecker, which reports through
// XCTest instead; the two are kept apart because XCTest is not available to a libFuzzer binary.

import PressureCore

struct FuzzInvariants {
    let name: String
    var open: Set<UInt64> = []
    var ended: Set<UInt64> = []
    var peeking: Set<UInt64> = []
    var popped: Set<UInt64> = []

    /// Whether the pipeline emits `touch` events. Without them (a gestures-only pipeline) a contact is
    /// known from its first gesture, and its end cannot be seen, so only the gesture rules are checked.
    let touches: Bool

    init(name: String, touches: Bool = true) {
        self.name = name
        self.touches = touches
    }

    func fail(_ why: String, _ e: PressureEvent) -> Never {
        fatalError("\(name): \(why): \(e)")
    }

    /// One output event.
    mutating func see(_ e: PressureEvent) {
        // Force stays within its bounds: 0...maximumPossibleForce, finite.
        guard e.force.isFinite, e.maximumPossibleForce.isFinite else { fail("non-finite force", e) }
        guard e.force >= 0 else { fail("negative force", e) }
        guard e.force <= e.maximumPossibleForce + 1e-9 else { fail("force above maximumPossibleForce", e) }
        if e.maximumPossibleForce == 0, e.force != 0 { fail("force without force capability", e) }
        if let p = e.progress, !(0...1).contains(p) { fail("progress outside 0...1", e) }
        guard e.screenX.isFinite, e.screenY.isFinite else { fail("non-finite screen position", e) }
        // No event of any kind after a contact ended.
        if ended.contains(e.contact) { fail("event after contact ended", e) }
        if !touches, case .gesture = e.kind { open.insert(e.contact) }
        switch e.kind {
        case .touch(.began):
            if !open.insert(e.contact).inserted { fail("contact began twice", e) }
        case .touch(.moved):
            if !open.contains(e.contact) { fail("moved without began", e) }
        case .touch(.ended), .touch(.cancelled):
            if open.remove(e.contact) == nil { fail("end without began", e) }
            if peeking.contains(e.contact) { fail("contact ended with an open peek", e) }
            ended.insert(e.contact)
        case .gesture(.peek):
            if !open.contains(e.contact) { fail("peek of a contact not down", e) }
            if !peeking.insert(e.contact).inserted { fail("second peek", e) }
            if popped.contains(e.contact) { fail("peek after pop", e) }
        case .gesture(.pop):
            if peeking.remove(e.contact) == nil { fail("pop without peek", e) }
            if !popped.insert(e.contact).inserted { fail("second pop", e) }
        case .gesture(.dismiss):
            if peeking.remove(e.contact) == nil { fail("dismiss without an open peek", e) }
        case .gesture(.quickActions):
            if !peeking.contains(e.contact) { fail("quick actions without an open peek", e) }
        case .gesture(.longPress):
            if !open.contains(e.contact) { fail("long press of a contact not down", e) }
            if peeking.contains(e.contact) { fail("long press while peeking", e) }
        }
    }

    /// At the end of a stream (after cancelAll): every contact ended once, every peek ended.
    func finish() {
        guard touches else { return }
        if !open.isEmpty { fatalError("\(name): contacts never ended: \(open.sorted())") }
        if !peeking.isEmpty { fatalError("\(name): peeks never ended: \(peeking.sorted())") }
    }
}
