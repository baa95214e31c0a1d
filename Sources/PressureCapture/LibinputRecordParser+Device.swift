import PressureCore

/// One device of a `libinput record` file: its evdev description and its events.

extension LibinputRecordStructure.Parser {
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

    /// The first pass through an `events:` block: every line checked, the events counted where they are
    /// the device's that may be chosen, and where the block begins noted for the second pass.
    mutating func readEvents(
        _ keyLine: Line, _ kv: KeyValue, into device: inout DeviceInProgress
    ) throws(CaptureError) {
        let keep = keepsEvents(of: device)
        if keep {
            device.events.append(
                LibinputRecordStructure.EventsStart(
                    offset: keyLine.offset, line: keyLine.number, column: keyLine.content - keyLine.start))
        }
        var walk = LibinputRecordStructure.EventsWalk.start(keyLine, kv)
        while try nextEvent(&walk) != nil {
            if keep { device.eventCount += 1 }
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
