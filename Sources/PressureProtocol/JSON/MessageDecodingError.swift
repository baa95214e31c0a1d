/// Why a line from the daemon (or a part of one) is not the message it says it is: a key missing, or a
/// value of the wrong type or out of range. Unknown keys are never an error.
public struct MessageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
