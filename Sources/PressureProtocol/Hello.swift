/// The daemon's version, as `hello` reports it.
public let pressuredVersion = "0.1.0"

/// The daemon's greeting, the first line of every connection (``ServerMessage/hello(_:)``): what it is,
/// its devices, its settings.
public struct Hello: Hashable, Sendable {
    /// The protocol version (this library speaks ``ServerMessage/protocolVersion``).
    public var protocolVersion: Int
    /// The daemon's version, e.g. `0.1.0`.
    public var version: String
    public var devices: [DeviceInfo]
    public var settings: PublicSettings

    public init(
        protocolVersion: Int = ServerMessage.protocolVersion, version: String = pressuredVersion,
        devices: [DeviceInfo], settings: PublicSettings
    ) {
        self.protocolVersion = protocolVersion
        self.version = version
        self.devices = devices
        self.settings = settings
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        self.init(
            protocolVersion: try f.int("protocol"), version: try f.string("version"),
            devices: try DeviceInfo.list(f, "devices"), settings: try PublicSettings(try f.object("settings")))
    }
}
