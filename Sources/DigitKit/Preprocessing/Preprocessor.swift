/// Turns a decoded greyscale image into the tensor the model reads.
///
/// The plain path resizes the whole image to 28x28 by area averaging and
/// normalizes it; for a 28x28 input it equals torchvision's
/// `ToTensor()` + `Normalize((0.1307,), (0.3081,))` exactly. It keeps the
/// image's polarity and framing, so it suits MNIST-like input (a bright
/// digit, centred, on black).
public struct Preprocessor: Sendable {
    public init() {}

    /// The normalized 28x28 tensor of `image`.
    public func tensor(for image: GrayImage) -> DigitTensor {
        let pixels = image.pixels.map(Float.init)
        let side = DigitTensor.side
        let resized = (image.width == side && image.height == side)
            ? pixels
            : AreaResampler.resize(pixels, width: image.width, height: image.height, targetWidth: side, targetHeight: side)
        return DigitTensor(intensities: resized)
    }
}
