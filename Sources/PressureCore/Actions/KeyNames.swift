/// Key names as a configuration gives them: the kernel's `KEY_*` names without the prefix, in any case
/// (`Menu`, `enter`, `F10`, `KEY_C`), and the modifiers by their everyday names (`Ctrl`, `Shift`, `Alt`,
/// `Super`: the left-hand keys). Looked up from ``KernelNameTable``, so every key the kernel names is
/// there and none is spelled twice.
public enum KeyNames {
    /// The modifiers' everyday names (lowercased) and the keys they stand for.
    static let modifiers: [(name: String, code: UInt16)] = [
        ("ctrl", 0x1d), ("control", 0x1d), ("shift", 0x2a), ("alt", 0x38), ("super", 0x7d), ("meta", 0x7d),
    ]

    /// Every `KEY_*` name of the table, lowercased and without `KEY_`, to its code (aliases too).
    static let byName: [String: UInt16] = {
        var out: [String: UInt16] = [:]
        for word in KernelNameTable.text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard word.hasPrefix("KEY_"), let sep = word.firstIndex(where: { $0 == "=" || $0 == "~" }),
                let code = UInt16(word[word.index(after: sep)...], radix: 16)
            else { continue }
            out[word[word.index(word.startIndex, offsetBy: 4)..<sep].lowercased()] = code
        }
        return out
    }()

    /// The code of a key named `name` (case-insensitive, `KEY_` optional), or nil.
    public static func code(of name: String) -> UInt16? {
        var lower = name.lowercased()
        if let m = modifiers.first(where: { $0.name == lower }) { return m.code }
        if lower.hasPrefix("key_") { lower.removeFirst(4) }
        return lower.isEmpty ? nil : byName[lower]
    }
}
