import Glibc
import PressureLinux

// pressurectl: the tools people use with pressured. Each subcommand lives in PressureLinux.
let usage = """
    usage: pressurectl COMMAND [OPTIONS]
    commands:
      replay    run a recorded capture through pressured's pipeline and print what apps receive
      devices   list touch devices: pressure range, force capability, calibration and its source
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "replay":
    exit(ReplayTool.main(Array(arguments.dropFirst())))
case "devices":
    exit(DevicesTool.main(Array(arguments.dropFirst())))
case "-h", "--help", "help":
    print(usage)
    exit(0)
default:
    Log.plain(usage)
    exit(2)
}
