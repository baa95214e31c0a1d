import Glibc
import PressureCapture
import PressureCommandLine
import PressureCore
import PressureHub

/// Devices: discovery, hot-plug, reading, unplug; and a replay, served as a device.
extension Daemon {
    /// Pinned devices (`--device`), or discovery (udev, else a watch on the input directory).
    func startDevices() {
        if !options.devices.isEmpty {
            for node in options.devices { openDevice(node, classified: false) }
            return
        }
        do {
            let source = try DeviceDiscovery.makeSource(inputDirectory: options.inputDirectory)
            try loop.add(source.fd, token: Token(.hotplug))
            discovery = source
            Log.info("watching for touch devices through \(source.nodesAreClassified ? "udev" : options.inputDirectory)")
            for node in source.scan() { openDevice(node, classified: source.nodesAreClassified) }
        } catch {
            Log.warning("no hot-plug: \(error); serving no devices until restarted with --device")
        }
    }

    func hotplugEvents() {
        guard let source = discovery else { return }
        for change in source.receive() {
            switch change {
            case .added(let node):
                if deviceNodes[node] == nil { openDevice(node, classified: source.nodesAreClassified) }
            case .removed(let node):
                if let id = deviceNodes[node] { closeDevice(id, why: "removed") }
            }
        }
        haptics.followHotplug(discovery)
    }

    /// Opens a node and serves it if it is a touch device. Permission problems wait for the node's
    /// attributes to change (udev sets them just after the node appears).
    func openDevice(_ node: String, classified: Bool) {
        let device: EvdevDevice
        do { device = try EvdevDevice(node: node, grab: options.grab) } catch {
            if error.errno == EACCES || error.errno == EPERM, let source = discovery {
                source.retryWhenAttributesChange(node)
                Log.debug("\(node): \(error); will retry when its permissions change")
            } else {
                Log.warning("\(node): \(error)")
            }
            return
        }
        guard classified || TouchDeviceFilter.isTouch(device.description) else {
            Log.debug("\(node): \"\(device.description.name)\" is not a touch device")
            return
        }
        guard !TouchClone.isClone(named: device.description.name) else {
            Log.debug("\(node): \"\(device.description.name)\" is filter mode's clone of a panel: not served")
            return
        }
        let udev = UdevDeviceProperties(UdevDiscovery.propertiesIfRunning(ofNode: node))
        let persists = DeviceSetup.persistsLearning(device.description)
        let key = (try? TouchDevice(device.description)).flatMap(LearnedDeviceKey.init)
        let learned = persists ? key.flatMap { learnedStore.load($0) } : nil
        guard let id = hub.addDevice(
            node: node, description: device.description, udev: udev, learned: learned, persistsLearning: persists)
        else { return }
        do { try loop.add(device.fd, token: Token(.device, id)) } catch {
            Log.error("\(node): \(error)")
            hub.removeDevice(id)
            return
        }
        devices[id] = device
        deviceNodes[node] = id
        filters.start(id, device, mode: hub.filterMode(for: device.description))
        // Events may already be waiting (a finger was down when we started).
        readDevice(id)
    }

    func readDevice(_ id: Int) {
        guard let device = devices[id] else { return }
        let clone = filters.clone(id)
        while true {
            readBuffer.removeAll(keepingCapacity: true)
            let outcome = device.read(into: &readBuffer)
            if let clone {
                passThrough(id, clone)
            } else if !readBuffer.isEmpty {
                hub.handle(device: id, events: readBuffer[...])
                queuedNow()
            }
            switch outcome {
            case .ok:
                // A panel waiting for its filter, all its events read: grabbed unless a touch is down.
                if clone == nil { filters.retry(id, device) }
                return
            case .resynced(let slots, let time):
                hub.resync(device: id, slots: slots, at: time)
                if let clone {
                    device.restate(clone, cancelling: hub.cancelledSlots(device: id, palms: clone.marksPalms),
                                   held: clone.makesItsSlot && hub.isHeld(device: id, slot: 0))
                }
                continue  // more may be waiting
            case .gone:
                closeDevice(id, why: "unplugged")
                return
            case .failed(let error):
                Log.warning("\(device.node): \(error)")
                closeDevice(id, why: "read failed")
                return
            }
        }
    }

    /// The frames just fed have their lines queued: tells the hub when, for its latency figures, on
    /// CLOCK_MONOTONIC, the clock evdev stamps events on (``EvdevDevice`` sets it with EVIOCSCLOCKID).
    func queuedNow() { Self.framesQueuedNow(&hub) }

    /// The same for a hub passed in place (a replay's step, which holds the hub while it feeds it).
    static func framesQueuedNow(_ hub: inout Hub) {
        if hub.awaitsQueueTime { hub.framesQueued(now: Timestamp(microseconds: monotonicMicroseconds())) }
    }

    /// Filter mode: what was read goes through the hub a frame at a time, and each frame to the clone
    /// after it, so the frame whose gesture took a touch already carries its cancel.
    private func passThrough(_ id: Int, _ clone: TouchClone) {
        var start = readBuffer.startIndex
        for k in readBuffer.indices where readBuffer[k].type == EventType.syn && readBuffer[k].code == SynCode.report {
            hub.handle(device: id, events: readBuffer[start...k])
            clone.write(readBuffer[start...k], cancelling: hub.cancelledSlots(device: id, palms: clone.marksPalms),
                        held: clone.makesItsSlot && hub.isHeld(device: id, slot: 0))
            start = k + 1
        }
        if start < readBuffer.endIndex {  // a frame whose end is still to come: the clone gets it as it is
            hub.handle(device: id, events: readBuffer[start...])
            clone.write(readBuffer[start...], cancelling: [])
        }
        if !readBuffer.isEmpty { queuedNow() }
    }

    /// The device is gone: its contacts are cancelled (open peeks dismissed) and clients told; a filtered
    /// panel's clone goes with it.
    func closeDevice(_ id: Int, why: String) {
        guard let device = devices.removeValue(forKey: id) else { return }
        filters.end(id, panelNode: device.node)
        Log.info("\(device.node): \(why)")
        loop.remove(device.fd)
        device.close()
        deviceNodes[device.node] = nil
        hub.removeDevice(id)
    }

    // MARK: `--replay`: a capture served through the whole daemon, socket included (``ReplayRun``)

    func startReplaySource(_ input: ReplayInput) throws(DaemonError) {
        let source = ReplaySource(input.events, speed: options.speed)
        // A replayed device learns in memory only, and keeps the capture's times.
        guard let id = hub.addDevice(
            node: "replay:\(input.path)", description: input.capture.device, learned: input.learned,
            assumed: input.capture.assumptions, clock: source.clock)
        else {
            throw .replayNotTouch(input.path)
        }
        replay = ReplayRun(source: source, device: id)
        Log.info("replay of \(input.path) (\(source.eventCount) events) starts when a client subscribes")
    }

    /// The replay starts once some client has subscribed, so its first events reach someone.
    func startReplayIfSubscribed() {
        guard let r = replay, !r.source.started, hub.hasSubscriber else { return }
        r.source.start(atMonotonic: monotonicMicroseconds())
        hub.setClock(r.source.clock, device: r.device)
        Log.info("replay started")
    }

    /// Feeds the replay's events due by `now`; at its end (or a capture error), the device goes as when
    /// one is unplugged: contacts still down are cancelled, open peeks dismissed.
    func stepReplay(now: Int64) {
        guard let r = replay, r.source.started else { return }
        var failure: CaptureError? = nil
        do throws(CaptureError) { try replay?.step(now: now, hub: &hub, clients: clients) } catch { failure = error }
        guard r.source.finished || failure != nil else { return }
        hub.removeDevice(r.device)
        replay = nil
        if let failure {
            Log.error("replay: \(failure); the replay ends there")
        } else {
            Log.info("replay finished")
        }
        // Stopping waits until the clients have read what they were sent (their requests answered).
        if options.exitWhenDone { catchUp = ClientCatchUp() }
    }
}
