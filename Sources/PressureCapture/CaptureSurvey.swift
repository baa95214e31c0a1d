import PressureCore

/// What the first pass over a log learns of each device's events without keeping them: how many there are,
/// and the evidence a description is worked out or completed from (``AssumedDescription/Evidence``). Its
/// size depends on the devices, not on the events.
struct CaptureSurvey: CaptureEventSink {
    struct Device {
        var count = 0
        var evidence = AssumedDescription.Evidence()
    }

    /// Devices by index, as far as the last that had an event.
    private(set) var devices: [Device] = []

    @inline(__always)
    mutating func take(_ event: InputEvent, device: Int) {
        while devices.count <= device { devices.append(Device()) }
        devices[device].count &+= 1
        devices[device].evidence.see(event)
    }

    /// How many events device `index` has.
    func count(of index: Int) -> Int { index < devices.count ? devices[index].count : 0 }

    /// What device `index`'s events show.
    func evidence(of index: Int) -> AssumedDescription.Evidence {
        index < devices.count ? devices[index].evidence : AssumedDescription.Evidence()
    }
}
