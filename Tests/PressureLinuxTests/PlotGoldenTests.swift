import Foundation
import TestSupport
import XCTest

/// `pressurectl plot --fresh` draws what a freshly started daemon makes of a capture, byte for byte the
/// picture the plot drew before it learned from the capture first: the goldens in `Tests/PlotGoldens`
/// were written by that plot. `PRESSURED_REGENERATE_GOLDENS=1 swift test --filter PlotGolden` rewrites
/// them (say why in the commit).
final class PlotGoldenTests: XCTestCase {
    static let goldens = Executables.repoRoot.appendingPathComponent("Tests/PlotGoldens")

    func testFreshIsThePictureOfBefore() throws {
        let regenerate = ProcessInfo.processInfo.environment["PRESSURED_REGENERATE_GOLDENS"] == "1"
        let dir = try temporaryFolder(self)
        let captures = [
            try PlotCaptures.tenTaps(in: dir).path,
            "Tests/Fixtures/peek-pop.evemu",
            "Tests/Fixtures/quick-actions-hold.evemu",
            "Tests/Fixtures/palms-and-hover.evemu",
        ]
        for capture in captures {
            let name = URL(fileURLWithPath: capture).lastPathComponent + ".svg"
            let svg = dir.appendingPathComponent(name)
            let r = try Executables.run("pressurectl", ["plot", capture, "-o", svg.path, "--fresh"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let golden = Self.goldens.appendingPathComponent(name)
            if regenerate {
                try Data(contentsOf: svg).write(to: golden)
                continue
            }
            let expected = try String(contentsOf: golden, encoding: .utf8)
            let got = try String(contentsOf: svg, encoding: .utf8)
            assertSameLines(UnifiedDiff.lines(of: got), UnifiedDiff.lines(of: expected),
                            expectedName: "Tests/PlotGoldens/\(name)", gotName: "plot --fresh of \(capture)",
                            "regenerate if that is meant, and say why")
            XCTAssertTrue(got == expected, "\(name): the same lines, but not the same bytes")
        }
    }
}
