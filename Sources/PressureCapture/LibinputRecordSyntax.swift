import PressureCore

/// The line syntax of a `libinput record` file, under ``LibinputRecordStructure``: the line and number
/// scanner and what it hands out, bytes in, lines, keys and values out. Kept apart because it knows
/// nothing of devices or events, only of the YAML subset the files are written in.

// MARK: - Bytes

enum LibinputRecordSyntax {
    enum Byte {
        static let newline = UInt8(ascii: "\n")
        static let carriageReturn = UInt8(ascii: "\r")
        static let space = UInt8(ascii: " ")
        static let tab = UInt8(ascii: "\t")
        static let hash = UInt8(ascii: "#")
        static let dash = UInt8(ascii: "-")
        static let plus = UInt8(ascii: "+")
        static let colon = UInt8(ascii: ":")
        static let comma = UInt8(ascii: ",")
        static let quote = UInt8(ascii: "\"")
        static let apostrophe = UInt8(ascii: "'")
        static let backslash = UInt8(ascii: "\\")
        static let openBracket = UInt8(ascii: "[")
        static let closeBracket = UInt8(ascii: "]")
        static let zero = UInt8(ascii: "0")
        static let nine = UInt8(ascii: "9")
        static let n = UInt8(ascii: "n")
        static let t = UInt8(ascii: "t")
    }

    /// One line that is neither blank nor a comment. `content` is its first non-blank byte (or, after
    /// ``Scanner/strippingDash(_:)``, the first byte after a `- `); `end` excludes the line break.
    struct Line {
        var number: Int
        var start: Int
        var content: Int
        var end: Int
        /// False only for the file's last line when the file does not end in a newline.
        var hasNewline: Bool
        /// Where the line begins in the file.
        var offset: Int

        @inline(__always) var indent: Int { content - start }
    }

    /// A `key: value` line: the key's bytes and the value's bytes, the value without its comment and
    /// surrounding blanks (empty when `valueStart == valueEnd`).
    struct KeyValue {
        var keyStart: Int
        var keyEnd: Int
        var valueStart: Int
        var valueEnd: Int

        var hasValue: Bool { valueStart < valueEnd }
    }

    /// Walks the meaningful lines of a file (``CaptureLines``), one at a time, with the current line always
    /// available for a look before it is consumed (blocks end at the first line that is not indented
    /// enough). Only the current line's bytes may be looked at: the next line may replace the buffer.
    struct Scanner {
        let lines: CaptureLines
        /// The buffer the current line indexes into.
        private(set) var bytes: UnsafeBufferPointer<UInt8>
        private(set) var current: Line?
        /// Why the lines stopped before the end of the file (it could not be read, or a line is too long to
        /// buffer). The scanner then acts as if the file ended there; the parser's caller reports this
        /// error instead of whatever the parser made of the end.
        private(set) var failure: CaptureError?

        init(_ lines: CaptureLines) {
            self.lines = lines
            bytes = lines.bytes
            current = nil
            advance()
        }

        /// The number of the file's last line, once the scanner is at the end; the current line's otherwise.
        var lastLineNumber: Int { current?.number ?? lines.lineNumber }

        /// Moves to the next line that is neither blank nor a comment, or to the end (`current == nil`).
        @inline(__always)
        mutating func advance() {
            current = nil
            guard failure == nil else { return }
            while true {
                let raw: CaptureLines.Line
                do throws(CaptureError) {
                    guard let line = try lines.nextLine() else { return }
                    raw = line
                } catch {
                    failure = error
                    return
                }
                bytes = lines.bytes
                var start = raw.start
                // A UTF-8 byte order mark is not content.
                if raw.offset == 0, raw.end - start >= 3, bytes[start] == 0xEF, bytes[start &+ 1] == 0xBB,
                    bytes[start &+ 2] == 0xBF
                {
                    start &+= 3
                }
                var p = start
                while p < raw.end, bytes[p] == Byte.space || bytes[p] == Byte.tab { p &+= 1 }
                let content = p
                var end = raw.end
                if end > content, bytes[end &- 1] == Byte.carriageReturn { end &-= 1 }
                if content >= end || bytes[content] == Byte.hash { continue }
                current = Line(
                    number: raw.number, start: start, content: content, end: end, hasNewline: raw.hasNewline,
                    offset: raw.offset)
                return
            }
        }

        /// Replaces the current line (with the part after its `- `, so that the item's first key is seen as a
        /// line at the item's indentation).
        mutating func replaceCurrent(_ line: Line) { current = line }

        @inline(__always) func isBlank(_ b: UInt8) -> Bool { b == Byte.space || b == Byte.tab }

        /// A block sequence entry: `-` followed by a blank or the end of the line.
        @inline(__always)
        func isDash(_ line: Line) -> Bool {
            guard bytes[line.content] == Byte.dash else { return false }
            let next = line.content &+ 1
            return next >= line.end || isBlank(bytes[next])
        }

        /// The line's content after its `- `, or nil when nothing but a comment follows the dash.
        func strippingDash(_ line: Line) -> Line? {
            var p = line.content &+ 1
            while p < line.end, isBlank(bytes[p]) { p &+= 1 }
            guard p < line.end, bytes[p] != Byte.hash else { return nil }
            var stripped = line
            stripped.content = p
            return stripped
        }

        /// Splits `key: value  # comment`; nil when the line has no `:` followed by a blank or the line's end.
        func keyValue(_ line: Line) -> KeyValue? {
            var p = line.content
            let end = line.end
            while p < end {
                let b = bytes[p]
                if b == Byte.colon, p &+ 1 >= end || isBlank(bytes[p &+ 1]) { break }
                if b == Byte.hash, p > line.content, isBlank(bytes[p &- 1]) { return nil }
                p &+= 1
            }
            guard p < end, p > line.content else { return nil }
            var keyEnd = p
            while keyEnd > line.content, isBlank(bytes[keyEnd &- 1]) { keyEnd &-= 1 }
            var valueStart = p &+ 1
            while valueStart < end, isBlank(bytes[valueStart]) { valueStart &+= 1 }
            // The value ends at a comment: `#` at the value's start or after a blank, outside double quotes.
            var q = valueStart
            var inQuotes = false
            while q < end {
                let b = bytes[q]
                if inQuotes {
                    if b == Byte.backslash {
                        q &+= 2
                        continue
                    }
                    if b == Byte.quote { inQuotes = false }
                } else if b == Byte.quote {
                    inQuotes = true
                } else if b == Byte.hash, q == valueStart || isBlank(bytes[q &- 1]) {
                    break
                }
                q &+= 1
            }
            var valueEnd = min(q, end)
            while valueEnd > valueStart, isBlank(bytes[valueEnd &- 1]) { valueEnd &-= 1 }
            return KeyValue(keyStart: line.content, keyEnd: keyEnd, valueStart: valueStart, valueEnd: valueEnd)
        }

        func key(_ kv: KeyValue, is name: StaticString) -> Bool {
            equal(kv.keyStart, kv.keyEnd, name)
        }

        func value(_ kv: KeyValue, is text: StaticString) -> Bool {
            equal(kv.valueStart, kv.valueEnd, text)
        }

        private func equal(_ from: Int, _ to: Int, _ text: StaticString) -> Bool {
            let n = text.utf8CodeUnitCount
            guard to &- from == n else { return false }
            let t = text.utf8Start
            var i = 0
            while i < n {
                if bytes[from &+ i] != t[i] { return false }
                i &+= 1
            }
            return true
        }

        func string(_ from: Int, _ to: Int) -> String {
            guard from < to else { return "" }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
        }

        // MARK: Numbers and flow lists

        @inline(__always)
        func skipBlanks(_ p: inout Int, _ end: Int) {
            while p < end, isBlank(bytes[p]) { p &+= 1 }
        }

        /// A decimal integer with an optional sign; nil when there are no digits. Values too large for
        /// `Int64` saturate, so that range checks reject them.
        @inline(__always)
        func integer(_ p: inout Int, _ end: Int) -> Int64? {
            var negative = false
            if p < end {
                let b = bytes[p]
                if b == Byte.dash || b == Byte.plus {
                    negative = b == Byte.dash
                    p &+= 1
                }
            }
            let digits = p
            var value: Int64 = 0
            var saturated = false
            while p < end {
                let d = bytes[p] &- Byte.zero
                if d > 9 { break }
                if value > 922_337_203_685_477_579 {  // (Int64.max - 9) / 10: one more digit could overflow
                    saturated = true
                } else {
                    value = value &* 10 &+ Int64(d)
                }
                p &+= 1
            }
            guard p > digits else { return nil }
            if saturated { value = Int64.max }
            return negative ? 0 &- value : value
        }

        /// The integers of a flow list `[a, b, …]` starting at `p` (at the `[`), each checked against
        /// `range`; leaves `p` after the `]`.
        func flowList(
            _ p: inout Int, _ end: Int, range: ClosedRange<Int64>, what: String, _ body: (Int64) -> Void
        ) throws(LineFailure) {
            guard p < end else { throw .cutOff }
            guard bytes[p] == Byte.openBracket else { throw .bad("expected a list [\(what), …]") }
            p &+= 1
            skipBlanks(&p, end)
            if p < end, bytes[p] == Byte.closeBracket {
                p &+= 1
                return
            }
            while true {
                skipBlanks(&p, end)
                guard let v = integer(&p, end) else {
                    if p >= end { throw .cutOff }
                    throw .bad("expected a list of integers [\(what), …]")
                }
                guard range.contains(v) else {
                    throw .bad("\(what) \(v) is outside \(range.lowerBound)...\(range.upperBound)")
                }
                body(v)
                skipBlanks(&p, end)
                guard p < end else { throw .cutOff }
                let b = bytes[p]
                p &+= 1
                if b == Byte.closeBracket { return }
                guard b == Byte.comma else { throw .bad("expected a list of integers [\(what), …]") }
                skipBlanks(&p, end)
                if p < end, bytes[p] == Byte.closeBracket {  // a trailing comma
                    p &+= 1
                    return
                }
            }
        }

        /// Only blanks or a comment may follow.
        @inline(__always)
        func expectLineEnd(_ p: Int, _ end: Int, after what: String) throws(LineFailure) {
            var p = p
            skipBlanks(&p, end)
            guard p >= end || bytes[p] == Byte.hash else { throw .bad("unexpected text after \(what)") }
        }
    }

    /// Why one line did not parse: it ran out before its structure was complete, or it is wrong.
    enum LineFailure: Error {
        case cutOff
        case bad(String)
    }
}
