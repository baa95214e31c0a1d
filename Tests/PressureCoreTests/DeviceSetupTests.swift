import DeviceTestSupport
@testable import PressureCore
import XCTest

/// A device's setup from its description, the configuration, udev and what it learned: each part, what
/// falls back when the configuration gets it wrong, and the two policies over that.
final class DeviceSetupTests: XCTestCase {
    var slotted: TouchDevice { get throws { try TouchDevice(TestDevices.slotted) } }
    var resistive: TouchDevice { get throws { try TouchDevice(TestDevices.singleTouchWithoutButton) } }

    func setup(
        _ device: TouchDevice, _ text: String = "", settings: GestureSettings = GestureSettings(),
        udev: [String: String] = [:]
    ) throws -> DeviceSetup {
        DeviceSetup(
            device: device, configuration: try Configuration.parse(text, file: "s.conf"), settings: settings,
            udev: UdevDeviceProperties(udev))
    }

    func testWithNothingConfiguredADeviceGetsTheDefaultsAndLearns() throws {
        let s = try setup(try slotted)
        XCTAssertEqual(s.notices, [])
        XCTAssertEqual(s.calibration?.calibration, ForceCalibration.uncalibrated(axis: AbsInfo(minimum: 0, maximum: 1000)))
        XCTAssertEqual(s.calibration?.sources, CalibrationSources())
        XCTAssertEqual(s.tracking, TrackerSettings())
        XCTAssertEqual(s.screen, Configuration().screen(for: try slotted))
        guard case .learning(_, nil) = s.force(learned: nil) else { return XCTFail("\(s.force(learned: nil))") }
        XCTAssertEqual(try s.checked(), s)
    }

    func testADeviceWithoutPressureHasNoCalibrationAndNoForce() throws {
        let s = try setup(try TouchDevice(TestDevices.slottedWithoutPressure), "[a]\nMatchName=*\nPressureAverage=300\n")
        XCTAssertNil(s.calibration)
        XCTAssertEqual(s.force(learned: nil), .none)
        XCTAssertEqual(s.pipeline(deviceID: 1).forceUnavailableReason, .noPressure)
    }

    func testUdevSitsBetweenTheDefaultsAndTheFilesForCalibrationAndScreen() throws {
        let udev = ["PRESSURED_PRESSURE_FLOOR": "20", "LIBINPUT_CALIBRATION_MATRIX": "0 1 0 1 0 0"]
        let s = try setup(try slotted, "[a]\nMatchName=Test*\nPressureAverage=200\n", udev: udev)
        XCTAssertEqual(s.calibration?.calibration, ForceCalibration(floor: 20, average: 200, top: 1000))
        XCTAssertEqual(s.calibration?.sources.floor, "udev PRESSURED_PRESSURE_FLOOR")
        XCTAssertEqual(s.screen.geometry.matrix, [0, 1, 0, 1, 0, 0])
        XCTAssertEqual(s.screen, Configuration().screen(for: try slotted, udevMatrix: [0, 1, 0, 1, 0, 0]))
    }

    func testTheAverageTouchIsConfiguredLearnedOrThePrior() throws {
        let saved = AverageTouchLearner(floor: 0, top: 1000)
        let learning = try setup(try slotted)
        XCTAssertEqual(learning.force(learned: saved), .learning(try XCTUnwrap(learning.calibration).calibration, saved))
        let configured = try setup(try slotted, "[a]\nMatchName=Test*\nPressureAverage=270\n")
        XCTAssertEqual(
            configured.force(learned: saved), .configured(try XCTUnwrap(ForceCalibration(floor: 0, average: 270, top: 1000))),
            "configuration wins over what was learned")
        var off = GestureSettings()
        off.learnAverageTouch = false
        let prior = try setup(try slotted, settings: off)
        XCTAssertEqual(prior.force(learned: saved), .prior(try XCTUnwrap(prior.calibration).calibration))
    }

    func testTheTrackerGetsThePalmSizeAndTouchThresholds() throws {
        let s = try setup(try resistive, "[pressured]\nPalmSizeMm=off\n[r]\nMatchName=Test Resistive*\nPressureTouchDown=60\n")
        XCTAssertEqual(s.notices, [])
        XCTAssertEqual(s.tracking, TrackerSettings(touchDown: 60, palmSize: .off))
    }

    func testAnImpossibleCalibrationFallsBackToTheUncalibratedDefaultsWithANotice() throws {
        let s = try setup(try slotted, "[a]\nMatchName=Test*\nPressureFloor=900\nPressureAverage=100\n")
        XCTAssertEqual(s.notices.count, 1)
        guard case .calibration(let error) = s.notices.first else { return XCTFail("\(s.notices)") }
        XCTAssertEqual(error.file, "s.conf")
        XCTAssertEqual(s.calibration?.calibration, ForceCalibration.uncalibrated(axis: AbsInfo(minimum: 0, maximum: 1000)))
        XCTAssertEqual(s.calibration?.sources, CalibrationSources())
        XCTAssertEqual(s.calibration?.matchedSections, [])
        XCTAssertEqual(s.notices[0].description, "\(error); using the uncalibrated defaults")
        XCTAssertThrowsError(try s.checked()) { XCTAssertEqual($0 as? ConfigurationError, error) }
    }

    func testImpossibleTouchThresholdsFallBackToTheDefaultsButKeepThePalmSize() throws {
        let s = try setup(try resistive, "[pressured]\nPalmSizeMm=off\n[r]\nMatchName=Test Resistive*\nPressureTouchDown=20\n")
        guard case .touchThresholds(let error) = s.notices.first, s.notices.count == 1 else {
            return XCTFail("\(s.notices)")
        }
        XCTAssertEqual(error.line, 3)
        XCTAssertEqual(s.tracking, TrackerSettings(palmSize: .off))
        XCTAssertEqual(s.notices[0].description, "\(error); using the default touch thresholds")
        XCTAssertThrowsError(try s.checked()) { XCTAssertEqual($0 as? ConfigurationError, error) }
    }

    func testBothWrongGiveTwoNoticesAndTheCalibrationIsTheErrorChecked() throws {
        let s = try setup(
            try resistive, "[r]\nMatchName=Test Resistive*\nPressureTouchDown=20\nPressureFloor=200\nPressureAverage=100\n")
        XCTAssertEqual(s.notices.map { if case .calibration = $0 { "calibration" } else { "thresholds" } },
                       ["calibration", "thresholds"])
        XCTAssertThrowsError(try s.checked()) { XCTAssertEqual($0 as? ConfigurationError, s.notices[0].error) }
    }

    func testThePipelineIsBuiltFromEveryPart() throws {
        let text = "[pressured]\nPalmSizeMm=9\n[r]\nMatchName=Test Resistive*\nPressureTouchDown=60\nScreenSize=800x480\n"
        let s = try setup(try resistive, text, udev: ["PRESSURED_PRESSURE_AVERAGE": "90"])
        let p = s.pipeline(deviceID: 7, reportsTouches: true)
        XCTAssertEqual(p.deviceID, 7)
        XCTAssertTrue(p.reportsTouches)
        XCTAssertEqual(p.settings, s.settings)
        XCTAssertEqual(p.force, ForceModel(s.force(learned: nil), settings: s.settings))
        XCTAssertEqual(p.tracker.settings, s.tracking)
        XCTAssertEqual(p.geometry, s.screen.geometry)
        XCTAssertEqual(p.calibration, ForceCalibration(floor: 0, average: 90, top: 255))
    }

    func testOnlyVirtualDevicesLearnInMemoryOnly() {
        var d = TestDevices.slotted
        XCTAssertTrue(DeviceSetup.persistsLearning(d))
        d.identity.bus = BusType.virtual
        XCTAssertFalse(DeviceSetup.persistsLearning(d))
    }
}
