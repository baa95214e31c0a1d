/// Numbers with a fixed number of decimals for people to read (tables, plots, messages), without
/// Foundation's `String(format:)`.
public enum DecimalText {
    /// `value` with exactly `decimals` decimals, rounded half away from zero: `fixed(6.6494, 2)` is
    /// `6.65`. Values out of `Int64`'s reach (never forces or millimetres) get Swift's own rendering.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard value.isFinite, scaled < 1e15 else { return "\(value)" }
        let n = Int64(scaled)
        let unit = Int64(scale)
        let sign = value < 0 && n != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(n) }
        let fraction = String(n % unit)
        return sign + String(n / unit) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
