extension GrayImage {
    /// Wraps the pixels a decoder produced for `width` x `height`. Decoders
    /// size their buffers from the same two numbers, so a mismatch would be
    /// a bug in DigitKit: it is reported as an error naming it, not a crash.
    init(decodedWidth width: Int, height: Int, pixels: [UInt8]) throws(DigitError) {
        do {
            try self.init(width: width, height: height, pixels: pixels)
        } catch {
            throw DigitError(.invalidImage, "internal error: decoded \(pixels.count) pixels for a \(width)x\(height) image")
        }
    }
}
