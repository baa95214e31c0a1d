import PressureCore

/// Bytes in memory as a ``CaptureByteSource``, handed out at most `chunkSize` at a time: how tests and the
/// fuzz targets stream a capture at any chunk size, down to one byte, to shake out what a chunk's edge
/// may cut (a line, a `\r\n`, a wrapped evtest line).
public struct CaptureMemorySource: CaptureByteSource {
    public let bytes: [UInt8]
    /// The most one ``read(into:)`` gives (at least 1).
    public let chunkSize: Int
    private var position = 0

    public init(_ bytes: [UInt8], chunkSize: Int) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int {
        let n = min(buffer.count, chunkSize, bytes.count - position)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { b in
            guard let from = b.baseAddress, let to = buffer.baseAddress else { return }
            to.copyMemory(from: from + position, byteCount: n)
        }
        position += n
        return n
    }

    public mutating func seek(to offset: Int) throws(CaptureError) {
        position = min(max(0, offset), bytes.count)
    }
}
