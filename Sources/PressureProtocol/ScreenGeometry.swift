/// Where a device's touches land on the screen, in pixels: the device's axis ranges normalised to 0…1,
/// then libinput's 3×2 calibration matrix (the `LIBINPUT_CALIBRATION_MATRIX` convention kiosk integrators
/// already set), then the screen's rotation, then the screen size.
///
/// With nothing configured the "screen" is the device's own axis range at one pixel per unit, so regions
/// can still be used in device units.
///
/// The geometry as DEVICE sends it (`screen`); the mapping itself is the core's.
public struct ScreenGeometry: Hashable, Sendable {
    /// Clockwise rotation of the picture relative to the touch panel.
    public enum Rotation: Int, CaseIterable, Sendable {
        case none = 0, quarter = 90, half = 180, threeQuarters = 270
    }

    /// Screen size in pixels.
    public var width: Double
    public var height: Double
    public var rotation: Rotation
    /// `a b c d e f`: x' = a·x + b·y + c, y' = d·x + e·y + f, on normalised coordinates.
    public var matrix: [Double]

    public static let identityMatrix: [Double] = [1, 0, 0, 0, 1, 0]

    public init(width: Double, height: Double, rotation: Rotation = .none, matrix: [Double] = identityMatrix) {
        self.width = width
        self.height = height
        self.rotation = rotation
        self.matrix = matrix.count == 6 ? matrix : Self.identityMatrix
    }
}
