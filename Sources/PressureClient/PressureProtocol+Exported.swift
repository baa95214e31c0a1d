// The client's API is the protocol's types (Hello, DeviceInfo, PressureEvent, Subscription…): an app that
// imports PressureClient gets them with it.
@_exported import PressureProtocol
