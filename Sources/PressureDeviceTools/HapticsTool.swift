import Glibc
import PressureCommandLine
import PressureCore
import PressureLinux

/// `pressurectl haptics`: the haptic devices on this machine, what each supports, which effect each
/// gesture gets on it (the daemon's own choice, uploads and fallbacks included), and with `--play` each
/// gesture's effect played in turn, to tune strengths and durations by feel.
public enum HapticsTool {
    public static let usage = """
        usage: pressurectl haptics [--config FILE]... [--play] [--gesture peek|pop|quickActions|longPress] [DEVICE]...
          --config FILE  the [haptics] settings to use (later files override; default: the daemon's
                         defaults)
          --play         play each gesture's effect on each device, a second apart
          --gesture G    play only this gesture's effect (with --play)
          DEVICE         /dev/input/eventN nodes to use instead of those udev calls haptic
        Opening a haptic node needs write access: root, or the group the udev rules give haptic nodes.
        """

    public static func main(_ arguments: [String]) -> Int32 {
        do {
            var options = OptionReader(arguments)
            if options.flag("-h") || options.flag("--help") {
                print(usage)
                return 0
            }
            let play = options.flag("--play")
            let configPaths = try options.values("--config")
            let only = try options.value("--gesture").map { (name: String) throws(OptionReader.UsageError) -> HapticGesture in
                guard let g = HapticGesture(rawValue: name) else {
                    throw OptionReader.UsageError("--gesture takes peek, pop, quickActions or longPress, not \(name)")
                }
                return g
            }
            var nodes = try options.finish()
            let configuration = configPaths.isEmpty ? Configuration() : try ConfigurationLoader.load(paths: configPaths)
            var settings = configuration.haptics
            settings.mode = .auto  // the tool is asked for explicitly: Haptics = off does not hide devices
            if nodes.isEmpty {
                nodes = settings.nodes
                if UdevDiscovery.isAvailable(), let udev = try? UdevDiscovery() { nodes += udev.enumerateHaptic() }
            }
            guard !nodes.isEmpty else {
                print("no haptic devices found (udev: \(UdevDiscovery.isAvailable() ? "running" : "not running"))")
                return 0
            }
            var failures = 0
            for node in nodes {
                do {
                    let device = try HapticDevice(port: try KernelForceFeedback(node: node), settings: settings)
                    print(report(device))
                    if play { playEach(device, only: only) }
                    device.close()
                } catch {
                    failures += 1
                    let hint = error.errno == EACCES ? " (haptic nodes need write access: root or their group)" : ""
                    Log.warning("pressurectl haptics: \(error)\(hint)")
                }
            }
            return failures == 0 ? 0 : 1
        } catch let e as OptionReader.UsageError {
            Log.error("pressurectl haptics: \(e)")
            Log.plain(usage)
            return 2
        } catch {
            Log.error("pressurectl haptics: \(error)")
            return 1
        }
    }

    /// `/dev/input/event9 "vibrator": rumble; 16 effects` then a line per gesture.
    public static func report(_ device: HapticDevice) -> String {
        (["\(device.port.node) \"\(device.port.name)\": \(device.support)"] + device.choices.map { "  " + $0 })
            .joined(separator: "\n")
    }

    static func playEach(_ device: HapticDevice, only: HapticGesture?) {
        for g in HapticGesture.allCases where only == nil || only == g {
            do {
                let played = try device.play(g)
                print("  played \(g.rawValue)\(played ? "" : ": no effect")")
            } catch {
                Log.warning("pressurectl haptics: \(error)")
                return
            }
            usleep(1_000_000)  // a pause to feel each apart; an interactive tool, not a test
        }
    }
}
