import PressureCapture
import PressureCore

extension Array where Element == UInt8 {
    /// `withUnsafeBufferPointer` for the capture readers, keeping their typed error.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws(CaptureError) -> R) throws(CaptureError) -> R {
        let result: Result<R, CaptureError> = withUnsafeBufferPointer { b in
            do throws(CaptureError) { return .success(try body(b)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
