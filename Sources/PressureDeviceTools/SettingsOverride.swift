import PressureCommandLine
import PressureCore

/// Command-line overrides of the configured gesture settings.
public enum SettingsOverride {
    public static func apply(sensitivity: String?, forceTouch: String?, to settings: inout GestureSettings)
        throws(OptionReader.UsageError)
    {
        if let s = sensitivity {
            guard let v = Sensitivity(rawValue: s) else {
                throw OptionReader.UsageError("--sensitivity takes light, medium or firm, not '\(s)'")
            }
            settings.sensitivity = v
        }
        if let f = forceTouch {
            switch f {
            case "on": settings.forceTouchEnabled = true
            case "off": settings.forceTouchEnabled = false
            default: throw OptionReader.UsageError("--force-touch takes on or off, not '\(f)'")
            }
        }
    }
}
