import DigitKit
import Foundation
import Testing
import TestSupport

@Suite("Concurrency")
struct ConcurrencyTests {
    final class Results: @unchecked Sendable {
        let lock = NSLock()
        var byThread: [Int: [[Float]]] = [:]
        func store(_ thread: Int, _ value: [[Float]]) { lock.lock(); byThread[thread] = value; lock.unlock() }
    }

    @Test("8 threads classifying at once with one loaded model get the same results")
    func eightThreadsOneModel() throws {
        let classifier = try DigitClassifier(modelPath: Fixtures.shippedModel)
        let files = MNISTSample.all.prefix(12).map(\.path) + RealWorldFixture.all.prefix(12).map(\.path)
        let images = try files.map { try PNGDecoder().decode(fileAtPath: $0) }
        let sequential = try images.map { try classifier.classify(image: $0)?.logProbabilities ?? [] }
        let results = Results()
        let failures = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            do {
                // Each thread decodes and preprocesses for itself, in a different order.
                let order = thread % 2 == 0 ? Array(files.indices) : Array(files.indices.reversed())
                var mine = Array(repeating: [Float](), count: files.count)
                for index in order {
                    let image = try PNGDecoder().decode(fileAtPath: files[index])
                    mine[index] = try classifier.classify(image: image)?.logProbabilities ?? []
                }
                results.store(thread, mine)
            } catch {
                failures.store(thread, [])
            }
        }
        #expect(failures.byThread.isEmpty)
        #expect(results.byThread.count == 8)
        // The same digits and the same log-probabilities up to float rounding:
        // libtorch's sums may differ in their last bits with the OpenMP threads
        // a call gets (seen under ThreadSanitizer: -29.659166 against
        // -29.659168), while a race between threads would change far more.
        for (thread, value) in results.byThread {
            #expect(value.count == sequential.count, "thread \(thread)")
            for (mine, reference) in zip(value, sequential) {
                #expect(mine.count == reference.count && zip(mine, reference).allSatisfy { abs($0 - $1) <= 1e-4 * max(1, abs($1)) },
                        "thread \(thread): \(mine) against \(reference)")
            }
        }
    }
}
