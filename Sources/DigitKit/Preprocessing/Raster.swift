/// A greyscale raster of Doubles, row-major: the working form of the
/// preprocessing steps, in float64 so that their threshold decisions match
/// the numpy reference (Tests/Tools/reference_preprocess.py) exactly.
public struct Raster: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` values, top row first; grey levels 0-255 in the
    /// preprocessing stages, though any Double is allowed.
    public var values: [Double]

    /// Wraps `values`; a precondition checks that both sides are positive and
    /// that there are `width * height` values.
    public init(width: Int, height: Int, values: [Double]) {
        precondition(width > 0 && height > 0 && values.count == width * height)
        self.width = width
        self.height = height
        self.values = values
    }

    /// The pixels as Doubles. A plain loop over buffers, which the compiler
    /// vectorizes: `map` stored the array's count after every element
    /// (docs/decisions.md, "Plain loops").
    init(_ image: GrayImage) {
        let values = image.pixels.withUnsafeBufferPointer { pixels in
            [Double](unsafeUninitializedCapacity: pixels.count) { values, initialized in
                for i in pixels.indices { values[i] = Double(pixels[i]) }  // values.count == pixels.count
                initialized = pixels.count
            }
        }
        self.init(width: image.width, height: image.height, values: values)
    }

    /// The value at column `x`, row `y` (0-based, from the top left), read
    /// and written in place; both must lie within the raster.
    public subscript(x: Int, y: Int) -> Double {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
    }
}

/// An inclusive pixel rectangle.
public struct BoundingBox: Equatable, Sendable {
    /// The leftmost and topmost, rightmost and bottommost pixels inside the box
    /// (0-based, inclusive).
    public var minX: Int, minY: Int, maxX: Int, maxY: Int
    /// Width in pixels, both edges included.
    public var width: Int { maxX - minX + 1 }
    /// Height in pixels, both edges included.
    public var height: Int { maxY - minY + 1 }

    /// Whether the pixel at column `x`, row `y` lies inside the box.
    func contains(x: Int, y: Int) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }

    /// How far the box's facing edges lie from `other`'s, across or down,
    /// whichever is farther: 1 for boxes side by side, 0 where they overlap.
    func gap(to other: BoundingBox) -> Int {
        max(other.minX - maxX, minX - other.maxX, other.minY - maxY, minY - other.maxY, 0)
    }

    mutating func include(_ other: BoundingBox) {
        minX = min(minX, other.minX); minY = min(minY, other.minY)
        maxX = max(maxX, other.maxX); maxY = max(maxY, other.maxY)
    }
}
