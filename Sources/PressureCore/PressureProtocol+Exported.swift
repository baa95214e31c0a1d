// The core's API speaks the protocol's types (Timestamp in every event, PressureEvent out of the pipeline,
// DeviceInfo and ServerMessage out of the Hub), so whoever uses the core needs them too: re-exported,
// rather than an `import PressureProtocol` beside every `import PressureCore`.
@_exported import PressureProtocol
