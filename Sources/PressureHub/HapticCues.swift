import PressureCore

/// Which gesture plays which haptic effect, decided on the frame that crosses its threshold: the cues
/// the loop writes (``HubWork/haptics``) before any client line of the frame, so the effect starts before
/// an app has even read the gesture.
enum HapticCues {
    /// Adds the cue for the gesture `kind` of event `e` to `cues`, where haptics are on and the gesture
    /// has an effect (a force gesture only while force is on). A frame that crosses peek and pop together
    /// plays the pop only: the peek's cue, added in the same frame, gives way to it (two taps a frame
    /// apart feel like one blurred buzz).
    static func add(
        _ kind: GestureKind, of e: PressureEvent, settings: GestureSettings, haptics: HapticSettings,
        to cues: inout [HapticPlay]
    ) {
        guard settings.hapticsEnabled, let gesture = HapticGesture(kind), haptics.effect(gesture) != nil else { return }
        guard !gesture.needsForce || settings.forceTouchEnabled else { return }
        let play = HapticPlay(gesture: gesture, device: e.device, contact: e.contact, time: e.time)
        if gesture == .pop, let last = cues.last, last.gesture == .peek, last.device == play.device,
           last.contact == play.contact, last.time == play.time {
            cues[cues.count - 1] = play
            return
        }
        cues.append(play)
    }
}
