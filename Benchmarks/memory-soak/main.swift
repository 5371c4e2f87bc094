// Classifies the same PNG many times in one process (decode + MNIST pipeline
// + forward pass, as `digits classify` does) and prints the resident set size
// as it goes, to show that memory stays flat:
//
//   swift run -c release memory-soak [PNG] [ITERATIONS] [MODEL]
//
// Defaults: Examples/seven.png, 100000 iterations, Models/digits.pt.

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

// The allocator policy of the digits CLI: freed memory is kept for reuse, so
// this is where unbounded growth would show if it had any.
TorchRuntime.retainFreedMemory()
let classifier = try DigitClassifier(modelPath: modelPath)
let expected = try classifier.classify(fileAtPath: png)
print("after loading the model and one classification: \(String(format: "%.1f", residentMB())) MB")
let started = Date()
var samples: [Double] = []
for i in 1...iterations {
    let prediction = try classifier.classify(fileAtPath: png)
    precondition(prediction == expected, "iteration \(i) gave a different result")
    if i % (iterations / 10) == 0 {
        samples.append(residentMB())
        print("\(i) classifications: RSS \(String(format: "%.1f", samples.last!)) MB")
    }
}
let seconds = Date().timeIntervalSince(started)
print(String(format: "%d classifications in %.1f s (%.0f per second); RSS from %.1f to %.1f MB over the last nine tenths",
             iterations, seconds, Double(iterations) / seconds, samples.first!, samples.last!))
