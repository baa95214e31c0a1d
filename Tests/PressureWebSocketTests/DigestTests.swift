import XCTest

@testable import PressureWebSocket

final class DigestTests: XCTestCase {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// FIPS 180-2 appendix A vectors, the empty message, and lengths around the 55/56/64-byte padding edges.
    func testSHA1Vectors() {
        XCTAssertEqual(hex(SHA1.hash(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.hash([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(
            hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000))), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 55))), "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 56))), "c2db330f6083854c99d4b5bfb6e8f29f201be699")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 64))), "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }

    /// RFC 4648 §10's vectors both ways, and the strictness the handshake key relies on.
    func testBase64() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, coded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), coded)
            XCTAssertEqual(Base64.decode(coded), Array(plain.utf8))
        }
        XCTAssertEqual(Base64.encode([0xFB, 0xFF]), "+/8=")
        for bad in ["Zg", "Zg=", "Z===", "Zh==", "Zm9=", "Zm 9v", "Zm9v\n", "=Zm9", "Zg==Zg==", "Zm-_"] {
            XCTAssertNil(Base64.decode(bad), bad)
        }
    }

    /// RFC 6455 §1.3: the key "dGhlIHNhbXBsZSBub25jZQ==" is answered with "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
    func testHandshakeAcceptMatchesRFC6455() {
        XCTAssertEqual(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func testUTF8Validation() {
        let valid: [[UInt8]] = [
            [], Array("ascii".utf8), Array("κόσμε".utf8), [0xF0, 0x9F, 0x98, 0x80], [0xEF, 0xBF, 0xBF],
            [0xF4, 0x8F, 0xBF, 0xBF], [0xED, 0x9F, 0xBF], [0xC2, 0x80], [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80],
        ]
        for v in valid { XCTAssertTrue(UTF8Validator.isValid(v), "\(v)") }
        let invalid: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF],  // stray continuation, overlong 2-byte
            [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],  // overlong 3-byte
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates
            [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong 4-byte
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],  // past U+10FFFF
            [0xC2], [0xE2, 0x82], [0xF0, 0x9F, 0x98],  // truncated
            [0xC2, 0x41], [0xE2, 0x28, 0xA1],  // continuation missing
        ]
        for v in invalid { XCTAssertFalse(UTF8Validator.isValid(v), "\(v)") }
    }

    /// A character split at every possible point stays valid across feeds; a bad byte fails the feed it is in.
    func testUTF8AcrossFeeds() {
        let text = Array("a€😀b".utf8)
        for cut in 0...text.count {
            var v = UTF8Validator()
            XCTAssertTrue(v.feed(Array(text[..<cut])))
            XCTAssertTrue(v.feed(Array(text[cut...])))
            XCTAssertTrue(v.isAtBoundary)
        }
        var v = UTF8Validator()
        XCTAssertTrue(v.feed([0xF0, 0x9F]))
        XCTAssertFalse(v.isAtBoundary)
        XCTAssertFalse(v.feed([0x41]))
    }
}
