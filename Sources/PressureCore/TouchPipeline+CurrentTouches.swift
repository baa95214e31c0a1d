/// The contacts down now as touch events, for a client whose touch stream starts or stops while fingers
/// are down (``Hub``): it gets a `began` of each contact's current state first, and a `cancelled` for
/// each still open when its stream stops, so every contact it sees begin also ends.
extension TouchPipeline {
    /// A `phase` event of every contact down now (its current position, force and progress), at `time`.
    public func currentTouches(_ phase: PressureEvent.TouchPhase, at time: Timestamp) -> [PressureEvent] {
        contacts.compactMap { c in c.map { touchEvent(phase, $0, time) } }
    }

    /// A `phase` event of the contact: its current state while it is down, else the state its end among
    /// ``outputs`` carries (it ended in the events being handed on); nil when neither.
    public func currentTouch(contact id: UInt64, _ phase: PressureEvent.TouchPhase, at time: Timestamp) -> PressureEvent? {
        if let c = contacts.first(where: { $0?.id == id }), let c {
            return touchEvent(phase, c, time)
        }
        guard var end = outputs.last(where: {
            $0.contact == id && ($0.phase == .ended || $0.phase == .cancelled)
        }) else { return nil }
        end.kind = .touch(phase)
        return end
    }

    private func touchEvent(_ phase: PressureEvent.TouchPhase, _ c: ActiveContact, _ time: Timestamp) -> PressureEvent {
        // As the pipeline's own: an end carries no progress (there is nothing left to progress towards).
        let progress = phase == .began || phase == .moved ? progress(c) : nil
        return event(.touch(phase), c, time, progress: progress)
    }
}
