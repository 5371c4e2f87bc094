import DigitKit
@_spi(Fuzzing) import DigitServer

/// libFuzzer's entry point for what `digits serve` parses from a request
/// before any picture is decoded: a multipart/form-data body (its boundary
/// taken from the first bytes, as from a Content-Type header) and a raw
/// GRAY WebSocket frame; each part and each frame is then decoded and
/// preprocessed as the server does. Bad input must be one thrown error; a
/// crash, a hang, a sanitizer report or an allocation over the limits is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let decoder = ImageDecoder(maxPixels: 1 << 16, maxBytes: 1 << 20, applyOrientation: true)
    let preprocessor = Preprocessor()
    if bytes[0] % 2 == 0 {
        // First byte's half: the length of the Content-Type parameter that follows.
        let headerLength = min(Int(bytes[0] / 2), size - 1)
        let header = String(decoding: bytes[1..<(1 + headerLength)], as: UTF8.self)
        let body = Array(bytes[(1 + headerLength)...])
        guard let boundary = MultipartFormData.boundary(ofContentType: "multipart/form-data; boundary=" + header) else { return 0 }
        precondition((1...70).contains(boundary.utf8.count) && !boundary.utf8.contains(13) && !boundary.utf8.contains(10))
        guard let form = try? MultipartFormData(body: body, boundary: boundary, maxParts: 16) else { return 0 }
        precondition((1...16).contains(form.parts.count))
        precondition(form.parts.reduce(0) { $0 + $1.bytes.count } <= body.count)
        for part in form.parts {
            if let image = try? decoder.decode(bytes: part.bytes) { _ = preprocessor.process(image) }
        }
    } else {
        let frame = Array(bytes.dropFirst())
        guard RawGrayFrame.isRaw(frame), let image = try? RawGrayFrame.image(frame) else { return 0 }
        precondition(image.width * image.height == frame.count - 8)
        _ = preprocessor.process(image)
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

@_cdecl("RequestFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
