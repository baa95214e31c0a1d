import Glibc
import XCTest

@testable import PressureLinux

/// A client's socket on one end of a socketpair: lines assembled across reads, the line limit, hang-ups,
/// and writes that find the peer gone.
final class ClientConnectionTests: XCTestCase {
    var peer: Int32 = -1
    var connection: ClientConnection?

    override func setUpWithError() throws {
        var fds: [Int32] = [-1, -1]
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        XCTAssertEqual(socketpair(AF_UNIX, flags, 0, &fds), 0)
        connection = ClientConnection(fd: fds[0])
        peer = fds[1]
    }

    override func tearDown() {
        connection = nil
        if peer >= 0 { close(peer) }
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        XCTAssertEqual(bytes.withUnsafeBytes { Glibc.send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }, bytes.count)
    }

    /// Reads once; returns the outcome and the lines handed on.
    func read() throws -> (ClientReadOutcome, [String]) {
        let c = try XCTUnwrap(connection)
        var lines: [String] = []
        let outcome = c.read { lines.append(String(decoding: $0, as: UTF8.self)) }
        return (outcome, lines)
    }

    func testNothingSentIsOpenWithNoLines() throws {
        let (outcome, lines) = try read()
        XCTAssertEqual(outcome, .open)
        XCTAssertEqual(lines, [])
    }

    func testLinesAreHandedOnWholeAcrossReads() throws {
        send("{\"a\":1}\n{\"b\"")
        var (outcome, lines) = try read()
        XCTAssertEqual(outcome, .open)
        XCTAssertEqual(lines, ["{\"a\":1}"])
        send(":2}\n\n{\"c\":3}\n")
        (outcome, lines) = try read()
        XCTAssertEqual(outcome, .open)
        XCTAssertEqual(lines, ["{\"b\":2}", "", "{\"c\":3}"])
    }

    func testALineLongerThanReadChunksIsAssembled() throws {
        let long = String(repeating: "x", count: ClientConnection.readChunk * 3 + 17)
        send(long + "\n")
        let (outcome, lines) = try read()
        XCTAssertEqual(outcome, .open)
        XCTAssertEqual(lines, [long])
    }

    func testALineOverTheLimitIsReported() throws {
        let c = try XCTUnwrap(connection)
        var outcome = ClientReadOutcome.open
        var sent = 0
        // The socket buffer takes less than the limit at once: send and read in turns, as the loop would.
        let piece = String(repeating: "y", count: 8192)
        while sent <= ClientConnection.maximumLine && outcome == .open {
            send(piece)
            sent += piece.utf8.count
            outcome = c.read { _ in XCTFail("no line is complete") }
        }
        XCTAssertEqual(outcome, .lineTooLong)
    }

    /// 65,537 spaces: too long whether the last space comes with the newline or before it (the daemon
    /// once skipped the line as blank when both came in one read).
    func testAnOverLongBlankLineIsTooLongWhereverItsNewlineFalls() throws {
        for lastPiece in [" \n", " "] {
            try setUpWithError()
            let c = try XCTUnwrap(connection)
            var handed: [Int] = []
            var outcome = ClientReadOutcome.open
            for _ in 0..<(ClientConnection.maximumLine / 8192) {
                send(String(repeating: " ", count: 8192))
                XCTAssertEqual(c.read { handed.append($0.count) }, .open, "the limit exactly is unfinished, not over")
            }
            send(lastPiece)
            outcome = c.read { handed.append($0.count) }
            if lastPiece == " " && outcome == .open {
                send("\n")
                outcome = c.read { handed.append($0.count) }
            }
            XCTAssertEqual(outcome, .lineTooLong, "last piece \(lastPiece.debugDescription)")
            XCTAssertEqual(handed, [], "the over-long line is not handed on")
            tearDown()
        }
    }

    func testHangUpIsEndOfInputAfterTheLastLines() throws {
        send("last\n")
        close(peer)
        peer = -1
        let (outcome, lines) = try read()
        XCTAssertEqual(outcome, .endOfInput)
        XCTAssertEqual(lines, ["last"])
    }

    /// `nc -N`, `socat`: the request, then `shutdown(SHUT_WR)` at once. The lines come first, and the socket
    /// still takes what the daemon writes back.
    func testHalfCloseIsEndOfInputAndTheSocketStillWrites() throws {
        send("{\"request\":\"ping\"}\nsecond\n")
        XCTAssertEqual(shutdown(peer, Int32(SHUT_WR)), 0)
        let (outcome, lines) = try read()
        XCTAssertEqual(outcome, .endOfInput)
        XCTAssertEqual(lines, ["{\"request\":\"ping\"}", "second"])
        let reply = Array("answer\n".utf8)
        XCTAssertEqual(reply.withUnsafeBytes { try? XCTUnwrap(connection).write($0) }, reply.count)
        var got = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(recv(peer, &got, got.count, 0), reply.count)
    }

    /// A last request without its newline, then end of file: it is a line; blank bytes after the last
    /// newline are not.
    func testWhatFollowsTheLastNewlineAtEndOfFileIsALineUnlessBlank() throws {
        send("{\"request\":\"ping\"}\n{\"request\":\"status\"}")
        XCTAssertEqual(shutdown(peer, Int32(SHUT_WR)), 0)
        var (outcome, lines) = try read()
        XCTAssertEqual(outcome, .endOfInput)
        XCTAssertEqual(lines, ["{\"request\":\"ping\"}", "{\"request\":\"status\"}"])
        close(peer)  // a fresh socketpair for the second case
        try setUpWithError()
        send("{\"request\":\"ping\"}\n \r")
        XCTAssertEqual(shutdown(peer, Int32(SHUT_WR)), 0)
        (outcome, lines) = try read()
        XCTAssertEqual(outcome, .endOfInput)
        XCTAssertEqual(lines, ["{\"request\":\"ping\"}"])
    }

    func testWriteCountsWhatTheSocketTookAndSaysWhenThePeerIsGone() throws {
        let c = try XCTUnwrap(connection)
        let bytes = Array("hello\n".utf8)
        XCTAssertEqual(bytes.withUnsafeBytes { c.write($0) }, bytes.count)
        var got = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(got.withUnsafeMutableBytes { recv(peer, $0.baseAddress, $0.count, 0) }, bytes.count)
        // A full socket buffer takes nothing, without error.
        let big = [UInt8](repeating: 0x41, count: 1 << 16)
        var taken = 0
        while true {
            let n = big.withUnsafeBytes { c.write($0) }
            XCTAssertGreaterThanOrEqual(n, 0)
            if n == 0 { break }
            taken += n
        }
        XCTAssertGreaterThan(taken, 0)
        close(peer)
        peer = -1
        XCTAssertEqual(bytes.withUnsafeBytes { c.write($0) }, -1, "EPIPE: the peer is gone")
    }
}
