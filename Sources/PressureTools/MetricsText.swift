import PressureClient

/// The daemon's `status` as OpenMetrics text (`docs/metrics.md`): gauges for what it holds, a histogram
/// per device for each latency, and `# EOF`. Only gauges and histograms are used, and no timestamps, so the
/// same text is also valid Prometheus text format 0.0.4 (where `# UNIT` and `# EOF` are comments), which
/// node_exporter's textfile collector reads.
public enum MetricsText {
    /// One gauge family: name, unit (the name's last word, or nil), help, and the value from a status.
    struct Gauge: Sendable {
        let name: String
        let unit: String?
        let help: String
        let value: @Sendable (DaemonStatus) -> Int
    }

    static let gauges: [Gauge] = [
        Gauge(name: "pressured_devices", unit: nil, help: "Touch devices served.") { $0.devices },
        Gauge(name: "pressured_clients", unit: nil, help: "Open client connections.") { $0.clients },
        Gauge(name: "pressured_subscribers", unit: nil, help: "Connections that subscribed.") { $0.subscribers },
        Gauge(name: "pressured_contacts", unit: nil, help: "Fingers down, across every device.") { $0.contacts },
        Gauge(name: "pressured_regions", unit: nil, help: "Regions registered by the open connections.") { $0.regions },
        Gauge(name: "pressured_pending_choices", unit: nil, help: "Chosen quick actions waiting for their app.") {
            $0.pendingChoices
        },
        Gauge(name: "pressured_queued_bytes", unit: "bytes", help: "Bytes queued for clients and not yet written.") {
            $0.queuedBytes
        },
    ]

    /// The text for a daemon that answered `status`.
    public static func render(_ status: DaemonStatus, latency: [DeviceLatency]) -> String {
        var out = family("pressured_up", type: "gauge", unit: nil, help: "Whether pressurectl metrics reached the daemon.")
        out += "pressured_up 1\n"
        for g in gauges {
            out += family(g.name, type: "gauge", unit: g.unit, help: g.help)
            out += "\(g.name) \(g.value(status))\n"
        }
        out += histograms(
            "pressured_frame_queue_latency_seconds",
            help: "Time from a frame's event time stamp to its gestures and touches queued for clients.",
            latency.map { ($0, $0.queue) })
        out += histograms(
            "pressured_frame_delivery_latency_seconds",
            help: "Time from a frame's event time stamp to the last client's write of its lines completing.",
            latency.map { ($0, $0.delivery) })
        out += family(
            "pressured_frames_unmeasured", type: "gauge", unit: nil,
            help: "Frames left out of the latency histograms since the device appeared.")
        for d in latency { out += "pressured_frames_unmeasured\(labels(d)) \(d.unmeasured)\n" }
        return out + "# EOF\n"
    }

    /// The text when the daemon could not be asked: `pressured_up 0`, so a stale file does not pass
    /// for figures and an alert can fire on it.
    public static func renderDown() -> String {
        family("pressured_up", type: "gauge", unit: nil, help: "Whether pressurectl metrics reached the daemon.")
            + "pressured_up 0\n# EOF\n"
    }

    static func family(_ name: String, type: String, unit: String?, help: String) -> String {
        var s = "# TYPE \(name) \(type)\n"
        if let unit { s += "# UNIT \(name) \(unit)\n" }
        return s + "# HELP \(name) \(help)\n"
    }

    static func histograms(_ name: String, help: String, _ all: [(DeviceLatency, LatencyHistogram)]) -> String {
        var out = family(name, type: "histogram", unit: "seconds", help: help)
        for (d, h) in all {
            let base = labelPairs(d)
            for (i, c) in h.cumulativeCounts.enumerated() {
                out += "\(name)_bucket{\(base),le=\"\(LatencyHistogram.boundLabel(i))\"} \(c)\n"
            }
            out += "\(name)_sum{\(base)} \(LatencyHistogram.secondsText(h.sumMicroseconds))\n"
            out += "\(name)_count{\(base)} \(h.count)\n"
        }
        return out
    }

    static func labels(_ d: DeviceLatency) -> String { "{" + labelPairs(d) + "}" }

    static func labelPairs(_ d: DeviceLatency) -> String {
        "device=\"\(d.device)\",node=\"\(escaped(d.node))\""
    }

    /// A label value as the format escapes it: backslash, double quote and line feed.
    static func escaped(_ value: String) -> String {
        var s = ""
        for c in value {
            switch c {
            case "\\": s += "\\\\"
            case "\"": s += "\\\""
            case "\n": s += "\\n"
            default: s.append(c)
            }
        }
        return s
    }
}
