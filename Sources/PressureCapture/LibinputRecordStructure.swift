import PressureCore

/// The structure of a `libinput record` file: version, devices, and the generic block walking, over the
/// lines ``LibinputRecordSyntax`` scans. ``LibinputRecordReader`` is the way in, by whole file or stream.
enum LibinputRecordStructure {
    typealias Scanner = LibinputRecordSyntax.Scanner
    typealias Line = LibinputRecordSyntax.Line
    typealias KeyValue = LibinputRecordSyntax.KeyValue

    // MARK: - Walking an `events:` block (``Parser/nextEvent(_:)``, `LibinputRecordEventsWalk.swift`)

    /// Where the walk stands, with the indentations that bound each level: `key` of the `events:` line,
    /// `item` of its `- ` entries, `keys` of a frame's keys, `evdev` of the frame's `evdev:`, `sequence` of
    /// its event lines.
    enum EventsWalk {
        /// At the `events:` line.
        case start(Line, KeyValue)
        /// Before the next frame of the list, or its end.
        case frames(key: Int, item: Int)
        /// Before the next key of a frame, or its end.
        case frame(key: Int, item: Int, keys: Int)
        /// Before the next event line of a frame's `evdev:`, or its end.
        case events(key: Int, item: Int, keys: Int, evdev: Int, sequence: Int)
        case done
    }

    // MARK: - The parser

    /// Where an `events:` block begins, for the second pass to go back to: the key line's place in the
    /// file, its number, and the column of its key (after a `- ` where the key begins a list item).
    struct EventsStart: Equatable {
        var offset: Int
        var line: Int
        var column: Int
    }

    /// The device the first pass chose, and where its events are.
    struct Chosen {
        var index: Int
        var description: DeviceDescription
        var events: [EventsStart]
        var eventCount: Int
    }

    /// One device as it is read.
    struct DeviceInProgress {
        var index: Int
        var firstLine: Int
        var sawEvdev = false
        var description: DeviceDescription?
        /// Its `events:` blocks, where they are worth going back to (``Parser/keepsEvents(of:)``).
        var events: [EventsStart] = []
        var eventCount = 0

        init(index: Int, firstLine: Int) {
            self.index = index
            self.firstLine = firstLine
        }
    }

    struct Parser {
        // The reader's helper types by their short names, also in this type's extensions in other files.
        typealias Line = LibinputRecordSyntax.Line
        typealias KeyValue = LibinputRecordSyntax.KeyValue
        typealias DeviceInProgress = LibinputRecordStructure.DeviceInProgress
        typealias LineFailure = LibinputRecordSyntax.LineFailure
        typealias Byte = LibinputRecordSyntax.Byte
        var s: Scanner
        let file: String
        let wanted: Int?
        var deviceCount = 0
        var chosen: Chosen?
        var declaredDevices: (count: Int64, line: Int)?

        init(lines: CaptureLines, wanted: Int?) {
            self.s = Scanner(lines)
            self.file = lines.file
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

        /// The first pass: every line checked, the device chosen.
        mutating func run() throws(CaptureError) -> Chosen {
            do throws(CaptureError) {
                let chosen = try parse()
                if let failure = s.failure { throw failure }
                return chosen
            } catch {
                throw s.failure ?? error
            }
        }

        private mutating func parse() throws(CaptureError) -> Chosen {
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
            return chosen
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
            let picked = Chosen(
                index: device.index, description: description, events: device.events, eventCount: device.eventCount)
            if let wanted {
                if wanted == device.index { chosen = picked }
            } else if chosen == nil, LibinputRecordReader.isTouchDevice(description) {
                chosen = picked
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

    }
}
