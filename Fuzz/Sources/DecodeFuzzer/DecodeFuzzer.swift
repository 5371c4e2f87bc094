@_spi(Fuzzing) import DigitKit

/// libFuzzer's entry point: any bytes through ImageDecoder (format
/// detection; the PNG, JPEG and PNM decoders; EXIF orientation in JPEG
/// APP1 and PNG eXIf; reduced-size JPEG decoding), both preprocessing
/// paths, and the number reader's segmentation (everything of `digits read`
/// but the model). A crash, a hang, an address-sanitizer report, an allocation over
/// libFuzzer's -rss_limit_mb, or a broken invariant below is a finding; a
/// thrown DigitError is the expected answer to bad input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkPNGPathsAgree(bytes)
    // A lower pixel ceiling than the CLI's, so each run stays fast; the
    // ceiling check itself is part of what is fuzzed. A small maxSide, so
    // that JPEGs of a few dozen pixels already take the reduced-size path.
    let maxSide = 64
    guard let image = try? ImageDecoder(maxPixels: 1 << 20, maxSide: maxSide).decode(bytes: bytes) else { return 0 }
    if let stored = try? ImageDecoder(maxPixels: 1 << 20, applyOrientation: false).decode(bytes: bytes) {
        checkScaledAndOriented(image, stored: stored, maxSide: maxSide)
    }
    let stages = Preprocessor().process(image)
    if let tensor = stages.tensor {
        precondition(tensor.values.count == 784 && tensor.values.allSatisfy(\.isFinite))
    }
    let raw = Preprocessor(mode: .raw).tensor(for: image)
    precondition(raw?.values.allSatisfy(\.isFinite) == true)
    // digits read's segmentation: glyphs, punctuation, cuts and pieces.
    _ = NumberReader.candidatePieceCount(image)
    return 0
}

/// A PNG that PNGFastPath decodes must decode to the same pixels through
/// libpng alone; the one accepted difference is a zlib stream reaching
/// further back than its header's window, which zlib refuses.
func checkPNGPathsAgree(_ bytes: [UInt8]) {
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return }
    var libpngOnly = PNGDecoder(maxPixels: 1 << 20)
    libpngOnly.usesFastPath = false
    guard let fast = try? PNGDecoder(maxPixels: 1 << 20).decode(bytes: bytes) else { return }
    do {
        let plain = try libpngOnly.decode(bytes: bytes)
        precondition(plain == fast, "the PNG fast path and libpng decode different pixels")
    } catch {
        precondition(error.message.contains("too far back"), "libpng refuses what the fast path decoded: \(error.message)")
    }
}

/// The picture decoded reduced and turned upright must be the one decoded
/// at full size as stored, scaled by 1, 1/2, 1/4 or 1/8 (sides rounded up),
/// its sides possibly swapped, and no smaller than maxSide allows.
func checkScaledAndOriented(_ image: GrayImage, stored: GrayImage, maxSide: Int) {
    let sides = [image.width, image.height].sorted()
    let fits = [1, 2, 4, 8].contains { denominator in
        [(stored.width + denominator - 1) / denominator, (stored.height + denominator - 1) / denominator].sorted() == sides
    }
    precondition(fits, "\(image.width)x\(image.height) is no scale of \(stored.width)x\(stored.height)")
    precondition(sides[1] >= min(maxSide, max(stored.width, stored.height)), "reduced below maxSide")
}

/// libFuzzer's driver, started from the entry point SwiftPM links an
/// executable target with (`<module>_main`).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("DecodeFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
