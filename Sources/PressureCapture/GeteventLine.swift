import PressureCore

/// One event line of Android's `getevent -t` (numbers) or `getevent -lt` (names), from its `[`:
/// ```
/// [   34490.122344] EV_ABS       ABS_MT_TRACKING_ID   00000082
/// [   34490.122406] /dev/input/event2: EV_KEY       BTN_TOUCH            DOWN
/// [   34490.122406] 0003 0039 ffffffff
/// ```
/// Hexadecimal, values 32-bit two's complement. `-l` names what it can (types, codes, `UP`/`DOWN`/`REPEAT`,
/// `MT_TOOL_*`), cut to 20 characters: a 20-character name the table lacks is looked up as a prefix. The
/// node appears where several devices are watched; `-r` adds ` rate N` after a frame.
enum GeteventLine {
    enum Parsed {
        /// The event, and where in the line the node's name is (without its colon), if it has one.
        case event(InputEvent, node: Range<Int>?)
        /// A well-formed event whose code is named by a name the kernel table lacks: the name, and the node.
        case unknownName(String, node: Range<Int>?)
        case malformed(String)
    }

    /// What a type, code or value token of a line stands for.
    enum Token {
        case number(UInt32)
        case meaning(KernelNames.Meaning)
        case unknown(String)
    }

    static let shape = "`[ <seconds>.<micros>] [<node>:] <type> <code> <value>`"

    static func parse(_ s: inout LineScanner) -> Parsed {
        guard s.take(UInt8(ascii: "[")), let time = s.timestamp(), s.takeSpacesThen(UInt8(ascii: "]")) else {
            return .malformed("expected an event \(shape)")
        }
        s.skipSpaces()
        var node: Range<Int>? = nil
        var probe = s
        let first = probe.word()
        if first.count > 1, s.bytes[first.upperBound - 1] == UInt8(ascii: ":") {
            node = first.lowerBound..<(first.upperBound - 1)
            s = probe
        }
        let typeWord = s.word(), codeWord = s.word(), valueWord = s.word()
        guard !valueWord.isEmpty else { return .malformed("expected a type, a code and a value in an event \(shape)") }
        s.skipSpaces()
        if s.take(word: "rate") { _ = s.decimal(in: 0...Int64(Int32.max)) }
        guard s.atEnd else { return .malformed("unexpected text after the value of an event \(shape)") }
        let type: UInt16
        switch token(s.bytes, typeWord, limit: 0xffff) {
        case .number(let t): type = UInt16(t)
        case .meaning(.type(let t)): type = t
        default: return .malformed("`\(text(s.bytes, typeWord))` is not an event type (EV_… or 4 hex digits)")
        }
        let code: UInt16
        switch token(s.bytes, codeWord, limit: 0xffff) {
        case .number(let c): code = UInt16(c)
        case .meaning(.code(type, let c)): code = c
        case .unknown(let name) where type != EventType.syn && type != EventType.abs: return .unknownName(name, node: node)
        default:
            return .malformed("`\(text(s.bytes, codeWord))` is not a code of \(EventNames.type(type)) (a name or 4 hex digits)")
        }
        let value: Int32
        switch token(s.bytes, valueWord, limit: 0xffff_ffff) {
        case .number(let v): value = Int32(bitPattern: v)
        case .meaning(.toolType(let t)) where type == EventType.abs && code == AbsCode.mtToolType: value = Int32(t)
        case .unknown(let v) where type == EventType.key && keyValues[v] != nil: value = keyValues[v] ?? 0
        default:
            return .malformed("`\(text(s.bytes, valueWord))` is not a value (8 hex digits, or UP/DOWN/REPEAT for a key)")
        }
        return .event(InputEvent(time: time, type: type, code: code, value: value), node: node)
    }

    static let keyValues: [String: Int32] = ["UP": 0, "DOWN": 1, "REPEAT": 2]

    /// A token: hex digits (at most `limit`), or a kernel name, or a word neither. A trailing `*` (a key
    /// held down, in `getevent -p`) is not part of it.
    static func token(_ bytes: UnsafeBufferPointer<UInt8>, _ word: Range<Int>, limit: UInt64) -> Token {
        var end = word.upperBound
        if end > word.lowerBound, bytes[end - 1] == UInt8(ascii: "*") { end -= 1 }
        var hex = LineScanner(bytes, from: word.lowerBound, to: end)
        if let v = hex.hex(limit: limit), hex.atEnd, end - word.lowerBound <= 8 { return .number(UInt32(v)) }
        if let m = EventNames.kernel.lookup(bytes, from: word.lowerBound, to: end) { return .meaning(m) }
        if end - word.lowerBound == 20, let m = EventNames.kernel.lookup(prefix: bytes, from: word.lowerBound, to: end) {
            return .meaning(m)
        }
        return .unknown(text(bytes, word.lowerBound..<end))
    }

    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self)
    }
}
