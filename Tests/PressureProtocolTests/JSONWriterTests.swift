import Foundation
import TestSupport
import XCTest

@testable import PressureProtocol

final class JSONWriterTests: XCTestCase {
    func written(_ s: String) -> String {
        var out: [UInt8] = []
        JSONWriter.appendString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func number(_ d: Double) -> String {
        var out: [UInt8] = []
        JSONWriter.appendNumber(d, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testStringEscaping() {
        XCTAssertEqual(written("plain"), #""plain""#)
        XCTAssertEqual(written(#"say "hi" \ bye"#), #""say \"hi\" \\ bye""#)
        XCTAssertEqual(written("a\nb\tc\r\u{0}\u{1F}"), #""a\u000ab\u0009c\u000d\u0000\u001f""#)
        XCTAssertEqual(written("\u{7F}/é😀\u{2028}"), "\"\u{7F}/é😀\u{2028}\"")
        XCTAssertEqual(written(""), #""""#)
    }

    /// Every control character, quotes, backslashes and non-ASCII text survive our writer and both parsers.
    func testStringsRoundTripThroughFoundation() throws {
        var samples = [
            "quote \" and backslash \\ and slash /", "new\nline", "tab\there", "cr\r\nlf", "nul\u{0}byte",
            "emoji 😀👍🏽🇫🇷", "e\u{301} combining", "\u{10FFFF}\u{FFFF}\u{E000}", "ünïcødé", "{\"nested\":\"json\"}",
            "", " ", "\u{2028}\u{2029}",
        ]
        samples.append(String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self))
        for s in samples {
            var out: [UInt8] = []
            JSONWriter.appendString(s, to: &out)
            let viaFoundation = try foundationJSON(out) as? String
            XCTAssertEqual(viaFoundation.map { Array($0.utf8) }, Array(s.utf8), s.debugDescription)
            XCTAssertEqual(try JSONParser.parse(out), .string(s))
        }
    }

    func testNumbers() throws {
        XCTAssertEqual(number(0), "0")
        XCTAssertEqual(number(-0.0), "0")
        XCTAssertEqual(number(42), "42")
        XCTAssertEqual(number(-7), "-7")
        XCTAssertEqual(number(1.5), "1.5")
        XCTAssertEqual(number(0.1), "0.1")
        XCTAssertEqual(number(9_007_199_254_740_992), "9007199254740992")
        XCTAssertEqual(number(1e30), "1e+30")
        XCTAssertEqual(number(.infinity), "null")
        XCTAssertEqual(number(.nan), "null")
        let samples: [Double] = [0.1, 1e30, -1e-7, .leastNonzeroMagnitude, 1.7976931348623157e308, 123456789, -2.5,
                                 9_007_199_254_740_994, -1_152_921_504_606_846_976, 1.0 / 3.0]
        for d in samples {
            var out: [UInt8] = []
            JSONWriter.appendNumber(d, to: &out)
            XCTAssertEqual(try JSONParser.parse(out), .number(d), "\(d)")
            XCTAssertEqual((try foundationJSON(out) as? NSNumber)?.doubleValue, d, "\(d)")
        }
    }

    func testValues() throws {
        let value: JSONValue = ["b": [1, "two", .null, true, false, ["x": 1.25]], "a": "\"q\"", "e": [], "o": .object([])]
        XCTAssertEqual(value.jsonText, #"{"b":[1,"two",null,true,false,{"x":1.25}],"a":"\"q\"","e":[],"o":{}}"#)
        XCTAssertEqual(try JSONParser.parse(value.jsonText), value)
        XCTAssertTrue(try foundationJSON(Array(value.jsonText.utf8)) is [String: Any])
        XCTAssertEqual(JSONValue.null.jsonText, "null")
    }
}
