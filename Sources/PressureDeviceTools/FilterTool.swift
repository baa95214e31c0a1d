import Glibc
import PressureCommandLine
import PressureCore
import PressureLinux

/// `pressurectl filter enable | disable | status`: grants filter mode what it needs under systemd (a
/// drop-in for pressured.service and a udev rule for /dev/uinput: ``FilterAccess``), takes it back, or says
/// what is in place. It does not turn filter mode on: that stays `Filter = on` in pressured.conf, per device
/// or in `[pressured]`, beside every other setting (docs/filter.md).
public enum FilterTool {
    public static let usage = """
        usage: pressurectl filter enable|disable|status [--root DIR] [--no-restart] [--config FILE]
        enable: lets pressured.service write /dev/uinput, which filter mode needs for its clone, and turns
        its watchdog on (1 s): writes \(FilterAccess.dropInPath) and
        \(FilterAccess.udevRulePath), reloads systemd and udev, restarts the service if it runs.
        Filter mode itself is `Filter = on` in pressured.conf ([pressured] or a device section).
        disable: removes both files, gives /dev/uinput back to root alone, restarts the service if it runs.
        status: what is in place, and where the configuration turns filter mode on.
          --root DIR      write under DIR (an image being built, as systemctl --root): nothing is reloaded
                          or restarted
          --no-restart    reload systemd and udev, but leave the running service to be restarted by hand
          --config FILE   the configuration status reads (default /etc/pressured/pressured.conf under the
                          root)
        uinput write access can inject any input: a compromised pressured could type and click as the user
        (docs/configuration.md, "Filter mode's access"). enable and disable are root's.
        """

    /// What was asked.
    enum Command: String {
        case enable, disable, status
    }

    /// Runs the command; returns the exit status: 0 done, 1 failed, 2 bad usage.
    public static func main(_ arguments: [String]) -> Int32 {
        var options = OptionReader(arguments)
        if options.flag("-h") || options.flag("--help") {
            print(usage)
            return 0
        }
        let command: Command, access: FilterAccess, restart: Bool, config: String?
        do throws(OptionReader.UsageError) {
            restart = !options.flag("--no-restart")
            access = FilterAccess(root: try options.value("--root") ?? "/")
            config = try options.value("--config")
            let rest = try options.finish()
            guard rest.count == 1, let c = rest.first.flatMap(Command.init(rawValue:)) else {
                throw OptionReader.UsageError("say enable, disable or status")
            }
            command = c
        } catch {
            Log.plain("pressurectl filter: \(error)\n\(usage)")
            return 2
        }
        if command == .status {
            print(report(access.inspect(), access: access, filterOn: filterSources(access, config: config)))
            return 0
        }
        do throws(FilterAccessError) {
            guard !access.isSystemRoot || geteuid() == 0 else { throw .notRoot(command: command.rawValue) }
            if command == .enable { try access.enable() } else { try access.disable() }
            print("\(command == .enable ? "wrote" : "removed") \(access.path(FilterAccess.dropInPath)) and "
                + access.path(FilterAccess.udevRulePath))
            try apply(command, access: access, restart: restart)
            if command == .enable && filterSources(access, config: config).isEmpty {
                print("filter mode is allowed now, but not on: set `Filter = on` in [pressured] or a device "
                    + "section of \(access.path(defaultConfig)), then `systemctl restart pressured.service`")
            }
            return 0
        } catch {
            Log.error("pressurectl filter \(command.rawValue): \(error)")
            return 1
        }
    }

    static let defaultConfig = "/etc/pressured/pressured.conf"

    /// Makes the running system take the change: systemd re-reads the unit, udev its rules and re-applies
    /// them to /dev/uinput, and the service restarts (only if it runs: udev or its socket starts it later
    /// with the drop-in anyway).
    static func apply(_ command: Command, access: FilterAccess, restart: Bool) throws(FilterAccessError) {
        let restartCommand = HostCommand("systemctl", "try-restart", "pressured.service")
        guard access.isSystemRoot else {
            print("under \(access.root): nothing reloaded; the change applies when that system boots")
            return
        }
        for c in [HostCommand("systemctl", "daemon-reload"), HostCommand("udevadm", "control", "--reload")] {
            try c.runOrThrow()
        }
        // A uinput not loaded yet has no device for udev to trigger; its boot-time static node has the rule's
        // mode once udevd starts, but now the module must be there for the trigger to reach it. Built into
        // the kernel, or not loadable here (a container): the trigger below does what it can.
        let modprobe = HostCommand("modprobe", "-q", "uinput")
        if command == .enable, modprobe.run() != 0 { Log.warning("pressurectl filter enable: `\(modprobe)` failed") }
        try HostCommand(
            "udevadm", "trigger", "--settle", "--action=change", "--subsystem-match=misc", "--sysname-match=uinput"
        ).runOrThrow()
        if command == .disable { revokeNode(access) }
        guard restart else {
            print("not restarted (--no-restart): run `\(restartCommand)` for the change to take effect")
            return
        }
        try restartCommand.runOrThrow()
        print("reloaded systemd and udev; pressured.service restarted if it was running")
    }

    /// udev does not reset a node's owner when the rule that set it goes: /dev/uinput back to root, 0600,
    /// the kernel's own default, if the group still has it.
    static func revokeNode(_ access: FilterAccess) {
        guard let node = FilterAccessState.Node(path: FilterAccess.uinputNode), node.group != 0,
              node.group == access.groupID() else { return }
        if chown(FilterAccess.uinputNode, 0, 0) != 0 || chmod(FilterAccess.uinputNode, 0o600) != 0 {
            Log.warning("pressurectl filter disable: \(FilterAccess.uinputNode): \(String(cString: strerror(errno)))")
        }
    }

    /// Where the configuration turns `Filter` on (`[section] file:line`), or why it could not be read.
    static func filterSources(_ access: FilterAccess, config: String?) -> [String] {
        let file = config ?? access.path(defaultConfig)
        guard Glibc.access(file, R_OK) == 0 else { return [] }
        do throws(ConfigurationLoadError) {
            let configuration = try ConfigurationLoader.load(paths: [file])
            let settings = configuration.settingsSections.filter { $0.filter.on == true }.map {
                "[pressured] \($0.file):\($0.keyLines[DeviceSection.Key.filter] ?? $0.line)"
            }
            return settings + configuration.sections.filter { $0.filter.on == true }.map {
                $0.source(of: DeviceSection.Key.filter)
            }
        } catch {
            return ["(\(file) cannot be read: \(error))"]
        }
    }

    static func report(_ s: FilterAccessState, access: FilterAccess, filterOn: [String]) -> String {
        func file(_ f: FilterAccessState.File) -> String {
            switch f {
            case .absent: return "absent"
            case .asWritten: return "in place"
            case .changed: return "in place, edited since `filter enable` wrote it"
            }
        }
        var lines = [
            "drop-in    \(access.path(FilterAccess.dropInPath)): \(file(s.dropIn))",
            "udev rule  \(access.path(FilterAccess.udevRulePath)): \(file(s.udevRule))",
            "group      \(FilterAccess.group): " + (s.groupID.map { "gid \($0)" } ?? "missing (the package's sysusers file makes it)"),
        ]
        if access.isSystemRoot {
            lines.append("node       \(FilterAccess.uinputNode): " + (s.node.map {
                "gid \($0.group), mode \(String($0.mode, radix: 8))" + (s.nodeWritableByGroup ? " (the group may write)" : "")
            } ?? "absent (uinput not loaded)"))
        }
        lines.append("access     " + (s.granted ? "granted to pressured.service (watchdog on)"
            : s.dropIn == .absent && s.udevRule == .absent ? "not granted: filter mode falls back to serving panels as they are"
            : "partly granted: run `pressurectl filter enable` or `disable` again"))
        lines.append("Filter     " + (filterOn.isEmpty ? "not on in the configuration" : "on: " + filterOn.joined(separator: ", ")))
        return lines.joined(separator: "\n")
    }
}
