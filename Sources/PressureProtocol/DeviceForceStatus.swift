/// One device's force as `status` reports it to operators: where its average touch comes from, what
/// was learned and on how many touches, where peek and pop sit, and why force is off where it is.
/// Plain data: the daemon fills it from its pipeline, `pressurectl status` decodes it.
public struct DeviceForceStatus: Hashable, Sendable {
    public var device: Int
    public var forceCapability: ForceCapability
    public var reason: ForceUnavailableReason?
    /// `configured`, `learned` or `prior`; nil without pressure.
    public var averageSource: AverageTouchSource?
    /// The raw calibration in force, or (while force is unavailable) the configured or prior one.
    public var floor: Int32?
    public var average: Double?
    public var top: Int32?
    /// What the learner holds: samples in its window, accepted in all, their median.
    public var samples: Int?
    public var accepted: Int?
    public var median: Int32?
    /// Peek and pop, raw and in average touches, where force is available.
    public var peekRaw: Int32?
    public var popRaw: Int32?
    public var peekForce: Double?
    public var popForce: Double?
    public var maximumPossibleForce: Double

    public init(
        device: Int, forceCapability: ForceCapability, reason: ForceUnavailableReason? = nil,
        averageSource: AverageTouchSource? = nil, floor: Int32? = nil, average: Double? = nil, top: Int32? = nil,
        samples: Int? = nil, accepted: Int? = nil, median: Int32? = nil, peekRaw: Int32? = nil,
        popRaw: Int32? = nil, peekForce: Double? = nil, popForce: Double? = nil, maximumPossibleForce: Double
    ) {
        self.device = device
        self.forceCapability = forceCapability
        self.reason = reason
        self.averageSource = averageSource
        self.floor = floor
        self.average = average
        self.top = top
        self.samples = samples
        self.accepted = accepted
        self.median = median
        self.peekRaw = peekRaw
        self.popRaw = popRaw
        self.peekForce = peekForce
        self.popForce = popForce
        self.maximumPossibleForce = maximumPossibleForce
    }

    /// `{"device":1,"forceCapability":"available","averageSource":"learned","floor":0,"average":403.5,…}`
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"device":"#.utf8)
        JSONWriter.appendInteger(device, to: &out)
        JSONWriter.appendKey("forceCapability", to: &out)
        JSONWriter.appendString(forceCapability.rawValue, to: &out)
        if let r = reason {
            JSONWriter.appendKey("forceUnavailable", to: &out)
            JSONWriter.appendString(r.code, to: &out)
            JSONWriter.appendKey("why", to: &out)
            JSONWriter.appendString(r.explanation, to: &out)
        }
        if let s = averageSource {
            JSONWriter.appendKey("averageSource", to: &out)
            JSONWriter.appendString(s.rawValue, to: &out)
        }
        func integer(_ key: String, _ v: Int?) {
            guard let v else { return }
            JSONWriter.appendKey(key, to: &out)
            JSONWriter.appendInteger(v, to: &out)
        }
        func decimal(_ key: String, _ v: Double?) {
            guard let v else { return }
            JSONWriter.appendKey(key, to: &out)
            WireFormat.appendDecimal(v, to: &out)
        }
        integer("floor", floor.map(Int.init))
        decimal("average", average)
        integer("top", top.map(Int.init))
        integer("samples", samples)
        integer("accepted", accepted)
        integer("median", median.map(Int.init))
        integer("peekRaw", peekRaw.map(Int.init))
        integer("popRaw", popRaw.map(Int.init))
        decimal("peekForce", peekForce)
        decimal("popForce", popForce)
        decimal("maximumPossibleForce", maximumPossibleForce)
        out.append(UInt8(ascii: "}"))
    }
}

extension DeviceForceStatus {
    /// Decodes one entry of a `status` reply's `force` list, as ``append(to:)`` writes it. Unknown keys
    /// are ignored, as everywhere in the protocol, and so is an `averageSource` newer than this library.
    /// The reason comes back as ``ForceUnavailableReason/other(code:explanation:)``: its numbers are
    /// only in the explanation.
    public init(json: JSONValue) throws(MessageDecodingError) {
        try self.init(MessageFields(json, what: "a device's force"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        func int32(_ key: String) throws(MessageDecodingError) -> Int32? {
            guard let n = try f.optionalInt(key) else { return nil }
            guard let v = Int32(exactly: n) else { throw MessageDecodingError("'\(key)' is out of range: \(n)") }
            return v
        }
        self.init(
            device: try f.int("device"), forceCapability: try f.enumeration("forceCapability", ForceCapability.self),
            reason: try f.optionalString("forceUnavailable").map { ForceUnavailableReason(code: $0, explanation: try? f.string("why")) },
            averageSource: try f.optionalString("averageSource").flatMap(AverageTouchSource.init(rawValue:)),
            floor: try int32("floor"), average: try f.optionalDouble("average"), top: try int32("top"),
            samples: try f.optionalInt("samples"), accepted: try f.optionalInt("accepted"), median: try int32("median"),
            peekRaw: try int32("peekRaw"), popRaw: try int32("popRaw"), peekForce: try f.optionalDouble("peekForce"),
            popForce: try f.optionalDouble("popForce"), maximumPossibleForce: try f.double("maximumPossibleForce"))
    }

    /// One line for people: `available, max 2.54; average 403.2 learned from 64 samples (212 touches),
    /// floor 0, top 1024; peek 645 (1.60), pop 806 (2.00)`, or why force is unavailable.
    public var summary: String {
        var parts: [String] = []
        if forceCapability == .available {
            parts.append("available, max " + DecimalText.fixed(maximumPossibleForce, 2))
        } else {
            parts.append("unavailable: " + (reason?.explanation ?? "unknown reason"))
        }
        if let source = averageSource {
            var a = "average "
            switch (source, average) {
            case (.learned, nil):
                a += "not learned yet"
            case (.learned, let v?):
                a += DecimalText.fixed(v, 1) + " learned"
                if let s = samples, let n = accepted { a += " from \(s) sample\(s == 1 ? "" : "s") (\(n) accepted)" }
            case (.configured, let v):
                a += (v.map { DecimalText.fixed($0, 1) } ?? "?") + " configured"
            case (.prior, let v):
                a += (v.map { DecimalText.fixed($0, 1) } ?? "?") + " (prior: learning is off)"
            }
            if let f = floor, let t = top { a += ", floor \(f), top \(t)" }
            parts.append(a)
        }
        if let pk = peekRaw, let pp = popRaw, let fk = peekForce, let fp = popForce {
            let from = averageSource.map { " (\($0.rawValue))" } ?? ""
            parts.append("peek \(pk) (\(DecimalText.fixed(fk, 2))), pop \(pp) (\(DecimalText.fixed(fp, 2)))\(from)")
        }
        return parts.joined(separator: "; ")
    }
}
