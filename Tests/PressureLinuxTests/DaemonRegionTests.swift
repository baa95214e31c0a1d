import Foundation
import TestSupport
import XCTest

/// Regions through the whole daemon and its replay source: two clients with overlapping regions, and a
/// chosen action held for an app that connects afterwards.
final class DaemonRegionTests: XCTestCase {
    func gestures(_ lines: [String]) -> [String] {
        lines.compactMap { l in
            guard l.contains(#""contact":"#), let o = try? JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any]
            else { return nil }
            let tag = (o["region"] as? String).map { "@\($0)" } ?? ""
            return "\(o["type"] ?? "?")#\(o["contact"] ?? "?")\(tag)"
        }
    }

    func testTwoClientsWithOverlappingRegions() throws {
        // Paced: the replay starts at the first subscription, and both clients must be subscribed by the
        // first touch (1 s into the capture, a quarter second at four times the pace). The demo's eight
        // ordinary taps (contacts 1-8, on the left half, the desktop's) teach the device its average touch.
        let d = try DaemonProcess(["--replay", "Tests/Fixtures/demo.evemu", "--speed", "4", "--exit-when-done"])
        let shell = try SocketClient(path: d.socketPath)
        let app = try SocketClient(path: d.socketPath)
        _ = shell.readLine()
        _ = app.readLine()
        // The shell's big region covers the left half; the app's card sits on top of part of it.
        shell.send(#"{"request":"setRegion","region":"desktop","x":0,"y":0,"width":2048,"height":4096}"# + "\n")
        app.send(#"{"request":"setRegion","region":"card","x":1000,"y":1800,"width":400,"height":400,"z":1}"# + "\n")
        XCTAssertEqual(shell.readObject()?["region"] as? String, "desktop")
        XCTAssertEqual(app.readObject()?["region"] as? String, "card")
        app.send(#"{"request":"subscribe"}"# + "\n")
        shell.send(#"{"request":"subscribe"}"# + "\n")
        let appGot = gestures(app.readAll())
        let shellGot = gestures(shell.readAll())
        XCTAssertEqual(d.wait(), 0)
        // Contact 9 presses at (1200, 2000): the card's. Contacts 10 and 11 are on the right half: everyone's.
        // Contact 12 holds at (800, 800), contact 14 presses at (1000, 3000): the desktop's.
        XCTAssertEqual(appGot, [
            "peek#9@card", "pop#9@card", "peek#10", "dismiss#10", "peek#11", "quickActions#11", "dismiss#11",
        ])
        XCTAssertEqual(shellGot, [
            "peek#10", "dismiss#10", "peek#11", "quickActions#11", "dismiss#11", "longPress#12@desktop",
            "peek#14@desktop", "pop#14@desktop",
        ])
    }

    func testAChosenActionWaitsForItsApp() throws {
        let d = try DaemonProcess(["--replay", "Tests/Fixtures/peek-pop.evemu"])
        let launcher = try SocketClient(path: d.socketPath)
        _ = launcher.readLine()
        launcher.send(#"{"request":"chooseAction","id":1,"app":"org.example.notes","action":"new-note"}"# + "\n")
        XCTAssertEqual(launcher.readObject()?["delivered"] as? Bool, false)
        // The app takes a moment to start; meanwhile the daemon holds the choice for it.
        XCTAssertTrue(d.waitForLog("choice new-note waits for org.example.notes to connect"), d.log)
        let notes = try SocketClient(path: d.socketPath)
        _ = notes.readLine()
        notes.send(#"{"request":"subscribe","app":"org.example.notes"}"# + "\n")
        XCTAssertEqual(notes.readObject()?["type"] as? String, "reply")
        let action = try XCTUnwrap(notes.readObject())
        XCTAssertEqual(action["type"] as? String, "action")
        XCTAssertEqual(action["action"] as? String, "new-note")
        XCTAssertTrue(d.log.contains("choice new-note delivered to org.example.notes"), d.log)
    }
}
