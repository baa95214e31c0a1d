/// A position axis as DEVICE describes it, `{"min":…,"max":…}` in device units. Two integers rather
/// than a `ClosedRange`, which would trap on a daemon that ever sent `min > max`.
public struct AxisRange: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32

    public init(minimum: Int32, maximum: Int32) {
        self.minimum = minimum
        self.maximum = maximum
    }
}

extension AxisRange {
    /// `{"min":0,"max":4095}`
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"min":"#.utf8)
        WireFormat.appendInteger(Int64(minimum), to: &out)
        out.append(contentsOf: #","max":"#.utf8)
        WireFormat.appendInteger(Int64(maximum), to: &out)
        out.append(UInt8(ascii: "}"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        self.init(minimum: try f.integer("min", as: Int32.self), maximum: try f.integer("max", as: Int32.self))
    }
}
