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
        let (rx, ry) = normalized(x: x, y: y, xAxis: xAxis, yAxis: yAxis)
        return (rx * width, ry * height)
    }

    /// Where a device position is on the screen as a fraction of its width and height (0…1 on it):
    /// calibrated and rotated, not yet scaled. What an absolute pointer's range stands for.
    @inlinable
    public func normalized(x: Int32, y: Int32, xAxis: AbsInfo, yAxis: AbsInfo) -> (x: Double, y: Double) {
        let nx = Double(Int64(x) - Int64(xAxis.minimum)) / Double(xAxis.span)
        let ny = Double(Int64(y) - Int64(yAxis.minimum)) / Double(yAxis.span)
        let m = matrix
        let cx = m[0] * nx + m[1] * ny + m[2]
        let cy = m[3] * nx + m[4] * ny + m[5]
        switch rotation {
        case .none: return (cx, cy)
        case .quarter: return (1 - cy, cx)
        case .half: return (1 - cx, 1 - cy)
        case .threeQuarters: return (cy, 1 - cx)
        }
    }
}
