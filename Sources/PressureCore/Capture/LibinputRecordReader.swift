/// Reads `libinput record` YAML (file format version 1) into a ``Capture`` of one device.
///
/// This is a purpose-built line-and-indentation scanner for the subset of YAML that
/// `libinput record` writes, not a general YAML parser:
///
/// ```
/// version: 1
/// ndevices: 1
/// libinput: {…}                    # skipped, like every key this reader does not know
/// devices:
/// - node: /dev/input/event5
///   evdev:
///     name: "ELAN Touchscreen"
///     id: [24, 1267, 673, 256]      # bus, vendor, product, version
///     codes:
///       3: [0, 1, 47, 53, 54, 57, 58]     # type: [code, …]
///     absinfo:
///       58: [0, 255, 0, 0, 0]       # code: [min, max, fuzz, flat, resolution]
///     properties: [1]
///   events:
///   - evdev:
///     - [  0,  10123,   3,  58,    40] # sec, usec, type, code, value
///     libinput:                     # skipped
///     - {time: 0.010123, type: TOUCH_DOWN, …}
/// ```
///
/// Rules: a key's value is the block of lines indented deeper than the key, plus, for a key with no inline
/// value, a `- ` sequence at the key's own indentation (as libinput writes `events:` and `evdev:`). Unknown keys
/// are skipped with their whole block. `#` starts a comment at the start of a line or after whitespace, outside
/// double quotes. `ndevices` is optional; when present it must match. Only version 1 is accepted.
///
/// Everything works on bytes. Event lines, the bulk of any capture, are parsed by a byte loop with no
/// allocation; only the chosen device's events are kept, though every device's lines are checked.
/// Errors carry the file name and the 1-based line (0 when the error is about the whole file). A line that
/// is cut off at the very end of the file (no newline, structure unfinished) is reported as truncated.
public enum LibinputRecordReader {
    /// True when the bytes look like a libinput record: the first line that is neither blank nor a comment
    /// is `version: N` at column 0. The version itself is not checked here (``read(_:file:deviceIndex:)``
    /// reports an unsupported one).
    public static func looksLikeRecord(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let scanner = Scanner(bytes)
        guard let line = scanner.current, line.indent == 0, let kv = scanner.keyValue(line),
            scanner.key(kv, is: "version"), kv.valueStart < kv.valueEnd
        else { return false }
        let b = bytes[kv.valueStart]
        return (b >= Byte.zero && b <= Byte.nine) || b == Byte.quote
    }

    /// ``looksLikeRecord(_:)-(UnsafeBufferPointer<UInt8>)`` for an array.
    public static func looksLikeRecord(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { looksLikeRecord($0) }
    }

    /// Parses device `deviceIndex` (0-based) or, when it is nil, the first touch device: one that declares
    /// `ABS_MT_POSITION_X`, or `ABS_X` together with `BTN_TOUCH`. `file` is used only in errors and as the
    /// capture's ``Capture/source``.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, deviceIndex: Int?
    ) throws(CaptureError) -> Capture {
        var parser = Parser(bytes: bytes, file: file, wanted: deviceIndex)
        return try parser.run()
    }

    /// ``read(_:file:deviceIndex:)-(UnsafeBufferPointer<UInt8>,_,_)`` for an array.
    public static func read(_ bytes: [UInt8], file: String, deviceIndex: Int?) throws(CaptureError) -> Capture {
        let result: Result<Capture, CaptureError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(CaptureError) {
                return .success(try read(buffer, file: file, deviceIndex: deviceIndex))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Whether a device description is what the default device choice looks for.
    static func isTouchDevice(_ device: DeviceDescription) -> Bool {
        device.has(type: EventType.abs, code: AbsCode.mtPositionX)
            || (device.has(type: EventType.abs, code: AbsCode.x)
                && device.has(type: EventType.key, code: KeyCode.btnTouch))
    }
}

// MARK: - Bytes

extension LibinputRecordReader {
    fileprivate enum Byte {
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
    fileprivate struct Line {
        var number: Int
        var start: Int
        var content: Int
        var end: Int
        /// False only for the file's last line when the file does not end in a newline.
        var hasNewline: Bool

        @inline(__always) var indent: Int { content - start }
    }

    /// A `key: value` line: the key's bytes and the value's bytes, the value without its comment and
    /// surrounding blanks (empty when `valueStart == valueEnd`).
    fileprivate struct KeyValue {
        var keyStart: Int
        var keyEnd: Int
        var valueStart: Int
        var valueEnd: Int

        var hasValue: Bool { valueStart < valueEnd }
    }

    /// Walks the meaningful lines of a buffer, one at a time, with the current line always available for a
    /// look before it is consumed (blocks end at the first line that is not indented enough).
    fileprivate struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        private(set) var current: Line?
        private var nextStart: Int
        private var nextNumber: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            var start = 0
            // A UTF-8 byte order mark is not content.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
            self.nextStart = start
            self.nextNumber = 1
            self.current = nil
            advance()
        }

        /// The number of the file's last line, once the scanner is at the end; the current line's otherwise.
        var lastLineNumber: Int { current?.number ?? max(0, nextNumber - 1) }

        /// Moves to the next line that is neither blank nor a comment, or to the end (`current == nil`).
        @inline(__always)
        mutating func advance() {
            let count = bytes.count
            while nextStart < count {
                let start = nextStart
                let number = nextNumber
                var p = start
                while p < count, bytes[p] == Byte.space || bytes[p] == Byte.tab { p &+= 1 }
                let content = p
                while p < count, bytes[p] != Byte.newline { p &+= 1 }
                let hasNewline = p < count
                nextStart = hasNewline ? p &+ 1 : p
                nextNumber &+= 1
                var end = p
                if end > content, bytes[end &- 1] == Byte.carriageReturn { end &-= 1 }
                if content >= end || bytes[content] == Byte.hash { continue }
                current = Line(number: number, start: start, content: content, end: end, hasNewline: hasNewline)
                return
            }
            current = nil
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
    fileprivate enum LineFailure: Error {
        case cutOff
        case bad(String)
    }

    // MARK: - The parser

    /// One device as it is read.
    fileprivate struct DeviceInProgress {
        var index: Int
        var firstLine: Int
        var sawEvdev = false
        var description: DeviceDescription?
        var events: [InputEvent] = []

        init(index: Int, firstLine: Int) {
            self.index = index
            self.firstLine = firstLine
        }
    }

    fileprivate struct Parser {
        var s: Scanner
        let file: String
        let wanted: Int?
        var deviceCount = 0
        var chosen: (device: DeviceDescription, events: [InputEvent])?
        var declaredDevices: (count: Int64, line: Int)?

        init(bytes: UnsafeBufferPointer<UInt8>, file: String, wanted: Int?) {
            self.s = Scanner(bytes)
            self.file = file
            self.wanted = wanted
        }

        // MARK: Errors

        func malformed(_ line: Int, _ why: String) -> CaptureError {
            CaptureError(file: file, line: line, reason: .malformedLine(why))
        }

        func truncated(_ why: String) -> CaptureError {
            CaptureError(file: file, line: s.lastLineNumber, reason: .truncated(why))
        }

        /// A line failure as the error to report: a cut-off last line without a newline is a truncated file.
        func error(_ failure: LineFailure, at line: Line, expected: String) -> CaptureError {
            switch failure {
            case .cutOff:
                if !line.hasNewline {
                    return CaptureError(
                        file: file, line: line.number, reason: .truncated("the last line is cut off: \(expected)"))
                }
                return malformed(line.number, "unfinished line: \(expected)")
            case .bad(let why):
                return malformed(line.number, why)
            }
        }

        // MARK: Top level

        mutating func run() throws(CaptureError) -> Capture {
            guard let first = s.current else {
                throw CaptureError(file: file, line: 0, reason: .truncated("the file is empty"))
            }
            guard first.indent == 0, let versionKV = s.keyValue(first), s.key(versionKV, is: "version") else {
                throw CaptureError(file: file, line: first.number, reason: .unknownFormat)
            }
            try checkVersion(first, versionKV)
            s.advance()
            skipDeeper(than: 0)

            var sawDevices = false
            while let line = s.current {
                guard line.indent == 0 else { throw malformed(line.number, "unexpected indentation") }
                guard !s.isDash(line), let kv = s.keyValue(line) else {
                    throw malformed(line.number, "expected a top-level `key: value`")
                }
                if s.key(kv, is: "ndevices") {
                    try readDeviceCount(line, kv)
                } else if s.key(kv, is: "devices") {
                    guard !sawDevices else { throw malformed(line.number, "a second `devices:` list") }
                    sawDevices = true
                    try readDevices(line, kv)
                } else {
                    skipValue(line, kv)
                }
            }
            guard sawDevices else { throw truncated("the file ends before its `devices:` list") }
            if let declared = declaredDevices, declared.count != Int64(deviceCount) {
                throw malformed(
                    declared.line, "`ndevices: \(declared.count)` but the file holds \(deviceCount) device(s)")
            }
            if let wanted, !(0..<deviceCount).contains(wanted) {
                throw CaptureError(file: file, line: 0, reason: .noSuchDevice(index: wanted, count: deviceCount))
            }
            guard let chosen else { throw CaptureError(file: file, line: 0, reason: .noTouchDevice) }
            return Capture(source: file, device: chosen.device, events: chosen.events)
        }

        func checkVersion(_ line: Line, _ kv: KeyValue) throws(CaptureError) {
            var from = kv.valueStart
            var to = kv.valueEnd
            guard from < to else { throw malformed(line.number, "`version:` has no value") }
            let bytes = s.bytes
            if to &- from >= 2, bytes[from] == Byte.quote || bytes[from] == Byte.apostrophe,
                bytes[to &- 1] == bytes[from]
            {
                from &+= 1
                to &-= 1
            }
            guard to &- from == 1, bytes[from] == UInt8(ascii: "1") else {
                throw CaptureError(file: file, line: line.number, reason: .unsupportedVersion(s.string(from, to)))
            }
        }

        mutating func readDeviceCount(_ line: Line, _ kv: KeyValue) throws(CaptureError) {
            var p = kv.valueStart
            guard let n = s.integer(&p, line.end), n >= 0, n <= Int64(Int32.max) else {
                throw malformed(line.number, "expected `ndevices: N` with N a count")
            }
            do throws(LineFailure) {
                try s.expectLineEnd(p, line.end, after: "the device count")
            } catch {
                throw self.error(error, at: line, expected: "`ndevices: N`")
            }
            declaredDevices = (n, line.number)
            s.advance()
            skipDeeper(than: line.indent)
        }

        // MARK: Generic blocks

        /// Skips the lines that belong to `key`'s value: deeper lines and, for a key with no inline value, a
        /// `- ` sequence at the key's own indentation.
        mutating func skipValue(_ line: Line, _ kv: KeyValue) {
            let k = line.indent
            let sameIndentSequence = !kv.hasValue
            s.advance()
            while let next = s.current, next.indent > k || (sameIndentSequence && next.indent == k && s.isDash(next)) {
                s.advance()
            }
        }

        mutating func skipDeeper(than indent: Int) {
            while let next = s.current, next.indent > indent { s.advance() }
        }

        /// For a key whose value must be a block: an inline `[]` or `{}` means empty (returns false), anything
        /// else inline is an error; otherwise moves to the block's first line and returns true.
        mutating func enterBlock(_ line: Line, _ kv: KeyValue, expected: String) throws(CaptureError) -> Bool {
            if kv.hasValue {
                guard s.value(kv, is: "[]") || s.value(kv, is: "{}") else {
                    throw malformed(line.number, "expected \(expected) below `\(s.string(kv.keyStart, kv.keyEnd)):`")
                }
                s.advance()
                skipDeeper(than: line.indent)
                return false
            }
            s.advance()
            return true
        }

        /// The item's first line as a line of its own: the content after `- `, or the next line when the dash
        /// stands alone. Nil when the item is empty.
        mutating func enterItem(_ dashLine: Line, what: String) throws(CaptureError) -> Line? {
            if let stripped = s.strippingDash(dashLine) {
                s.replaceCurrent(stripped)
                return stripped
            }
            s.advance()
            guard let next = s.current else { throw truncated("the file ends inside \(what)") }
            return next.indent > dashLine.indent ? next : nil
        }

        // MARK: Devices

        mutating func readDevices(_ line: Line, _ kv: KeyValue) throws(CaptureError) {
            let k = line.indent
            guard try enterBlock(line, kv, expected: "a list of devices") else { return }
            guard let first = s.current else { throw truncated("the file ends after `devices:`") }
            guard first.indent >= k, s.isDash(first) else {
                if first.indent > k { throw malformed(first.number, "expected a device entry `- `") }
                return
            }
            let d = first.indent
            while let item = s.current, item.indent >= d {
                guard item.indent == d else { throw malformed(item.number, "unexpected indentation") }
                guard s.isDash(item) else {
                    if d == k { break }
                    throw malformed(item.number, "expected a device entry `- `")
                }
                try readDevice(item)
            }
        }

        mutating func readDevice(_ dashLine: Line) throws(CaptureError) {
            var device = DeviceInProgress(index: deviceCount, firstLine: dashLine.number)
            deviceCount &+= 1
            if let firstKey = try enterItem(dashLine, what: "device \(device.index)") {
                let m = firstKey.indent
                while let line = s.current, line.indent >= m {
                    guard line.indent == m else { throw malformed(line.number, "unexpected indentation") }
                    guard !s.isDash(line), let kv = s.keyValue(line) else {
                        throw malformed(line.number, "expected `key: value` in device \(device.index)")
                    }
                    if s.key(kv, is: "evdev") {
                        try readEvdev(line, kv, into: &device)
                    } else if s.key(kv, is: "events") {
                        try readEvents(line, kv, into: &device)
                    } else {
                        skipValue(line, kv)
                    }
                }
            }
            guard let description = device.description else {
                let part = device.sawEvdev ? "`codes:` in its `evdev:` description" : "`evdev:` description"
                if s.current == nil { throw truncated("the file ends before device \(device.index)'s \(part)") }
                throw malformed(device.firstLine, "device \(device.index) has no \(part)")
            }
            if let wanted {
                if wanted == device.index { chosen = (description, device.events) }
            } else if chosen == nil, LibinputRecordReader.isTouchDevice(description) {
                chosen = (description, device.events)
            }
        }

        /// Whether this device's events are worth keeping (all are checked either way).
        func keepsEvents(of device: DeviceInProgress) -> Bool {
            if let wanted { return wanted == device.index }
            guard chosen == nil else { return false }
            // The description normally comes first; if it does not, keep the events until it is known.
            guard let description = device.description else { return true }
            return LibinputRecordReader.isTouchDevice(description)
        }

        // MARK: The evdev description

        mutating func readEvdev(
            _ keyLine: Line, _ kv: KeyValue, into device: inout DeviceInProgress
        ) throws(CaptureError) {
            device.sawEvdev = true
            let k = keyLine.indent
            guard try enterBlock(keyLine, kv, expected: "the device description") else { return }
            guard let first = s.current else { throw truncated("the file ends after `evdev:`") }
            guard first.indent > k else { return }
            let e = first.indent

            var name = ""
            var identity = DeviceIdentity()
            var properties: Set<UInt16> = []
            var codes: [UInt16: Set<UInt16>]?
            var absInfo: [UInt16: AbsInfo] = [:]
            while let line = s.current, line.indent > k {
                guard line.indent == e else { throw malformed(line.number, "unexpected indentation") }
                guard !s.isDash(line), let kv = s.keyValue(line) else {
                    throw malformed(line.number, "expected `key: value` in the evdev description")
                }
                if s.key(kv, is: "name") {
                    name = try readName(line, kv)
                    s.advance()
                    skipDeeper(than: e)
                } else if s.key(kv, is: "id") {
                    identity = try readIdentity(line, kv)
                    s.advance()
                    skipDeeper(than: e)
                } else if s.key(kv, is: "properties") {
                    if kv.hasValue {
                        properties = try readProperties(line, kv)
                        s.advance()
                        skipDeeper(than: e)
                    } else {
                        skipValue(line, kv)
                    }
                } else if s.key(kv, is: "codes") {
                    codes = try readCodes(line, kv, merging: codes ?? [:])
                } else if s.key(kv, is: "absinfo") {
                    try readAbsInfo(line, kv, into: &absInfo)
                } else {
                    skipValue(line, kv)
                }
            }
            if let codes {
                device.description = DeviceDescription(
                    name: name, identity: identity, properties: properties, codes: codes, absInfo: absInfo)
            }
        }

        func readName(_ line: Line, _ kv: KeyValue) throws(CaptureError) -> String {
            let bytes = s.bytes
            let from = kv.valueStart
            let to = kv.valueEnd
            guard from < to else { return "" }
            let open = bytes[from]
            guard open == Byte.quote || open == Byte.apostrophe else { return s.string(from, to) }
            guard to &- from >= 2, bytes[to &- 1] == open else {
                if !line.hasNewline {
                    throw CaptureError(
                        file: file, line: line.number, reason: .truncated("the last line is cut off inside a name"))
                }
                throw malformed(line.number, "unterminated quoted name")
            }
            // Unescape. libinput writes names without escaping, so a bare inner quote is kept as it is.
            var out: [UInt8] = []
            out.reserveCapacity(to &- from)
            var p = from &+ 1
            let last = to &- 1
            while p < last {
                let b = bytes[p]
                if open == Byte.quote, b == Byte.backslash, p &+ 1 < last {
                    let next = bytes[p &+ 1]
                    switch next {
                    case Byte.quote, Byte.backslash: out.append(next)
                    case Byte.n: out.append(Byte.newline)
                    case Byte.t: out.append(Byte.tab)
                    default:
                        out.append(b)
                        out.append(next)
                    }
                    p &+= 2
                } else if open == Byte.apostrophe, b == Byte.apostrophe, p &+ 1 < last,
                    bytes[p &+ 1] == Byte.apostrophe
                {
                    out.append(b)
                    p &+= 2
                } else {
                    out.append(b)
                    p &+= 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        func readIdentity(_ line: Line, _ kv: KeyValue) throws(CaptureError) -> DeviceIdentity {
            var values: [UInt16] = []
            values.reserveCapacity(4)
            let expected = "`id: [bus, vendor, product, version]`"
            do throws(LineFailure) {
                var p = kv.valueStart
                try s.flowList(&p, line.end, range: 0...0xffff, what: "id field") { values.append(UInt16($0)) }
                try s.expectLineEnd(p, line.end, after: "the id")
            } catch {
                throw self.error(error, at: line, expected: expected)
            }
            guard values.count == 4 else { throw malformed(line.number, "expected 4 numbers in \(expected)") }
            return DeviceIdentity(bus: values[0], vendor: values[1], product: values[2], version: values[3])
        }

        func readProperties(_ line: Line, _ kv: KeyValue) throws(CaptureError) -> Set<UInt16> {
            var properties: Set<UInt16> = []
            do throws(LineFailure) {
                var p = kv.valueStart
                try s.flowList(&p, line.end, range: 0...0xffff, what: "property") { properties.insert(UInt16($0)) }
                try s.expectLineEnd(p, line.end, after: "the properties")
            } catch {
                throw self.error(error, at: line, expected: "`properties: [N, …]`")
            }
            return properties
        }

        /// `codes:` then lines `TYPE: [CODE, …]`.
        mutating func readCodes(
            _ keyLine: Line, _ kv: KeyValue, merging existing: [UInt16: Set<UInt16>]
        ) throws(CaptureError) -> [UInt16: Set<UInt16>] {
            var codes = existing
            let k = keyLine.indent
            guard try enterBlock(keyLine, kv, expected: "lines `TYPE: [CODE, …]`") else { return codes }
            guard let first = s.current else { throw truncated("the file ends after `codes:`") }
            let entryIndent = first.indent
            while let line = s.current, line.indent > k {
                guard line.indent == entryIndent else { throw malformed(line.number, "unexpected indentation") }
                let expected = "`TYPE: [CODE, …]`"
                do throws(LineFailure) {
                    var p = line.content
                    let type = try numberedKey(&p, line.end, what: "event type", expected: expected)
                    var set = codes[type] ?? []
                    try s.flowList(&p, line.end, range: 0...0xffff, what: "event code") { set.insert(UInt16($0)) }
                    try s.expectLineEnd(p, line.end, after: "the codes")
                    codes[type] = set
                } catch {
                    throw self.error(error, at: line, expected: expected)
                }
                s.advance()
            }
            return codes
        }

        /// `absinfo:` then lines `CODE: [min, max, fuzz, flat, resolution]`.
        mutating func readAbsInfo(
            _ keyLine: Line, _ kv: KeyValue, into absInfo: inout [UInt16: AbsInfo]
        ) throws(CaptureError) {
            let k = keyLine.indent
            guard try enterBlock(keyLine, kv, expected: "lines `CODE: [min, max, fuzz, flat, resolution]`") else {
                return
            }
            guard let first = s.current else { throw truncated("the file ends after `absinfo:`") }
            let entryIndent = first.indent
            while let line = s.current, line.indent > k {
                guard line.indent == entryIndent else { throw malformed(line.number, "unexpected indentation") }
                let expected = "`CODE: [min, max, fuzz, flat, resolution]`"
                var values: [Int32] = []
                values.reserveCapacity(5)
                var code: UInt16 = 0
                do throws(LineFailure) {
                    var p = line.content
                    code = try numberedKey(&p, line.end, what: "axis code", expected: expected)
                    try s.flowList(&p, line.end, range: Int64(Int32.min)...Int64(Int32.max), what: "absinfo value") {
                        values.append(Int32(truncatingIfNeeded: $0))
                    }
                    try s.expectLineEnd(p, line.end, after: "the absinfo")
                } catch {
                    throw self.error(error, at: line, expected: expected)
                }
                guard values.count == 5 else { throw malformed(line.number, "expected 5 numbers in \(expected)") }
                absInfo[code] = AbsInfo(
                    minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3], resolution: values[4])
                s.advance()
            }
        }

        /// `N:` at the start of a codes or absinfo line; leaves `p` at the value.
        func numberedKey(_ p: inout Int, _ end: Int, what: String, expected: String) throws(LineFailure) -> UInt16 {
            guard let n = s.integer(&p, end) else { throw p >= end ? .cutOff : .bad("expected \(expected)") }
            guard (0...0xffff).contains(n) else { throw .bad("\(what) \(n) is outside 0...65535") }
            s.skipBlanks(&p, end)
            guard p < end else { throw .cutOff }
            guard s.bytes[p] == Byte.colon else { throw .bad("expected \(expected)") }
            p &+= 1
            s.skipBlanks(&p, end)
            return UInt16(n)
        }

        // MARK: Events

        mutating func readEvents(
            _ keyLine: Line, _ kv: KeyValue, into device: inout DeviceInProgress
        ) throws(CaptureError) {
            let k = keyLine.indent
            guard try enterBlock(keyLine, kv, expected: "a list of event frames") else { return }
            guard let first = s.current else { return }  // `events:` and nothing yet: no events
            guard first.indent >= k, s.isDash(first) else {
                if first.indent > k { throw malformed(first.number, "expected an event frame `- evdev:`") }
                return
            }
            let keep = keepsEvents(of: device)
            let i = first.indent
            while let item = s.current, item.indent >= i {
                guard item.indent == i else { throw malformed(item.number, "unexpected indentation") }
                guard s.isDash(item) else {
                    if i == k { break }
                    throw malformed(item.number, "expected an event frame `- evdev:`")
                }
                guard let firstKey = try enterItem(item, what: "an event frame") else { continue }
                let c = firstKey.indent
                while let line = s.current, line.indent >= c {
                    guard line.indent == c else { throw malformed(line.number, "unexpected indentation") }
                    guard !s.isDash(line), let kv = s.keyValue(line) else {
                        throw malformed(line.number, "expected `evdev:` or `libinput:` in an event frame")
                    }
                    if s.key(kv, is: "evdev") {
                        try readEvdevEvents(line, kv, keep: keep, into: &device.events)
                    } else {
                        skipValue(line, kv)
                    }
                }
            }
        }

        /// The hot loop: `- [sec, usec, type, code, value]` lines.
        mutating func readEvdevEvents(
            _ keyLine: Line, _ kv: KeyValue, keep: Bool, into events: inout [InputEvent]
        ) throws(CaptureError) {
            let k = keyLine.indent
            guard try enterBlock(keyLine, kv, expected: "event lines `- [sec, usec, type, code, value]`") else {
                return
            }
            guard let first = s.current else { throw truncated("the file ends after `evdev:` with no events") }
            guard first.indent >= k, s.isDash(first) else {
                if first.indent > k {
                    throw malformed(first.number, "expected an event `- [sec, usec, type, code, value]`")
                }
                return
            }
            let sequenceIndent = first.indent
            while let line = s.current, line.indent >= sequenceIndent {
                guard line.indent == sequenceIndent, s.isDash(line) else {
                    if line.indent == sequenceIndent, sequenceIndent == k { break }
                    throw malformed(line.number, "expected an event `- [sec, usec, type, code, value]`")
                }
                let event: InputEvent
                do throws(LineFailure) {
                    event = try parseEvent(line)
                } catch {
                    throw self.error(error, at: line, expected: "an event `- [sec, usec, type, code, value]`")
                }
                if keep { events.append(event) }
                s.advance()
            }
        }

        @inline(__always)
        func parseEvent(_ line: Line) throws(LineFailure) -> InputEvent {
            let end = line.end
            var p = line.content &+ 1  // after the dash
            s.skipBlanks(&p, end)
            guard p < end else { throw .cutOff }
            guard s.bytes[p] == Byte.openBracket else {
                throw .bad("expected an event `- [sec, usec, type, code, value]`")
            }
            p &+= 1
            let seconds = try field(&p, end, last: false)
            let microseconds = try field(&p, end, last: false)
            let type = try field(&p, end, last: false)
            let code = try field(&p, end, last: false)
            let value = try field(&p, end, last: true)
            try s.expectLineEnd(p, end, after: "the event")
            guard seconds >= 0 else { throw .bad("event seconds \(seconds) is negative") }
            guard microseconds >= 0, microseconds < 1_000_000 else {
                throw .bad("event microseconds \(microseconds) is outside 0...999999")
            }
            guard type >= 0, type <= 0xffff else { throw .bad("event type \(type) is outside 0...65535") }
            guard code >= 0, code <= 0xffff else { throw .bad("event code \(code) is outside 0...65535") }
            guard value >= Int64(Int32.min), value <= Int64(Int32.max) else {
                throw .bad("event value \(value) is outside the 32-bit range")
            }
            return InputEvent(
                time: Timestamp(seconds: seconds, microseconds: microseconds), type: UInt16(truncatingIfNeeded: type),
                code: UInt16(truncatingIfNeeded: code), value: Int32(truncatingIfNeeded: value))
        }

        /// One integer of an event and the `,` (or, for the last, `]`) after it.
        @inline(__always)
        func field(_ p: inout Int, _ end: Int, last: Bool) throws(LineFailure) -> Int64 {
            s.skipBlanks(&p, end)
            guard let v = s.integer(&p, end) else {
                if p >= end { throw .cutOff }
                throw .bad("expected 5 integers in an event `- [sec, usec, type, code, value]`")
            }
            s.skipBlanks(&p, end)
            guard p < end else { throw .cutOff }
            let separator = s.bytes[p]
            guard separator == (last ? Byte.closeBracket : Byte.comma) else {
                throw .bad("expected 5 integers in an event `- [sec, usec, type, code, value]`")
            }
            p &+= 1
            return v
        }
    }
}
