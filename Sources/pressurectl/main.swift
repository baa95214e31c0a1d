import Glibc
import PressureLinux
import PressureTools

// pressurectl: the tools people use with pressured. Each subcommand lives in PressureLinux, or in
// PressureTools when it talks to the daemon as a client.
let usage = """
    usage: pressurectl COMMAND [OPTIONS]
    commands:
      replay    run a recorded capture through pressured's pipeline and print what apps receive
      devices   list touch devices: pressure range, force capability, calibration and its source
      monitor   connect to the running daemon and print its gestures and device changes as they happen
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "replay":
    exit(ReplayTool.main(Array(arguments.dropFirst())))
case "devices":
    exit(DevicesTool.main(Array(arguments.dropFirst())))
case "monitor":
    exit(MonitorTool.main(Array(arguments.dropFirst())))
case "-h", "--help", "help":
    print(usage)
    exit(0)
default:
    Log.plain(usage)
    exit(2)
}
