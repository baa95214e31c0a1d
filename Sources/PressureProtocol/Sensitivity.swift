/// How hard a press must be to peek and to pop, as the user chose it (iOS: Light, Medium, Firm).
public enum Sensitivity: String, CaseIterable, Sendable {
    case light, medium, firm
}
