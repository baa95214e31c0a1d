/// A key or a combination of keys an action presses: `Menu`, `Ctrl+C`, `Ctrl+Shift+T`. The keys go down in
/// the order written and come up in the reverse order, as a hand presses a shortcut.
public struct KeyCombination: Hashable, Sendable, CustomStringConvertible {
    /// The most keys one combination presses.
    public static let maximumKeys = 6

    /// Why a combination could not be read.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// `Ctrl+` or `++`: a key name left out.
        case emptyName
        /// A name that is neither a kernel `KEY_*` name nor a modifier.
        case unknownName(String)
        /// The same key twice.
        case repeated(String)
        /// More than ``maximumKeys``.
        case tooMany(Int)

        public var description: String {
            switch self {
            case .emptyName: return "a key name is missing around a '+'"
            case .unknownName(let n):
                return "no key is named '\(n)': expected a kernel KEY_* name without KEY_ (Menu, Enter, F10, C), "
                    + "or Ctrl, Shift, Alt, Super"
            case .repeated(let n): return "'\(n)' is pressed twice"
            case .tooMany(let n): return "\(n) keys: expected at most \(KeyCombination.maximumKeys)"
            }
        }
    }

    /// The names as written (for messages and `pressurectl devices`).
    public let names: [String]
    /// Their `KEY_*` codes, in the order they go down.
    public let codes: [UInt16]

    /// Reads `Ctrl+C`: names separated by `+`, spaces around them ignored.
    public init(parsing text: String) throws(Problem) {
        var names: [String] = [], codes: [UInt16] = []
        for part in text.split(separator: "+", omittingEmptySubsequences: false) {
            let name = String(part.drop(while: { $0 == " " || $0 == "\t" })).trimmingSuffixSpaces()
            guard !name.isEmpty else { throw .emptyName }
            guard let code = KeyNames.code(of: name) else { throw .unknownName(name) }
            guard !codes.contains(code) else { throw .repeated(name) }
            names.append(name)
            codes.append(code)
        }
        guard codes.count <= Self.maximumKeys else { throw .tooMany(codes.count) }
        self.names = names
        self.codes = codes
    }

    /// `Ctrl+C`, as written.
    public var description: String { names.joined(separator: "+") }
}
