import PressureCore

/// A walk through one `events:` block of a `libinput record` device, a line at a time, that stops after
/// each event and goes on from there: the first pass walks a block through at once, the second (which
/// hands out events a batch at a time) a little at each call.
///
/// ```
///   events:                         # key
///   - evdev:                        # item (the list of frames)
///     - [  0,  10123,   3,  58,  40] # sequence, under the frame's `evdev:` (keys)
///     libinput:                     # skipped with its block
///     - {time: 0.010123, …}
/// ```
extension LibinputRecordStructure.Parser {
    /// Walks on to the block's next event and returns it; nil at the block's end.
    mutating func nextEvent(_ walk: inout LibinputRecordStructure.EventsWalk) throws(CaptureError) -> InputEvent? {
        while true {
            switch walk {
            case .done:
                return nil
            case .start(let keyLine, let kv):
                let k = keyLine.indent
                walk = .done
                guard try enterBlock(keyLine, kv, expected: "a list of event frames") else { continue }
                guard let first = s.current else { continue }  // `events:` and nothing yet: no events
                guard first.indent >= k, s.isDash(first) else {
                    if first.indent > k { throw malformed(first.number, "expected an event frame `- evdev:`") }
                    continue
                }
                walk = .frames(key: k, item: first.indent)
            case .frames(let k, let i):
                guard let item = s.current, item.indent >= i else {
                    walk = .done
                    continue
                }
                guard item.indent == i else { throw malformed(item.number, "unexpected indentation") }
                guard s.isDash(item) else {
                    if i == k {
                        walk = .done
                        continue
                    }
                    throw malformed(item.number, "expected an event frame `- evdev:`")
                }
                guard let firstKey = try enterItem(item, what: "an event frame") else { continue }
                walk = .frame(key: k, item: i, keys: firstKey.indent)
            case .frame(let k, let i, let c):
                guard let line = s.current, line.indent >= c else {
                    walk = .frames(key: k, item: i)
                    continue
                }
                guard line.indent == c else { throw malformed(line.number, "unexpected indentation") }
                guard !s.isDash(line), let kv = s.keyValue(line) else {
                    throw malformed(line.number, "expected `evdev:` or `libinput:` in an event frame")
                }
                guard s.key(kv, is: "evdev") else {
                    skipValue(line, kv)
                    continue
                }
                let e = line.indent
                guard try enterBlock(line, kv, expected: "event lines `- [sec, usec, type, code, value]`") else {
                    continue
                }
                guard let first = s.current else { throw truncated("the file ends after `evdev:` with no events") }
                guard first.indent >= e, s.isDash(first) else {
                    if first.indent > e {
                        throw malformed(first.number, "expected an event `- [sec, usec, type, code, value]`")
                    }
                    continue
                }
                walk = .events(key: k, item: i, keys: c, evdev: e, sequence: first.indent)
            case .events(let k, let i, let c, let e, let q):
                // The hot loop: `- [sec, usec, type, code, value]` lines.
                guard let line = s.current, line.indent >= q else {
                    walk = .frame(key: k, item: i, keys: c)
                    continue
                }
                guard line.indent == q, s.isDash(line) else {
                    if line.indent == q, q == e {
                        walk = .frame(key: k, item: i, keys: c)
                        continue
                    }
                    throw malformed(line.number, "expected an event `- [sec, usec, type, code, value]`")
                }
                let event: InputEvent
                do throws(LineFailure) {
                    event = try parseEvent(line)
                } catch {
                    throw self.error(error, at: line, expected: "an event `- [sec, usec, type, code, value]`")
                }
                s.advance()
                return event
            }
        }
    }
}
