import DigitKit
import Foundation

/// The 28x28 picture the model was given, as the server sends it for a page
/// to draw: `{"width": 28, "height": 28, "pixels": "<base64>"}`, one byte a
/// pixel row by row, 0 for paper and 255 for ink (the MNIST normalization
/// undone and clamped).
package struct PreprocessedPicture: Encodable, Sendable {
    package let width: Int
    package let height: Int
    package let pixels: [UInt8]

    package init(_ tensor: DigitTensor) {
        width = DigitTensor.side
        height = DigitTensor.side
        pixels = tensor.values.map { UInt8((DigitTensor.intensity(ofNormalized: $0) * 255).rounded()) }
    }

    private enum CodingKeys: String, CodingKey { case width, height, pixels }

    package func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encode(width, forKey: .width)
        try object.encode(height, forKey: .height)
        try object.encode(Data(pixels).base64EncodedString(), forKey: .pixels)
    }
}
