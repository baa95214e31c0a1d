import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// ``LatencyBook``: devices gone keep their figures (bounded, oldest first out) and still take the
/// deliveries of their last frames.
final class LatencyBookTests: XCTestCase {
    func table(devices n: Int) throws -> DeviceTable {
        var devices = DeviceTable()
        var work = HubWork()
        let configuration = try TestDevices.configuration()
        for k in 0..<n {
            _ = try XCTUnwrap(devices.add(
                node: "/dev/input/event\(k)", description: TestDevices.slotted, udev: UdevDeviceProperties(),
                learned: nil, persistsLearning: false, assumed: [], clock: .hub, settings: configuration.settings,
                configuration: configuration, recordsTransitions: false, &work))
        }
        return devices
    }

    func testDevicesGoneAreReportedAfterThoseServedOldestForgottenFirst() throws {
        let devices = try table(devices: LatencyBook.retiredKept + 3)
        var book = LatencyBook()
        for d in devices.entries { book.retire(d) }
        let served = try table(devices: 1)
        let report = book.report(served)
        XCTAssertEqual(report.count, 1 + LatencyBook.retiredKept)
        XCTAssertEqual(report.first?.node, "/dev/input/event0", "the device served first")
        XCTAssertEqual(report.dropFirst().first?.node, "/dev/input/event3", "the three oldest gone are forgotten")
    }

    func testAFrameOfADeviceGoneIsStillDelivered() throws {
        var devices = try table(devices: 1)
        devices.entries[0].latency.noteOutput()
        devices.entries[0].latency.frameEnded(at: Timestamp(microseconds: 1_000))
        var book = LatencyBook()
        XCTAssertTrue(book.awaitsQueueTime(devices))
        book.framesQueued(now: Timestamp(microseconds: 1_500), &devices)
        XCTAssertTrue(book.awaitsDelivery(devices))
        book.retire(devices.entries[0])
        var none = try table(devices: 0)
        XCTAssertTrue(book.awaitsDelivery(none), "the device is gone, its frame still on its way")
        book.framesDelivered(now: Timestamp(microseconds: 4_000), &none)
        XCTAssertFalse(book.awaitsDelivery(none))
        XCTAssertEqual(book.report(none).first?.delivery.count, 1)
    }
}
