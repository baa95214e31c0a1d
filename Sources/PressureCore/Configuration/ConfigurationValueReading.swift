/// The value forms every section's keys share, and the errors they give: a reader knows the file and the
/// line it is on, so each error names where the admin must look.
protocol ConfigurationValueReading {
    var file: String { get }
    var lineNumber: Int { get }
}

/// How ``ConfigurationValueReading/parseInteger(_:)`` read a number.
enum IntegerParse: Equatable { case value(Int64), overflow, invalid }

extension ConfigurationValueReading {
    func fail(_ reason: ConfigurationError.Reason) -> ConfigurationError {
        ConfigurationError(file: file, line: lineNumber, reason: reason)
    }

    func requireValue(_ key: String, _ value: String, _ expected: String) throws(ConfigurationError) {
        if value.isEmpty { throw fail(.emptyValue(key: key, expected: expected)) }
    }

    func integer(
        _ key: String, _ value: String, in range: ClosedRange<Int64>, _ expected: String
    ) throws(ConfigurationError) -> Int64 {
        try requireValue(key, value, expected)
        let n: Int64
        switch Self.parseInteger(value) {
        case .value(let v): n = v
        case .overflow: throw fail(.outOfRange(key: key, value: value, expected: expected))
        case .invalid: throw fail(.invalidNumber(key: key, value: value, expected: expected))
        }
        guard range.contains(n) else { throw fail(.outOfRange(key: key, value: value, expected: expected)) }
        return n
    }

    func decimal(
        _ key: String, _ value: String, in range: ClosedRange<Double>, _ expected: String
    ) throws(ConfigurationError) -> Double {
        try requireValue(key, value, expected)
        guard let d = Self.parseDecimal(value) else {
            throw fail(.invalidNumber(key: key, value: value, expected: expected))
        }
        guard range.contains(d) else { throw fail(.outOfRange(key: key, value: value, expected: expected)) }
        return d
    }

    /// Decimal with an optional sign, or `0x`/`0X` hex. Overflow of Int64 is reported, never trapped.
    static func parseInteger(_ text: String) -> IntegerParse {
        var s = Substring(text).unicodeScalars
        var negative = false
        var radix: Int64 = 10
        if s.first == "-" || s.first == "+" {
            negative = s.first == "-"
            s.removeFirst()
        } else if s.count > 2, s.first == "0", s.dropFirst().first == "x" || s.dropFirst().first == "X" {
            radix = 16
            s.removeFirst(2)
        }
        guard !s.isEmpty else { return .invalid }
        var n: Int64 = 0
        var overflow = false
        for c in s {
            let digit: Int64
            switch c.value {
            case 0x30...0x39: digit = Int64(c.value - 0x30)
            case 0x61...0x66 where radix == 16: digit = Int64(c.value - 0x61 + 10)
            case 0x41...0x46 where radix == 16: digit = Int64(c.value - 0x41 + 10)
            default: return .invalid
            }
            let (shifted, o1) = n.multipliedReportingOverflow(by: radix)
            let (next, o2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            overflow = overflow || o1 || o2
            n = next
        }
        return overflow ? .overflow : .value(n)
    }

    /// `digits`, `digits.digits` or `.digits`: no sign, exponent, hex, `inf` or `nan`.
    static func parseDecimal(_ text: String) -> Double? {
        var digits = 0, dots = 0
        for c in text.unicodeScalars {
            if c == "." { dots += 1 } else if ("0"..."9").contains(c) { digits += 1 } else { return nil }
        }
        guard digits > 0, dots <= 1, let d = Double(text), d.isFinite else { return nil }
        return d
    }

    func boolean(_ key: String, _ value: String) throws(ConfigurationError) -> Bool {
        try requireValue(key, value, "on or off")
        switch value.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw fail(.invalidBool(key: key, value: value))
        }
    }

    /// One of a few words, case-insensitive.
    func choice<T>(_ key: String, _ value: String, _ options: [(String, T)]) throws(ConfigurationError) -> T {
        let expected = options.map(\.0).joined(separator: ", ")
        try requireValue(key, value, expected)
        let lower = value.lowercased()
        guard let found = options.first(where: { $0.0 == lower }) else {
            throw fail(.invalidChoice(key: key, value: value, expected: "one of " + expected))
        }
        return found.1
    }

    /// `PalmSizeMm`: `off` or `0`, or millimetres. Below 5 mm every fingertip would be a palm; above
    /// 300 mm nothing could be.
    func palmSize(_ key: String, _ value: String) throws(ConfigurationError) -> PalmSize {
        let expected = "a size from 5 to 300 (millimetres), or off (also 0)"
        try requireValue(key, value, expected)
        if value.lowercased() == "off" { return .off }
        let mm = try decimal(key, value, in: 0...300, expected)
        guard mm == 0 || mm >= 5 else { throw fail(.outOfRange(key: key, value: value, expected: expected)) }
        return mm == 0 ? .off : .millimetres(mm)
    }

    /// `mail 1001 _kiosk`: names or numeric ids (0 to 4294967294), separated by spaces or tabs.
    func accounts(_ key: String, _ value: String, _ kind: Account.Kind) throws(ConfigurationError) -> [Account] {
        let expected = "\(kind.rawValue) names or numeric ids separated by spaces"
        try requireValue(key, value, expected)
        var out: [Account] = []
        for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            let text = String(word)
            if text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
                guard let n = UInt32(text), n != UInt32.max else {
                    throw fail(.outOfRange(key: key, value: value, expected: "numeric ids from 0 to 4294967294"))
                }
                out.append(Account(kind: kind, text: text, id: n, file: file, line: lineNumber))
            } else {
                guard Self.isAccountName(text) else { throw fail(.invalidNumber(key: key, value: value, expected: expected)) }
                out.append(Account(kind: kind, text: text, id: nil, file: file, line: lineNumber))
            }
        }
        return out
    }

    /// What `useradd` accepts, loosely: a letter or `_`, then letters, digits, `.`, `_`, `-`; a final `$`.
    static func isAccountName(_ s: String) -> Bool {
        var scalars = Array(s.unicodeScalars)
        if scalars.last == "$" { scalars.removeLast() }
        guard let first = scalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            scalars.count <= 64
        else { return false }
        return scalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
                || $0 == "."
        }
    }
}
