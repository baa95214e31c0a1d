import PressureCore

/// The getevent reader's pass over the log, a block of lines at a time (``CaptureLineScan``): the
/// devices, numbered by first appearance, and every event to the sink with its device's index.
struct GeteventScan: CaptureLogScan {
    let file: String
    private(set) var devices: [GeteventReader.Device] = []
    private(set) var lineNumber = 0
    /// The device whose block the indented lines belong to.
    private var block: Int? = nil
    /// Devices a block named, in order.
    private var blocks: [Int] = []
    /// The device of events without a node, once one came.
    private var unnamed: Int? = nil
    /// The last node an event named and its device: most lines name the same node as the one before.
    private var lastNode: [UInt8] = []
    private var lastDevice = -1

    init(file: String) {
        self.file = file
    }

    var deviceCount: Int { devices.count }

    func describe(_ index: Int, evidence: AssumedDescription.Evidence, given: DeviceDescription?)
        -> (DeviceDescription, [String])
    {
        GeteventReader.resolve(devices[index], evidence: evidence, file: file, several: devices.count > 1, given: given)
    }

    func finish() throws(CaptureError) {}

    mutating func take<Sink: CaptureEventSink>(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout Sink)
        throws(CaptureError)
    {
        var lineStart = 0
        while lineStart < bytes.count {
            lineNumber += 1
            let lineEnd = LineScanner.endOfLine(bytes, from: lineStart)
            defer { lineStart = lineEnd + 1 }
            var s = LineScanner(bytes, from: lineStart, to: lineEnd)
            if let b = s.current, LineScanner.isSpace(b) {
                s.skipSpaces()
                guard let i = block, !s.atEnd else { continue }
                if case .malformed(let why)? = devices[i].header?.take(&s) {
                    throw CaptureError.malformed(why, s, from: lineStart, file: file, line: lineNumber)
                }
                continue
            }
            block = nil
            if s.take(word: "add device ") {
                let digits = s.position
                while let b = s.current, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { s.position += 1 }
                guard s.position > digits, s.take(UInt8(ascii: ":")) else {
                    throw CaptureError.malformed("expected `add device <n>: <node>`", s, from: lineStart, file: file, line: lineNumber)
                }
                let i = device(s.rest())
                devices[i].header = GeteventHeader()
                blocks.append(i)
                block = i
                unnamed = nil
                continue
            }
            guard s.current == UInt8(ascii: "[") else {
                if GeteventReader.looksLikeUntimedEvent(s) {
                    throw CaptureError.malformed(
                        "an event without a time stamp: record with `getevent -lt` (or `-t`)", s, from: lineStart,
                        file: file, line: lineNumber)
                }
                continue
            }
            switch GeteventLine.parse(&s) {
            case .event(let event, let nodeRange):
                let i: Int
                if let r = nodeRange {
                    let nodeBytes = UnsafeBufferPointer(rebasing: bytes[r])
                    if lastDevice >= 0, lastNode.elementsEqual(nodeBytes) {
                        i = lastDevice
                    } else {
                        i = device(GeteventLine.text(bytes, r))
                        lastNode = Array(nodeBytes)
                        lastDevice = i
                    }
                } else {
                    i = unnamed ?? device(blocks.count == 1 ? devices[blocks[0]].node : "")
                    unnamed = i
                }
                devices[i].eventCount += 1
                sink.take(event, device: i)
            case .unknownName(let name, let nodeRange):
                let node = nodeRange.map { GeteventLine.text(bytes, $0) } ?? (blocks.count == 1 ? devices[blocks[0]].node : "")
                let i = device(node)
                devices[i].unknownEvents += 1
                if !devices[i].unknownNames.contains(name) { devices[i].unknownNames.append(name) }
            case .malformed(let why):
                throw CaptureError.malformed(why, s, from: lineStart, file: file, line: lineNumber)
            }
        }
    }

    /// The device of `node`, added where it is new.
    private mutating func device(_ node: String) -> Int {
        if let i = devices.firstIndex(where: { $0.node == node }) { return i }
        devices.append(GeteventReader.Device(node: node))
        return devices.count - 1
    }
}
