import PressureProtocol
import XCTest

/// The protocol's framing: lines across reads, several in one, the bound on an unfinished line, and reads
/// that fill less than they were offered.
final class LineBufferTests: XCTestCase {
    func lines(_ chunks: [String], maximumLine: Int = 64) -> (lines: [String], fits: [Bool]) {
        var buffer = LineBuffer(maximumLine: maximumLine)
        var got: [String] = []
        var fits: [Bool] = []
        for chunk in chunks {
            let bytes = Array(chunk.utf8)
            fits.append(bytes.withUnsafeBytes { raw in
                buffer.append(raw) { got.append(String(decoding: $0, as: UTF8.self)) }
            })
        }
        return (got, fits)
    }

    func testLinesAcrossChunksAndSeveralInOne() {
        let r = lines(["{\"a\":", "1}\n{\"b\":2}\n{\"c\"", ":3}\n\n"])
        XCTAssertEqual(r.lines, ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}", ""])
        XCTAssertEqual(r.fits, [true, true, true])
    }

    func testAnUnfinishedLineOverTheBoundDoesNotFit() {
        let r = lines([String(repeating: "x", count: 8), String(repeating: "y", count: 3), "\nok\n"], maximumLine: 10)
        XCTAssertEqual(r.fits, [true, false, false], "over 10 unfinished bytes, and still over once a newline ends it")
        XCTAssertEqual(r.lines, [], "never handed over")
    }

    /// The bound is the same whether the line's newline comes in the read that brings the line or in a
    /// later one (a blank line too, and `\r` counts).
    func testALineOverTheBoundDoesNotFitHoweverItIsSplit() {
        let over = String(repeating: " ", count: 11)
        for chunks in [["ok\n" + over + "\nafter\n"], ["ok\n" + over, "\nafter\n"], ["ok\n" + String(repeating: " ", count: 10) + "\r\nafter\n"]] {
            let r = lines(chunks, maximumLine: 10)
            XCTAssertEqual(r.fits.last, false, "\(chunks)")
            XCTAssertEqual(r.lines, ["ok"], "neither the long line nor what follows it: \(chunks)")
        }
        let exact = lines([String(repeating: " ", count: 9) + "\r\n"], maximumLine: 10)
        XCTAssertEqual(exact.fits, [true])
        XCTAssertEqual(exact.lines.map(\.count), [10])
    }

    func testReceiveKeepsOnlyWhatWasWritten() {
        var buffer = LineBuffer(maximumLine: 64)
        var got: [String] = []
        for piece in ["ab", "", "c\nd"] {
            let bytes = Array(piece.utf8)
            let fits = buffer.receive(upTo: 16, { space in
                XCTAssertEqual(space.count, 16)
                space.copyBytes(from: bytes)
                return bytes.count
            }) { got.append(String(decoding: $0, as: UTF8.self)) }
            XCTAssertTrue(fits)
        }
        XCTAssertEqual(got, ["abc"])
        XCTAssertEqual(buffer.unfinishedCount, 1, "the 16 offered bytes shrink to what was written: 'd'")
    }
}
