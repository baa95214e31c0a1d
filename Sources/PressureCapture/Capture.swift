import PressureCore

/// A recorded session of one device: its description and its events in order.
public struct Capture: Sendable {
    /// Where it came from, for messages (a file name).
    public var source: String
    public var device: DeviceDescription
    public var events: [InputEvent]
    /// What the reader had to assume because the file did not say, one sentence each, for a person: a
    /// header-less log's axis ranges, its protocol, whether it is a screen. Empty for a capture that
    /// describes its device. The tools print each as a warning; nothing else depends on the wording.
    public var assumptions: [String]

    public init(source: String, device: DeviceDescription, events: [InputEvent], assumptions: [String] = []) {
        self.source = source
        self.device = device
        self.events = events
        self.assumptions = assumptions
    }
}

/// Why a capture could not be read, with the file and line it happened at.
public struct CaptureError: Error, Equatable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// A `# EVEMU x.y` or `version:` this reader does not know.
        case unsupportedVersion(String)
        /// A line that is not what its prefix promises; the text says what was expected.
        case malformedLine(String)
        /// The file ended inside a structure (a header with no events, an unterminated list).
        case truncated(String)
        /// The file has no device description (header-less events need `--desc`).
        case missingDescription
        /// `--device N` beyond the devices the file holds.
        case noSuchDevice(index: Int, count: Int)
        /// The file holds no device with touch axes.
        case noTouchDevice
        /// The file is not any capture format this reader knows.
        case unknownFormat
        /// The bytes could not be read (`read: Input/output error`): what the source says.
        case unreadable(String)
        /// An evemu header line after the first event, in a stream opened to check only the header
        /// first (``CaptureStream/FirstPass/header``): its description was not the whole of it. Whoever
        /// opened it so opens it again with ``CaptureStream/FirstPass/wholeFile``.
        case headerAfterEvents
    }

    public var file: String
    /// 1-based line number, or 0 when the error is about the file as a whole.
    public var line: Int
    public var reason: Reason

    public init(file: String, line: Int, reason: Reason) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        let place = line > 0 ? "\(file):\(line)" : file
        switch reason {
        case .unsupportedVersion(let v): return "\(place): unsupported capture version \(v)"
        case .malformedLine(let why): return "\(place): \(why)"
        case .truncated(let why): return "\(place): truncated file: \(why)"
        case .missingDescription:
            return "\(place): no device description in this file (give one with --desc FILE)"
        case .noSuchDevice(let index, let count):
            return "\(place): no device \(index): the file holds \(count) device(s), numbered from 0"
        case .noTouchDevice: return "\(place): no touch device in this file"
        case .unknownFormat:
            return "\(place): not a capture this reader knows: evemu (1.1–1.3), libinput record (version 1), evtest output or Android getevent -lt/-t"
        case .unreadable(let why): return "\(place): \(why)"
        case .headerAfterEvents:
            return "\(place): the device description goes on after the first event (read the whole file first)"
        }
    }
}

extension CaptureError {
    /// A line that is not what it should be: `why`, then the line itself (shortened), as the text readers
    /// word it.
    static func malformed(_ why: String, _ s: LineScanner, from start: Int, file: String, line: Int) -> CaptureError {
        CaptureError(file: file, line: line, reason: .malformedLine("\(why), got `\(s.excerpt(from: start))`"))
    }
}
