import DigitKit
import Foundation

/// libFuzzer's entry point for the number reader with its models: the
/// bytes are not a picture but the choices of a drawing (NumberDrawing,
/// shared with the Swift suite's ReaderPropertyTests: glyph count, kinds,
/// sizes, positions, stroke widths, polarity, faintness, specks, noise,
/// canvas size), after a first byte that may ask for a number's length and
/// chooses the reader: with the line model, or cutting wide glyphs for the
/// digit model (`--no-line-model`). A crash, a hang, a sanitizer report, an
/// allocation over the limits, a model error or a reading that is not
/// well-formed (readingProblems) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    // One input in four asks for a length of 1 to 9 digits (the knapsack over the glyphs).
    let length = data[0] % 4 == 0 ? 1 + Int(data[0] / 8) % 9 : nil
    let reader = data[0] & 4 == 0 ? readers.lineModel : readers.cutting
    var offset = 1
    let drawing = NumberDrawing {
        defer { offset += 1 }
        return offset < size ? data[offset] : 0
    }
    let reading: NumberReading
    do {
        reading = try reader.read(drawing.image, length: length)
    } catch {
        preconditionFailure("the reader failed on a drawing: \(error.message)")
    }
    let problems = readingProblems(reading, width: drawing.image.width, height: drawing.image.height, length: length)
    precondition(problems.isEmpty, "\(problems)")
    return 0
}

/// The readers of `digits read` and `digits read --no-line-model`, with the
/// shipped models of this checkout, loaded on the first input; libtorch on
/// one thread, as the CLI sets it.
let readers: (lineModel: NumberReader, cutting: NumberReader) = {
    let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    do throws(DigitError) {
        try TorchRuntime.setThreadCount(1)
        let model = try DigitModel(path: root.appendingPathComponent("Models/digits.pt").path)
        let lineModel = try LineModel(path: root.appendingPathComponent("Models/digit-line.pt").path)
        return (NumberReader(model: model, lineModel: lineModel), NumberReader(model: model))
    } catch {
        fatalError("cannot load the shipped models: \(error.message)")
    }
}()

/// libFuzzer's driver, started from the entry point SwiftPM links an
/// executable target with (`<module>_main`).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("ReadFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
