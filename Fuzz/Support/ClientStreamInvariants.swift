// What one client of the Hub reads, checked against the promises docs/protocol.md makes for each
// connection, full queues included ("Back-pressure"): every line a whole JSON object; a contact's touch
// events between its one `began` and its one `ended`/`cancelled`; a `pop` or `dismiss` only for a peek it
// was sent, one per peek; nothing after a fatal error; and, when the connection ends on the daemon's side,
// every contact it saw begin and every peek it saw have ended. Compiled only into the
// fuzz binaries: a broken promise is a fatalError, which libFuzzer saves as a crash.
//
// Kept apart from Invariants.swift (the pipeline's outputs, event by event): this one reads the bytes a
// client would read. Tests/TestSupport/ClientStream.swift checks the same promises for the XCTest suites,
// which have Foundation's JSON and report through XCTest rather than crash.

import PressureCore

struct ClientStreamInvariants {
    let name: String
    private var partial: [UInt8] = []
    private var open: Set<String> = []
    private var peeking: Set<String> = []
    private var ended: Set<String> = []
    private var sawFatal = false

    init(name: String) { self.name = name }

    /// Bytes the client read, in order; a line split across reads waits for its end.
    mutating func read(_ bytes: UnsafeRawBufferPointer) {
        partial.append(contentsOf: bytes)
        guard let end = partial.lastIndex(of: 0x0a) else { return }
        var start = 0
        for i in 0...end where partial[i] == 0x0a {
            line(Array(partial[start..<i]))
            start = i + 1
        }
        partial.removeSubrange(0...end)
    }

    /// The daemon closed the connection once its last lines were written: nothing is torn, nothing open.
    func closedByDaemon() {
        if !partial.isEmpty { fatalError("\(name): the stream ended inside a line") }
        if !open.isEmpty { fatalError("\(name): contacts it saw begin never ended: \(open.sorted())") }
        if !peeking.isEmpty { fatalError("\(name): peeks it saw never ended: \(peeking.sorted())") }
    }

    private mutating func line(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let value = try? JSONParser.parse(bytes), value.objectMembers != nil else {
            fatalError("\(name): not a JSON object: \(text)")
        }
        if sawFatal { fatalError("\(name): a line after the fatal error: \(text)") }
        if value["fatal"]?.boolValue == true { sawFatal = true }
        let type = value["type"]?.stringValue ?? ""
        guard type == "touch" || GestureKind(rawValue: type) != nil else { return }
        guard let e = try? PressureEvent(json: value) else { fatalError("\(name): an event that does not decode: \(text)") }
        let key = "\(e.device):\(e.contact)"
        if ended.contains(key) { fatalError("\(name): an event after the contact's end: \(text)") }
        switch e.gesture {
        case .peek?: if !peeking.insert(key).inserted { fatalError("\(name): a second peek: \(text)") }
        case .pop?, .dismiss?: if peeking.remove(key) == nil { fatalError("\(name): no peek to end: \(text)") }
        case .quickActions?, .longPress?, nil: break
        }
        guard let phase = e.phase else { return }
        switch phase {
        case .began:
            if !open.insert(key).inserted { fatalError("\(name): began twice: \(text)") }
        case .moved:
            if !open.contains(key) { fatalError("\(name): moved without began: \(text)") }
        case .ended, .cancelled:
            if open.remove(key) == nil { fatalError("\(name): an end without began: \(text)") }
            ended.insert(key)
        }
    }
}
