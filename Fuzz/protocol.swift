// libFuzzer target: the request parser. Any local user in the socket's group can send any bytes, so a
// line must decode to a request or to a ProtocolError (which the daemon sends back), never a crash.

import PressureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // The daemon splits on `\n` before parsing; do the same so multi-line inputs exercise many requests.
    var start = 0
    for i in 0...size where i == size || bytes[i] == 0x0a {
        let line = UnsafeBufferPointer(rebasing: bytes[start..<i])
        switch ClientRequest.parse(line: line) {
        case .success(let (id, _)):
            // The id is echoed into the answer: it must encode.
            if let id {
                var out: [UInt8] = []
                JSONWriter.append(id, to: &out)
            }
        case .failure(let error):
            _ = error.message
        }
        start = i + 1
    }
    return 0
}
