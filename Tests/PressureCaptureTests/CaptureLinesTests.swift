@testable import PressureCapture
@testable import PressureCore
import XCTest

/// ``CaptureLines`` at the edges of its chunks: whatever the chunk size, down to one byte, the lines and
/// blocks it hands out are the file's, and its errors name the file and line.
final class CaptureLinesTests: XCTestCase {
    /// Lines as `(text, hasNewline, number, offset)`, read with `chunkSize` (nil: from memory).
    func lines(_ text: String, chunkSize: Int?) throws -> [(String, Bool, Int, Int)] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { memory in
            let lines = chunkSize.map {
                CaptureLines(file: "t", source: CaptureMemorySource(bytes, chunkSize: $0), chunkSize: $0)
            } ?? CaptureLines(file: "t", memory: memory)
            var got: [(String, Bool, Int, Int)] = []
            while let l = try lines.nextLine() {
                let text = String(decoding: UnsafeBufferPointer(rebasing: lines.bytes[l.start..<l.end]), as: UTF8.self)
                got.append((text, l.hasNewline, l.number, l.offset))
            }
            XCTAssertNil(try lines.nextLine(), "the end stays the end")
            return got
        }
    }

    /// The blocks' bytes, one string each, read with `chunkSize`.
    func blocks(_ text: String, chunkSize: Int) throws -> [String] {
        let lines = CaptureLines(
            file: "t", source: CaptureMemorySource(Array(text.utf8), chunkSize: chunkSize), chunkSize: chunkSize)
        var got: [String] = []
        while let b = try lines.nextBlock() { got.append(String(decoding: b, as: UTF8.self)) }
        return got
    }

    let sample = "N: name\r\nE: 0.000001 0003 0035 10\n\n# comment\nE: 0.000002 0000 0000 0\r\nlast without newline"

    func testEveryChunkSizeGivesTheSameLinesAsMemory() throws {
        let expected = try lines(sample, chunkSize: nil)
        XCTAssertEqual(expected.map(\.0), [
            "N: name\r", "E: 0.000001 0003 0035 10", "", "# comment", "E: 0.000002 0000 0000 0\r",
            "last without newline",
        ])
        XCTAssertEqual(expected.map(\.1), [true, true, true, true, true, false])
        XCTAssertEqual(expected.map(\.2), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(expected.map(\.3), [0, 9, 34, 35, 45, 70])
        for chunk in [1, 2, 3, 5, 8, 13, 64, 1 << 16] {
            let got = try lines(sample, chunkSize: chunk)
            XCTAssertEqual(got.map(\.0), expected.map(\.0), "chunk \(chunk)")
            XCTAssertEqual(got.map(\.1), expected.map(\.1), "chunk \(chunk)")
            XCTAssertEqual(got.map(\.2), expected.map(\.2), "chunk \(chunk)")
            XCTAssertEqual(got.map(\.3), expected.map(\.3), "chunk \(chunk)")
        }
    }

    func testBlocksAreWholeLinesThatMakeUpTheFile() throws {
        for chunk in [1, 2, 3, 7, 20, 64, 1 << 16] {
            let got = try blocks(sample, chunkSize: chunk)
            XCTAssertEqual(got.joined(), sample, "chunk \(chunk)")
            for b in got.dropLast() { XCTAssertEqual(b.utf8.last, 0x0a, "chunk \(chunk): \(b)") }
            XCTAssertTrue(got.last?.hasSuffix("\nlast without newline") ?? false || got.last == "last without newline")
        }
        // A chunk of one byte gives one line a block: every edge is a line's.
        XCTAssertEqual(try blocks(sample, chunkSize: 1).count, 6)
        XCTAssertEqual(try blocks("a\nb\n", chunkSize: 1), ["a\n", "b\n"])
        XCTAssertEqual(try blocks("a\nb\n", chunkSize: 64), ["a\nb\n"])
    }

    func testAnEmptyFileHasNoLinesAndABareNewlineHasOne() throws {
        XCTAssertTrue(try lines("", chunkSize: 1).isEmpty)
        XCTAssertTrue(try lines("", chunkSize: nil).isEmpty)
        XCTAssertTrue(try blocks("", chunkSize: 4).isEmpty)
        let one = try lines("\n", chunkSize: 1)
        XCTAssertEqual(one.count, 1)
        XCTAssertEqual(one.first?.0, "")
        XCTAssertEqual(one.first?.1, true)
    }

    func testRestartGoesBackAndNumbersFromThere() throws {
        let bytes = Array("one\ntwo\nthree\n".utf8)
        let lines = CaptureLines(file: "t", source: CaptureMemorySource(bytes, chunkSize: 3), chunkSize: 3)
        while try lines.nextLine() != nil {}
        try lines.restart(at: 4, lineNumber: 1)
        let two = try XCTUnwrap(try lines.nextLine())
        XCTAssertEqual(two.number, 2)
        XCTAssertEqual(two.offset, 4)
        XCTAssertEqual(lines.position, 8)
        XCTAssertEqual(Array(lines.bytes[two.start..<two.end]), Array("two".utf8))
        try bytes.withUnsafeBufferPointer { memory in
            let m = CaptureLines(file: "t", memory: memory)
            try m.restart(at: 8, lineNumber: 2)
            let three = try XCTUnwrap(try m.nextLine())
            XCTAssertEqual(three.number, 3)
            XCTAssertEqual(Array(m.bytes[three.start..<three.end]), Array("three".utf8))
        }
    }

    func testALineTooLongToBufferIsAnErrorNamingIt() throws {
        var bytes = Array("N: x\nE: 1\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: CaptureLines.maximumLineLength + (1 << 17))
        let lines = CaptureLines(file: "big.evemu", source: CaptureMemorySource(bytes, chunkSize: 1 << 16))
        XCTAssertThrowsError(try { while try lines.nextLine() != nil {} }()) { error in
            XCTAssertEqual("\(error)", "big.evemu:3: a line longer than 1 MiB: not a capture line")
        }
        let blocks = CaptureLines(file: "big.evemu", source: CaptureMemorySource(bytes, chunkSize: 1 << 16))
        XCTAssertThrowsError(try { while try blocks.nextBlock(after: 2) != nil {} }()) { error in
            XCTAssertEqual("\(error)", "big.evemu:3: a line longer than 1 MiB: not a capture line")
        }
    }

    /// A source that fails after some bytes, as a file on a failing disk does.
    struct FailingSource: CaptureByteSource {
        var file = "bad.evemu"
        var bytes: [UInt8]
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int {
            guard !bytes.isEmpty else {
                throw CaptureError(file: file, line: 0, reason: .unreadable("read: Input/output error"))
            }
            let n = min(buffer.count, bytes.count)
            for i in 0..<n { buffer[i] = bytes[i] }
            bytes.removeFirst(n)
            return n
        }
        func seek(to offset: Int) throws(CaptureError) {}
    }

    func testAReadErrorComesOutAsTheSourceWordsIt() throws {
        let lines = CaptureLines(file: "bad.evemu", source: FailingSource(bytes: Array("N: x\nE: 0".utf8)), chunkSize: 4)
        XCTAssertEqual(try lines.nextBlock().map { String(decoding: $0, as: UTF8.self) }, "N: x\n")
        XCTAssertThrowsError(try lines.nextBlock()) { error in
            XCTAssertEqual("\(error)", "bad.evemu: read: Input/output error")
        }
        // Through a reader, the error is the same, not a truncated file.
        let again = CaptureLines(file: "bad.evemu", source: FailingSource(bytes: Array("# EVEMU 1.2\nN: x\n".utf8)))
        XCTAssertThrowsError(try CaptureReader.open(again)) { error in
            XCTAssertEqual("\(error)", "bad.evemu: read: Input/output error")
        }
        let record = CaptureLines(
            file: "bad.yml", source: FailingSource(file: "bad.yml", bytes: Array("version: 1\ndevices:\n".utf8)))
        XCTAssertThrowsError(try CaptureReader.open(record)) { error in
            XCTAssertEqual("\(error)", "bad.yml: read: Input/output error")
        }
    }
}
