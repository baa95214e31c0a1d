import XCTest
@testable import PressureCore
import TestSupport

/// What a device learned survives a restart: the file round-trips, a restored learner carries on exactly
/// as the original would have, and a damaged or foreign file is refused with the reason (the daemon then
/// logs it and learns afresh).
final class LearnedAverageFileTests: XCTestCase {
    let key = LearnedDeviceKey(name: "FlatFrog FlatFrog Multitouch 3200", bus: 3, vendor: 0x25b5, product: 0x0002,
                               pressureMinimum: 0, pressureMaximum: 1024)

    func learner(touches: Int, seed: UInt64 = 5) -> AverageTouchLearner {
        var l = AverageTouchLearner(floor: 0, top: 1024)
        var rng = SplitMix64(state: seed)
        for i in 0..<touches {
            let t = Int64(i) * 800_000
            l.observe(ContactSummary(
                ending: .lifted, peak: Int32.random(in: 250...600, using: &rng), lowest: 20, began: Timestamp(microseconds: t),
                ended: Timestamp(microseconds: t + 90_000), movedBeyondSlop: i % 3 == 0, popped: i % 17 == 0))
        }
        return l
    }

    func testARestoredLearnerCarriesOnAsTheOriginalWould() throws {
        var original = learner(touches: 100)
        var restored = try LearnedAverageFile.decode(LearnedAverageFile.encode(original, for: key), file: "f", for: key)
        XCTAssertEqual(restored.saved, original.saved)
        XCTAssertEqual(restored.estimate, original.estimate)
        // The same next touches give the same estimates (the downward budget restarts with the run).
        var rng = SplitMix64(state: 99)
        for i in 0..<50 {
            let t = Int64(100 + i) * 800_000
            let c = ContactSummary(
                ending: .lifted, peak: Int32.random(in: 200...700, using: &rng), lowest: 20, began: Timestamp(microseconds: t),
                ended: Timestamp(microseconds: t + 90_000), movedBeyondSlop: true)
            XCTAssertEqual(original.observe(c), restored.observe(c))
        }
        XCTAssertEqual(restored.estimate?.average ?? 0, original.estimate?.average ?? 1, accuracy: 1e-9)
    }

    func testAWarmingUpLearnerRoundTripsToo() throws {
        let l = learner(touches: 3)
        let bytes = LearnedAverageFile.encode(l, for: key)
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains(#""average":null"#))
        XCTAssertEqual(try LearnedAverageFile.decode(bytes, file: "f", for: key).saved, l.saved)
    }

    /// A panel found to report its contact size as pressure stays found across a restart; a file written
    /// before size echoes were kept reads as all unseen (the device judges its size afresh).
    func testSizeEchoesRoundTripAndOlderFilesReadAsUnseen() throws {
        var l = AverageTouchLearner(floor: 0, top: 1024)
        for i in 0..<9 {
            let t = Int64(i) * 800_000
            l.observe(ContactSummary(
                ending: .lifted, peak: 128, lowest: 32, began: Timestamp(microseconds: t),
                ended: Timestamp(microseconds: t + 90_000), movedBeyondSlop: true, sizeEcho: i == 0 ? .unseen : .echoed))
        }
        XCTAssertEqual(l.estimate?.pressureIsSize, true)
        let text = String(decoding: LearnedAverageFile.encode(l, for: key), as: UTF8.self)
        XCTAssertTrue(text.contains(#""sizeEcho":[0,1,1,1,1,1,1,1,1]"#), text)
        let restored = try LearnedAverageFile.decode(Array(text.utf8), file: "f", for: key)
        XCTAssertEqual(restored.saved, l.saved)
        XCTAssertEqual(restored.estimate?.pressureIsSize, true)
        let older = text.replacingOccurrences(of: #","sizeEcho":[0,1,1,1,1,1,1,1,1]"#, with: "")
        let fromOlder = try LearnedAverageFile.decode(Array(older.utf8), file: "f", for: key)
        XCTAssertEqual(fromOlder.saved.echoes, Array(repeating: .unseen, count: 9))
        XCTAssertEqual(fromOlder.estimate?.pressureIsSize, false)
        XCTAssertThrowsError(try LearnedAverageFile.decode(
            Array(text.replacingOccurrences(of: #""sizeEcho":[0,"#, with: #""sizeEcho":[3,"#).utf8), file: "f", for: key))
        XCTAssertThrowsError(try LearnedAverageFile.decode(
            Array(text.replacingOccurrences(of: #""sizeEcho":[0,"#, with: #""sizeEcho":["#).utf8), file: "f", for: key),
            "as many echoes as samples")
    }

    func testTheFileNameSaysWhichDevice() {
        XCTAssertEqual(key.fileName, "0003-25b5-0002-FlatFrog_FlatFrog_Multitouch_3200.json")
        var odd = key
        odd.name = "../../etc/passwd"
        XCTAssertEqual(odd.fileName, "0003-25b5-0002-_.._.._etc_passwd.json", "no path can be made of a name")
        odd.name = ""
        XCTAssertEqual(odd.fileName, "0003-25b5-0002-_.json")
    }

    func testDamagedForeignAndFutureFilesAreRefusedWithTheReason() throws {
        let good = String(decoding: LearnedAverageFile.encode(learner(touches: 30), for: key), as: UTF8.self)
        func problem(_ text: String, for k: LearnedDeviceKey? = nil) -> String? {
            do {
                _ = try LearnedAverageFile.decode(Array(text.utf8), file: "x.json", for: k ?? key)
                return nil
            } catch { return error.problem }
        }
        XCTAssertEqual(problem(""), "not JSON (byte 0: unexpected end of input, expected a value)")
        XCTAssertEqual(problem(String(good.prefix(40))).map { $0.hasPrefix("not JSON") }, true, "a torn write")
        XCTAssertEqual(problem(#"{"format":"something else"}"#), "not a learned-average file")
        XCTAssertEqual(problem(good.replacingOccurrences(of: #""version":1"#, with: #""version":2"#)),
                       "version 2, expected 1")
        var other = key
        other.product = 0x0003
        XCTAssertEqual(problem(good, for: other).map { $0.hasPrefix("learned on \"FlatFrog FlatFrog Multitouch 3200\" (bus 3, vendor 9653, product 2") }, true)
        var range = key
        range.pressureMaximum = 255
        XCTAssertNotNil(problem(good, for: range), "an average learned on another pressure range")
        XCTAssertEqual(problem(good.replacingOccurrences(of: #""samples":["#, with: #""samples":[5000,"#)),
                       "a sample outside the pressure range 0..1024")
        let noAverage = good.replacingOccurrences(of: #""average":[0-9.]+"#, with: #""average":-3"#, options: .regularExpression)
        XCTAssertEqual(problem(noAverage).map { $0.hasPrefix("average -3.0 outside 0..1024") }, true)
        XCTAssertEqual(problem(good.replacingOccurrences(of: #""popHistory":30"#, with: #""popHistory":40"#))
            .map { $0.hasPrefix("a history of 40 pops") }, true)
    }
}
