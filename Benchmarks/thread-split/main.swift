// Chooses how `digits classify` splits the cores between the threads that
// decode and preprocess (workers) and libtorch's threads, by measuring every
// split side by side in one process, rounds interleaved:
//
//   swift run -c release thread-split FILE_LIST [ROUNDS] [MODEL]
//
// FILE_LIST holds one image path a line (Benchmarks/make_mixed_pngs.py
// writes one). Prints files per second for each (workers, libtorch threads,
// batch) and the median over rounds. Run it again under
// OMP_WAIT_POLICY=passive to see what libgomp's spinning costs: the policy
// is read when libgomp loads, so it cannot be changed from inside.

import DigitKit
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: thread-split FILE_LIST [ROUNDS] [MODEL]\n".utf8))
    exit(2)
}
let paths = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n").map(String.init)
let rounds = arguments.count > 2 ? Int(arguments[2])! : 3
let modelPath = arguments.count > 3 ? arguments[3] : "Models/digits.pt"

TorchRuntime.retainFreedMemory()
let classifier = try DigitClassifier(modelPath: modelPath)
let cores = AvailableCores.count
var splits: [(workers: Int, torchThreads: Int, batch: Int)] = []
for workers in Set([1, max(1, cores - 1), cores, cores + 1]).sorted() {
    for torchThreads in Set([1, cores]).sorted() {
        splits.append((workers, torchThreads, 64))
    }
}
splits.append((cores, 1, 16))
splits.append((cores, 1, 256))

/// Files per second of one whole run over the list.
func measure(workers: Int, torchThreads: Int, batch: Int) throws -> Double {
    try TorchRuntime.setThreadCount(torchThreads)
    let inputs = paths.map(ClassificationInput.file)
    let started = Date()
    var count = 0
    try classifier.classify(inputs, options: BatchOptions(batchSize: batch, workers: workers)) { _ in count += 1 }
    return Double(count) / Date().timeIntervalSince(started)
}

print("\(paths.count) files, \(cores) cores, OMP_WAIT_POLICY=\(ProcessInfo.processInfo.environment["OMP_WAIT_POLICY"] ?? "(unset)")")
_ = try measure(workers: cores, torchThreads: cores, batch: 64)  // warm the page cache and libtorch
var rates = Array(repeating: [Double](), count: splits.count)
for round in 1...rounds {
    for (i, split) in splits.enumerated() {
        rates[i].append(try measure(workers: split.workers, torchThreads: split.torchThreads, batch: split.batch))
    }
    print("round \(round) done")
}
print("| workers | libtorch threads | batch | files/s (median of \(rounds)) | all rounds |")
print("|---|---|---|---|---|")
for (split, values) in zip(splits, rates) {
    let median = values.sorted()[values.count / 2]
    print("| \(split.workers) | \(split.torchThreads) | \(split.batch) | \(Int(median.rounded())) | \(values.map { String(Int($0.rounded())) }.joined(separator: ", ")) |")
}
