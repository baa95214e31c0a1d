import PressureProtocol
import PressureCore

/// Touch `moved` lines gathered into a ``MovedRun`` and sent in one pass: a client that hears the device's
/// touches and shares lines with room for the run, or has an empty queue (a reader that keeps up, written
/// its last frame whole, as live readers are every frame), takes the whole run there at once; every other
/// client is taken through the run line by line exactly as ``send(_:to:_:)`` would take it through the
/// lines one after another (`ClientTableMovedRunTests` checks the two give every client the same bytes).
extension ClientTable {
    /// Gathers a touch's `moved` for the device's touch subscribers (encoded only if some client hears
    /// them). A run holds one device's lines: the caller (``Hub/route(device:)``, over one device's
    /// outputs) sends it (``sendRun(_:)``) before any other line, so lines keep their order, and at the end.
    mutating func gatherMoved(_ e: PressureEvent) {
        precondition(run.admits(device: e.device), "a run holds one device's lines")
        if run.isEmpty {
            let recipients = Recipients.subscribers(device: e.device, touches: true)
            guard clients.contains(where: { $0.isRecipient(false, false, recipients, .other) }) else { return }
        }
        run.append(e)
    }

    /// Whether moved lines wait to be sent (``sendRun(_:)``).
    var hasGathered: Bool { !run.isEmpty }

    /// Sends the gathered lines, in order, to every client that is to get them; the run is empty after.
    mutating func sendRun(_ work: inout Hub.Work) -> Sent {
        guard !run.isEmpty else { return Sent() }
        // Moved out while the clients are mutated (no copy, no exclusivity conflict), emptied after.
        var run = MovedRun()
        swap(&run, &self.run)
        defer {
            swap(&run, &self.run)
            self.run.removeAll()
        }
        return run.bytes.withUnsafeBytes { bytes in
            var sent = Sent()
            let recipients = Recipients.subscribers(device: run.device, touches: true)
            startSharedLine()
            // The run goes into the shared lines first, so a client can share from any of its lines; if
            // nobody shares any at the end, they are taken out again.
            let base = shared.count
            shared.append(contentsOf: bytes)
            var rest: [Int] = []
            swap(&rest, &unsettled)
            defer { swap(&rest, &unsettled) }
            rest.removeAll(keepingCapacity: true)
            let lines = run.lineCount
            var started = 0
            clients.withUnsafeMutableBufferPointer { table in
                for c in table.indices {
                    let hears = table[c].isRecipient(false, false, recipients, .other)
                    // Every `moved` is for it (no contact ended for it), and the run fits in its share, or
                    // starts one (its queue is empty: a reader that keeps up, written the last frame whole).
                    // What the line-by-line pass would do then: noteQueued of a `moved` only marks it writable.
                    let all = hears && table[c].endedTouches.isEmpty
                    let starts = all && table[c].sharedFrom == nil && table[c].canStartSharing(bytes.count, at: base)
                    if starts || (all && table[c].hasRoomInShare(endingAt: base, for: bytes.count)) {
                        if starts {
                            table[c].sharedFrom = base
                            started += 1
                        }
                        sent.clients += lines
                        table[c].markWritable(&work)
                    } else if hears || table[c].sharedFrom != nil {
                        rest.append(c)
                    }
                }
            }
            sharers += started
            for c in rest { sendRunLines(run, bytes, to: c, base: base, recipients, &sent, &work) }
            if sharers == 0 { shared.removeSubrange(base...) }
            return sent
        }
    }

    /// The run for one client, a line at a time, as ``send(_:to:_:)`` takes a client through a line: it
    /// shares the line, or is taken outside its share (``takeOutsideShare(_:_:_:gets:at:_:_:)``).
    private mutating func sendRunLines(
        _ run: MovedRun, _ bytes: UnsafeRawBufferPointer, to c: Int, base: Int, _ recipients: Recipients,
        _ sent: inout Sent, _ work: inout Hub.Work
    ) {
        for j in 0..<run.lineCount {
            let start = run.start(of: j)
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<run.ends[j]])
            let offset = base + start
            let kind = Line.Kind.moved(run.keys[j])
            let gets = clients[c].isRecipient(false, false, recipients, kind)
            if gets, clients[c].hasRoomInShare(endingAt: offset, for: line.count) {
                sent.clients += 1
                noteQueued(c, kind, &work)
            } else {
                _ = takeOutsideShare(c, line, kind, gets: gets, at: offset, &sent, &work)
            }
        }
    }
}
