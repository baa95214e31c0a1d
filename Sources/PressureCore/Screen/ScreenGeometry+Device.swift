/// Mapping a device's positions with a geometry, and the geometry a device gets by default.
extension ScreenGeometry {
    /// The default for a device: its axis ranges as pixels, no rotation, identity calibration.
    public static func deviceUnits(_ device: TouchDevice) -> ScreenGeometry {
        ScreenGeometry(width: Double(device.xAxis.span), height: Double(device.yAxis.span))
    }

    /// Parses `LIBINPUT_CALIBRATION_MATRIX` ("a b c d e f", whitespace separated); nil if malformed.
    public static func parseMatrix(_ text: some StringProtocol) -> [Double]? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double(String($0)) }
        guard parts.count == 6, parts.allSatisfy(\.isFinite) else { return nil }
        return parts
    }

    /// Maps a device position to screen pixels.
    @inlinable
    public func map(x: Int32, y: Int32, xAxis: AbsInfo, yAxis: AbsInfo) -> (x: Double, y: Double) {
        let nx = Double(Int64(x) - Int64(xAxis.minimum)) / Double(xAxis.span)
        let ny = Double(Int64(y) - Int64(yAxis.minimum)) / Double(yAxis.span)
        let m = matrix
        let cx = m[0] * nx + m[1] * ny + m[2]
        let cy = m[3] * nx + m[4] * ny + m[5]
        let (rx, ry): (Double, Double)
        switch rotation {
        case .none: (rx, ry) = (cx, cy)
        case .quarter: (rx, ry) = (1 - cy, cx)
        case .half: (rx, ry) = (1 - cx, 1 - cy)
        case .threeQuarters: (rx, ry) = (cy, 1 - cx)
        }
        return (rx * width, ry * height)
    }
}
