/// A small command-line option reader for the executables (no outside packages here): `--flag`,
/// `--option VALUE` / `--option=VALUE`, and positional arguments, with errors that say what is wrong.
public struct OptionReader {
    public struct UsageError: Error, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    private var arguments: [String]
    public private(set) var positional: [String] = []

    public init(_ arguments: some Sequence<String>) { self.arguments = Array(arguments) }

    /// The arguments not consumed yet, for a tool that hands them on.
    public var remaining: [String] { arguments }

    /// Consumes `--name` wherever it stands.
    public mutating func flag(_ name: String) -> Bool {
        guard let i = arguments.firstIndex(of: name) else { return false }
        arguments.remove(at: i)
        return true
    }

    /// Consumes every `--name VALUE` (or `--name=VALUE`), in order.
    public mutating func values(_ name: String) throws(UsageError) -> [String] {
        var found: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == name {
                guard i + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
                found.append(arguments[i + 1])
                arguments.removeSubrange(i...(i + 1))
            } else if a.hasPrefix(name + "=") {
                found.append(String(a.dropFirst(name.count + 1)))
                arguments.remove(at: i)
            } else {
                i += 1
            }
        }
        return found
    }

    /// Consumes `--name VALUE` given at most once.
    public mutating func value(_ name: String) throws(UsageError) -> String? {
        let all = try values(name)
        guard all.count <= 1 else { throw UsageError("\(name) given more than once") }
        return all.first
    }

    /// Consumes the output file, `-o FILE` or `--output FILE`, given at most once.
    public mutating func output() throws(UsageError) -> String? {
        let all = try values("-o") + values("--output")
        guard all.count <= 1 else { throw UsageError("-o (--output) given more than once") }
        return all.first
    }

    /// Consumes `--name N`, an integer in `range`.
    public mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// What is left must be positional arguments; an unknown `--option` is an error.
    public mutating func finish() throws(UsageError) -> [String] {
        var rest: [String] = []
        var onlyPositional = false
        for a in arguments {
            if !onlyPositional && a == "--" {
                onlyPositional = true
            } else if !onlyPositional && a.hasPrefix("-") && a.count > 1 {
                throw UsageError("unknown option \(a)")
            } else {
                rest.append(a)
            }
        }
        arguments = []
        positional = rest
        return rest
    }
}
