// Measures decode and preprocessing speed, in one run, on a 28x28 MNIST PNG
// and a 400x400 RGB photo-like PNG (or the pictures given: PNG, JPEG, PNM),
// decoded as `digits classify` decodes (ImageDecoder.forClassification: the
// format by content, EXIF orientation applied, large JPEGs at a reduced
// size in the DCT domain):
//
//   swift run -c release preprocess-benchmark [--cli-allocator] [PICTURE ...]
//   swift run -c release preprocess-benchmark [--cli-allocator] --only decode|pipeline PICTURE
//
// --only runs one stage (the decode, or the MNIST pipeline on the picture
// decoded once) for 5 seconds and prints its time per call: a run for
// `perf record` to profile without the other stages' samples.
//
// --cli-allocator first sets the allocator policy the digits CLI sets at
// start-up (TorchRuntime.retainFreedMemory: freed memory is kept, so a
// picture's working buffers are not faulted in afresh each time). Without
// it, glibc's default policy, as a library user who sets nothing gets.
//
// Each figure is the median of 7 rounds of at least 0.3 s each. It prints
// figures; it asserts nothing (timings belong in benchmarks, not tests).

import DigitKit
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
    print("""
        usage: preprocess-benchmark [--cli-allocator] [PICTURE ...]
               preprocess-benchmark [--cli-allocator] --only decode|pipeline PICTURE
        """)
    exit(0)
}
if arguments.first == "--cli-allocator" {
    arguments.removeFirst()
    print("Allocator: the digits CLI's policy (freed memory kept): \(TorchRuntime.retainFreedMemory() ? "set" : "not available")\n")
}
if arguments.first == "--only", arguments.count == 3 {
    let stage = arguments[1], file = arguments[2]
    let decoder = ImageDecoder.forClassification, mnist = Preprocessor()
    let image = try decoder.decode(fileAtPath: file)
    let clock = ContinuousClock()
    var calls = 0
    let start = clock.now
    repeat {
        switch stage {
        case "decode": _ = try decoder.decode(fileAtPath: file)
        case "pipeline": _ = mnist.tensor(for: image)
        default: fatalError("--only takes decode or pipeline")
        }
        calls += 1
    } while clock.now - start < .seconds(5)
    print("\(stage): \(String(format: "%.1f", (clock.now - start) / .microseconds(1) / Double(calls))) µs a call")
    exit(0)
}
if let option = arguments.first(where: { $0.hasPrefix("-") }) {
    FileHandle.standardError.write(Data("preprocess-benchmark: unknown option \(option) (--help shows the usage)\n".utf8))
    exit(64)
}
let files = arguments.isEmpty ? ["Examples/seven.png", "Examples/eight-photo-400.png"] : arguments

/// Median time per call of `body`, in microseconds.
func measure(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var perCall: [Double] = []
    for _ in 0..<7 {
        var calls = 0
        let start = clock.now
        var elapsed = Duration.zero
        repeat {
            try body()
            calls += 1
            elapsed = clock.now - start
        } while elapsed < .milliseconds(300)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        perCall.append(seconds / Double(calls) * 1e6)
    }
    return perCall.sorted()[3]
}

func format(_ microseconds: Double) -> String {
    String(format: "%9.1f µs  (%8.0f /s)", microseconds, 1e6 / microseconds)
}

print("| picture | decode | decode + MNIST pipeline | decode + plain resize |")
print("|---|---|---|---|")
for file in files {
    let decoder = ImageDecoder.forClassification
    let image = try decoder.decode(fileAtPath: file)
    let mnist = Preprocessor(), raw = Preprocessor(mode: .raw)
    let decode = try measure { _ = try decoder.decode(fileAtPath: file) }
    let pipeline = try measure { _ = mnist.tensor(for: try decoder.decode(fileAtPath: file)) }
    let plain = try measure { _ = raw.tensor(for: try decoder.decode(fileAtPath: file)) }
    print("| \((file as NSString).lastPathComponent) (decoded at \(image.width)x\(image.height)) | \(format(decode)) | \(format(pipeline)) | \(format(plain)) |")
}
