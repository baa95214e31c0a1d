import Glibc
import PressureCommandLine
import PressureCore
import PressureHub

/// Where the daemon keeps what each device learned (its average touch), one file a device under the
/// state directory (`StateDirectory=pressured`: `/var/lib/pressured/learned/`), so a restart does not
/// start from scratch.
///
/// Files are written whole and renamed into place, at most once per ``interval`` for a device (a
/// learner changes with every ordinary touch; flash storage should not), and at once when the daemon
/// stops. A file that cannot be read, is damaged, or belongs to another device is ignored with one log
/// line, and the device learns afresh.
package final class LearnedStateStore {
    /// The least time between two writes of one device's file.
    static let interval: Int64 = 10_000_000

    let directory: String
    // `@exclusivity(unchecked)` on the state read a frame: only the loop's thread touches it, and no
    // access overlaps another (checked when compiled); see ``Daemon``'s `hub`.
    @exclusivity(unchecked) private var pending: [LearnedDeviceKey: AverageTouchLearner] = [:]
    @exclusivity(unchecked) private var lastWrite: [LearnedDeviceKey: Int64] = [:]
    private var warnedUnwritable = false

    package init(directory: String) {
        self.directory = directory
    }

    func path(for key: LearnedDeviceKey) -> String { directory + "/" + key.fileName }

    /// What was saved for the device, or nil (nothing saved, or a file that is not usable: logged;
    /// `quiet` logs only the problems, for tools that merely look).
    package func load(_ key: LearnedDeviceKey, quiet: Bool = false) -> AverageTouchLearner? {
        let file = path(for: key)
        guard access(file, F_OK) == 0 else { return nil }
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(file) } catch {
            Log.warning("ignoring what was learned: \(error)")
            return nil
        }
        do {
            let learner = try LearnedAverageFile.decode(bytes, file: file, for: key)
            if !quiet { Log.info("\(key.name): carrying on from \(file) (\(learner.accepted) touches learned)") }
            return learner
        } catch {
            Log.warning("ignoring what was learned: \(error); learning afresh")
            return nil
        }
    }

    /// A learned-average file named on the command line (`--learned FILE`) for `device`: unlike a state
    /// file, one that cannot be used is an error, since the user asked for it.
    package static func read(path: String, for device: TouchDevice) throws(LearnedFileError) -> AverageTouchLearner {
        guard let key = LearnedDeviceKey(device) else { throw .noPressure(path) }
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path) } catch { throw .system(error) }
        do { return try LearnedAverageFile.decode(bytes, file: path, for: key) } catch { throw .state(error) }
    }

    /// A device learned something: written now, or once its interval has passed.
    func stage(_ save: Hub.LearnedSave, now: Int64) {
        pending[save.key] = save.learner
        if let last = lastWrite[save.key], now - last < Self.interval { return }
        write(save.key, now: now)
    }

    /// When the next staged file is due, on the monotonic clock (nil: nothing waiting).
    /// Asked every wake-up (the loop's timer): a loop over the keys, where mapping them made an array
    /// each time one was staged.
    var nextDue: Int64? {
        var earliest: Int64? = nil
        for key in pending.keys { earliest = .earliest(earliest, (lastWrite[key] ?? 0) + Self.interval) }
        return earliest
    }

    /// Writes every staged file that is due (all of them with `force`, at shutdown).
    /// Called at every expiry of the loop's timer: the keys are copied (to write while removing) only
    /// when one is due.
    func flush(now: Int64, force: Bool = false) {
        guard force || pending.keys.contains(where: { (lastWrite[$0] ?? 0) + Self.interval <= now }) else { return }
        for key in Array(pending.keys) where force || (lastWrite[key] ?? 0) + Self.interval <= now {
            write(key, now: now)
        }
    }

    private func write(_ key: LearnedDeviceKey, now: Int64) {
        guard let learner = pending.removeValue(forKey: key) else { return }
        lastWrite[key] = now
        do throws(SystemError) {
            try makeDirectory()
            try OutputFile.replace(path(for: key), with: LearnedAverageFile.encode(learner, for: key))
        } catch {
            // Once: a read-only or missing state directory must not fill the journal.
            if !warnedUnwritable {
                Log.warning("cannot save what was learned (\(error)); learning in memory only")
                warnedUnwritable = true
            }
        }
    }

    /// The folder and, outside systemd (which makes the state directory), its parent too.
    private func makeDirectory() throws(SystemError) {
        var st = stat()
        if stat(directory, &st) == 0 { return }
        let parent = String(directory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        if !parent.isEmpty, stat(parent, &st) != 0 { _ = try syscall("mkdir", parent) { mkdir(parent, 0o755) } }
        _ = try syscall("mkdir", directory) { mkdir(directory, 0o755) }
    }

    /// Removes the device's file (`pressurectl calibrate --reset`); nothing staged for it survives.
    func forget(_ key: LearnedDeviceKey) {
        pending[key] = nil
        let file = path(for: key)
        if unlink(file) != 0 && errno != ENOENT {
            Log.warning("\(file): cannot remove: \(String(cString: strerror(errno)))")
        }
    }
}
