extension ActionStatus {
    /// An action in force for device `device`, as `status` and `pressurectl devices --json` report it.
    public init(device: Int, _ action: DeviceAction) {
        self.init(
            device: device, gesture: action.gesture.rawValue, does: action.does.description,
            areas: action.areas.map(\.description), source: action.source)
    }
}
