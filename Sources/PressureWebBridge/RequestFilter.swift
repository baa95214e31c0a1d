import PressureProtocol

/// What a page's message becomes before it reaches the daemon (`docs/web.md`, "Identity").
///
/// Each message is decoded with the daemon's own request parser, so the bridge and the daemon read it
/// the same way; anything the bridge cannot read is answered by the bridge and never forwarded (a newer
/// daemon might understand a request this bridge would not know to check). What is forwarded is
/// re-encoded from the parsed value: one line, no stray newlines, duplicate keys already refused.
///
/// The daemon sees every page as the bridge's own user, so this filter is what holds a page to its Origin's
/// grant; the daemon then holds the bridge's user to what its configuration allows that user. A page gets
/// at most what both allow:
///
/// - control requests (every request the protocol calls control: `set`, `reload`, `resetLearning`):
///   refused (`not-permitted`) unless the Origin has `Control = on`; forwarded, the daemon allows them
///   only if the bridge's user may control (root, the daemon's user, `ControlGroup`).
/// - `subscribe`: acts as the Origin's app: `app` absent is filled in, another app is refused; the daemon
///   then lets the bridge's user be that app only if it is open or names that user (`[app ID] User=`).
/// - `setRegion` with `app`, `chooseAction`: only for the Origin's app.
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
