@testable import DigitKit
import Foundation

/// Small video streams built in memory, for the tests of the frame reader.
package enum SyntheticVideo {
    /// A y4m stream of `frames` (each `width * height` luma bytes), with
    /// chroma planes of 128 as `chroma` requires.
    package static func y4m(width: Int, height: Int, chroma: String = "mono", header extra: String = " F30:1 Ip A1:1",
                            frames: [[UInt8]], frameParameters: String = "") -> [UInt8] {
        var bytes = Array("YUV4MPEG2 W\(width) H\(height)\(extra) C\(chroma)\n".utf8)
        let chromaBytes = Y4MHeader.Chroma(rawValue: chroma)?.planeBytes(width: width, height: height) ?? 0
        for luma in frames {
            bytes += Array("FRAME\(frameParameters)\n".utf8) + luma + Array(repeating: 128, count: chromaBytes)
        }
        return bytes
    }

    /// A frame of one grey level.
    package static func flat(_ width: Int, _ height: Int, _ level: UInt8 = 200) -> [UInt8] {
        Array(repeating: level, count: width * height)
    }

    /// A frame source reading `bytes` from a temporary file.
    package static func source(_ bytes: [UInt8], maxPixels: Int = PNGDecoder.defaultMaxPixels) throws -> VideoFrameSource {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("digits-video-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        unlink(path)  // the open descriptor keeps it readable
        return VideoFrameSource(descriptor: descriptor, name: "clip", maxPixels: maxPixels)
    }

    /// Every frame of `bytes`, and the error that ended the stream, if any.
    package static func read(_ bytes: [UInt8], maxPixels: Int = PNGDecoder.defaultMaxPixels) throws -> (frames: [VideoFrame], error: DigitError?) {
        var source = try source(bytes, maxPixels: maxPixels)
        var frames: [VideoFrame] = []
        do throws(DigitError) {
            while let frame = try source.next() { frames.append(frame) }
            return (frames, nil)
        } catch {
            return (frames, error)
        }
    }
}
