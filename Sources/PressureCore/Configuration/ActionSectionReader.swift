/// An `[action]` section's keys: the `Match*` keys as a device section reads them, the gesture, what it
/// does and where.
struct ActionSectionReader: ConfigurationValueReading {
    let file: String
    let lineNumber: Int

    func read(_ key: String, _ value: String, into s: inout ActionSection) throws(ConfigurationError) {
        switch key {
        case DeviceSection.Key.matchName, DeviceSection.Key.matchVendor, DeviceSection.Key.matchProduct,
            DeviceSection.Key.matchBus:
            try DeviceSectionReader(file: file, lineNumber: lineNumber).matchKey(key, value, into: &s.match)
        case ActionSection.Key.gesture:
            // The gesture's own spelling in the message (`longPress`); any case accepted.
            let expected = "one of " + ActionGesture.allCases.map(\.rawValue).joined(separator: ", ")
            try requireValue(key, value, expected)
            guard let g = ActionGesture.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() }) else {
                throw fail(.invalidChoice(key: key, value: value, expected: expected))
            }
            s.gesture = g
        case ActionSection.Key.does:
            try requireValue(key, value, TouchAction.expected)
            do throws(ActionParseProblem) {
                s.does = try TouchAction(parsing: value)
            } catch {
                switch error {
                case .notAnAction: throw fail(.invalidChoice(key: key, value: value, expected: TouchAction.expected))
                case .keys(let problem): throw fail(.invalidKeys(key: key, value: value, problem: problem))
                }
            }
        case ActionSection.Key.area:
            let expected = "screen rectangles in pixels as WIDTHxHEIGHT+X+Y (e.g. 960x1080+960+0), separated by spaces"
            try requireValue(key, value, expected)
            var areas: [ScreenArea] = []
            for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                guard let area = ScreenArea(parsing: word) else {
                    throw fail(.invalidArea(key: key, value: String(word), expected: expected))
                }
                areas.append(area)
            }
            s.areas = areas
        default:
            throw fail(.unknownActionKey(key: key))
        }
    }
}
