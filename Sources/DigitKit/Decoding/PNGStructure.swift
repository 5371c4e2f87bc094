/// Checks a PNG stream's chunk layout before libpng decodes it, so that a
/// truncated or gutted file gets a precise message ("the file ends inside
/// the IDAT chunk") instead of libpng's "read beyond end of data", and so
/// that a file cut off after its pixel data (which libpng's simplified API
/// would accept) is refused as the truncated file it is.
enum PNGStructure {
    /// Walks the chunks from the signature to IEND: every chunk must lie
    /// within the file, an IDAT must come before IEND, and IEND must exist.
    /// Bytes after IEND are allowed (some writers append them). Returns the
    /// IDAT chunks' data lengths, summed (PNGImageDataBounds weighs them).
    @discardableResult
    static func check(_ png: [UInt8]) throws(DigitError) -> Int {
        var position = 8, sawImageData = false, imageDataLength = 0
        while true {
            guard position + 8 <= png.count else {
                throw DigitError(.invalidImage, "truncated PNG: the file ends before the IEND chunk")
            }
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8 | Int(png[position + 3])
            let type = png[(position + 4)..<(position + 8)]
            guard length <= Int(Int32.max) else {
                throw DigitError(.invalidImage, "corrupt PNG: \(chunkName(type)) claims \(length) bytes")
            }
            guard position + 12 + length <= png.count else {
                throw DigitError(.invalidImage, "truncated PNG: the file ends inside \(chunkName(type))")
            }
            if type.elementsEqual("IDAT".utf8) {
                sawImageData = true
                imageDataLength += length
            } else if type.elementsEqual("IEND".utf8) {
                guard sawImageData else { throw DigitError(.invalidImage, "corrupt PNG: no image data (IDAT chunk)") }
                return imageDataLength
            }
            position += 12 + length
        }
    }

    /// How a message names the chunk of type `type` ("the IDAT chunk"); only
    /// made for a message, as building it for every chunk was a good part of
    /// a small file's check. Shared with the stream reader (StreamedImageExtent).
    static func chunkName(_ type: ArraySlice<UInt8>) -> String {
        type.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
            ? "the \(String(decoding: type, as: UTF8.self)) chunk" : "a chunk with an invalid type"
    }
}
