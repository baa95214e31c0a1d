import PressureCore

/// The one way lines reach the clients' queues: a line, or a frame's touch `moved` lines of one device
/// gathered into a run, is encoded once, only if some client is to get it, and taken to every client that
/// is by one two-pass routine (``fanOut(_:only:to:alone:answer:from:_:_:_:_:)``); a single line is a run
/// of one. The first pass, through a pointer into the table, serves the clients that take the whole run
/// in their share of the ``SharedLines``, as readers that keep up do, and lists the others; the second
/// takes each of those through the run a line at a time (``takeOutsideShare(_:_:_:gets:at:_:_:_:)``).
/// Clients do not depend on one another, so serving some first changes only their order in the writable list.
struct LineFanout: Sendable {
    typealias Line = ClientTable.Line
    typealias Client = ClientTable.Client
    typealias Sent = ClientTable.Sent

    /// A client the first pass leaves to the second, and whether it hears the run's recipients (a line
    /// of the run is then for it unless the line's contact ended for it).
    struct LineByLine {
        var client: Int
        var hears: Bool
    }

    /// A frame's `moved` lines of one device, gathered to go in one pass (``gatherMoved(_:for:)``).
    private var gathered = LineRun()
    /// The single line being sent.
    private var single = LineRun()
    /// The clients the second pass takes a line at a time; its storage is kept between runs.
    private var lineByLine: [LineByLine] = []

    init() {
        gathered.reserve(lines: 32)
        single.reserve(lines: 1)
        lineByLine.reserveCapacity(64)
    }

    // MARK: A single line

    /// Encodes `line` (only if some client is to get it) and takes it to every recipient.
    mutating func send(
        _ line: Line, to recipients: ClientTable.Recipients,
        _ clients: inout [Client], _ shared: inout SharedLines, _ work: inout Hub.Work
    ) -> Sent {
        let alone: Bool
        if case .client = recipients { alone = true } else { alone = false }
        let kind = line.kind
        let answer = line.isAnswer
        guard let first = clients.firstIndex(where: {
            $0.isRecipient(of: recipients, kind, alone: alone, answer: answer)
        }) else { return Sent() }
        single.append(line)
        defer { single.removeAll() }
        return Self.fanOut(single, only: kind, to: recipients, alone: alone, answer: answer, from: first,
                           &lineByLine, &clients, &shared, &work)
    }

    /// Encodes a line alone, for a client's last lines (``ClientTable/sayFarewell(_:ending:_:)``), which go to
    /// its queue whatever it holds.
    mutating func appendFinal(_ line: Line, to queue: inout ClientQueue) {
        single.append(line)
        defer { single.removeAll() }
        single.withBytes { queue.appendFinal($0) }
    }

    // MARK: A run of `moved` lines

    /// Gathers a touch's `moved` for the device's touch subscribers (encoded only if some client hears
    /// them). A run holds one device's lines: the caller (``Hub/route(deviceAt:)``, over one device's
    /// outputs) sends it (``sendGathered(_:_:_:)``) before any other line, so lines keep their order, and
    /// at the end.
    mutating func gatherMoved(_ e: PressureEvent, for clients: [Client]) {
        precondition(gathered.admits(device: e.device), "a run holds one device's lines")
        if gathered.isEmpty {
            let recipients = ClientTable.Recipients.subscribers(device: e.device, touches: true)
            guard clients.contains(where: { $0.hears(recipients, alone: false, answer: false) }) else { return }
        }
        gathered.appendMoved(e)
    }

    /// Whether moved lines wait to be sent (``sendGathered(_:_:_:)``).
    var hasGathered: Bool { !gathered.isEmpty }

    /// Sends the gathered lines, in order, to every client that is to get them; the run is empty after.
    mutating func sendGathered(_ clients: inout [Client], _ shared: inout SharedLines, _ work: inout Hub.Work) -> Sent {
        guard !gathered.isEmpty else { return Sent() }
        defer { gathered.removeAll() }
        let recipients = ClientTable.Recipients.subscribers(device: gathered.device, touches: true)
        let first = clients.firstIndex { $0.hears(recipients, alone: false, answer: false) } ?? clients.count
        return Self.fanOut(gathered, only: nil, to: recipients, alone: false, answer: false, from: first,
                           &lineByLine, &clients, &shared, &work)
    }

    // MARK: The two passes

    /// Takes `run` to every client it is for. `only`: the kind of a single line; nil for a frame's `moved`
    /// lines (of the run's ``LineRun/keys``), which are for a client that hears `recipients` unless their
    /// contact ended for it, and open or close nothing. `alone`, `answer`: as for
    /// ``ClientTable/Client/isRecipient(of:_:alone:answer:)``; `first`: the first client that hears
    /// `recipients` (and is to get the single line): none before it does.
    @inline(__always)  // each caller's `only` (nil, or a line's kind) is folded into its own loops
    private static func fanOut(
        _ run: LineRun, only: Line.Kind?, to recipients: ClientTable.Recipients, alone: Bool, answer: Bool,
        from first: Int,
        _ rest: inout [LineByLine], _ clients: inout [Client], _ shared: inout SharedLines, _ work: inout Hub.Work
    ) -> Sent {
        var sent = Sent()
        rest.removeAllKeepingCapacity()
        // The bytes are lent to every queue through one pointer: no retain, release or uniqueness check of
        // them per client.
        run.withBytes { bytes in
            let base = shared.begin(bytes)
            let lines = run.lineCount
            var started = 0
            // Through a pointer into the table: no bounds, uniqueness or exclusivity check a field.
            clients.withUnsafeMutableBufferPointer { table in
                for c in table.indices {
                    let hears = c == first || (c > first && table[c].hears(recipients, alone: alone, answer: answer))
                    // Every line is for it, and the run fits in its share, or starts one (its queue is
                    // empty: a reader that keeps up, written its last frame whole).
                    let all = hears && (only.map { table[c].follows($0) } ?? table[c].endedTouches.isEmpty)
                    let starts = all && table[c].sharedFrom == nil && table[c].canStartSharing(bytes.count, at: base)
                    if starts || (all && table[c].hasRoomInShare(endingAt: base, for: bytes.count)) {
                        if starts {
                            table[c].sharedFrom = base
                            started += 1
                        }
                        sent.clients += lines
                        if let only { table[c].noteQueued(only, &work) } else { table[c].markWritable(&work) }
                    } else if hears || table[c].sharedFrom != nil {
                        rest.append(LineByLine(client: c, hears: hears))
                    }
                }
                shared.add(sharers: started)
                // The others, in table order, a line at a time.
                for entry in rest {
                    var hears = entry.hears
                    for j in 0..<lines {
                        let start = run.start(of: j)
                        let line = UnsafeRawBufferPointer(rebasing: bytes[start..<run.ends[j]])
                        let kind = only ?? .moved(run.keys[j])
                        let gets = hears && table[entry.client].follows(kind)
                        if gets, table[entry.client].hasRoomInShare(endingAt: base + start, for: line.count) {
                            sent.clients += 1
                            table[entry.client].noteQueued(kind, &work)
                        } else if !takeOutsideShare(
                            &table[entry.client], line, kind, gets: gets, at: base + start, &shared, &sent, &work)
                        {
                            hears = false  // closed for being too slow: nothing more is for it
                        }
                    }
                }
            }
            shared.end(from: base)
        }
        return sent
    }

    /// A client that does not take the line at `offset` in its share: it leaves the shared lines (what it
    /// shared before `offset` goes to its queue); then, if the line is for it (`gets`), it starts sharing
    /// from the line or is queued it. Returns false when queueing the line began to close it.
    @inline(__always)
    private static func takeOutsideShare(
        _ client: inout Client, _ line: UnsafeRawBufferPointer, _ kind: Line.Kind, gets: Bool, at offset: Int,
        _ shared: inout SharedLines, _ sent: inout Sent, _ work: inout Hub.Work
    ) -> Bool {
        if client.sharedFrom != nil { shared.unshare(&client, upTo: offset) }
        guard gets else { return true }
        sent.clients += 1
        if shared.share(&client, line.count, from: offset) {
            client.noteQueued(kind, &work)
            return true
        }
        if client.enqueue(line, kind, &work) { return true }
        sent.closedAny = true
        return false
    }
}
