
import Foundation
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// `libinput record` files the reader refuses: each error names its line.
final class LibinputRecordReaderErrorTests: LibinputRecordTestCase {
    // MARK: Errors, each at its line

    func testUnsupportedVersion() {
        assertError("# recorded yesterday\n\nversion: 2\nndevices: 1\ndevices:\n", line: 3, .unsupportedVersion("2"))
        assertError("version: \"1.1\"\n", line: 1, .unsupportedVersion("1.1"))
    }

    func testNotARecord() {
        assertError("# EVEMU 1.3\nN: Foo\n", line: 2, .unknownFormat)
        assertError("\n\nndevices: 1\nversion: 1\n", line: 3, .unknownFormat)
    }

    func testMalformedEventLines() {
        // touchRecord's events start at line 14; the frame's first event is line 15.
        let frame = "  - evdev:\n    - [0, 0, 3, 57, 12]\n"
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 1, 2]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 70000, 57, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 65536, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 2147483648]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, -2147483649]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 99999999999999999999999]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 1000000, 3, 57, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [-1, 0, 3, 57, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, x57, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 1] junk\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - {time: 0}\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 1\n    - [0, 0, 0, 0, 0]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "      [0, 0, 3, 57, 1]\n"), line: 16)
        // A good line after the bad one does not change where the error is.
        assertMalformed(touchRecord(events: frame + frame + "    - [0, 0, 3]\n" + frame), line: 18)
    }

    func testMalformedDescriptionLines() {
        func record(_ evdev: String) -> String {
            "version: 1\ndevices:\n- evdev:\n    name: \"T\"\n\(evdev)\n"
        }
        // Line 5 is the first line of `evdev`.
        assertMalformed(record("    id: [1, 2, 3]"), line: 5)
        assertMalformed(record("    id: [1, 2, 3, 65536]"), line: 5)
        assertMalformed(record("    id: 1, 2, 3, 4"), line: 5)
        assertMalformed(record("    codes:\n      3: [0, 1]\n      x: [2]"), line: 7)
        assertMalformed(record("    codes:\n      3 [0, 1]"), line: 6)
        assertMalformed(record("    codes:\n      3: [0, 70000]"), line: 6)
        assertMalformed(record("    codes:\n      3: [0, 1]\n        4: [1]"), line: 7)
        assertMalformed(record("    codes:\n      3: [53]\n    absinfo:\n      53: [0, 100, 0, 0]"), line: 8)
        assertMalformed(record("    codes:\n      3: [53]\n    absinfo:\n      53: [0, 4294967296, 0, 0, 0]"), line: 8)
        assertMalformed(record("    codes:\n      3: [53]\n    absinfo:\n      53: 0, 100"), line: 8)
        assertMalformed(record("    codes:\n      3: [53]\n    properties: [a]"), line: 7)
    }

    func testDeviceCountMismatch() throws {
        var text = String(decoding: try fixtureBytes(), as: UTF8.self)
        text = text.replacingOccurrences(of: "ndevices: 2", with: "ndevices: 3")
        assertMalformed(text, line: 5)
    }

    func testNoTouchDevice() {
        assertError(
            """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "Keyboard"
                codes:
                  1: [30]
              events:
              - evdev:
                - [0, 0, 1, 30, 1]
            """, line: 0, .noTouchDevice)
        assertError("version: 1\ndevices: []\n", line: 0, .noTouchDevice)
        assertError("version: 1\ndevices: []\n", device: 0, line: 0, .noSuchDevice(index: 0, count: 0))
    }

    func testDeviceWithoutDescription() {
        assertMalformed("version: 1\ndevices:\n- node: /dev/input/event1\n  events:\n- evdev:\n    name: x\n", line: 3)
    }

    func testEmptyFile() {
        assertError([UInt8](), line: 0, .truncated("the file is empty"))
        assertError("\n  \n# only a comment\n\r\n", line: 0, .truncated("the file is empty"))
    }

    func testTruncatedFiles() throws {
        // Cut in the middle of an event line: the line with no newline is where the file ends.
        let fixture = try fixtureBytes()
        let text = String(decoding: fixture, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cutLine = try XCTUnwrap(lines.firstIndex { $0.contains("[  0,  30367,   3,  58,") }) + 1
        let cutAt = try XCTUnwrap(text.range(of: "[  0,  30367,   3,  58,"))
        assertTruncated(Array(text[..<cutAt.upperBound].utf8), line: cutLine)

        // Ends before the devices list, after `devices:`, inside a device, after `- evdev:`.
        assertTruncated(Array("version: 1\nndevices: 1\nlibinput:\n  version: \"1.22.0\"\n".utf8), line: 4)
        assertTruncated(Array("version: 1\nndevices: 1\ndevices:\n".utf8), line: 3)
        assertTruncated(
            Array("version: 1\ndevices:\n- node: /dev/input/event5\n  evdev:\n    name: \"T\"\n".utf8), line: 5)
        assertTruncated(Array("version: 1\ndevices:\n- node: /dev/input/event5\n  evdev:\n".utf8), line: 4)
        assertTruncated(Array(touchRecord(events: "  - evdev:\n").utf8), line: 14)
        assertTruncated(Array(touchRecord(events: "  - evdev:\n# a comment\n").utf8), line: 15)
        assertTruncated(Array("version: 1\ndevices:\n- evdev:\n    name: \"Touch".utf8), line: 4)
        assertTruncated(Array("version: 1\ndevices:\n- evdev:\n    name: T\n    codes:\n      3: [53, 5".utf8), line: 6)
    }

    func testEveryPrefixOfTheFixtureParsesOrThrows() throws {
        let fixture = try fixtureBytes()
        var parsed = 0
        for end in 0...fixture.count {
            let prefix = Array(fixture[..<end])
            if (try? read(prefix)) != nil { parsed += 1 }
            _ = LibinputRecordReader.looksLikeRecord(prefix)
        }
        XCTAssertGreaterThan(parsed, 0)  // prefixes that end after a complete touchscreen event line
    }

    func testGarbageNeverCrashes() throws {
        assertError([0x00, 0x00, 0x0a, 0xff], line: 1, .unknownFormat)
        assertError([0xc3, 0x28, 0x0a, 0xa0, 0xa1], line: 1, .unknownFormat)
        assertError("version: 1\n\u{0}\u{0}\n", line: 2, .malformedLine("expected a top-level `key: value`"))

        // Invalid UTF-8 inside a name is replaced, not trusted.
        var name = Array("version: 1\ndevices:\n- evdev:\n    name: \"".utf8)
        name += [0xff, 0xc3, 0x00, 0x80]
        name += Array("\"\n    codes:\n      3: [53]\n".utf8)
        XCTAssertEqual(try read(name).device.name.unicodeScalars.count, 4)

        // Deterministic mutations of the fixture, each confined to one event line: bytes of line `k` after
        // its `    - [` replaced by hostile ones (no `\n` or `\r`, so lines stay where they were). Every
        // other line is as it was and line `k` is still an event item, so a file that no longer reads
        // fails at line `k`.
        let fixture = try fixtureBytes()
        let hostile: [UInt8] = [0x00, 0x20, 0x09, 0x22, 0x23, 0x2d, 0x3a, 0x5b, 0x5d, 0x2c, 0x39, 0xff, 0x80]
        let lineStarts = [0] + fixture.indices.filter { fixture[$0] == 0x0a }.map { $0 + 1 }.dropLast()
        let eventLines = lineStarts.indices.filter { fixture[lineStarts[$0]...].starts(with: Array("    - [".utf8)) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        var failed = 0
        for _ in 0..<400 {
            let k = eventLines[next() % eventLines.count]
            let start = lineStarts[k]
            let end = fixture[start...].firstIndex(of: 0x0a) ?? fixture.count
            var bytes = fixture
            let item = "    - [".utf8.count
            for _ in 0..<(1 + next() % 8) { bytes[start + item + next() % (end - start - item)] = hostile[next() % hostile.count] }
            do {
                _ = try read(bytes, device: next() % 3 == 0 ? nil : next() % 2)
            } catch {
                failed += 1
                XCTAssertEqual(error.file, "test.yml")
                XCTAssertEqual(
                    error.line, k + 1,
                    "line \(k + 1) made \(String(decoding: bytes[start..<end], as: UTF8.self).debugDescription): \(error)")
            }
            _ = LibinputRecordReader.looksLikeRecord(bytes)
        }
        XCTAssertGreaterThan(failed, 100, "the mutations broke too few lines to prove anything")

        // Lines duplicated elsewhere: the reader refuses or reads, and never traps.
        for _ in 0..<100 {
            var bytes = fixture
            let from = next() % bytes.count
            let length = min(bytes.count - from, next() % 200)
            bytes.insert(contentsOf: bytes[from..<(from + length)], at: next() % bytes.count)
            _ = try? read(bytes, device: next() % 3 == 0 ? nil : next() % 3)
        }

        // Random bytes.
        for _ in 0..<200 {
            var bytes: [UInt8] = []
            for _ in 0..<(next() % 300) { bytes.append(UInt8(truncatingIfNeeded: next())) }
            _ = try? read(bytes)
            _ = try? read(Array("version: 1\ndevices:\n".utf8) + bytes)
            _ = LibinputRecordReader.looksLikeRecord(bytes)
        }
    }
}
