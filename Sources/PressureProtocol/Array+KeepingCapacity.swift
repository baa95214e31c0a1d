extension Array {
    /// Empties the array and keeps its storage, as `removeAll(keepingCapacity: true)`, which replaces the
    /// whole range through a generic call (about 80 instructions) even when there is nothing to remove:
    /// most of the lists a frame or a wake-up empties (the loop's work, a pipeline's transitions) are
    /// already empty.
    @inlinable @inline(__always)
    package mutating func removeAllKeepingCapacity() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }
}
