import DeviceTestSupport
import Foundation
@testable import PressureCore
@testable import PressureDeviceTools
import XCTest

/// `CalibrationSession`: the statistics on scripted contacts, its refusals, the section it writes, and
/// a real panel's capture.
final class CalibrationSessionTests: XCTestCase {
    let axis = AbsInfo(minimum: 0, maximum: 1023)

    /// One contact through the session: began at `down`, moved through `pressures`, lifted at `lift`.
    func touch(
        _ s: inout CalibrationSession, index: Int = 0, at t: Int64, down: Int32, _ pressures: [Int32], lift: Int32
    ) {
        var time = Timestamp(microseconds: t)
        s.take(ContactChange(.began, index: index, x: 0, y: 0, pressure: down), at: time)
        for p in pressures {
            time = time + .milliseconds(10)
            s.take(ContactChange(.moved, index: index, x: 0, y: 0, pressure: p), at: time)
        }
        s.take(ContactChange(.ended, index: index, x: 0, y: 0, pressure: lift), at: time + .milliseconds(10))
    }

    func scripted() -> CalibrationSession {
        var s = CalibrationSession(axis: axis)
        // Five taps peaking 100…180, arriving at 20…28 and leaving at 30…38.
        for (i, peak) in [140, 100, 180, 120, 160].enumerated() {
            let n = Int32(i)
            touch(&s, at: Int64(i) * 1_000_000, down: 20 + 2 * n, [60, Int32(peak), 90], lift: 30 + 2 * n)
        }
        s.phase = .presses
        for (i, peak) in [600, 900, 700, 800].enumerated() {
            touch(&s, at: 10_000_000 + Int64(i) * 1_000_000, down: 40, [300, Int32(peak), 400], lift: 200)
        }
        return s
    }

    func testTheDocumentedMethodOnScriptedContacts() throws {
        let s = scripted()
        XCTAssertEqual(s.contacts(in: .taps).map(\.peak), [140, 100, 180, 120, 160])
        XCTAssertEqual(s.contacts(in: .presses).count, 4)
        let p = try s.proposal()
        // Floor: 10th percentile (nearest rank) of the ten edge values 20,22,…,28 and 30,…,38: the 1st.
        XCTAssertEqual(p.floor, 20)
        // Average: the median peak of the taps.
        XCTAssertEqual(p.average, 140)
        // Top: 95th percentile of 600…900: rank ceil(3.8) = 4, the highest.
        XCTAssertEqual(p.top, 900)
        XCTAssertEqual(p.taps, 5)
        XCTAssertEqual(p.presses, 4)
        XCTAssertEqual(p.calibration.maximumPossibleForce, 880.0 / 120.0, accuracy: 1e-9)
        XCTAssertEqual(p.warnings, [], "enough contacts, and every sensitivity can pop below the top")
    }

    func testPercentileAndMedian() {
        XCTAssertEqual(CalibrationSession.percentile([5, 1, 4, 2, 3], 10), 1)
        XCTAssertEqual(CalibrationSession.percentile([5, 1, 4, 2, 3], 50), 3)
        XCTAssertEqual(CalibrationSession.percentile([5, 1, 4, 2, 3], 95), 5)
        XCTAssertEqual(CalibrationSession.percentile(Array(1...100), 95), 95)
        XCTAssertEqual(CalibrationSession.percentile([], 50), 0)
        XCTAssertEqual(CalibrationSession.median([3, 1, 2]), 2)
        XCTAssertEqual(CalibrationSession.median([4, 1, 2, 3]), 3, "mean of 2 and 3, rounded half up")
        XCTAssertEqual(CalibrationSession.median([Int32.max, Int32.max]), Int32.max, "no overflow")
    }

    func testTheTopIsClampedToTheAxis() throws {
        var s = CalibrationSession(axis: axis)
        touch(&s, at: 0, down: 10, [200], lift: 10)
        s.phase = .presses
        touch(&s, at: 1_000_000, down: 10, [5000], lift: 10)
        XCTAssertEqual(try s.proposal().top, 1023)
    }

    func testRefusalsSayWhatToDo() {
        var s = CalibrationSession(axis: axis)
        XCTAssertThrowsError(try s.proposal()) { XCTAssertEqual($0 as? CalibrationError, .noTaps) }
        touch(&s, at: 0, down: 10, [300], lift: 10)
        XCTAssertThrowsError(try s.proposal()) { XCTAssertEqual($0 as? CalibrationError, .noPresses) }
        s.phase = .presses
        touch(&s, at: 1_000_000, down: 10, [200], lift: 10)
        XCTAssertThrowsError(try s.proposal()) { error in
            XCTAssertEqual(error as? CalibrationError, .pressesNotFirmer(average: 300, top: 200))
            XCTAssertTrue("\(error)".contains("press harder"), "\(error)")
        }
        var light = CalibrationSession(axis: axis)
        touch(&light, at: 0, down: 30, [30], lift: 30)
        light.phase = .presses
        touch(&light, at: 1_000_000, down: 10, [500], lift: 10)
        XCTAssertThrowsError(try light.proposal()) {
            XCTAssertEqual($0 as? CalibrationError, .tapsTooLight(floor: 30, average: 30))
        }
    }

    func testCancelledAndPressureLessContactsAreNotMeasured() {
        var s = CalibrationSession(axis: AbsInfo(minimum: 0, maximum: 255))
        s.take(ContactChange(.began, index: 0, x: 0, y: 0, pressure: 50), at: Timestamp(microseconds: 0))
        s.take(ContactChange(.cancelled, index: 0, x: 0, y: 0, pressure: 50), at: Timestamp(microseconds: 10))
        touch(&s, index: 1, at: 20, down: 0, [0], lift: 0)
        XCTAssertTrue(s.contacts.isEmpty)
        XCTAssertTrue(s.live.isEmpty)
    }

    func testAContactBelongsToThePhaseItBeganIn() {
        var s = CalibrationSession(axis: axis)
        s.take(ContactChange(.began, index: 2, x: 0, y: 0, pressure: 20), at: Timestamp(microseconds: 0))
        s.phase = .presses
        s.take(ContactChange(.moved, index: 2, x: 0, y: 0, pressure: 150), at: Timestamp(microseconds: 10))
        let c = s.take(ContactChange(.ended, index: 2, x: 0, y: 0, pressure: 40), at: Timestamp(microseconds: 20))
        XCTAssertEqual(c?.phase, .taps)
        XCTAssertEqual(c.map { [$0.down, $0.peak, $0.lift] }, [20, 150, 40])
    }

    /// The section parses, matches the device it was made for (names with glob and comment characters
    /// included) and gives exactly the proposed calibration.
    func testTheSectionIsAConfigurationTheDaemonResolvesToTheProposal() throws {
        let proposal = try scripted().proposal()
        for name in ["FlatFrog FlatFrog Multitouch 3200", "ELAN *Touch* [v2] #7 \\x", " pressured", "app kiosk "] {
            let device = DeviceDescription(
                name: name, identity: DeviceIdentity(bus: 3, vendor: 0x25b5, product: 2), properties: [1],
                codes: [EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.pressure]],
                absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 100), AbsCode.y: AbsInfo(minimum: 0, maximum: 100),
                          AbsCode.pressure: axis])
            let text = proposal.configurationSection(for: device)
            let config = try Configuration.parse(text, file: "cal.conf")
            let resolved = try config.calibration(for: device, pressureAxis: axis)
            XCTAssertEqual(resolved.calibration, proposal.calibration, "\(name):\n\(text)")
            XCTAssertTrue(resolved.sources.average.contains("cal.conf"), "\(name): matched by the section\n\(text)")
            var other = device
            other.name = name + "2"
            XCTAssertFalse(
                try config.calibration(for: other, pressureAxis: axis).sources.average.contains("cal.conf"),
                "\(name): the glob matches only this name")
        }
    }

    /// A real FlatFrog panel: the first contact (0–1.2 s) as the tap, the later ones as presses.
    func testAFlatFrogCaptureSplitIntoTapsAndPresses() throws {
        let url = FixtureFiles.sharedCaptures.appendingPathComponent("hiddev-flatfrog_25b5_0002_0.evemu")
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("no shared captures") }
        let capture = try FixtureFiles.capture(url)
        func run(tapsUntil seconds: Double) throws -> CalibrationSession {
            var s = try CalibrationSession(device: try TouchDevice(capture.device))
            for e in capture.events {
                if Double(e.time.microseconds) >= seconds * 1_000_000 { s.phase = .presses }
                s.handle(e)
            }
            return s
        }
        let s = try run(tapsUntil: 4)
        XCTAssertEqual(s.contacts(in: .taps).map(\.peak), [484])
        XCTAssertEqual(s.contacts(in: .presses).count, 16)
        let p = try s.proposal()
        XCTAssertEqual([p.floor, p.average, p.top], [19, 484, 879])
        // One tap is too few; most of the "presses" are the recording's ordinary touches, which do not pop.
        XCTAssertEqual(p.warnings.count, 2, "\(p.warnings)")
        XCTAssertTrue(p.warnings[1].contains("most firm presses did not reach pop (raw 793)"), p.warnings[1])
        // The section works: peek above the ordinary touches (at most 640), pop where both firm ones reach.
        XCTAssertEqual(p.verdict, "with this section pressured peeks at raw 670 (1.40 average touches) and pops at"
            + " raw 793 (1.66), at Medium sensitivity; 2 of the 16 firm presses reached pop")
        // With the first two contacts as taps the average is 527: no room for peek above it and pop below
        // the top, and the proposal says so.
        let tight = try run(tapsUntil: 4.5).proposal()
        XCTAssertEqual(tight.outcome(), .unavailable(.noHeadroom(top: 860.0 / 508.0, needed: 1.1 * 1.4 / 0.9)))
        XCTAssertTrue(tight.warnings.contains { $0.hasPrefix("with this section the panel cannot pop") }, "\(tight.warnings)")
        // Split later, the "taps" include the firmest presses of the recording: refused.
        XCTAssertThrowsError(try run(tapsUntil: 9).proposal()) {
            XCTAssertEqual($0 as? CalibrationError, .pressesNotFirmer(average: 714, top: 640))
        }
    }

    func testADeviceWithoutPressureCannotBeCalibrated() throws {
        let capture = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent("no-pressure.evemu"))
        XCTAssertThrowsError(try CalibrationSession(device: try TouchDevice(capture.device))) {
            XCTAssertTrue("\($0)".contains("reports no pressure"), "\($0)")
        }
    }
}
