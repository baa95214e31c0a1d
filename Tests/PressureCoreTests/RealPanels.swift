import DeviceTestSupport
import Foundation
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// The real touchscreens of `../shared/captures`, each with its contacts as the recordings hold them and
/// as `Tests/RealPanels/contacts.tsv` classifies them (written by `tools/real-panel-contacts.py`, which
/// says how). Skips cleanly where the shared captures are absent.
struct RealPanel {
    /// One contact: its frames relative to its touch-down, in the panel's units.
    struct Contact {
        enum Class: String { case ordinary, firm, excluded }

        var file: String
        var number: Int
        var kind: Class
        var heldOut: Bool
        var frames: [Frame]

        var peak: Int32 { frames.map(\.pressure).max() ?? 0 }
    }

    struct Frame {
        var time: Int64
        var x: Int32
        var y: Int32
        var pressure: Int32
    }

    var label: String
    /// The recording's device, as its file (or what its reader assumed) describes it.
    var device: TouchDevice
    var contacts: [Contact]

    var pressureAxis: AbsInfo { device.pressureAxis ?? AbsInfo(minimum: 0, maximum: 255) }

    func contacts(_ kind: Contact.Class, heldOut: Bool? = nil) -> [Contact] {
        contacts.filter { $0.kind == kind && (heldOut == nil || $0.heldOut == heldOut) }
    }

    /// The panel as the sessions drive it: its name, identity and axes, speaking protocol B on one slot
    /// (the sessions are one finger at a time; how the recording's own protocol was tracked is the
    /// capture tests' business).
    var sessionDevice: DeviceDescription {
        let d = device.description
        var abs: [UInt16: AbsInfo] = [
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 0),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPositionX: device.xAxis,
            AbsCode.mtPositionY: device.yAxis,
        ]
        abs[AbsCode.mtPressure] = device.pressureAxis
        return DeviceDescription(
            name: d.name, identity: d.identity, properties: [InputProperty.direct],
            codes: [EventType.key: [KeyCode.btnTouch]], absInfo: abs)
    }
}

enum RealPanels {
    static let list = FixtureFiles.repoRoot.appendingPathComponent("Tests/RealPanels/contacts.tsv")

    /// Every panel of the list, its contacts read from the recordings; skips without the shared captures.
    static func load() throws -> [RealPanel] {
        guard FileManager.default.fileExists(atPath: FixtureFiles.sharedCaptures.path) else {
            throw XCTSkip("no shared captures at \(FixtureFiles.sharedCaptures.path)")
        }
        struct Row { var label, file: String; var index, contact: Int; var kind: RealPanel.Contact.Class; var heldOut: Bool }
        var rows: [Row] = []
        for line in try String(contentsOf: list, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 7, let index = Int(f[2]), let contact = Int(f[3]),
                  let kind = RealPanel.Contact.Class(rawValue: f[4])
            else { throw TestFailure("malformed line in \(list.lastPathComponent): \(line)") }
            rows.append(Row(label: f[0], file: f[1], index: index, contact: contact, kind: kind, heldOut: f[5] == "yes"))
        }
        var panels: [RealPanel] = []
        for label in rows.map(\.label).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
            var device: TouchDevice? = nil
            var contacts: [RealPanel.Contact] = []
            let mine = rows.filter { $0.label == label }
            var sources: [(file: String, index: Int)] = []
            for r in mine where !sources.contains(where: { $0.file == r.file && $0.index == r.index }) {
                sources.append((r.file, r.index))
            }
            for (file, index) in sources {
                let capture = try self.capture(file, deviceIndex: index)
                let d = try TouchDevice(capture.device)
                device = device ?? d
                let frames = contactFrames(capture, d)
                for row in mine where row.file == file && row.index == index {
                    guard row.contact >= 1, row.contact <= frames.count else {
                        throw TestFailure("\(file) has no contact \(row.contact): the list is out of date")
                    }
                    contacts.append(RealPanel.Contact(
                        file: file, number: row.contact, kind: row.kind, heldOut: row.heldOut,
                        frames: frames[row.contact - 1]))
                }
                guard mine.filter({ $0.file == file && $0.index == index }).count == frames.count else {
                    throw TestFailure("\(file) has \(frames.count) contacts, the list another number: rerun the tool")
                }
            }
            if let device { panels.append(RealPanel(label: label, device: device, contacts: contacts)) }
        }
        return panels
    }

    static func capture(_ file: String, deviceIndex: Int) throws -> Capture {
        let url = FixtureFiles.sharedCaptures.appendingPathComponent(file)
        let desc = file.hasSuffix(".events")
            ? FixtureFiles.sharedCaptures.appendingPathComponent(file.replacingOccurrences(of: ".events", with: ".desc"))
            : nil
        let sessions = file.hasPrefix("lkml-elants")  // two evtest sessions, each a device
        return try FixtureFiles.capture(url, description: desc, deviceIndex: sessions ? deviceIndex : nil)
    }

    /// Each contact's frames, in the order the contacts began (the numbering `pressurectl replay` uses).
    static func contactFrames(_ capture: Capture, _ device: TouchDevice) -> [[RealPanel.Frame]] {
        var tracker = ContactTracker(device: device)
        var open: [Int: Int] = [:]
        var frames: [[RealPanel.Frame]] = []
        var begins: [Int64] = []
        for e in capture.events where tracker.handle(e) {
            for c in tracker.changes {
                switch c.phase {
                case .began:
                    open[c.index] = frames.count
                    frames.append([])
                    begins.append(e.time.microseconds)
                case .moved, .ended, .cancelled, .cancelledAsPalm:
                    break
                }
                guard let n = open[c.index] else { continue }
                frames[n].append(RealPanel.Frame(
                    time: e.time.microseconds - begins[n], x: c.x, y: c.y, pressure: c.pressure))
                if c.phase != .began && c.phase != .moved { open[c.index] = nil }
            }
        }
        return frames
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
