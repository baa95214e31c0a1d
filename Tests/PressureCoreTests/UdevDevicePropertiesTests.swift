import DeviceTestSupport
@testable import PressureCore
import XCTest

/// udev's say on a device: between the defaults and the configuration files.
final class UdevDevicePropertiesTests: XCTestCase {
    func testUdevCalibrationSitsBetweenDefaultsAndFiles() throws {
        let udev = UdevDeviceProperties([
            "PRESSURED_PRESSURE_FLOOR": "20", "PRESSURED_PRESSURE_AVERAGE": "180", "PRESSURED_PRESSURE_TOP": "x",
            "LIBINPUT_CALIBRATION_MATRIX": "1 0 0 0 1 0", "ID_INPUT_TOUCHSCREEN": "1",
        ])
        XCTAssertEqual(udev.problems, [#"PRESSURED_PRESSURE_TOP="x" (expected an integer)"#])
        XCTAssertEqual(udev.calibrationMatrix, ScreenGeometry.identityMatrix)
        let axis = AbsInfo(minimum: 0, maximum: 1000)
        let d = TestDevices.slotted
        let fromUdev = try Configuration().calibration(for: d, pressureAxis: axis, udev: udev)
        XCTAssertEqual(fromUdev.calibration, ForceCalibration(floor: 20, average: 180, top: 1000))
        XCTAssertEqual(fromUdev.sources.floor, "udev PRESSURED_PRESSURE_FLOOR")
        XCTAssertEqual(fromUdev.sources.top, "default")
        let config = try Configuration.parse("[p]\nMatchName=Test*\nPressureAverage=200\n", file: "p.conf")
        let both = try config.calibration(for: d, pressureAxis: axis, udev: udev)
        XCTAssertEqual(both.calibration, ForceCalibration(floor: 20, average: 200, top: 1000))
        XCTAssertEqual(both.sources.average, "[p] p.conf:3")
    }
}
