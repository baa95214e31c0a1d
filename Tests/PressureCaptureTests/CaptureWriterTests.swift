import DeviceTestSupport
import Foundation
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// The evemu and libinput record writers: what they write reads back through our readers as exactly the
/// description and events that went in, in the shapes evemu and libinput write.
final class CaptureWriterTests: XCTestCase {
    /// Our fixtures and every evemu recording in ../shared/captures (when present).
    func evemuSources() throws -> [URL] {
        let fm = FileManager.default
        var urls = try fm.contentsOfDirectory(atPath: FixtureFiles.fixtures.path).filter { $0.hasSuffix(".evemu") }
            .sorted().map { FixtureFiles.fixtures.appendingPathComponent($0) }
        XCTAssertGreaterThanOrEqual(urls.count, 7)
        let shared = FixtureFiles.sharedCaptures
        if fm.fileExists(atPath: shared.path) {
            urls += try fm.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".evemu") }.sorted()
                .map { shared.appendingPathComponent($0) }
        }
        return urls
    }

    func readEvemu(_ bytes: [UInt8], _ name: String) throws -> Capture {
        try bytes.withUnsafeBufferPointer { try EvemuReader.read($0, file: name) }
    }

    func testEveryEvemuCaptureRoundTripsThroughBothFormats() throws {
        for url in try evemuSources() {
            let name = url.lastPathComponent
            let original = try FixtureFiles.capture(url)
            let evemu = try readEvemu(CaptureWriter.encode(original, format: .evemu), name)
            XCTAssertEqual(evemu.device, original.device, "\(name) evemu description")
            XCTAssertEqual(evemu.events, original.events, "\(name) evemu events")
            let yaml = CaptureWriter.encode(original, format: .libinput, node: "/dev/input/event5")
            XCTAssertTrue(LibinputRecordReader.looksLikeRecord(yaml), name)
            let libinput = try LibinputRecordReader.read(yaml, file: name, deviceIndex: 0)
            XCTAssertEqual(libinput.device, original.device, "\(name) libinput description")
            XCTAssertEqual(libinput.events, original.events, "\(name) libinput events")
        }
    }

    func testALibinputRecordRoundTripsThroughTheLibinputFormat() throws {
        let original = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent("elan-two-devices.yml"))
        XCTAssertNotNil(original.device.codes[EventType.syn], "the fixture lists EV_SYN codes, as libinput does")
        let back = try LibinputRecordReader.read(
            CaptureWriter.encode(original, format: .libinput), file: "back.yml", deviceIndex: 0)
        XCTAssertEqual(back.device, original.device)
        XCTAssertEqual(back.events, original.events)
    }

    func testStreamingInPiecesWritesTheSameBytesAsTheWholeCapture() throws {
        let capture = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent("quick-actions-hold.evemu"))
        for format in RecordingFormat.allCases {
            var writer = CaptureWriter(format: format, description: capture.device, timeBase: .asRecorded)
            var streamed: [UInt8] = []
            writer.header(to: &streamed)
            var piece: [UInt8] = []
            for (i, e) in capture.events.enumerated() {
                writer.append(e, to: &piece)
                if i % 7 == 0 {
                    streamed += piece
                    piece.removeAll()
                }
            }
            streamed += piece
            writer.finish(to: &streamed)
            XCTAssertEqual(streamed, CaptureWriter.encode(capture, format: format), format.rawValue)
        }
    }

    /// A recording cut short after any write (Ctrl-C, kill -9) is still a file the readers take whole.
    func testARecordingCutAfterAnyEventStillParses() throws {
        let capture = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent("peek-pop.evemu"))
        for format in RecordingFormat.allCases {
            var writer = CaptureWriter(format: format, description: capture.device, timeBase: .firstEventAtZero)
            var bytes: [UInt8] = []
            writer.header(to: &bytes)
            for (i, e) in capture.events.enumerated() where i < 40 {
                writer.append(e, to: &bytes)
                let back = format == .evemu
                    ? try readEvemu(bytes, "cut.evemu")
                    : try LibinputRecordReader.read(bytes, file: "cut.yml", deviceIndex: 0)
                XCTAssertEqual(back.events.count, i + 1, "\(format) after \(i + 1) events")
                XCTAssertEqual(back.device, capture.device)
            }
        }
    }

    func testTheFirstEventAtZeroRebasesEveryTime() throws {
        let capture = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent("peek-pop.evemu"))
        let origin = try XCTUnwrap(capture.events.first).time
        XCTAssertGreaterThan(origin.microseconds, 0)
        let back = try readEvemu(CaptureWriter.encode(capture, format: .evemu, timeBase: .firstEventAtZero), "z")
        XCTAssertEqual(back.events.first?.time, Timestamp(microseconds: 0))
        XCTAssertEqual(back.events.map { $0.time.microseconds }, capture.events.map { $0.time.microseconds - origin.microseconds })
    }

    /// The header lines of a real `evemu-record` file (FlatFrog 3200) come out exactly as evemu wrote them;
    /// the one line more is EV_REP's mask, which the libevdev of today lists and the recording's did not.
    func testTheEvemuHeaderIsWhatEvemuRecordWrites() throws {
        let url = FixtureFiles.sharedCaptures.appendingPathComponent("hiddev-flatfrog_25b5_0002_0.evemu")
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("no shared captures") }
        let text = try String(contentsOf: url, encoding: .utf8)
        var expected = text.split(separator: "\n").filter { "NIPBA".contains($0.first ?? "#") && $0.dropFirst().first == ":" }
            .map(String.init)
        let rep = try XCTUnwrap(expected.firstIndex { $0.hasPrefix("B: 15") })
        expected.insert("B: 14 00 00 00 00 00 00 00 00", at: rep)
        let capture = try FixtureFiles.capture(url)
        let written = String(decoding: CaptureWriter.encode(capture, format: .evemu), as: UTF8.self)
        let lines = written.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "# EVEMU 1.3")
        XCTAssertEqual(lines.filter { "NIPBA".contains($0.first ?? "#") && $0.dropFirst().first == ":" }, expected)
        XCTAssertTrue(lines.contains("# Input device ID: bus 0x03 vendor 0x25b5 product 0x02 version 0000"), written)
    }

    func testEventLinesInEachToolsColumns() {
        let device = DeviceDescription(name: "x", codes: [EventType.abs: [AbsCode.mtTrackingID]])
        let events = [
            InputEvent(time: Timestamp(microseconds: 2_000_042), type: EventType.abs, code: AbsCode.mtTrackingID, value: -1),
            InputEvent(time: Timestamp(microseconds: 2_010_042), type: EventType.syn, code: SynCode.report, value: 0),
        ]
        let capture = Capture(source: "x", device: device, events: events)
        let evemu = String(decoding: CaptureWriter.encode(capture, format: .evemu), as: UTF8.self)
        XCTAssertTrue(evemu.contains("\nE: 2.000042 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID       -1\n"), evemu)
        XCTAssertTrue(evemu.contains("\nE: 2.010042 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +2010ms\n"), evemu)
        let yaml = String(decoding: CaptureWriter.encode(capture, format: .libinput), as: UTF8.self)
        XCTAssertTrue(yaml.hasSuffix("""
              events:
              - evdev:
                - [  2,     42,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID       -1
                - [  2,  10042,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +2010ms

            """), yaml)
    }

    func testNamesThatNeedQuotingSurviveBothFormats() throws {
        let name = #"Odd "panel" \ # [1]"#
        let device = DeviceDescription(
            name: name, identity: DeviceIdentity(bus: 3, vendor: 1, product: 2, version: 3), properties: [1],
            codes: [EventType.abs: [AbsCode.x, AbsCode.y]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 100), AbsCode.y: AbsInfo(minimum: -5, maximum: 5)])
        let capture = Capture(source: "x", device: device, events: [])
        XCTAssertEqual(try readEvemu(CaptureWriter.encode(capture, format: .evemu), "n").device, device)
        let yaml = CaptureWriter.encode(capture, format: .libinput)
        XCTAssertEqual(try LibinputRecordReader.read(yaml, file: "n", deviceIndex: 0).device, device)
    }
}
