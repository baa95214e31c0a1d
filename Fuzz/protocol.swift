// libFuzzer target: the request parser, and the decoders clients read the daemon's lines with. Any
// local user in the socket's group can send any bytes, so a line must decode to a request or to a
// ProtocolError (which the daemon sends back), never a crash; a request that decodes must come back the
// same through the client's encoder. A client reading an impostor's bytes gets a value or an error.

import PressureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // The daemon splits on `\n` before parsing; do the same so multi-line inputs exercise many requests.
    var start = 0
    for i in 0...size where i == size || bytes[i] == 0x0a {
        let line = UnsafeBufferPointer(rebasing: bytes[start..<i])
        switch ClientRequest.parse(line: line) {
        case .success(let (id, request)):
            // The id is echoed into the answer: it must encode.
            if let id {
                var out: [UInt8] = []
                JSONWriter.append(id, to: &out)
            }
            let again = request.line(id: id)
            guard case .success(let reparsed) = ClientRequest.parse(line: again), reparsed.request == request,
                  reparsed.id == id
            else { fatalError("a request does not survive the client's encoder: \(again)") }
        case .failure(let error):
            _ = error.message
        }
        if let value = try? JSONParser.parse(line) {
            _ = try? ServerMessage(json: value)
            _ = try? PressureEvent(json: value)
            _ = try? RegionTags(json: value)
        }
        start = i + 1
    }
    return 0
}
