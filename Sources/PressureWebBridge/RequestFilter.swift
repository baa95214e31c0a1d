import PressureProtocol

/// What a page's message becomes before it reaches the daemon (`docs/web.md`, "Identity").
///
/// Decoded with the daemon's own request parser, so both read it alike; what the bridge cannot read it
/// answers itself and never forwards (a newer daemon might understand what this bridge cannot check).
/// Forwarded requests are re-encoded from the parsed value: one line, duplicate keys already refused.
/// The daemon sees every page as the bridge's user, so this filter holds a page to its Origin's grant:
/// control requests (`set`, `reload`, `resetLearning`) need `Control = on`; `subscribe` acts as the
/// Origin's app (`app` filled in, another refused), and `setRegion` with `app` and `chooseAction` are only
/// for that app. The daemon then applies its own rules to the bridge's user: a page gets what both allow.
public struct RequestFilter: Sendable {
    public let grant: OriginGrant

    public init(grant: OriginGrant) {
        self.grant = grant
    }

    public enum Verdict: Hashable, Sendable {
        /// A request line for the daemon, with its `\n`.
        case forward([UInt8])
        /// An `error` line to send back to the page instead (with its `\n`).
        case refuse([UInt8], ProtocolError)
    }

    public func filter(_ message: [UInt8]) -> Verdict {
        let parsed = ClientRequest.parse(line: message)
        let id: JSONValue?, request: ClientRequest
        switch parsed {
        case .failure(let error): return refusal(error)
        case .success(let r): (id, request) = r
        }
        // Parsed once more as a value to re-encode; it parsed above, so this cannot fail.
        guard case .object(var members)? = try? JSONParser.parse(message) else {
            return refusal(ProtocolError(id: id, code: .invalidJSON, message: "not a JSON object"))
        }
        // The protocol's own classification, so a control request added later is held back too.
        if request.isControl && !grant.mayControl {
            return refusal(ProtocolError(
                id: id, code: .notPermitted,
                message: "'\(request.name)' is not forwarded for pages from \(grant.origin) "
                    + "(Control in its [origin] section of web.conf)"))
        }
        switch request {
        case .subscribe(let subscription):
            if let app = subscription.app, app != grant.app { return refusal(actingFor(app, id)) }
            if subscription.app == nil, let app = grant.app {
                members.append(("app", .string(app)))
            }
        case .setRegion(let region):
            if let app = region.app, app != grant.app { return refusal(actingFor(app, id)) }
        case .chooseAction(let app, _):
            if app != grant.app { return refusal(actingFor(app, id)) }
        case .devices, .ping, .status, .removeRegion, .setQuickActions, .set, .reload, .resetLearning:
            break
        }
        var line: [UInt8] = []
        line.reserveCapacity(message.count + 32)
        JSONWriter.append(.object(members), to: &line)
        line.append(0x0A)
        return .forward(line)
    }

    private func actingFor(_ app: String, _ id: JSONValue?) -> ProtocolError {
        let mine = grant.app.map { "only as '\($0)'" } ?? "as no app"
        return ProtocolError(
            id: id, code: .notPermitted,
            message: "pages from \(grant.origin) act \(mine), not as '\(app.prefix(64))' ([origin] App in web.conf)")
    }

    private func refusal(_ error: ProtocolError) -> Verdict {
        var line: [UInt8] = []
        ServerMessage.error(error).append(to: &line)
        return .refuse(line, error)
    }
}
