extension ExifOrientation {
    /// `image` turned or mirrored so that it shows upright: a pure function.
    ///
    /// Every orientation is a walk over the stored pixels: output pixel
    /// (x, y) is stored pixel `start + x * xStep + y * yStep`, with the start
    /// at a corner of the stored image and the steps one pixel (±1) or one
    /// row (±width). For the stored width w and height h:
    ///
    /// | value | output (x, y) is stored         | output size |
    /// |-------|---------------------------------|-------------|
    /// | 1     | (x, y)                          | w x h       |
    /// | 2     | (w-1-x, y)                      | w x h       |
    /// | 3     | (w-1-x, h-1-y)                  | w x h       |
    /// | 4     | (x, h-1-y)                      | w x h       |
    /// | 5     | (y, x)                          | h x w       |
    /// | 6     | (y, h-1-x)                      | h x w       |
    /// | 7     | (w-1-y, h-1-x)                  | h x w       |
    /// | 8     | (w-1-y, x)                      | h x w       |
    func apply(to image: GrayImage) -> GrayImage {
        if self == .identity { return image }
        let w = image.width, h = image.height
        let lastRow = (h - 1) * w, lastColumn = w - 1
        let (start, xStep, yStep): (Int, Int, Int)
        switch self {
        case .identity: (start, xStep, yStep) = (0, 1, w)
        case .flipHorizontal: (start, xStep, yStep) = (lastColumn, -1, w)
        case .rotate180: (start, xStep, yStep) = (lastRow + lastColumn, -1, -w)
        case .flipVertical: (start, xStep, yStep) = (lastRow, 1, -w)
        case .transpose: (start, xStep, yStep) = (0, w, 1)
        case .rotateClockwise: (start, xStep, yStep) = (lastRow, -w, 1)
        case .transverse: (start, xStep, yStep) = (lastRow + lastColumn, -w, -1)
        case .rotateCounterClockwise: (start, xStep, yStep) = (lastColumn, w, -1)
        }
        let (outWidth, outHeight) = swapsSides ? (h, w) : (w, h)
        var pixels = [UInt8](repeating: 0, count: w * h)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<outHeight {
                    var from = start + y * yStep
                    let row = y * outWidth
                    for x in 0..<outWidth {
                        out[row + x] = source[from]
                        from += xStep
                    }
                }
            }
        }
        // Same pixel count, sides swapped or not: the initializer cannot fail.
        return (try? GrayImage(decodedWidth: outWidth, height: outHeight, pixels: pixels)) ?? image
    }
}
