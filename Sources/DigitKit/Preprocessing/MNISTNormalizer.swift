/// Steps 10a and 10c (in `NormalizationTail`): what MNIST did to every digit.
/// Scales the digit's box so its longer side is 20 pixels, aspect ratio kept
/// (area averaging when shrinking, bilinear when enlarging), and places it in
/// a 28x28 field so that its intensity-weighted centre of mass sits at
/// pixel 14, where MNIST put it (`massCentre`).
enum MNISTNormalizer {
    static let boxSide = 20
    static let fieldSide = DigitTensor.side
    /// Where MNIST put every digit's centre of mass, in pixel indices: pixel
    /// 14, not the field's geometric middle 13.5. The model learned digits
    /// placed there; placing them half a pixel up and left moved about half
    /// of them by a whole pixel (docs/decisions.md, "Centre of mass").
    static let massCentre = 14.0

    /// The digit scaled into the 20-pixel box (values as given).
    static func scaled(_ digit: Raster) -> Raster {
        let scale = Double(boxSide) / Double(max(digit.width, digit.height))
        let width = max(1, Int((Double(digit.width) * scale + 0.5).rounded(.down)))
        let height = max(1, Int((Double(digit.height) * scale + 0.5).rounded(.down)))
        return scale < 1
            ? AreaResampler.resize(digit, targetWidth: width, targetHeight: height)
            : BilinearResampler.resize(digit, targetWidth: width, targetHeight: height)
    }

    /// `box` placed in the 28x28 field with its centre of mass at
    /// `massCentre`, shifted by whole pixels and never cut off.
    /// Nil when `box` holds no ink at all.
    static func centred(_ box: Raster) -> Raster? {
        var mass = 0.0, mx = 0.0, my = 0.0
        for y in 0..<box.height {
            for x in 0..<box.width {
                let v = box[x, y]
                mass += v; mx += Double(x) * v; my += Double(y) * v
            }
        }
        guard mass > 0 else { return nil }
        func offset(_ centre: Double, _ size: Int) -> Int {
            min(max(Int((massCentre - centre + 0.5).rounded(.down)), 0), fieldSide - size)
        }
        let ox = offset(mx / mass, box.width), oy = offset(my / mass, box.height)
        var field = Raster(width: fieldSide, height: fieldSide, values: Array(repeating: 0, count: fieldSide * fieldSide))
        for y in 0..<box.height {
            for x in 0..<box.width { field[x + ox, y + oy] = box[x, y] }
        }
        return field
    }
}
