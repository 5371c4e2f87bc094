// Classifies the same PNG many times in one process through the batch run
// every command uses (DigitClassifier.classify(_:options:each:): parallel
// decode + MNIST pipeline, batched forward passes) and prints the resident
// set size as it goes, to show that memory stays flat however many inputs
// a run is given:
//
//   swift run -c release memory-soak [PNG] [ITERATIONS] [MODEL]
//
// Defaults: Examples/seven.png, 100000 inputs, Models/digits.pt.

import DigitKit
import Foundation

let arguments = CommandLine.arguments
let png = arguments.count > 1 ? arguments[1] : "Examples/seven.png"
let iterations = arguments.count > 2 ? Int(arguments[2])! : 100_000
let modelPath = arguments.count > 3 ? arguments[3] : "Models/digits.pt"

/// Resident set size in MB, from /proc/self/statm.
func residentMB() -> Double {
    let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
    let pages = fields.count > 1 ? Double(fields[1]) ?? 0 : 0
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

// The allocator policy and thread count of the digits CLI: freed memory is
// kept for reuse, so this is where unbounded growth would show if it had any.
TorchRuntime.retainFreedMemory()
try TorchRuntime.setThreadCount(AvailableCores.count)
let classifier = try DigitClassifier(modelPath: modelPath)
let expected = try classifier.classify(fileAtPath: png)?.digit
print("after loading the model and one classification: \(String(format: "%.1f", residentMB())) MB")
// Made as the workers take them, as a list file's inputs would be.
let inputs = InputSequence(count: iterations) { [png] _ in ClassificationInput.file(png) }
let started = Date()
var samples: [Double] = []
let statistics = try classifier.classify(inputs) { result in
    precondition(result.prediction?.digit == expected, "input \(result.position) gave a different result")
    let done = result.position + 1
    if done % (iterations / 10) == 0 {
        samples.append(residentMB())
        print("\(done) classifications: RSS \(String(format: "%.1f", samples.last!)) MB")
    }
}
let seconds = Date().timeIntervalSince(started)
print(String(format: "%d classifications in %.1f s (%.0f per second, %d forward passes); RSS from %.1f to %.1f MB over the last nine tenths",
             statistics.inputs, seconds, Double(statistics.inputs) / seconds, statistics.forwardPasses, samples.first!, samples.last!))
