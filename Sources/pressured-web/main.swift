import Glibc
import PressureCommandLine
import PressureWeb

// pressured-web: the WebSocket bridge. Everything lives in PressureWeb's WebBridge; this reads the command line.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(BridgeOptions.usage)
    exit(0)
}
let options: BridgeOptions
do {
    options = try BridgeOptions(arguments: arguments)
} catch {
    Log.error("pressured-web: \(error)")
    Log.plain(BridgeOptions.usage)
    exit(2)
}
do {
    let bridge = try WebBridge(options: options)
    exit(bridge.run())
} catch {
    Log.error("pressured-web: \(error)")
    exit(1)
}
