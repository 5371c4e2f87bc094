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

    /// The pixels as Doubles. A plain loop over buffers, which the compiler
    /// vectorizes: `map` stored the array's count after every element, and
    /// took 9% of the MNIST pipeline on a 400x400 picture.
    init(_ image: GrayImage) {
        let values = image.pixels.withUnsafeBufferPointer { pixels in
            [Double](unsafeUninitializedCapacity: pixels.count) { values, initialized in
                for i in pixels.indices { values[i] = Double(pixels[i]) }  // values.count == pixels.count
                initialized = pixels.count
            }
        }
        self.init(width: image.width, height: image.height, values: values)
    }

    public subscript(x: Int, y: Int) -> Double {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
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
