@testable import PressureCore
@testable import PressureHub
import TestSupport

/// A client of the hub as the loop serves it, for the tests: requests in, and what is queued for it read
/// as its socket would (as lines, or into a ``ClientStream`` that checks the protocol's promises).
extension Hub {
    mutating func request(_ c: Int, _ json: String) {
        receive(client: c, line: Array(json.utf8)[...], now: Timestamp(microseconds: 0))
    }

    /// Everything queued for a client so far, drained as its socket would take it.
    mutating func drainedText(_ c: Int) -> String {
        var bytes: [UInt8] = []
        drain(client: c) { b in
            bytes += b
            return b.count
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func read(_ c: Int, into stream: inout ClientStream) { stream.take(drainedText(c)) }

    /// Everything queued for a client so far, as lines (drained).
    mutating func drainedLines(_ client: Int) -> [String] {
        drainedText(client).split(separator: "\n").map(String.init)
    }
}
