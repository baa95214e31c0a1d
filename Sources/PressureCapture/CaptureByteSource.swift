import PressureCore

/// Where a streamed capture's bytes come from: a file, read a chunk at a time (`CaptureFile` in
/// PressureLinux, with `read(2)` and `lseek(2)`), or memory (``CaptureMemorySource``). The core opens no
/// file; ``CaptureLines`` asks its source for the next bytes, so a capture of any length is read in the
/// memory of a chunk or two.
public protocol CaptureByteSource {
    /// Copies the next bytes into `buffer`, at most `buffer.count` of them, and returns how many: 0 at the
    /// end of the file. A failure is a ``CaptureError`` with reason ``CaptureError/Reason/unreadable(_:)``.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int

    /// Moves to `offset` bytes from the start: 0 for a second pass over the file, or where a first pass
    /// found the events it wants.
    mutating func seek(to offset: Int) throws(CaptureError)
}
