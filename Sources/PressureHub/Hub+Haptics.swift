import PressureCore

/// Haptic feedback: which gesture plays which effect, decided on the frame that crosses its threshold.
extension Hub {
    /// Asks the loop to play `kind`'s effect for the gesture `e` (``Work/haptics``), where haptics are on
    /// and the gesture has an effect (a force gesture only while force is on). Before any client line of
    /// the frame is written, so the effect starts before an app has even read the gesture. A frame that
    /// crosses peek and pop together plays the pop only: the peek's effect, asked for in the same frame,
    /// gives way to it (two taps a frame apart feel like one blurred buzz).
    mutating func playHaptic(_ kind: GestureKind, _ e: PressureEvent) {
        guard settings.hapticsEnabled, let gesture = HapticGesture(kind), haptics.effect(gesture) != nil else { return }
        guard !gesture.needsForce || settings.forceTouchEnabled else { return }
        let play = HapticPlay(gesture: gesture, device: e.device, contact: e.contact, time: e.time)
        if gesture == .pop, let last = work.haptics.last, last.gesture == .peek, last.device == play.device,
           last.contact == play.contact, last.time == play.time {
            work.haptics[work.haptics.count - 1] = play
            return
        }
        work.haptics.append(play)
    }
}
