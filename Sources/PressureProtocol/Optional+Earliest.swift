extension Optional where Wrapped: Comparable {
    /// The earlier of two times that may each be absent (a deadline, an expiry, a rest's end): the smaller
    /// where both are set, else whichever is, else nil. What a timer is armed for when several things may
    /// each want it: `earliest = .earliest(earliest, deadline)`.
    @inlinable public static func earliest(_ a: Wrapped?, _ b: Wrapped?) -> Wrapped? {
        guard let a else { return b }
        guard let b else { return a }
        return b < a ? b : a
    }
}
