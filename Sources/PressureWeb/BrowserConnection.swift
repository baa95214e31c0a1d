import PressureProtocol
import PressureSystem
import PressureWebBridge
import PressureWebSocket

/// One browser's TCP connection, through its phases: the request head arriving, a plain HTTP answer
/// being written (then closed), or an upgraded WebSocket with its own connection to the daemon.
final class BrowserConnection {
    let id: Int
    let socket: StreamSocket
    let peer: String

    enum Phase {
        /// Bytes of the request head so far; refused with 408 at `deadline`.
        case request(buffer: [UInt8], deadline: Int64)
        /// An answer being written; the connection closes once it is out (or at `deadline`).
        case answering(deadline: Int64)
        case webSocket(WebSocketLink)
    }

    var phase: Phase
    /// Bytes that go out before anything queued (the HTTP response, or the 101 before the first frame).
    var head: [UInt8] = []
    var headWritten = 0

    init(id: Int, socket: StreamSocket, peer: String, now: Int64) {
        self.id = id
        self.socket = socket
        self.peer = peer
        phase = .request(buffer: [], deadline: now + Self.requestTimeout)
    }

    /// A browser gets this long to send its request head (a slow-loris peer holds nothing for longer).
    static let requestTimeout: Int64 = 10_000_000
    static let answerTimeout: Int64 = 10_000_000
    static let headLimit = 8192

    var link: WebSocketLink? {
        if case .webSocket(let l) = phase { return l }
        return nil
    }

    var deadline: Int64? {
        switch phase {
        case .request(_, let d), .answering(let d): return d
        case .webSocket(let l): return l.session.deadline
        }
    }

    var hasPendingBytes: Bool {
        headWritten < head.count || !(link?.session.queue.isEmpty ?? true)
    }

    /// Whether the connection is done: an answer written, or a WebSocket closed with its frames out.
    var isFinished: Bool {
        switch phase {
        case .request: return false
        case .answering: return !hasPendingBytes
        case .webSocket(let l): return l.session.isClosed && !hasPendingBytes
        }
    }
}

/// An upgraded connection: the session (decisions), its frame decoding, and the daemon side.
final class WebSocketLink {
    var session: WebSocketSession
    var decoder: FrameDecoder
    var assembler: MessageAssembler
    /// The bridge's connection to the daemon for this page; nil once closed.
    var daemon: StreamSocket?
    var daemonLines = LineBuffer(maximumLine: 1 << 20)
    /// Request lines the daemon's socket did not take yet.
    var toDaemon: [UInt8] = []
    /// The daemon said `bye` (it is stopping, not failing).
    var sawBye = false
    let origin: String

    init(session: WebSocketSession, maximumMessage: Int, daemon: StreamSocket, origin: String) {
        self.session = session
        decoder = FrameDecoder(decoding: .client, maximumPayload: maximumMessage)
        assembler = MessageAssembler(maximumMessage: maximumMessage)
        self.daemon = daemon
        self.origin = origin
    }

    /// The most request bytes that may wait for the daemon before the page is cut off.
    static let toDaemonLimit = 1 << 20
}
