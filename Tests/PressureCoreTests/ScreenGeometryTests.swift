import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
import XCTest

final class ScreenGeometryTests: XCTestCase {
    let axis = AbsInfo(minimum: 0, maximum: 1000)

    func point(_ g: ScreenGeometry, _ x: Int32, _ y: Int32) -> [Double] {
        let p = g.map(x: x, y: y, xAxis: axis, yAxis: axis)
        return [p.x, p.y]
    }

    func testEachRotationMapsAKnownPoint() {
        // A touch near the panel's top-left corner (10%, 20%) on a 1920×1080 screen.
        let expected: [ScreenGeometry.Rotation: [Double]] = [
            .none: [192, 216], .quarter: [1536, 108], .half: [1728, 864], .threeQuarters: [384, 972],
        ]
        for (rotation, want) in expected {
            let g = ScreenGeometry(width: 1920, height: 1080, rotation: rotation)
            XCTAssertEqual(point(g, 100, 200), want, "\(rotation)")
        }
    }

    func testCalibrationMatrixFollowsLibinputsConvention() throws {
        // libinput's documented example: a 90° rotation matrix "0 -1 1 1 0 0".
        let m = try XCTUnwrap(ScreenGeometry.parseMatrix("0 -1 1 1 0 0"))
        let g = ScreenGeometry(width: 100, height: 100, matrix: m)
        XCTAssertEqual(point(g, 100, 200), [80, 10])
        // A panel that over-reports: scale to 90% and shift by 5%.
        let scaled = ScreenGeometry(width: 1000, height: 1000, matrix: [0.9, 0, 0.05, 0, 0.9, 0.05])
        XCTAssertEqual(point(scaled, 500, 0), [500, 50])
        XCTAssertNil(ScreenGeometry.parseMatrix("1 0 0 0 1"))
        XCTAssertNil(ScreenGeometry.parseMatrix("1 0 0 0 1 x"))
        XCTAssertNil(ScreenGeometry.parseMatrix("1 0 0 0 1 inf"))
    }

    func testDefaultIsTheDevicesOwnUnits() throws {
        let device = try TouchDevice(TestDevices.slotted)
        let g = ScreenGeometry.deviceUnits(device)
        let p = g.map(x: 1234, y: 4095, xAxis: device.xAxis, yAxis: device.yAxis)
        XCTAssertEqual(p.x, 1234, accuracy: 1e-9)
        XCTAssertEqual(p.y, 4095, accuracy: 1e-9)
    }

    func testConfigurationSetsTheScreenAndOverridesUdev() throws {
        let device = try TouchDevice(TestDevices.slotted)
        let udev: [Double] = [-1, 0, 1, 0, 1, 0]
        XCTAssertEqual(Configuration().screen(for: device, udevMatrix: udev).geometry.matrix, udev)
        XCTAssertEqual(Configuration().screen(for: device, udevMatrix: udev).matrixSource, "udev LIBINPUT_CALIBRATION_MATRIX")
        let config = try Configuration.parse("""
            [panel]
            MatchName=Test*
            ScreenSize=1280x800
            ScreenRotation=270
            CalibrationMatrix=1 0 0 0 -1 1
            """, file: "s.conf")
        let r = config.screen(for: device, udevMatrix: udev)
        XCTAssertEqual(r.geometry, ScreenGeometry(width: 1280, height: 800, rotation: .threeQuarters, matrix: [1, 0, 0, 0, -1, 1]))
        XCTAssertEqual(r.matrixSource, "[panel] s.conf:5")
        XCTAssertEqual(r.sizeSource, "[panel] s.conf:3")
        for (bad, line) in [("ScreenSize=1280", 3), ("ScreenRotation=45", 3), ("CalibrationMatrix=1 2 3", 3)] {
            XCTAssertThrowsError(try Configuration.parse("[p]\nMatchName=x\n\(bad)\n", file: "b.conf")) { e in
                XCTAssertEqual((e as? ConfigurationError)?.line, line, bad)
            }
        }
    }

    /// Without `ScreenSize` the screen is the device's own units: `screenX` is `x`, on an axis that does not
    /// start at 0 too, in the pipeline and through the configuration the daemon resolves.
    func testWithoutAScreenScreenXIsX() throws {
        var d = TestDevices.slotted
        for code in [AbsCode.x, AbsCode.mtPositionX] { d.absInfo[code] = AbsInfo(minimum: 100, maximum: 4195, resolution: 16) }
        for code in [AbsCode.y, AbsCode.mtPositionY] { d.absInfo[code] = AbsInfo(minimum: -50, maximum: 4045, resolution: 16) }
        var p = try TouchPipeline.test(d)
        p.setScreen(Configuration().screen(for: try TouchDevice(d)))
        var got: [PressureEvent] = []
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 1234, y: -7, p: 10) }
        CaptureReplay.run(s.events, through: &p) { out, _ in got += out }
        XCTAssertEqual(got.first.map { [$0.screenX, $0.screenY] }, [1234, -7])
        let sized = try Configuration.parse("[p]\nMatchName=Test*\nScreenSize=4095x4095\n", file: "s.conf")
        p.setScreen(sized.screen(for: try TouchDevice(d)))
        got = []
        CaptureReplay.run(s.events, through: &p) { out, _ in got += out }
        XCTAssertEqual(got.first.map { [$0.screenX, $0.screenY] }, [1134, 43], "a configured screen's pixels start at 0")
    }

    func testEventsCarryScreenCoordinates() throws {
        var p = try TouchPipeline.test(TestDevices.slotted)
        p.setScreen(ResolvedScreen(
            geometry: ScreenGeometry(width: 800, height: 480, rotation: .half), matrixSource: "", sizeSource: "",
            inDeviceUnits: false))
        var got: [PressureEvent] = []
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 0, y: 0, p: 10) }
        CaptureReplay.run(s.events, through: &p) { out, _ in got += out }
        XCTAssertEqual(got.first?.screenX, 800)
        XCTAssertEqual(got.first?.screenY, 480)
        XCTAssertTrue(WireFormat.line(got[0]).contains(#""screenX":800.0,"screenY":480.0"#))
    }
}
