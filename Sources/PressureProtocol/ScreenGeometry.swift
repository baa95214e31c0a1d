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

extension ScreenGeometry {
    /// `{"width":1920.0,"height":1080.0,"rotation":90,"matrix":[1.0,0.0,0.0,0.0,1.0,0.0]}`
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"width":"#.utf8)
        WireFormat.appendDecimal(width, to: &out)
        out.append(contentsOf: #","height":"#.utf8)
        WireFormat.appendDecimal(height, to: &out)
        out.append(contentsOf: #","rotation":"#.utf8)
        WireFormat.appendInteger(Int64(rotation.rawValue), to: &out)
        out.append(contentsOf: #","matrix":"#.utf8)
        JSONWriter.appendList(matrix, to: &out) { v, out in WireFormat.appendDecimal(v, to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        let degrees = try f.int("rotation")
        guard let rotation = Rotation(rawValue: degrees) else {
            throw MessageDecodingError("'rotation' must be 0, 90, 180 or 270, not \(degrees)")
        }
        var matrix: [Double] = []
        for v in try f.array("matrix") {
            guard let n = v.numberValue else { throw MessageDecodingError("'matrix' must hold numbers") }
            matrix.append(n)
        }
        guard matrix.count == 6 else { throw MessageDecodingError("'matrix' must hold 6 numbers, not \(matrix.count)") }
        self.init(width: try f.double("width"), height: try f.double("height"), rotation: rotation, matrix: matrix)
    }
}
