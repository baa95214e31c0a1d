import PressureCore

/// Which of a log's devices a reader returns (evtest sessions, getevent nodes): `--device N`, else the first
/// touch device with events, else the first touch device, else the first. A device is described (and what
/// was assumed about it worked out) only as far as the choice needs. A file of no devices holds no touch
/// device.
enum DeviceChoice {
    static func choose(
        count: Int, wanted: Int?, file: String, hasEvents: (Int) -> Bool,
        describe: (Int) -> (DeviceDescription, [String])
    ) throws(CaptureError) -> (index: Int, description: DeviceDescription, assumptions: [String]) {
        guard count > 0 else { throw CaptureError(file: file, line: 0, reason: .noTouchDevice) }
        if let index = wanted {
            guard index < count else {
                throw CaptureError(file: file, line: 0, reason: .noSuchDevice(index: index, count: count))
            }
            let (d, a) = describe(index)
            return (index, d, a)
        }
        var firstTouch: Int? = nil
        for i in 0..<count {
            let (d, a) = describe(i)
            guard LibinputRecordReader.isTouchDevice(d) else { continue }
            if hasEvents(i) { return (i, d, a) }
            if firstTouch == nil { firstTouch = i }
        }
        let (d, a) = describe(firstTouch ?? 0)
        return (firstTouch ?? 0, d, a)
    }
}
