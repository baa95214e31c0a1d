/// Clients: connecting, requests, control, and what every client is told.
extension Hub {
    /// A client connected; it is sent `hello` at once. `mayControl`: the peer is root or in the control group
    /// (the loop checks `SO_PEERCRED`).
    public mutating func connect(mayControl: Bool) -> Int {
        let id = nextClientID
        nextClientID += 1
        clients.append(ClientEntry(id: id, queue: ClientQueue(capacity: queueCapacity), mayControl: mayControl))
        scratch.removeAll(keepingCapacity: true)
        ServerMessage.hello(devices: deviceInfos, settings: PublicSettings(settings)).append(to: &scratch)
        enqueue(clients.count - 1, droppable: false)
        notices.append(.info("client \(id) connected\(mayControl ? " (may control)" : "")"))
        return id
    }

    /// The loop closed the client's connection (or the client hung up).
    public mutating func disconnected(_ id: Int) {
        guard let c = clients.firstIndex(where: { $0.id == id }) else { return }
        let wasClosing = clients[c].closing
        clients.remove(at: c)
        removeRegions(of: id)
        if !wasClosing { notices.append(.info("client \(id) hung up")) }
        updateTouchReporting()
    }

    /// Bytes queued for a client, for the loop to write.
    public mutating func drain(client id: Int, _ write: (UnsafeRawBufferPointer) -> Int) {
        guard let c = clients.firstIndex(where: { $0.id == id }) else { return }
        clients[c].queue.drain(write)
        // Once there is room again, tell the client how many touch events it lost.
        if clients[c].queue.droppedTouches > 0, clients[c].queue.pendingCount < clients[c].queue.touchLimit / 2 {
            let n = clients[c].queue.takeDroppedCount()
            scratch.removeAll(keepingCapacity: true)
            ServerMessage.dropped(touches: n).append(to: &scratch)
            enqueue(c, droppable: false)
        }
    }

    public func hasPendingBytes(client id: Int) -> Bool {
        clients.first { $0.id == id }.map { !$0.queue.isEmpty } ?? false
    }

    /// One request line (without its newline).
    public mutating func receive(client id: Int, line: ArraySlice<UInt8>, now: Timestamp) {
        guard let c = clients.firstIndex(where: { $0.id == id }), !clients[c].closing else { return }
        let parsed = line.withUnsafeBufferPointer { ClientRequest.parse(line: $0) }
        switch parsed {
        case .failure(let error):
            reject(c, error)
        case .success(let (requestID, request)):
            answer(c, requestID, request, now: now)
        }
    }

    /// A line over the limit: the client is told and disconnected.
    public mutating func lineTooLong(client id: Int, limit: Int) {
        guard let c = clients.firstIndex(where: { $0.id == id }) else { return }
        var line: [UInt8] = []
        ServerMessage.error(ProtocolError(
            id: nil, code: .lineTooLong, message: "request line longer than \(limit) bytes", fatal: true)).append(to: &line)
        close(c, reason: "request line over \(limit) bytes", finalLine: line)
    }

    mutating func reject(_ c: Int, _ error: ProtocolError) {
        if error.fatal {
            var line: [UInt8] = []
            ServerMessage.error(error).append(to: &line)
            close(c, reason: error.message, finalLine: line)
            return
        }
        clients[c].errors += 1
        if clients[c].errors >= Self.maximumErrorsPerClient {
            var line: [UInt8] = []
            ServerMessage.error(ProtocolError(
                id: error.id, code: .tooManyErrors,
                message: "\(Self.maximumErrorsPerClient) bad requests on this connection", fatal: true)).append(to: &line)
            close(c, reason: "too many bad requests", finalLine: line)
            return
        }
        scratch.removeAll(keepingCapacity: true)
        ServerMessage.error(error).append(to: &scratch)
        enqueue(c, droppable: false)
    }

    mutating func answer(_ c: Int, _ requestID: JSONValue?, _ request: ClientRequest, now: Timestamp) {
        switch request {
        case .subscribe(let sub):
            clients[c].subscription = sub
            updateTouchReporting()
            scratch.removeAll(keepingCapacity: true)
            ServerMessage.reply(id: requestID, .subscribe(sub)).append(to: &scratch)
            enqueue(c, droppable: false)
            // An app that was started for a quick action gets the choice that was waiting for it.
            if let app = sub.app { deliverPendingChoices(to: app, now: now) }
            return
        case .setRegion, .removeRegion, .setQuickActions, .chooseAction:
            answerRegionRequest(c, requestID, request, now: now)
            return
        case .devices:
            scratch.removeAll(keepingCapacity: true)
            ServerMessage.reply(id: requestID, .devices(deviceInfos)).append(to: &scratch)
        case .ping:
            scratch.removeAll(keepingCapacity: true)
            ServerMessage.reply(id: requestID, .ping(time: now)).append(to: &scratch)
        case .status:
            scratch.removeAll(keepingCapacity: true)
            ServerMessage.reply(id: requestID, .status(status, force: forceStatus)).append(to: &scratch)
        case .set, .reload, .resetLearning:
            guard clients[c].mayControl else {
                reject(c, ProtocolError(
                    id: requestID, code: .notPermitted,
                    message: "\(request.name) is for root and members of the control group", fatal: false))
                return
            }
            if case .resetLearning(let device) = request {
                resetLearning(c, requestID, device: device)
                return
            }
            guard case .set(let change) = request else {
                reloads.append(ReloadRequest(client: clients[c].id, id: requestID))
                return
            }
            let s = change.applied(to: settings)
            notices.append(.info("client \(clients[c].id) set force touch \(s.forceTouchEnabled ? "on" : "off"), sensitivity \(s.sensitivity.rawValue)"))
            // The answer first, then what everyone (this client too) hears about the change.
            scratch.removeAll(keepingCapacity: true)
            ServerMessage.reply(id: requestID, .set(PublicSettings(s))).append(to: &scratch)
            enqueue(c, droppable: false)
            apply(settings: s, configuration: configuration)
            return
        }
        enqueue(c, droppable: false)
    }

    /// `resetLearning`: the device (or every device) forgets its learned average and learns afresh; its
    /// state file goes too. A device id that is not served is an error; devices whose average is
    /// configured (or the prior, with learning off) have nothing to forget and are not listed.
    mutating func resetLearning(_ c: Int, _ requestID: JSONValue?, device: Int?) {
        if let id = device, !devices.contains(where: { $0.id == id }) {
            reject(c, ProtocolError(id: requestID, code: .invalidArgument, message: "no device \(id)"))
            return
        }
        var reset: [Int] = []
        for i in devices.indices where device == nil || devices[i].id == device {
            guard devices[i].pipeline.resetLearning() else { continue }
            reset.append(devices[i].id)
            devices[i].savedRevision = devices[i].pipeline.force.learnedRevision
            if let key = devices[i].learningKey {
                rememberedLearning.removeAll { $0.key == key }
                if devices[i].persistsLearning, let learner = devices[i].pipeline.force.learner {
                    learnedSaves.removeAll { $0.key == key }
                    learnedSaves.append(LearnedSave(key: key, learner: learner, reset: true))
                }
            }
        }
        notices.append(.info("client \(clients[c].id) reset what device(s) \(reset) learned"))
        scratch.removeAll(keepingCapacity: true)
        ServerMessage.reply(id: requestID, .resetLearning(devices: reset)).append(to: &scratch)
        enqueue(c, droppable: false)
        for i in devices.indices where reset.contains(devices[i].id) {
            devices[i].pipeline.markAnnounced()
            broadcastDevice(.changed, devices[i].info)
        }
    }

    // MARK: Settings and configuration

    /// New settings or configuration (`set`, `SIGHUP`): every pipeline takes them at once; every client
    /// hears of the new settings and of each device whose force capability or range changed.
    public mutating func apply(settings new: GestureSettings, configuration newConfiguration: Configuration) {
        let settingsChanged = new != settings
        settings = new
        configuration = newConfiguration
        for i in devices.indices {
            let before = devices[i].info
            // A learning device carries on with its learner (nil here: the pipeline keeps its own).
            let setup = forceSetup(
                for: devices[i].pipeline.device, node: devices[i].node, udev: devices[i].udev, learned: nil)
            let tracking = tracking(for: devices[i].pipeline.device, node: devices[i].node)
            devices[i].pipeline.apply(settings: new, force: setup, tracking: tracking)
            devices[i].pipeline.geometry = newConfiguration.screen(
                for: devices[i].pipeline.device, udevMatrix: devices[i].udev.calibrationMatrix).geometry
            let after = devices[i].info
            if before.forceCapability != after.forceCapability || before.maximumPossibleForce != after.maximumPossibleForce
                || before.screen != after.screen
            {
                broadcastDevice(.changed, after)
            }
            devices[i].pipeline.markAnnounced()
        }
        if settingsChanged {
            scratch.removeAll(keepingCapacity: true)
            ServerMessage.settings(PublicSettings(settings)).append(to: &scratch)
            for c in clients.indices where !clients[c].closing { enqueue(c, droppable: false) }
        }
    }

    /// `SIGHUP` or a `reload` request: the configuration files were read again. The requester (if any) is
    /// answered before everyone hears what changed.
    public mutating func reload(_ newConfiguration: Configuration, answering request: ReloadRequest? = nil) {
        notices.append(.info("configuration reloaded"))
        if let r = request, let c = clients.firstIndex(where: { $0.id == r.client }), !clients[c].closing {
            scratch.removeAll(keepingCapacity: true)
            ServerMessage.reply(id: r.id, .reload(PublicSettings(newConfiguration.settings))).append(to: &scratch)
            enqueue(c, droppable: false)
        }
        apply(settings: newConfiguration.settings, configuration: newConfiguration)
    }

    /// The configuration could not be read again: the old one stays, and the requester is told why.
    public mutating func reloadFailed(_ message: String, answering request: ReloadRequest?) {
        notices.append(.warning("reload failed, keeping the old configuration: \(message)"))
        guard let r = request, let c = clients.firstIndex(where: { $0.id == r.client }), !clients[c].closing else {
            return
        }
        scratch.removeAll(keepingCapacity: true)
        ServerMessage.error(ProtocolError(id: r.id, code: .reloadFailed, message: message)).append(to: &scratch)
        enqueue(c, droppable: false)
    }

    /// `added`/`removed` go to clients subscribed to devices; `changed` to everyone.
    mutating func broadcastDevice(_ change: ServerMessage.DeviceChange, _ info: DeviceInfo) {
        scratch.removeAll(keepingCapacity: true)
        ServerMessage.device(change: change, info).append(to: &scratch)
        for c in clients.indices where !clients[c].closing {
            if change == .changed || (clients[c].subscription?.devices ?? false) { enqueue(c, droppable: false) }
        }
    }

    /// The daemon stops: every client gets `bye`.
    public mutating func shutdown(reason: String) {
        scratch.removeAll(keepingCapacity: true)
        ServerMessage.bye(reason: reason).append(to: &scratch)
        for c in clients.indices where !clients[c].closing { enqueue(c, droppable: false) }
    }
}
