import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// ``CaptureStream``: a capture streamed at any chunk size reads and replays exactly as it does whole, and
/// fails exactly as it does whole.
final class CaptureStreamTests: XCTestCase {
    static let chunkSizes = [1, 2, 7, 64, 4096]

    var fixtureNames: [String] {
        get throws {
            try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.fixtures.path)
                .filter { n in [".evemu", ".yml", ".evtest.txt", ".getevent.txt"].contains { n.hasSuffix($0) } }.sorted()
        }
    }

    /// A stream of `bytes` read `chunkSize` bytes at a time.
    func open(
        _ bytes: [UInt8], file: String, chunkSize: Int, firstPass: CaptureStream.FirstPass = .wholeFile,
        description: DeviceDescription? = nil, deviceIndex: Int? = nil
    ) throws(CaptureError) -> CaptureStream {
        try CaptureReader.open(
            CaptureLines(file: file, source: CaptureMemorySource(bytes, chunkSize: chunkSize), chunkSize: chunkSize),
            description: description, deviceIndex: deviceIndex, firstPass: firstPass)
    }

    /// What reading `bytes` whole gives, or its error's text.
    func whole(_ bytes: [UInt8], file: String, description: DeviceDescription? = nil, deviceIndex: Int? = nil)
        -> Result<Capture, CaptureError>
    {
        Result { () throws(CaptureError) in
            try CaptureReader.read(bytes, file: file, description: description, deviceIndex: deviceIndex)
        }
    }

    func testEveryFixtureStreamsToTheEventsItReadsToWhole() throws {
        for name in try fixtureNames {
            let bytes = try FixtureFiles.bytes(FixtureFiles.fixtures.appendingPathComponent(name))
            let expected = try whole(bytes, file: name).get()
            for chunk in Self.chunkSizes {
                let got = try open(bytes, file: name, chunkSize: chunk).readAll()
                XCTAssertEqual(got.device, expected.device, "\(name), chunk \(chunk)")
                XCTAssertEqual(got.assumptions, expected.assumptions, "\(name), chunk \(chunk)")
                XCTAssertEqual(got.events, expected.events, "\(name), chunk \(chunk)")
            }
        }
    }

    /// The goldens, replayed from streams: a batch at a time through ``CaptureReplay``, at every chunk size
    /// and with either first pass.
    func testEveryFixtureReplaysFromAStreamToItsGolden() throws {
        for name in try fixtureNames {
            let bytes = try FixtureFiles.bytes(FixtureFiles.fixtures.appendingPathComponent(name))
            let golden = try String(
                contentsOf: FixtureFiles.goldens.appendingPathComponent(name + ".jsonl"), encoding: .utf8)
            for chunk in [1, 64, CaptureLines.defaultChunkSize] {
                for firstPass in [CaptureStream.FirstPass.wholeFile, .header] {
                    let stream = try open(bytes, file: name, chunkSize: chunk, firstPass: firstPass)
                    XCTAssertEqual(stream.isChecked, firstPass == .wholeFile || !name.hasSuffix(".evemu"), name)
                    let lines = try replay(stream, node: "replay:Tests/Fixtures/\(name)")
                    XCTAssertEqual(lines.joined(separator: "\n") + "\n", golden, "\(name), chunk \(chunk), \(firstPass)")
                }
            }
        }
    }

    /// The JSON lines a replay of `stream` gives with touches, as the goldens hold them.
    func replay(_ stream: CaptureStream, node: String) throws -> [String] {
        var pipeline = try FixtureFiles.productPipeline(
            Capture(source: stream.source, device: stream.device, events: []), touches: true)
        var replay = try CaptureReplay(stream)
        var lines: [String] = []
        try CaptureReplay.run(&replay, through: &pipeline, deliver: { out, _ in lines += out.map(WireFormat.line) },
                              announce: { p in
            var info = DeviceInfo(id: p.deviceID, node: node, pipeline: p)
            info.assumed = stream.assumptions
            lines.append(ServerMessage.device(change: .changed, info).line)
        })
        XCTAssertTrue(replay.isChecked)
        return lines
    }

    /// Broken files fail streamed as they fail whole: the same file, line and words, at every chunk size.
    func testBrokenFilesFailTheSameAtEveryChunkSize() throws {
        let peek = try String(contentsOf: FixtureFiles.fixtures.appendingPathComponent("peek-pop.evemu"), encoding: .utf8)
        let record = try String(
            contentsOf: FixtureFiles.fixtures.appendingPathComponent("elan-two-devices.yml"), encoding: .utf8)
        let evtest = try String(
            contentsOf: FixtureFiles.fixtures.appendingPathComponent("two-sessions.evtest.txt"), encoding: .utf8)
        var lines = peek.split(separator: "\n", omittingEmptySubsequences: false)
        let half = lines.prefix(lines.count / 2).joined(separator: "\n")
        lines[lines.count - 10] = "E: 1.5 0003 zz 12"
        let lastEvent = try XCTUnwrap(record.range(of: "- [", options: .backwards))
        var cases: [(String, String, String)] = [
            ("empty.evemu", "", "empty.evemu: not a capture this reader knows: evemu (1.1–1.3), libinput record (version 1), evtest output or Android getevent -lt/-t"),
            ("bad-line.evemu", lines.joined(separator: "\n"), "bad-line.evemu:\(lines.count - 9): expected an event `E: <seconds>.<micros> <type hex> <code hex> <value>`, got `E: 1.5 0003 zz 12`"),
            ("cut.evemu", half + "\nE: 1.", "cut.evemu:\(lines.count / 2 + 1): expected an event `E: <seconds>.<micros> <type hex> <code hex> <value>`, got `E: 1.`"),
            ("v9.evemu", "# EVEMU 9.0\nN: x\n", "v9.evemu:1: unsupported capture version EVEMU 9.0"),
            ("events-only.evemu", "E: 0.000001 0003 0035 10\n", "events-only.evemu: no device description in this file (give one with --desc FILE)"),
            ("cut.yml", String(record[..<lastEvent.upperBound]) + "  0,  506", "cut.yml:\(record[..<lastEvent.upperBound].split(separator: "\n", omittingEmptySubsequences: false).count): truncated file: the last line is cut off: an event `- [sec, usec, type, code, value]`"),
            ("cut.evtest.txt", evtest + "Event: time 1.000000, type 3 (EV_ABS), code 57", "cut.evtest.txt:\(evtest.split(separator: "\n", omittingEmptySubsequences: false).count): event line cut short at the end of the file: expected `Event: time <seconds>.<micros>, type <n> (<name>), code <n> (<name>), value <n>`, got `Event: time 1.000000, type 3 (EV_ABS), code 57`"),
        ]
        let getevent = try String(
            contentsOf: FixtureFiles.fixtures.appendingPathComponent("two-devices.getevent.txt"), encoding: .utf8)
        let middle: [(String, String, Int, String)] = [
            ("bad.getevent.txt", getevent, 150, "[      81.000000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          zz"),
            ("bad.evtest.txt", evtest, 59, "Event: time 1587922486.180000, type 3 (EV_ABS), code 58 (ABS_MT_PRESSURE), value x"),
            ("bad.yml", record, 108, "    - [  0,      0,   3,  zz,      10]"),
        ]
        for (file, text, line, replacement) in middle {
            var cut = text.split(separator: "\n", omittingEmptySubsequences: false)
            cut[line - 1] = Substring(replacement)
            cases.append((file, cut.joined(separator: "\n"), ""))
            // Whole, the error names that line; streamed it must name the same (checked below).
            guard case .failure(let e) = whole(Array(cases[cases.count - 1].1.utf8), file: file) else {
                XCTFail("\(file) reads whole with line \(line) broken")
                continue
            }
            XCTAssertEqual(e.file, file)
            XCTAssertEqual(e.line, line, "\(e)")
        }
        for (file, text, words) in cases {
            let bytes = Array(text.utf8)
            guard case .failure(let expected) = whole(bytes, file: file) else {
                XCTFail("\(file) reads whole")
                continue
            }
            if !words.isEmpty { XCTAssertEqual("\(expected)", words, file) }
            for chunk in Self.chunkSizes {
                for firstPass in [CaptureStream.FirstPass.wholeFile, .header] {
                    XCTAssertThrowsError(try readStreamed(bytes, file: file, chunkSize: chunk, firstPass: firstPass)) {
                        XCTAssertEqual($0 as? CaptureError, expected, "\(file), chunk \(chunk), \(firstPass)")
                    }
                }
            }
        }
    }

    /// Every event of a stream, read as a replay reads it, with the rest checked after the first batch
    /// where it is not yet.
    func readStreamed(_ bytes: [UInt8], file: String, chunkSize: Int, firstPass: CaptureStream.FirstPass) throws
        -> [InputEvent]
    {
        var replay = try CaptureReplay(open(bytes, file: file, chunkSize: chunkSize, firstPass: firstPass))
        var events: [InputEvent] = []
        while !replay.isFinished {
            events += try replay.take()
            try replay.checkRest()
        }
        return events
    }

    func testCRLFAndAMissingLastNewlineReadAsTheirUnixTwin() throws {
        let unix = try FixtureFiles.bytes(FixtureFiles.fixtures.appendingPathComponent("peek-pop.evemu"))
        let expected = try whole(unix, file: "f").get()
        var dos: [UInt8] = []
        for b in unix {
            if b == 0x0a { dos.append(0x0d) }
            dos.append(b)
        }
        for chunk in [1, 3, 64] {
            XCTAssertEqual(try open(dos, file: "f", chunkSize: chunk).readAll().events, expected.events)
            XCTAssertEqual(try open(Array(unix.dropLast()), file: "f", chunkSize: chunk).readAll().events, expected.events)
        }
    }

    /// Read with its header only first, an evemu stream is checked as it is read: ``CaptureStream/isChecked``
    /// only at the end or after ``CaptureStream/checkRest()``, which finds what is wrong ahead and leaves the
    /// stream where it was.
    func testAStreamCheckedAsItReadsFindsWhatIsAheadOnlyWhenAsked() throws {
        let text = "N: t\nA: 35 0 100 0 0 0\n" + (1...3000).map { "E: 0.\(String(format: "%06d", $0)) 0000 0000 0\n" }.joined()
        let bytes = Array((text + "E: bad\n").utf8)
        var stream = try open(bytes, file: "t.evemu", chunkSize: 64, firstPass: .header)
        XCTAssertNil(stream.eventCount)
        XCTAssertFalse(stream.isChecked)
        var events: [InputEvent] = []
        try stream.read(into: &events)
        XCTAssertGreaterThanOrEqual(events.count, CaptureStream.batch)
        XCTAssertThrowsError(try stream.checkRest()) { error in
            XCTAssertEqual("\(error)", "t.evemu:3003: expected an event `E: <seconds>.<micros> <type hex> <code hex> <value>`, got `E: bad`")
        }
        // Without the bad line: checked ahead, then read on from where it was, to every event.
        var good = try open(Array(text.utf8), file: "t.evemu", chunkSize: 64, firstPass: .header)
        events = []
        try good.read(into: &events)
        try good.checkRest()
        XCTAssertTrue(good.isChecked)
        while !good.isFinished { try good.read(into: &events) }
        XCTAssertEqual(events.map(\.time.microseconds), Array(1...3000).map(Int64.init))
    }

    /// A header line after an event: read whole first, it is part of the description; read with the
    /// header only, the stream says so (whoever reads it so reads it again whole).
    func testAHeaderLineAfterTheEventsIsTheDescriptionsOrAnError() throws {
        let text = "N: late\nA: 35 0 100 0 0 0\nE: 0.000001 0003 0035 10\nE: 0.000002 0000 0000 0\nA: 36 0 50 0 0 0\n"
        let bytes = Array(text.utf8)
        let stream = try open(bytes, file: "late.evemu", chunkSize: 8)
        XCTAssertEqual(stream.device.axis(AbsCode.mtPositionY)?.maximum, 50)
        XCTAssertEqual(stream.eventCount, 2)
        XCTAssertThrowsError(try readStreamed(bytes, file: "late.evemu", chunkSize: 8, firstPass: .header)) { error in
            XCTAssertEqual((error as? CaptureError)?.reason, .headerAfterEvents)
            XCTAssertEqual((error as? CaptureError)?.line, 5)
        }
        // With --desc the file's header does not count: no error, and no need to read ahead.
        let given = DeviceDescription(name: "given", absInfo: [AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 9)])
        var described = try open(bytes, file: "late.evemu", chunkSize: 8, firstPass: .header, description: given)
        XCTAssertEqual(described.device, given)
        var events: [InputEvent] = []
        while !described.isFinished { try described.read(into: &events) }
        XCTAssertEqual(events.count, 2)
        // No header before the first event: read whole first, whatever was asked.
        let headerLast = Array("E: 0.000001 0003 0035 10\nN: x\nA: 35 0 9 0 0 0\n".utf8)
        let late = try open(headerLast, file: "h.evemu", chunkSize: 8, firstPass: .header)
        XCTAssertTrue(late.isChecked)
        XCTAssertEqual(late.device.name, "x")
    }

    /// `libinput record`: the second pass goes back to each `events:` block of the chosen device, which may
    /// be the first key of its item and may come twice.
    func testALibinputDevicesEventBlocksAreFoundAgain() throws {
        let text = """
            version: 1
            devices:
            - events:
              - evdev:
                - [  0,      1,   3,  53,   10] # before the description
              evdev:
                name: "t"
                codes:
                  3: [53, 54]
                absinfo:
                  53: [0, 100, 0, 0, 0]
                  54: [0, 100, 0, 0, 0]
              events:
              - evdev:
                - [  0,      2,   3,  53,   11]
                - [  0,      3,   0,   0,    0]
                libinput:
                - {time: 0.000003}
              - evdev:
                - [  0,      4,   3,  54,   12]

            """
        let bytes = Array(text.utf8)
        let expected = try whole(bytes, file: "t.yml").get()
        XCTAssertEqual(expected.events.map(\.time.microseconds), [1, 2, 3, 4])
        for chunk in Self.chunkSizes {
            let stream = try open(bytes, file: "t.yml", chunkSize: chunk)
            XCTAssertEqual(stream.eventCount, 4)
            XCTAssertEqual(try stream.readAll().events, expected.events, "chunk \(chunk)")
        }
    }

    /// A source whose bytes change once something seeks into the middle, as a `libinput record` file's
    /// second pass does: a file overwritten while it replays.
    struct ChangingSource: CaptureByteSource {
        var current: CaptureMemorySource
        let after: [UInt8]

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int {
            try current.read(into: buffer)
        }

        mutating func seek(to offset: Int) throws(CaptureError) {
            if offset > 0 { current = CaptureMemorySource(after, chunkSize: 16) }
            try current.seek(to: offset)
        }
    }

    func testAFileThatChangesBetweenThePassesIsAnError() throws {
        let record = try FixtureFiles.bytes(FixtureFiles.fixtures.appendingPathComponent("elan-two-devices.yml"))
        let source = ChangingSource(current: CaptureMemorySource(record, chunkSize: 16), after: Array(record.prefix(200)))
        let stream = try CaptureReader.open(CaptureLines(file: "c.yml", source: source, chunkSize: 16))
        XCTAssertThrowsError(try stream.readAll()) { error in
            XCTAssertTrue("\(error)".hasPrefix("c.yml:"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("the file changed after it was first read: `events:` is no longer here"), "\(error)")
        }
    }
}
