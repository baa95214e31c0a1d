import Foundation
@testable import PressureCore
@testable import PressureHub
@testable import PressureLinux
import TestSupport
import XCTest

/// What devices learn, kept and used: the state store's files and their rhythm, and the tools and daemon
/// starting from a saved state, or forgetting it (`pressurectl calibrate --reset`).
final class LearnedStateTests: XCTestCase {
    let key = LearnedDeviceKey(name: "Kiosk Panel", bus: 3, vendor: 0x1234, product: 0x5678,
                               pressureMinimum: 0, pressureMaximum: 255)

    func learner(_ touches: Int) -> AverageTouchLearner {
        var l = AverageTouchLearner(floor: 0, top: 255)
        for i in 0..<touches {
            let t = Int64(i) * 500_000
            l.observe(ContactSummary(ending: .lifted, peak: Int32(90 + i % 20), lowest: 10,
                                     began: Timestamp(microseconds: t), ended: Timestamp(microseconds: t + 80_000),
                                     movedBeyondSlop: true))
        }
        return l
    }

    func testTheStoreWritesAtOnceThenAtMostEveryTenSecondsAndAllAtTheEnd() throws {
        let dir = try temporaryFolder(self).appendingPathComponent("learned")
        let store = LearnedStateStore(directory: dir.path)
        XCTAssertNil(store.load(key), "nothing saved yet")
        store.stage(Hub.LearnedSave(key: key, learner: learner(10)), now: 1_000_000)
        XCTAssertEqual(store.load(key)?.accepted, 10, "the first write is at once (the folder made on the way)")
        store.stage(Hub.LearnedSave(key: key, learner: learner(11)), now: 2_000_000)
        XCTAssertEqual(store.load(key)?.accepted, 10, "the next waits for its interval")
        XCTAssertEqual(store.nextDue, 11_000_000)
        store.flush(now: 5_000_000)
        XCTAssertEqual(store.load(key)?.accepted, 10)
        store.flush(now: 11_000_000)
        XCTAssertEqual(store.load(key)?.accepted, 11)
        XCTAssertNil(store.nextDue)
        store.stage(Hub.LearnedSave(key: key, learner: learner(12)), now: 12_000_000)
        store.flush(now: 12_000_001, force: true)
        XCTAssertEqual(store.load(key)?.accepted, 12, "at shutdown, whatever the interval")
        store.forget(key)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path(for: key)))
        store.forget(key)  // forgetting twice is fine
    }

    func testADamagedOrForeignFileIsIgnoredAndAnUnwritableFolderIsNoError() throws {
        let dir = try temporaryFolder(self)
        let store = LearnedStateStore(directory: dir.path)
        try Data("{\"format\":\"pressured-learned-average\",\"version\":1,\"dev".utf8)
            .write(to: URL(fileURLWithPath: store.path(for: key)))
        XCTAssertNil(store.load(key))
        var other = key
        other.product = 1
        try Data(LearnedAverageFile.encode(learner(10), for: other)).write(to: URL(fileURLWithPath: store.path(for: key)))
        XCTAssertNil(store.load(key), "a file for another device under this one's name")
        let nowhere = LearnedStateStore(directory: "/proc/pressured-cannot-be-here/learned")
        nowhere.stage(Hub.LearnedSave(key: key, learner: learner(10)), now: 0)
        nowhere.flush(now: 0, force: true)
        XCTAssertNil(nowhere.load(key))
    }

    /// `pressurectl replay --save-learned` keeps what a capture taught; both the tool and the daemon then
    /// start from it with `--learned`, and give the same thing: force from the first touch.
    func testReplayAndDaemonStartFromTheSameSavedState() throws {
        let dir = try temporaryFolder(self)
        let saved = dir.appendingPathComponent("learned.json").path
        let fixture = "Tests/Fixtures/peek-pop.evemu"
        let first = try Executables.run("pressurectl", ["replay", "--save-learned", saved, fixture])
        XCTAssertEqual(first.status, 0, first.stderr)
        let state = try JSONParser.parse(String(contentsOfFile: saved, encoding: .utf8))
        XCTAssertEqual(state["accepted"]?.exactInteger, 9, "the eight warm-up taps and the light touch")
        let again = try Executables.run("pressurectl", ["replay", "--touches", "--learned", saved, fixture])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stdout.contains(#""type":"device""#), "nothing to announce: it has learned already")
        XCTAssertTrue(again.stdout.hasPrefix(#"{"type":"touch","phase":"began","time":1.000000,"device":1,"contact":1,"x":600,"y":400,"screenX":600.0,"screenY":400.0,"force":0.298,"maximumPossibleForce":4.0118"#), again.stdout)
        let d = try DaemonProcess(["--replay", fixture, "--learned", saved, "--speed", "0", "--exit-when-done"])
        let c = try SocketClient(path: d.socketPath)
        let hello = try XCTUnwrap(c.readObject())
        XCTAssertEqual(((hello["devices"] as? [[String: Any]])?.first)?["forceCapability"] as? String, "available")
        c.send(#"{"request":"subscribe","events":["gestures","touches"]}"# + "\n")
        let lines = c.readAll().filter { $0.contains(#""contact":"#) }
        XCTAssertEqual(d.wait(), 0, d.log)
        XCTAssertEqual(lines.joined(separator: "\n") + "\n", again.stdout)
        // A state for another device is refused, with the reason, by both.
        let other = try Executables.run("pressurectl", ["replay", "--learned", saved, "Tests/Fixtures/demo.evemu"])
        XCTAssertEqual(other.status, 1)
        XCTAssertTrue(other.stderr.contains("learned on \"pressured fixture: peek-pop\""), other.stderr)
        XCTAssertThrowsError(try DaemonProcess(["--replay", "Tests/Fixtures/demo.evemu", "--learned", saved]))
    }

    /// `pressurectl calibrate --reset` is the `resetLearning` control request: the device learns afresh,
    /// and every client hears that its force is unavailable again.
    func testResetMakesTheDaemonLearnAfresh() throws {
        let d = try DaemonProcess(["--replay", "Tests/Fixtures/peek-pop.evemu", "--speed", "0.5"])
        let watcher = try SocketClient(path: d.socketPath)
        _ = watcher.readLine()
        watcher.send(#"{"request":"subscribe","events":["devices"]}"# + "\n")
        XCTAssertEqual(watcher.readObject()?["type"] as? String, "reply")
        // The device learns from the fixture's eight ordinary taps, then says so.
        let learned = try XCTUnwrap(watcher.readObject(timeout: 10))
        XCTAssertEqual((learned["device"] as? [String: Any])?["forceCapability"] as? String, "available", "\(learned)")
        let r = try Executables.run("pressurectl", ["calibrate", "--reset", "--device", "1", "--socket", d.socketPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "forgot what device 1 learned; learning afresh\n")
        let reset = try XCTUnwrap(watcher.readObject(timeout: 5))
        XCTAssertEqual((reset["device"] as? [String: Any])?["forceUnavailable"] as? String, "learning", "\(reset)")
        let missing = try Executables.run("pressurectl", ["calibrate", "--reset", "--device", "7", "--socket", d.socketPath])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no device 7"), missing.stderr)
        XCTAssertTrue(d.log.contains("reset what device(s) [1] learned"), d.log)
    }
}
