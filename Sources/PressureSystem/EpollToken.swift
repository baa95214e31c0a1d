/// What an epoll registration's 64-bit token says: which kind of descriptor woke the loop (the upper 32
/// bits, a program's own `Kind` enum) and, for kinds there are many of (clients, devices, browsers),
/// which one (the lower 32 bits). One encoding for the daemon's loop and the web bridge's, so that each
/// keeps only its list of kinds.
///
/// Its members are inlinable, as are the loop's generic functions over it (`EventLoop+Tokens.swift`), so
/// that they are specialised in the programs for their `Kind`: called across the module boundary
/// unspecialised, every wake-up would look up the generic type's metadata in the runtime.
public struct EpollToken<Kind: RawRepresentable & Equatable>: Equatable where Kind.RawValue == UInt32 {
    public let kind: Kind
    /// Which descriptor of its kind; 0 for kinds there is one of.
    public let id: Int

    @inlinable
    public init(_ kind: Kind, _ id: Int = 0) {
        self.kind = kind
        self.id = id
    }

    /// A token as epoll hands it back; nil when its upper half names no kind (never registered).
    @inlinable
    public init?(rawValue: UInt64) {
        guard let kind = Kind(rawValue: UInt32(truncatingIfNeeded: rawValue >> 32)) else { return nil }
        self.kind = kind
        id = Int(rawValue & 0xffff_ffff)
    }

    /// The value registered with epoll (`id` keeps its lower 32 bits: ids count up from 1 and a
    /// program never has 2³² descriptors open).
    @inlinable
    public var rawValue: UInt64 { UInt64(kind.rawValue) << 32 | UInt64(UInt32(truncatingIfNeeded: id)) }
}
