/// The pixels within `thickness` of a picture's edges, which the background
/// model is fitted to, walked in row-major order.
///
/// Only the values are stored; positions come from the ring's shape as it is
/// walked. The fit goes over the ring six times, and a ring of (x, y, value)
/// tuples, built by appending pixel by pixel, cost more than the fit itself.
struct BorderRing {
    let width: Int, height: Int, thickness: Int
    /// The values of the ring's pixels, row-major.
    let values: [Double]

    init(_ raster: Raster, thickness: Int) {
        let width = raster.width, height = raster.height
        let count = width * height - max(0, width - 2 * thickness) * max(0, height - 2 * thickness)
        var values: [Double] = []
        values.reserveCapacity(count)
        Self.forEachRun(width: width, height: height, thickness: thickness) { y, columns in
            values.append(contentsOf: raster.values[(y * width + columns.lowerBound)..<(y * width + columns.upperBound)])
        }
        assert(values.count == count)
        (self.width, self.height, self.thickness, self.values) = (width, height, thickness, values)
    }

    var count: Int { values.count }

    /// Calls `body` with each ring pixel's column, row and value, row-major.
    @inline(__always)
    func forEach(_ body: (_ x: Double, _ y: Double, _ value: Double) -> Void) {
        values.withUnsafeBufferPointer { values in
            var index = 0
            Self.forEachRun(width: width, height: height, thickness: thickness) { y, columns in
                let row = Double(y)
                for x in columns {
                    body(Double(x), row, values[index])  // index < count: the runs hold count pixels in all
                    index += 1
                }
            }
        }
    }

    /// Calls `body` with the ring's runs of columns in each row, in order:
    /// the whole row in the top and bottom bands, else the left band and
    /// then the right band (one run when they meet, in a very narrow picture).
    @inline(__always)
    private static func forEachRun(width: Int, height: Int, thickness: Int, _ body: (_ y: Int, _ columns: Range<Int>) -> Void) {
        let left = 0..<min(thickness, width), right = min(width, max(thickness, width - thickness))..<width
        for y in 0..<height {
            if y < thickness || y >= height - thickness || left.upperBound >= right.lowerBound {
                body(y, 0..<width)
            } else {
                body(y, left)
                body(y, right)
            }
        }
    }
}
