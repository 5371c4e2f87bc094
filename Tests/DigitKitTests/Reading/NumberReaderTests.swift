import DigitKit
import Foundation
import Testing
import TestSupport

/// NumberReader on the committed number pictures (Tests/Tools/make_number_fixtures.py:
/// MNIST test digits laid out as whole numbers, 10 pictures of each kind).
@Suite("Reading whole numbers")
struct NumberReaderTests {
    @Test("a batch reading gives each input's own reading, in input order, a bad input only its own error",
          arguments: [(workers: 1, batchSize: 1), (1, 8), (2, 8)])
    func batchReading(workers: Int, batchSize: Int) throws {
        let reader = try NumberFixtures.reader()
        let files = NumberFixtures.numbers.prefix(12).map { Fixtures.path("numbers/\($0.file)") }
        let inputs = files.prefix(6).map(ClassificationInput.file) + [.file("/no/such/number.png")] + files.dropFirst(6).map(ClassificationInput.file)
        var results: [NumberReadingResult] = []
        // A long flush delay: the batches are full ones, whatever the machine's speed.
        let options = BatchOptions(batchSize: batchSize, workers: workers, flushDelay: 60)
        let statistics = try reader.read(inputs, options: options, keepingImages: true) { results.append($0) }
        #expect(statistics.inputs == inputs.count)
        // One worker leaves the digit model's passes to this thread, one per
        // batch: the pieces of several pictures share it. Several workers
        // make their own.
        let read = results.filter { $0.reading?.text != nil }.count
        if workers > 1 {
            #expect(statistics.forwardPasses == 0)
        } else {
            #expect(statistics.forwardPasses >= 1)
            #expect(batchSize == 1 ? statistics.forwardPasses <= read : statistics.forwardPasses < read, "\(statistics.forwardPasses) passes")
        }
        try #require(results.count == inputs.count)
        #expect(results.map(\.position) == Array(inputs.indices))
        #expect(results.map(\.origin) == inputs.map(\.origin))
        #expect(results[6].error?.description.hasPrefix("/no/such/number.png: ") == true)
        #expect(results[6].image == nil)
        for (result, input) in zip(results, inputs) where result.error == nil {
            guard case .file(let file) = input.source, let path = file.string else { continue }
            // The same characters; the probabilities within float noise (other
            // tests change libtorch's thread count while this one runs).
            let alone = try reader.read(fileAtPath: path), batched = try #require(result.reading)
            #expect(batched.characters.map(\.kind) == alone.characters.map(\.kind), "\(path)")
            #expect(batched.characters.map(\.box) == alone.characters.map(\.box), "\(path)")
            #expect(abs(batched.confidence - alone.confidence) < 1e-5, "\(path)")
            #expect(result.image?.width == (try reader.decoder.decode(fileAtPath: path)).width)
        }
        #expect(throws: DigitError.self) { try reader.read(inputs, length: 0) { _ in } }
    }

    @Test("boxes lie inside the picture, left to right, one per character")
    func boxes() throws {
        let reader = try NumberFixtures.reader()
        let decoder = ImageDecoder.forClassification
        for picture in NumberFixtures.numbers {
            let image = try decoder.decode(fileAtPath: Fixtures.path("numbers/\(picture.file)"))
            let reading = try reader.read(image)
            #expect(reading.characters.count == (reading.text?.count ?? 0))
            for character in reading.characters {
                let box = character.box
                #expect(box.x >= 0 && box.y >= 0 && box.width > 0 && box.height > 0)
                #expect(box.x + box.width <= image.width && box.y + box.height <= image.height, "\(picture.file)")
            }
            let lefts = reading.characters.map(\.box.x)
            #expect(lefts == lefts.sorted(), "\(picture.file): \(lefts)")
        }
    }

    @Test("with --length the reading has exactly that many digits")
    func length() throws {
        let reader = try NumberFixtures.reader()
        for picture in NumberFixtures.numbers where picture.kind == "touching" || picture.kind == "overlapping" {
            let digits = picture.text.filter(\.isNumber).count
            let reading = try reader.read(fileAtPath: Fixtures.path("numbers/\(picture.file)"), length: digits)
            let read = reading.characters.filter { if case .digit = $0.kind { true } else { false } }.count
            // Only a glyph count above the length cannot be met (glyphs are never joined).
            #expect(read == digits || reading.ambiguous, "\(picture.file): \(reading.text ?? "nil")")
        }
        #expect(throws: DigitError.self) { try reader.read(fileAtPath: Fixtures.path("numbers/spaced-000.png"), length: 0) }
    }

    @Test("single digits read as classify reads them; a blank sheet has no digits")
    func singleDigits() throws {
        let reader = try NumberFixtures.reader()
        let classifier = DigitClassifier(model: reader.model, preprocessor: reader.preprocessor)
        let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path
        for name in ["seven.png", "two.png", "four-large.png", "three-on-paper.png", "five-transparent.png", "eight-photo-400.png"] {
            let path = "\(examples)/\(name)"
            let prediction = try #require(try classifier.classification(ofFileAtPath: path).prediction)
            let reading = try reader.read(fileAtPath: path)
            #expect(reading.text == String(prediction.digit), "\(name)")
            #expect(abs(reading.confidence - prediction.confidence) < 1e-3, "\(name)")
        }
        let blank = try reader.read(fileAtPath: "\(examples)/blank-paper.png")
        #expect(blank.text == nil && blank.characters.isEmpty && blank.confidence == 0)
    }

    @Test("hostile ink: noise, a solid block, a grid of hundreds of blobs; answers without crashing, boxes inside")
    func hostileInk() throws {
        let side = 400
        var noise = [UInt8](repeating: 0, count: side * side)
        var state: UInt32 = 12345
        for i in noise.indices { state = state &* 1_664_525 &+ 1_013_904_223; noise[i] = UInt8(state >> 24) }
        var block = [UInt8](repeating: 255, count: side * side)
        for y in 100..<300 { for x in 50..<350 { block[y * side + x] = 0 } }
        var grid = [UInt8](repeating: 255, count: side * side)
        for y in 0..<side where y % 8 < 4 { for x in 0..<side where x % 8 < 4 { grid[y * side + x] = 0 } }
        let readers = [try NumberFixtures.reader(), try NumberFixtures.cuttingReader()]
        for reader in readers {
            for pixels in [noise, block, grid] {
                let reading = try reader.read(try GrayImage(width: side, height: side, pixels: pixels))
                for character in reading.characters {
                    #expect(character.box.x >= 0 && character.box.x + character.box.width <= side)
                    #expect(character.box.y >= 0 && character.box.y + character.box.height <= side)
                }
                #expect(reading.confidence >= 0 && reading.confidence <= 1)
            }
        }
    }
}
