import DigitKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libFuzzer's entry point for the inputs that arrive as streams: the bytes
/// (after a first byte choosing the reader) are put in a temporary file and
/// read back as concatenated images on standard input (ConcatenatedImages,
/// then each image decoded), as a --files-from list, newline- or
/// NUL-separated (FileList), or as the video of `digits stream`
/// (VideoFrameSource: YUV4MPEG2 or pictures back to back, each frame then
/// decoded and cut to the default region of interest). A crash, a hang, a sanitizer report or an
/// allocation over -rss_limit_mb is a finding; failed inputs are the
/// expected answer to bad bytes, and every reader must end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1, let file = tmpfile() else { return 0 }
    defer { fclose(file) }
    let mode = data[0]
    guard fwrite(data + 1, 1, size - 1, file) == size - 1, fflush(file) == 0 else { return 0 }
    rewind(file)
    let descriptor = fileno(file)
    switch mode % 4 {
    case 3:
        // Low ceilings, so that they are reached and checked often.
        var source = VideoFrameSource(descriptor: descriptor, name: "-", maxPixels: 1 << 16, maxBytes: 1 << 20)
        let decoder = ImageDecoder(maxPixels: 1 << 16, maxBytes: 1 << 20, applyOrientation: false)
        var count = 0
        while let frame = try? source.next() {
            count += 1
            precondition(count <= size, "more frames than bytes")
            precondition(frame.index == count - 1)
            let image: GrayImage
            switch frame.content {
            case .luma(let luma):
                precondition(luma.width * luma.height <= 1 << 16)
                image = luma
            case .encoded(let bytes):
                precondition(bytes.count <= 1 << 20)
                guard let decoded = try? decoder.decode(bytes: bytes) else { continue }
                image = decoded
            }
            let region = try! RegionOfInterest.default.rectangle(inFrameWidth: image.width, height: image.height)
            precondition(region.x + region.width <= image.width && region.y + region.height <= image.height)
        }
    case 0:
        // A low byte ceiling, so that the limit is reached and checked often.
        var count = 0
        for input in ConcatenatedImages(descriptor: descriptor, name: "-", maxBytes: 1 << 20) {
            count += 1
            precondition(count <= size, "more images than bytes")
            if case .bytes(let bytes) = input.source {
                precondition(bytes.count <= 1 << 20)
                _ = try? PNGDecoder(maxPixels: 1 << 20).decode(bytes: bytes)
            }
        }
    default:
        let path = "/dev/fd/\(descriptor)"
        var count = 0
        for input in FileList(path: path, separator: mode % 4 == 1 ? .newline : .nul) {
            count += 1
            precondition(count <= size + 1, "more entries than bytes")
            precondition(!input.origin.name.isEmpty)
        }
    }
    return 0
}

/// libFuzzer's driver, started from the entry point SwiftPM links an
/// executable target with (`<module>_main`).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("StreamFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
