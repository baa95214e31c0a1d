/// Which average touch (force 1.0) a command that shows force measures a capture's contacts against:
/// `--fresh`, `--learn-first` or `--learned FILE` (``ReplayOptions``). Each command has its default:
/// `plot` learns first, `replay` is fresh, which its goldens and tests rest on.
public enum AverageTouchChoice: Hashable, Sendable {
    /// As a freshly started daemon would: learned as the capture plays, so force is 0 until the device
    /// has seen enough ordinary touches (eight), which a recording of a few seconds may never give it.
    case fresh
    /// Learned from the capture's own ordinary contacts in a first pass (``CaptureLearning``), the same
    /// learner and guards as the daemon's, then held for every contact of the second.
    case learnFirst
    /// Started from a learned-average file, and carried on from, as the daemon does with its state file.
    case file(String)
}
