import Foundation
import TestSupport
import XCTest

/// The pictures in docs/tools.md are what `pressurectl plot` draws of the captures its tests use,
/// rendered by headless Chromium. `PRESSURED_RENDER_PICTURES=1 swift test --filter PlotPictures`
/// draws them anew (the FlatFrog ones where ../shared/captures is present); otherwise this checks that
/// each is a PNG that docs/tools.md shows.
final class PlotPicturesTests: XCTestCase {
    static let docs = Executables.repoRoot.appendingPathComponent("docs")

    enum Source { case flatFrog, tenTaps, session }

    /// Picture, capture, plot options, and whether it is the page with the pointer on the hardest press.
    static let pictures: [(png: String, source: Source, options: [String], page: Bool)] = [
        ("pictures/plot-flatfrog.png", .flatFrog, [], false),
        ("pictures/plot-flatfrog-fresh.png", .flatFrog, ["--fresh"], false),
        ("pictures/plot-ten-taps.png", .tenTaps, [], false),
        ("pictures/plot-session-200.png", .session, [], false),
        ("pictures/plot-page.png", .session, [], true),
    ]

    func testEveryPictureIsAPNGThatToolsMDShows() throws {
        if ProcessInfo.processInfo.environment["PRESSURED_RENDER_PICTURES"] == "1" { try render() }
        let guide = try String(contentsOf: Self.docs.appendingPathComponent("tools.md"), encoding: .utf8)
        for p in Self.pictures {
            let bytes = try Data(contentsOf: Self.docs.appendingPathComponent(p.png))
            XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(p.png) is a PNG")
            XCTAssertTrue(guide.contains("](\(p.png))"), "docs/tools.md shows \(p.png)")
        }
    }

    func render() throws {
        let chromium = "/usr/bin/chromium"
        guard FileManager.default.isExecutableFile(atPath: chromium) else { throw XCTSkip("no Chromium to render with") }
        let dir = try temporaryFolder(self)
        let shared = Executables.repoRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")
        let sources: [Source: String] = [
            .tenTaps: try PlotCaptures.tenTaps(in: dir).path,
            .session: try PlotCaptures.session(in: dir).path,
            .flatFrog: shared.appendingPathComponent("hiddev-flatfrog_25b5_0002_0.evemu").path,
        ]
        for (i, p) in Self.pictures.enumerated() {
            guard let capture = sources[p.source], FileManager.default.fileExists(atPath: capture) else { continue }
            let out = dir.appendingPathComponent("\(i)." + (p.page ? "html" : "svg"))
            let r = try Executables.run("pressurectl", ["plot", capture, "-o", out.path] + p.options)
            XCTAssertEqual(r.status, 0, r.stderr)
            var url = out.absoluteString
            if p.page {
                let contacts = try PlotPageTests.data(try String(contentsOf: out, encoding: .utf8))
                url += "#contact=" + (PlotPageTests.hardestPress(contacts)?.0 ?? "1")
            }
            let shot = Process()
            shot.executableURL = URL(fileURLWithPath: chromium)
            shot.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                              p.page ? "--window-size=1032,620" : "--window-size=1000,560",
                              "--screenshot=" + Self.docs.appendingPathComponent(p.png).path, url]
            shot.standardOutput = FileHandle.nullDevice
            shot.standardError = FileHandle.nullDevice
            try shot.run()
            shot.waitUntilExit()
            XCTAssertEqual(shot.terminationStatus, 0, p.png)
        }
    }
}
