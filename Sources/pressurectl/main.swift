import Glibc
import PressureCommandLine
import PressureDeviceTools
import PressureLinux
import PressureTools

// pressurectl: the tools people use with pressured. Each subcommand lives in PressureLinux, or in
// PressureTools when it talks to the daemon as a client.
let usage = """
    usage: pressurectl COMMAND [OPTIONS]   (pressurectl COMMAND --help for its options)
    commands:
      devices     list touch devices: pressure range, force capability, calibration and its source
      record      record a device to a file evemu-play, libinput replay and pressurectl replay play back
      replay      run a recorded capture through pressured's pipeline and print what apps receive
      plot        draw a capture's force over time, the thresholds and the gestures, as SVG
      calibrate   measure taps and firm presses on a device and propose its calibration;
                  --reset: make the running daemon forget the average touch it learned
      monitor     connect to the running daemon and print its gestures and device changes as they happen
      reload      ask the running daemon to read its configuration again
      status      what the running daemon holds: devices, clients, fingers down, regions, queues
      metrics     the running daemon's figures and latency histograms as OpenMetrics text (Prometheus)
      haptics     list haptic devices, what they support and each gesture's effect; --play plays them
      filter      enable | disable | status: grant filter mode /dev/uinput and the watchdog under systemd
    """

let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
switch arguments.first {
case "replay": exit(ReplayTool.main(rest))
case "devices": exit(DevicesTool.main(rest))
case "record": exit(RecordTool.main(rest))
case "plot": exit(PlotTool.main(rest))
case "calibrate": exit(rest.contains("--reset") ? ResetLearningTool.main(rest) : CalibrateTool.main(rest))
case "monitor": exit(MonitorTool.main(rest))
case "reload": exit(ReloadTool.main(rest))
case "status": exit(StatusTool.main(rest))
case "metrics": exit(MetricsTool.main(rest))
case "haptics": exit(HapticsTool.main(rest))
case "filter": exit(FilterTool.main(rest))
case "-h", "--help", "help":
    print(usage)
    exit(0)
default:
    Log.plain(usage)
    exit(2)
}
