import Glibc
import PressureCommandLine
import PressureLinux

// pressured: the daemon. Everything lives in PressureLinux's Daemon; this only reads the command line.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(DaemonOptions.usage)
    exit(0)
}
let options: DaemonOptions
do {
    options = try DaemonOptions(arguments: arguments)
} catch {
    Log.error("pressured: \(error)")
    Log.plain(DaemonOptions.usage)
    exit(2)
}
do {
    let daemon = try Daemon(options: options)
    exit(daemon.run())
} catch {
    Log.error("pressured: \(error)")
    exit(1)
}
