/// A greyscale raster of Doubles, row-major: the working form of the
/// preprocessing steps, in float64 so that their threshold decisions match
/// the numpy reference (Tests/Tools/reference_preprocess.py) exactly.
public struct Raster: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var values: [Double]

    public init(width: Int, height: Int, values: [Double]) {
        precondition(width > 0 && height > 0 && values.count == width * height)
        self.width = width
        self.height = height
        self.values = values
    }

    init(_ image: GrayImage) {
        self.init(width: image.width, height: image.height, values: image.pixels.map(Double.init))
    }

    public subscript(x: Int, y: Int) -> Double {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
    }

    /// The rectangle [x0, x0 + w) x [y0, y0 + h).
    func cropped(_ box: BoundingBox) -> Raster {
        var out = [Double]()
        out.reserveCapacity(box.width * box.height)
        for y in box.minY...box.maxY { out += values[(y * width + box.minX)...(y * width + box.maxX)] }
        return Raster(width: box.width, height: box.height, values: out)
    }

    /// Values of the ring `thickness` pixels wide along the edges, row-major.
    func border(thickness: Int) -> [(x: Int, y: Int, value: Double)] {
        var ring: [(x: Int, y: Int, value: Double)] = []
        for y in 0..<height {
            for x in 0..<width where x < thickness || x >= width - thickness || y < thickness || y >= height - thickness {
                ring.append((x, y, values[y * width + x]))
            }
        }
        return ring
    }
}

/// An inclusive pixel rectangle.
public struct BoundingBox: Equatable, Sendable {
    public var minX: Int, minY: Int, maxX: Int, maxY: Int
    public var width: Int { maxX - minX + 1 }
    public var height: Int { maxY - minY + 1 }

    mutating func include(_ other: BoundingBox) {
        minX = min(minX, other.minX); minY = min(minY, other.minY)
        maxX = max(maxX, other.maxX); maxY = max(maxY, other.maxY)
    }
}
