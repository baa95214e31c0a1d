import Foundation
import XCTest

@testable import PressureProtocol
import TestSupport

final class JSONParserTests: XCTestCase {
    func parse(_ text: String) throws(JSONError) -> JSONValue { try JSONParser.parse(text) }

    func parseError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONError? {
        do {
            let value = try JSONParser.parse(bytes)
            XCTFail("parsed \(value.jsonText) from \(bytes)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONError? {
        parseError(Array(text.utf8), file: file, line: line)
    }

    // MARK: Conformance

    func testValidDocuments() throws {
        let cases: [(String, JSONValue)] = [
            ("[]", []),
            ("{}", .object([])),
            (" \t\r\n[1]\r\n ", [1]),
            (#""a""#, "a"),
            ("0", 0),
            ("-0", .number(-0.0)),
            ("1.5e+3", 1500),
            ("1E-2", 0.01),
            ("-12.25", -12.25),
            ("true", true),
            ("false", false),
            ("null", .null),
            (#"[1,"x",{"a":[]},null,true]"#, [1, "x", ["a": []], .null, true]),
            (#"{"a":1,"a":2}"#, ["a": 1, "a": 2]),
            (#"{ "b" : 2 , "a" : [ ] }"#, ["b": 2, "a": []]),
            (#""\u0000""#, "\u{0}"),
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
            (#""\u00e9\u00C9""#, "éÉ"),
            (#""\uD83D\uDE00""#, "😀"),
            (#""\ud83d\ude00x""#, "😀x"),
            ("\"é😀\u{7F}\"", "é😀\u{7F}"),
            (#""\uFFFF""#, "\u{FFFF}"),
            ("123456789012345678901234567890", .number(123456789012345678901234567890.0)),
            ("1e-400", 0),
            ("-1.7976931348623157e308", .number(-1.7976931348623157e308)),
            ("[[[[]]]]", [[[[]]]]),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try parse(text), expected, text)
            // Foundation agrees that every accepted document is JSON.
            XCTAssertNoThrow(try foundationJSON(Array(text.utf8)), text)
        }
    }

    func testInvalidDocuments() {
        let cases: [String] = [
            "", " ", "[", "]", "{", "}", "[1,]", "[,1]", "[1,,2]", #"{"a":1,}"#, "{,}", "{a:1}", "{'a':1}",
            #"{"a" 1}"#, #"{"a":}"#, #"{"a"}"#, "{1:2}", "[1 2]", "01", "-01", "-", "1.", ".5", "+1", "1e", "1e+",
            "1.e3", "0x10", "NaN", "Infinity", "-Infinity", "tru", "nul", "True", "nulll", #""abc"#, #""\x""#,
            #""\u12""#, #""\u12G4""#, #""\""#, "\"a\tb\"", "\"a\nb\"", "[1] 2", "[1]x", "\u{FEFF}[]",
            "// c\n[]", "/* */[]", "[1]\0", "'a'", "[\"a\"", "{\"a\":1", "1 2", "[]]",
        ]
        for text in cases {
            XCTAssertNotNil(parseError(text), "accepted \(text.debugDescription)")
        }
    }

    func testErrorOffsetsAndReasons() {
        XCTAssertEqual(parseError(""), JSONError(offset: 0, reason: .unexpectedEnd(expected: "a value")))
        XCTAssertEqual(parseError("[1,]"), JSONError(offset: 3, reason: .unexpectedByte(UInt8(ascii: "]"), expected: "a value")))
        XCTAssertEqual(parseError("[1] x"), JSONError(offset: 4, reason: .trailingData))
        XCTAssertEqual(parseError("\"a\u{1}\""), JSONError(offset: 2, reason: .controlCharacterInString(1)))
        XCTAssertEqual(parseError(#""\q""#), JSONError(offset: 2, reason: .invalidEscape(UInt8(ascii: "q"))))
        XCTAssertEqual(parseError("1e400"), JSONError(offset: 0, reason: .numberOutOfRange))
        XCTAssertEqual(parseError("-1e400"), JSONError(offset: 0, reason: .numberOutOfRange))
        XCTAssertEqual(parseError("[1e400]")?.offset, 1)
        XCTAssertEqual(
            parseError(#"{"a" 1}"#),
            JSONError(offset: 5, reason: .unexpectedByte(UInt8(ascii: "1"), expected: "':' after an object key")))
        XCTAssertEqual(parseError("[1,]")?.description, "byte 3: unexpected ']', expected a value")
        XCTAssertEqual(parseError([UInt8(ascii: "["), 0x01])?.message, "unexpected byte 0x01, expected a value or ']'")
    }

    func testSurrogates() {
        let lone = [#""\uD800""#, #""\uDBFF""#, #""\uDC00""#, #""\uDFFF""#, #""\uD800\u0041""#, #""\uD800x""#,
                    #""\uD800\uD800""#, #""\uDE00\uD83D""#, #""\uD83D\""#, #""a\uD83D""#]
        for text in lone {
            guard let error = parseError(text) else { continue }
            switch error.reason {
            case .loneSurrogate, .invalidUnicodeEscape: break
            default: XCTFail("\(text): \(error)")
            }
        }
        XCTAssertEqual(parseError(#""ab\uDC00""#), JSONError(offset: 3, reason: .loneSurrogate(0xDC00)))
        XCTAssertEqual(try parse(#""\uDBFF\uDFFF""#), .string("\u{10FFFF}"))
        XCTAssertEqual(try parse(#""\uD800\uDC00""#), .string("\u{10000}"))
    }

    func testInvalidUTF8() {
        let q = UInt8(ascii: "\"")
        let cases: [[UInt8]] = [
            [q, 0xC0, 0x80, q],  // overlong NUL
            [q, 0xC1, 0xBF, q],  // overlong
            [q, 0xE0, 0x80, 0xAF, q],  // overlong '/'
            [q, 0xED, 0xA0, 0x80, q],  // encoded surrogate
            [q, 0xF4, 0x90, 0x80, 0x80, q],  // past U+10FFFF
            [q, 0xF5, 0x80, 0x80, 0x80, q],
            [q, 0x80, q],  // stray continuation
            [q, 0xE2, 0x82, q],  // truncated
            [q, 0xE2, 0x82],  // truncated at the end
            [q, 0xF0, 0x9F, 0x98, q],
            [q, 0xFF, q],
            [q, 0xFE, q],
        ]
        for bytes in cases {
            XCTAssertEqual(parseError(bytes)?.reason, .invalidUTF8, "\(bytes)")
        }
        // Outside strings, any non-ASCII byte is simply not JSON.
        XCTAssertNotNil(parseError([0xC3, 0xA9]))
        XCTAssertNotNil(parseError([UInt8(ascii: "["), 0xC3, 0xA9, UInt8(ascii: "]")]))
        // Well-formed boundaries pass.
        let valid: [[UInt8]] = [
            [q, 0xC2, 0x80, q], [q, 0xDF, 0xBF, q], [q, 0xE0, 0xA0, 0x80, q], [q, 0xED, 0x9F, 0xBF, q],
            [q, 0xEE, 0x80, 0x80, q], [q, 0xF0, 0x90, 0x80, 0x80, q], [q, 0xF4, 0x8F, 0xBF, 0xBF, q],
        ]
        for bytes in valid {
            XCTAssertEqual(
                try JSONParser.parse(bytes), .string(String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self)))
        }
    }

    func testDepthLimit() throws {
        let limit = JSONParser.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        XCTAssertNoThrow(try parse(deepest))
        let tooDeep = "[" + deepest + "]"
        XCTAssertEqual(parseError(tooDeep), JSONError(offset: limit, reason: .tooDeep(limit: limit)))
        let objects = String(repeating: #"{"a":"#, count: limit) + "1" + String(repeating: "}", count: limit)
        XCTAssertNoThrow(try parse(objects))
        XCTAssertEqual(parseError(#"{"a":"# + objects + "}")?.reason, .tooDeep(limit: limit))
        // Hostile nesting far past the limit fails fast instead of recursing.
        let hostile = String(repeating: "[", count: 100_000)
        XCTAssertEqual(parseError(hostile)?.reason, .tooDeep(limit: limit))
        // Depth is nesting, not the count of containers: siblings do not add up.
        let wide = "[" + Array(repeating: deepest, count: 100).joined(separator: ",") + "]"
        XCTAssertEqual(parseError(wide)?.reason, .tooDeep(limit: limit))
        let wideOK = "[" + Array(repeating: "[[]]", count: 100).joined(separator: ",") + "]"
        XCTAssertNoThrow(try parse(wideOK))
    }

    func testNumbersAndExactIntegers() throws {
        XCTAssertEqual(try parse("3").exactInteger, 3)
        XCTAssertEqual(try parse("-3").exactInteger, -3)
        XCTAssertEqual(try parse("3.0").exactInteger, 3)
        XCTAssertEqual(try parse("3e2").exactInteger, 300)
        XCTAssertEqual(try parse("-0").exactInteger, 0)
        XCTAssertEqual(try parse("9007199254740992").exactInteger, 9_007_199_254_740_992)
        XCTAssertNil(try parse("1.5").exactInteger)
        XCTAssertNil(try parse("1e30").exactInteger)
        XCTAssertNil(try parse("-1e30").exactInteger)
        XCTAssertNil(try parse("9007199254740994").exactInteger)
        XCTAssertNil(try parse("1e-7").exactInteger)
        XCTAssertNil(try parse(#""3""#).exactInteger)
        XCTAssertNil(JSONValue.number(.infinity).exactInteger)
        XCTAssertNil(JSONValue.number(.nan).exactInteger)
        // Very long numbers round correctly and never trap.
        let longInteger = "1" + String(repeating: "0", count: 300)
        XCTAssertEqual(try parse(longInteger), .number(1e300))
        XCTAssertEqual(parseError("1" + String(repeating: "0", count: 400))?.reason, .numberOutOfRange)
        XCTAssertEqual(try parse("0." + String(repeating: "0", count: 5000) + "1"), 0)
        XCTAssertEqual(try parse("0.1"), 0.1)
        XCTAssertEqual(try parse("5e-324"), .number(.leastNonzeroMagnitude))
    }

    func testAccessors() throws {
        let v = try parse(#"{"s":"x","b":true,"n":2,"a":[1],"o":{},"s":"second"}"#)
        XCTAssertEqual(v["s"]?.stringValue, "x")
        XCTAssertEqual(v["b"]?.boolValue, true)
        XCTAssertEqual(v["n"]?.numberValue, 2)
        XCTAssertEqual(v["a"]?.arrayValue, [1])
        XCTAssertEqual(v["o"]?.objectMembers?.count, 0)
        XCTAssertNil(v["missing"])
        XCTAssertNil(JSONValue.array([])["s"])
        XCTAssertEqual(v.objectMembers?.map(\.0), ["s", "b", "n", "a", "o", "s"])
        XCTAssertNotEqual(JSONValue(dictionaryLiteral: ("a", 1), ("b", 2)), ["b": 2, "a": 1])
        XCTAssertEqual(Set<JSONValue>([["a": 1], ["a": 1], ["a": 2]]).count, 2)
    }

    // MARK: Hostile input

    /// 5,000 inputs: random bytes, random JSON-ish tokens, and mutations of valid documents. Nothing
    /// traps; whatever is accepted, Foundation accepts too and it survives a write-and-parse round trip.
    func testRandomInputsNeverCrash() throws {
        var rng = SplitMix64(state: 0x5EED)
        let seeds = [
            #"{"request":"subscribe","id":1,"events":["gestures","touches"],"devices":[1,2]}"#,
            #"{"a":[1,2.5e-3,-0,true,false,null,"\u00e9\ud83d\ude00\n"],"b":{"c":{}}}"#,
            #"["é😀",{"x":-12.75E+2},[[[]]],"\\\"\/"]"#,
        ].map { Array($0.utf8) }
        let tokens = ["{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "D83D", "1", "-", ".", "e", "true", "null",
                      " ", "\"k\"", "0", "9", "\u{1}", "é"].map { Array($0.utf8) }
        var accepted = 0
        for i in 0..<5000 {
            var input: [UInt8]
            switch i % 3 {
            case 0:
                input = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            case 1:
                input = []
                for _ in 0..<Int.random(in: 1...24, using: &rng) {
                    input += tokens[Int.random(in: 0..<tokens.count, using: &rng)]
                }
            default:
                input = seeds[Int.random(in: 0..<seeds.count, using: &rng)]
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let at = Int.random(in: 0..<input.count, using: &rng)
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0: input[at] = UInt8.random(in: 0...255, using: &rng)
                    case 1: input.remove(at: at)
                    case 2: input.insert(UInt8.random(in: 0...255, using: &rng), at: at)
                    default: input.removeSubrange(at...)
                    }
                    if input.isEmpty { break }
                }
            }
            guard let value = try? JSONParser.parse(input) else { continue }
            accepted += 1
            XCTAssertNoThrow(try foundationJSON(input), "Foundation rejects what we accepted: \(input)")
            var out: [UInt8] = []
            JSONWriter.append(value, to: &out)
            XCTAssertEqual(try JSONParser.parse(out), value, "round trip of \(input)")
        }
        XCTAssertGreaterThan(accepted, 50, "the mutations should leave some documents valid")
    }
}
