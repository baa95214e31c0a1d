// Shared by the capture-reader targets: the same bytes read whole (one block in memory) and streamed a
// few bytes at a time (``CaptureLines`` over a ``CaptureMemorySource``, the chunk size taken from the
// input, so every edge a chunk can cut is reached), with both first passes. They must agree: the same
// capture, or the same error. A disagreement aborts, so libFuzzer saves the input.

import PressureCapture
import PressureCore

enum FuzzStreaming {
    /// The chunk size for an input: 1 to 97 bytes, or the default one input in eight.
    static func chunkSize(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard bytes.count > 1 else { return 1 }
        let pick = bytes.count &* 31 &+ Int(bytes[bytes.count / 2])
        return pick % 8 == 0 ? CaptureLines.defaultChunkSize : 1 + pick % 97
    }

    /// Reads `bytes` whole with `whole`, then streamed with `open` (given lines and a first pass), and
    /// aborts where they differ. Returns the whole reading's capture.
    static func agree(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String,
        whole: (UnsafeBufferPointer<UInt8>) throws(CaptureError) -> Capture,
        open: (CaptureLines, CaptureStream.FirstPass) throws(CaptureError) -> CaptureStream
    ) -> Capture? {
        let expected = Result { () throws(CaptureError) in try whole(bytes) }
        let chunk = chunkSize(bytes)
        for firstPass in [CaptureStream.FirstPass.wholeFile, .header] {
            var got = streamed(bytes, name: name, chunk: chunk, firstPass: firstPass, open: open)
            if firstPass == .header, case .failure(let e) = got, e.reason == .headerAfterEvents {
                // What whoever opened it so does: read it whole first.
                got = streamed(bytes, name: name, chunk: chunk, firstPass: .wholeFile, open: open)
            }
            switch (expected, got) {
            case (.success(let a), .success(let b)):
                if a.device != b.device || a.events != b.events || a.assumptions != b.assumptions {
                    fatalError("\(name): streamed in chunks of \(chunk) (\(firstPass)) reads otherwise than whole")
                }
            case (.failure(let a), .failure(let b)):
                if a != b { fatalError("\(name): streamed in chunks of \(chunk) (\(firstPass)): \(b), whole: \(a)") }
            case (.success, .failure(let b)):
                fatalError("\(name): streamed in chunks of \(chunk) (\(firstPass)) fails (\(b)), whole it reads")
            case (.failure(let a), .success):
                fatalError("\(name): streamed in chunks of \(chunk) (\(firstPass)) reads, whole it fails (\(a))")
            }
        }
        return try? expected.get()
    }

    /// Every event of the stream, read as a replay reads it: a batch at a time, the rest checked after
    /// the first batch where it is not yet (half of the inputs), else as it is read.
    static func streamed(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String, chunk: Int, firstPass: CaptureStream.FirstPass,
        open: (CaptureLines, CaptureStream.FirstPass) throws(CaptureError) -> CaptureStream
    ) -> Result<Capture, CaptureError> {
        Result { () throws(CaptureError) in
            let lines = CaptureLines(file: name, source: CaptureMemorySource(Array(bytes), chunkSize: chunk), chunkSize: chunk)
            var stream = try open(lines, firstPass)
            var events: [InputEvent] = []
            let checksAhead = bytes.count % 2 == 0
            while !stream.isFinished {
                try stream.read(into: &events)
                if checksAhead { try stream.checkRest() }
            }
            return Capture(source: name, device: stream.device, events: events, assumptions: stream.assumptions)
        }
    }
}
