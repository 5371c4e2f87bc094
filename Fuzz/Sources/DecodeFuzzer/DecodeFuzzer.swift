import DigitKit

/// libFuzzer's entry point: any bytes through the PNG decoder and both
/// preprocessing paths. A crash, a hang, an address-sanitizer report or an
/// allocation over libFuzzer's -rss_limit_mb is a finding; a thrown
/// DigitError is the expected answer to bad input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // A lower pixel ceiling than the CLI's, so each run stays fast; the
    // ceiling check itself is part of what is fuzzed.
    guard let image = try? PNGDecoder(maxPixels: 1 << 20).decode(bytes: bytes) else { return 0 }
    let stages = Preprocessor().process(image)
    if let tensor = stages.tensor {
        precondition(tensor.values.count == 784 && tensor.values.allSatisfy(\.isFinite))
    }
    let raw = Preprocessor(mode: .raw).tensor(for: image)
    precondition(raw?.values.allSatisfy(\.isFinite) == true)
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

@_cdecl("DecodeFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
