@testable import PressureCore
@testable import PressureHub
import TestSupport

/// A client of the hub as the loop serves it, for the stream tests: requests in, and what is queued for it
/// read as its socket would, into a ``ClientStream`` that checks the protocol's promises.
extension Hub {
    mutating func request(_ c: Int, _ json: String) {
        receive(client: c, line: Array(json.utf8)[...], now: Timestamp(microseconds: 0))
    }

    mutating func read(_ c: Int, into stream: inout ClientStream) {
        var bytes: [UInt8] = []
        drain(client: c) { b in
            bytes += b
            return b.count
        }
        stream.take(String(decoding: bytes, as: UTF8.self))
    }
}
