// libFuzzer target: the web bridge's WebSocket frame parser and what sits on it. Any page (and any local
// process that can reach the port) sends any bytes, so they must become frames and messages, or a
// protocol error naming its close code, never a crash; and the session on top must stay bounded.
//
// Checked on every input:
// - the decoder gives the same frames (and the same error) fed all at once as fed in pieces;
// - no frame is over the cap, control frames are final and at most 125 bytes;
// - every text message is valid UTF-8 by Swift's own decoder (a second opinion on UTF8Validator);
// - every frame re-encoded (masked) decodes to itself;
// - the request head parser, given the same bytes, never reads past them;
// - a WebSocketSession fed the messages keeps its queue within capacity plus the final reserve.

import PressureProtocol
import PressureWebBridge
import PressureWebSocket

let cap = 4096

func decode(_ bytes: UnsafeBufferPointer<UInt8>, pieces: Int) -> ([WebSocketFrame], WebSocketProtocolError?) {
    var decoder = FrameDecoder(decoding: .client, maximumPayload: cap)
    var frames: [WebSocketFrame] = []
    let step = max(1, bytes.count / max(1, pieces))
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + step)
        decoder.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
        start = end
        do {
            while let f = try decoder.next() { frames.append(f) }
        } catch {
            return (frames, error)
        }
    }
    return (frames, nil)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let pieces = Int(data[0] % 17) + 1
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)

    let (whole, wholeError) = decode(bytes, pieces: 1)
    let (split, splitError) = decode(bytes, pieces: pieces)
    if whole != split || wholeError != splitError { fatalError("frames differ when the bytes arrive in \(pieces) pieces") }

    var assembler = MessageAssembler(maximumMessage: cap)
    var session = WebSocketSession(
        filter: RequestFilter(grant: OriginGrant(origin: "http://localhost:8765", app: "org.example.fuzz")),
        queueCapacity: 16 * 1024, pingIntervalSeconds: 30, now: 0)
    var now: Int64 = 0
    for frame in whole {
        if frame.payload.count > cap { fatalError("frame over the cap") }
        if frame.opcode.isControl && (!frame.fin || frame.payload.count > 125) { fatalError("bad control frame") }
        var encoded: [UInt8] = []
        FrameEncoder.append(opcode: frame.opcode, fin: frame.fin, payload: frame.payload, maskKey: (1, 2, 3, 4), to: &encoded)
        var again = FrameDecoder(decoding: .client, maximumPayload: cap)
        again.append(encoded)
        guard let back = try? again.next(), back == frame else { fatalError("a frame does not survive re-encoding") }

        now += 1000
        let event: WebSocketSession.Event
        do {
            guard let message = try assembler.receive(frame) else { continue }
            if case .text(let text) = message, String(validating: text, as: UTF8.self) == nil {
                fatalError("a text message that is not UTF-8")
            }
            event = .message(message)
        } catch {
            event = .protocolError(error)
        }
        _ = session.handle(event, now: now)
        // The daemon's answer to every request, as lines the session queues for the page.
        _ = session.handle(.daemonLine(Array(#"{"type":"reply","request":"ping"}"#.utf8)[...]), now: now)
        if session.queue.pendingCount > 16 * 1024 + 512 { fatalError("the queue grew past its bound") }
    }

    let parsed: Result<(head: HTTPRequestHead, length: Int)?, HTTPRequestError> = Result {
        () throws(HTTPRequestError) in try HTTPRequestHead.parse(bytes, limit: 8192)
    }
    if case .success(let r?) = parsed {
        if r.length > bytes.count { fatalError("the head parser read past the input") }
        _ = WebSocketHandshake.isUpgradeRequest(r.head)
        _ = try? WebSocketHandshake.validate(r.head)
        _ = RequestRouter(configuration: BridgeConfiguration(), files: StaticFiles()).decide(r.head)
    }
    return 0
}
