/// Which device a learned average belongs to: what the kernel says of it, and its pressure axis (an
/// average learned on one range means nothing on another).
public struct LearnedDeviceKey: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var pressureMinimum: Int32
    public var pressureMaximum: Int32

    public init(name: String, bus: UInt16, vendor: UInt16, product: UInt16, pressureMinimum: Int32, pressureMaximum: Int32) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.pressureMinimum = pressureMinimum
        self.pressureMaximum = pressureMaximum
    }

    /// The key of a device with pressure; nil without.
    public init?(_ device: TouchDevice) {
        guard device.hasPressure, let p = device.pressureAxis else { return nil }
        let id = device.description.identity
        self.init(name: device.description.name, bus: id.bus, vendor: id.vendor, product: id.product,
                  pressureMinimum: p.minimum, pressureMaximum: p.maximum)
    }

    /// `0003-25b5-0002-FlatFrog_Multitouch_3200.json`: bus, vendor and product in hex, then the name
    /// with everything but ASCII letters, digits, `.`, `-` and `_` made `_` (at most 64 characters).
    public var fileName: String {
        func hex(_ v: UInt16) -> String {
            let d = String(v, radix: 16)
            return String(repeating: "0", count: 4 - d.count) + d
        }
        var safe = ""
        for u in name.unicodeScalars.prefix(64) {
            let ok = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "." || u == "-" || u == "_"
            safe.unicodeScalars.append(ok ? u : "_")
        }
        if safe.isEmpty || safe.hasPrefix(".") { safe = "_" + safe }
        return "\(hex(bus))-\(hex(vendor))-\(hex(product))-\(safe).json"
    }

    public var description: String {
        "\"\(name)\" (bus \(bus), vendor \(vendor), product \(product), pressure \(pressureMinimum)..\(pressureMaximum))"
    }
}

/// Why a learned-average file was not used: the daemon logs it and starts the device afresh.
public struct LearnedStateError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var problem: String

    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }
}

/// The file a device's learning is kept in between runs (`/var/lib/pressured/learned/…`, or
/// `pressurectl replay --learned FILE`): one JSON object, written whole and renamed into place by the
/// Linux layer. What the learner's downward budget measured is not kept (input time starts afresh at
/// each boot), so it restarts at load. `sizeEcho` holds each sample's ``SizeEcho`` as its raw value (0
/// unseen, 1 echoed, 2 distinct); a file written before it existed reads as all unseen, so such a device
/// judges its pressure against its size afresh from the contacts that follow.
public enum LearnedAverageFile {
    public static let format = "pressured-learned-average"
    public static let version = 1

    /// The file's bytes for `learner`, learned on the device `key` describes.
    public static func encode(_ learner: AverageTouchLearner, for key: LearnedDeviceKey) -> [UInt8] {
        var out: [UInt8] = []
        out.append(contentsOf: "{\"format\":".utf8)
        JSONWriter.appendString(format, to: &out)
        out.append(contentsOf: ",\"version\":\(version),\"device\":{\"name\":".utf8)
        JSONWriter.appendString(key.name, to: &out)
        out.append(contentsOf: ",\"bus\":\(key.bus),\"vendor\":\(key.vendor),\"product\":\(key.product)".utf8)
        out.append(contentsOf: ",\"pressureMinimum\":\(key.pressureMinimum),\"pressureMaximum\":\(key.pressureMaximum)}".utf8)
        let saved = learner.saved
        out.append(contentsOf: ",\"floor\":\(saved.floor),\"top\":\(saved.top),\"accepted\":\(saved.accepted)".utf8)
        out.append(contentsOf: ",\"average\":".utf8)
        if let a = saved.average { JSONWriter.appendNumber(a, to: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: ",\"samples\":[".utf8)
        for (i, s) in saved.samples.enumerated() { out.append(contentsOf: ((i > 0 ? "," : "") + "\(s)").utf8) }
        out.append(contentsOf: "],\"varied\":[".utf8)
        for (i, v) in saved.varied.enumerated() { out.append(contentsOf: ((i > 0 ? "," : "") + (v ? "1" : "0")).utf8) }
        out.append(contentsOf: "],\"sizeEcho\":[".utf8)
        for (i, e) in saved.echoes.enumerated() { out.append(contentsOf: ((i > 0 ? "," : "") + "\(e.rawValue)").utf8) }
        out.append(contentsOf: "],\"pops\":\(saved.pops),\"popHistory\":\(saved.popHistory)".utf8)
        out.append(contentsOf: ",\"holds\":\(saved.holds),\"holdHistory\":\(saved.holdHistory)}\n".utf8)
        return out
    }

    /// Reads a file written by ``encode(_:for:)``. `key`: the device it must belong to. Anything
    /// malformed, of another format or version, or for another device is an error naming the problem.
    public static func decode(_ bytes: [UInt8], file: String, for key: LearnedDeviceKey) throws(LearnedStateError)
        -> AverageTouchLearner
    {
        func fail(_ problem: String) -> LearnedStateError { LearnedStateError(file: file, problem: problem) }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw fail("not JSON (\(error))") }
        guard value["format"]?.stringValue == format else { throw fail("not a learned-average file") }
        guard value["version"]?.exactInteger == version else {
            throw fail("version \(value["version"]?.jsonText ?? "missing"), expected \(version)")
        }
        guard let d = value["device"], let name = d["name"]?.stringValue,
              let bus = d["bus"]?.exactInteger, let vendor = d["vendor"]?.exactInteger,
              let product = d["product"]?.exactInteger, let pMin = d["pressureMinimum"]?.exactInteger,
              let pMax = d["pressureMaximum"]?.exactInteger
        else { throw fail("no device description") }
        let theirs = LearnedDeviceKey(
            name: name, bus: UInt16(truncatingIfNeeded: bus), vendor: UInt16(truncatingIfNeeded: vendor),
            product: UInt16(truncatingIfNeeded: product), pressureMinimum: Int32(truncatingIfNeeded: pMin),
            pressureMaximum: Int32(truncatingIfNeeded: pMax))
        guard theirs == key else { throw fail("learned on \(theirs), not on \(key)") }
        guard let floor = value["floor"]?.exactInteger, let top = value["top"]?.exactInteger,
              let accepted = value["accepted"]?.exactInteger, let sampleValues = value["samples"]?.arrayValue,
              let variedValues = value["varied"]?.arrayValue, let pops = value["pops"]?.exactInteger,
              let popHistory = value["popHistory"]?.exactInteger, let holds = value["holds"]?.exactInteger,
              let holdHistory = value["holdHistory"]?.exactInteger, let averageValue = value["average"]
        else { throw fail("a field is missing or not a number") }
        var samples: [Int32] = []
        for s in sampleValues {
            guard let v = s.exactInteger, v >= Int(key.pressureMinimum), v <= Int(key.pressureMaximum) else {
                throw fail("a sample outside the pressure range \(key.pressureMinimum)..\(key.pressureMaximum)")
            }
            samples.append(Int32(v))
        }
        let varied = variedValues.map { $0.exactInteger == 1 }
        var echoes = Array(repeating: SizeEcho.unseen, count: samples.count)
        if let echoValues = value["sizeEcho"]?.arrayValue {
            echoes = []
            for e in echoValues {
                guard let v = e.exactInteger, let echo = UInt8(exactly: v).flatMap(SizeEcho.init(rawValue:)) else {
                    throw fail("a size echo that is not 0, 1 or 2")
                }
                echoes.append(echo)
            }
        }
        var average: Double? = nil
        if case .number(let a, _) = averageValue { average = a } else if case .null = averageValue {} else {
            throw fail("average is neither a number nor null")
        }
        let state = AverageTouchLearner.Saved(
            floor: Int32(truncatingIfNeeded: floor), top: Int32(truncatingIfNeeded: top), accepted: accepted,
            average: average, samples: samples, varied: varied, echoes: echoes, pops: UInt32(truncatingIfNeeded: pops),
            popHistory: popHistory, holds: UInt32(truncatingIfNeeded: holds), holdHistory: holdHistory)
        do { return try AverageTouchLearner(restoring: state) } catch { throw fail(error.problem) }
    }
}
