import XCTest
@testable import PressureCore

/// The configuration parser on text nobody meant: it never traps, and what it refuses it refuses with a
/// place the user can go to.
final class ConfigurationGarbageTests: XCTestCase {
    /// Garbage either parses or fails with an error that names the file and a line of the input that
    /// holds something (a line past the end, line 0, or a blank or comment-only line would send the user
    /// to the wrong place).
    func testGarbageParsesOrNamesALineOfTheInput() {
        // Deterministic pseudo-random text from the format's own alphabet.
        let alphabet = Array("[]=#*?!-\\ \t\r\nx0123456789abcdefABCDEF.+MatchNamePressureTopusb".unicodeScalars)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var inputs: [(String, String)] = []
        for i in 0..<2000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<(Int(state >> 58) + 1) * 4 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                s.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            inputs.append(("fuzz\(i).conf", String(s)))
        }
        let prefix = "[P]\nMatchBus=usb\n"
        for value in ["-9223372036854775808", "-9223372036854775809", "0x8000000000000000", "0x", "-", "+"] {
            inputs.append(("edge \(value).conf", prefix + "PressureFloor=\(value)\n"))
        }
        // Errors found only when a section closes, at the next header or at the end past blank lines.
        inputs += [("close.conf", "[A]\n[B]\nMatchBus=usb\n"), ("end.conf", "[P]\nMatchBus=usb\n[Q] # no match\n\n# end\n\n")]
        var parsed = 0, refused = 0
        for (file, text) in inputs {
            do {
                _ = try Configuration.parse(text, file: file)
                parsed += 1
            } catch {
                refused += 1
                // Lines end at "\n", scalar by scalar ("\r\n" is one Character, but two lines' worth here).
                let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
                XCTAssertEqual(error.file, file, "\(error)")
                XCTAssertTrue((1...lines.count).contains(error.line), "line \(error.line) of \(lines.count): \(error)")
                guard (1...lines.count).contains(error.line) else { continue }
                let named = lines[error.line - 1].prefix { $0 != "#" }
                XCTAssertFalse(
                    named.allSatisfy { " \t\r\u{0B}\u{0C}".unicodeScalars.contains($0) }, "\(error) names a line with nothing on it: \(text.debugDescription)")
                XCTAssertTrue(error.description.hasPrefix("\(file):\(error.line): "), error.description)
                // The line named is the one the message is about.
                let text = String(String.UnicodeScalarView(named))
                switch error.reason {
                case .lineWithoutEquals(let quoted), .unterminatedSectionHeader(let quoted), .textAfterSectionHeader(let quoted):
                    XCTAssertTrue(text.contains(quoted), "\(error) quotes what is not on its line: \(text.debugDescription)")
                case .missingMatch(let section):
                    XCTAssertTrue(
                        text.drop { " \t\r".contains($0) }.hasPrefix("[") && text.contains(section),
                        "\(error) names another line than its header: \(text.debugDescription)")
                default: break
                }
            }
        }
        // Both outcomes are exercised: the text is neither all valid nor all rejected.
        XCTAssertGreaterThan(parsed, 10)
        XCTAssertGreaterThan(refused, 1000)
    }
}
