import PressureCore
import WireInvariants
import XCTest

/// The promises of the wire format (``WireInvariantChecker``, shared with the fuzz targets), checked
/// event by event: each broken one is a test failure naming the stream, the rule and the event.
public struct InvariantChecker {
    private var checker: WireInvariantChecker

    public init(name: String) { checker = WireInvariantChecker(name: name) }

    public mutating func see(_ e: PressureEvent, file: StaticString = #filePath, line: UInt = #line) {
        for v in checker.see(e) { XCTFail(v.description, file: file, line: line) }
    }

    public func finish(file: StaticString = #filePath, line: UInt = #line) {
        for v in checker.finish() { XCTFail(v.description, file: file, line: line) }
    }
}
