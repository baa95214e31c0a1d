import PressureCore

/// What one ``EvdevDevice/read(into:)`` call found. In every case the events appended to the caller's
/// array come first and must be fed to the pipeline before acting on the outcome.
public enum DeviceReadOutcome {
    /// Everything the device had was read (the next read would block).
    case ok
    /// The kernel dropped events (`SYN_DROPPED`). Feed the events read so far, then pass `slots` to
    /// ``TouchPipeline/resync(slots:at:)``. More events may be waiting: read again.
    case resynced(slots: [SlotTruth], at: Timestamp)
    /// The device was unplugged (`ENODEV`): cancel its contacts and close it.
    case gone
    /// Reading failed for another reason.
    case failed(SystemError)
}
