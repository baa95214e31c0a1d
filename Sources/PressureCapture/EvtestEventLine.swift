import PressureCore

/// One `Event:` line of evtest's output, from just after `Event:`:
/// ```
/// Event: time 67267.533442, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 16
/// Event: time 67267.533482, -------------- SYN_REPORT ------------
/// Event: time 67267.533482, ++++++++++++++ SYN_MT_REPORT ++++++++++++
/// Event: time 67267.533482, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<
/// ```
/// The numbers count, not evtest's names in parentheses (`(?)`, an old `(Absolute)`), except a frame
/// line's name (older evtest wrote `Report Sync`). `MSC_SCAN` and `MSC_RAW` values are hex, others decimal.
enum EvtestEventLine {
    enum Parsed {
        case event(InputEvent)
        /// The line stops where a mail client may have wrapped it: see ``Cut``.
        case cut(Cut)
        /// What the line should have been.
        case malformed(String)
    }

    /// Where a line may be cut and continued on the next line; nowhere else is a wrap taken as one.
    enum Cut {
        /// `…, code 57` with `(ABS_MT_TRACKING_ID), value 64` on the next line.
        case beforeCodeName
        /// `…, code 330 (BTN_TOUCH),` with `value 1` on the next line.
        case beforeValue

        /// Whether `s` (at the start of the next line's text) reads as this cut's continuation.
        func continues(_ s: LineScanner) -> Bool {
            var s = s
            switch self {
            case .beforeCodeName: return s.current == UInt8(ascii: "(")
            case .beforeValue: return s.take(word: "value") && s.takeSpaces()
            }
        }
    }

    static let shape = "`Event: time <seconds>.<micros>, type <n> (<name>), code <n> (<name>), value <n>`"

    static func parse(_ s: inout LineScanner) -> Parsed {
        s.skipSpaces()
        guard s.take(word: "time"), let time = s.timestamp(), s.take(UInt8(ascii: ",")) else {
            return .malformed("expected an event \(shape)")
        }
        s.skipSpaces()
        if let b = s.current, b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ">") {
            guard let code = synCode(&s) else {
                return .malformed("expected a frame line `Event: time <t>, -------------- SYN_REPORT ------------` (or SYN_MT_REPORT, SYN_DROPPED, SYN_CONFIG)")
            }
            return .event(InputEvent(time: time, type: EventType.syn, code: code, value: 0))
        }
        guard s.take(word: "type"), let type = s.decimal(in: 0...0xffff), name(&s), s.take(UInt8(ascii: ",")) else {
            return .malformed("expected `type <number> (<name>),` in an event \(shape)")
        }
        s.skipSpaces()
        guard s.take(word: "code"), let code = s.decimal(in: 0...0xffff) else {
            return .malformed("expected `code <number> (<name>),` in an event \(shape)")
        }
        s.skipSpaces()
        if s.atEnd { return .cut(.beforeCodeName) }
        guard name(&s), s.take(UInt8(ascii: ",")) else {
            return .malformed("expected `(<name>),` after the code in an event \(shape)")
        }
        s.skipSpaces()
        if s.atEnd { return .cut(.beforeValue) }
        let hex = type == Int64(EventType.msc) && (code == 3 || code == 4)
        guard s.take(word: "value"), s.takeSpaces(), let value = hex ? s.hex(limit: 0xffff_ffff).map(Int64.init)
            : s.decimal(in: Int64(Int32.min)...Int64(Int32.max))
        else {
            return .malformed("expected `value <\(hex ? "hex" : "number")>` at the end of an event \(shape)")
        }
        s.skipSpaces()
        guard s.atEnd else { return .malformed("unexpected text after the value of an event \(shape)") }
        return .event(InputEvent(
            time: time, type: UInt16(type), code: UInt16(code), value: Int32(truncatingIfNeeded: value)))
    }

    /// ` (<anything but a parenthesis>)`: evtest's name for a type or code.
    private static func name(_ s: inout LineScanner) -> Bool {
        s.skipSpaces()
        guard s.take(UInt8(ascii: "(")) else { return false }
        while let b = s.current, b != UInt8(ascii: ")") { s.position += 1 }
        return s.take(UInt8(ascii: ")"))
    }

    /// `-------------- SYN_REPORT ------------` and its kin: the code the name stands for.
    private static func synCode(_ s: inout LineScanner) -> UInt16? {
        // A run of at least three of `-`, `+` and `>` before the name (`<` after it).
        func rule(_ s: inout LineScanner, opening: Bool) -> Bool {
            let start = s.position
            while let b = s.current,
                b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: opening ? ">" : "<")
            {
                s.position += 1
            }
            return s.position - start >= 3
        }
        guard rule(&s, opening: true), s.takeSpaces() else { return nil }
        let start = s.position
        while let b = s.current, !LineScanner.isSpace(b) { s.position += 1 }
        let code: UInt16
        if case .code(EventType.syn, let c)? = EventNames.kernel.lookup(s.bytes, from: start, to: s.position) {
            code = c
        } else {
            // evtest before 1.30 printed "Report Sync" and "Config Sync".
            var word = LineScanner(s.bytes, from: start, to: s.position)
            if word.take(word: "Report") { code = SynCode.report } else if word.take(word: "Config") {
                code = SynCode.config
            } else { return nil }
            guard s.takeSpaces(), s.take(word: "Sync") else { return nil }
        }
        guard s.takeSpaces(), rule(&s, opening: false) else { return nil }
        s.skipSpaces()
        return s.atEnd ? code : nil
    }
}
