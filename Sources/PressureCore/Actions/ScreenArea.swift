/// A screen rectangle in pixels, in the coordinates of `screenX`/`screenY` (`docs/configuration.md`,
/// "Screen geometry"), written as X11 geometry: `WIDTHxHEIGHT+X+Y` (`960x1080+960+0`, the right half of a
/// 1920×1080 screen). It holds the points from its corner up to, not including, the far edges.
public struct ScreenArea: Hashable, Sendable, CustomStringConvertible {
    /// Coordinates and sizes up to this many pixels.
    public static let maximumPixels = 100_000

    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Reads `WIDTHxHEIGHT+X+Y`; nil where it is not that (each number 0 to ``maximumPixels``, the sizes
    /// at least 1).
    public init?(parsing text: some StringProtocol) {
        let size = Substring(text).split(separator: "+", omittingEmptySubsequences: false)
        guard size.count == 3 else { return nil }
        let wh = size[0].split(separator: "x", omittingEmptySubsequences: false)
        guard wh.count == 2, let w = Self.number(wh[0]), let h = Self.number(wh[1]), let x = Self.number(size[1]),
            let y = Self.number(size[2]), w > 0, h > 0
        else { return nil }
        self.init(x: x, y: y, width: w, height: h)
    }

    /// Plain decimal digits, no sign, within range.
    private static func number(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.count <= 6, s.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let n = Int(s),
            n <= maximumPixels
        else { return nil }
        return n
    }

    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && px < Double(x + width) && py >= Double(y) && py < Double(y + height)
    }

    /// `960x1080+960+0`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
