import DigitKit
import Foundation
import Testing
import TestSupport

/// NumberReader on the committed number pictures (Tests/Tools/make_number_fixtures.py):
/// exact readings per kind, and few confident mistakes.
@Suite("Reading whole numbers: accuracy floors")
struct NumberReadingAccuracyTests {
    /// Exact readings per kind must not fall below these counts out of 10:
    /// what each reader achieves on this set when written, less one for the
    /// last bits libtorch's float sums may differ by between thread counts.
    /// With the line model (0.7.0): spaced 10, close 9, touching 10,
    /// overlapping 10, decimal 9, negative 10, printed 10. Cutting only
    /// (0.6.0): spaced 10, close 9, touching 3, overlapping 3, decimal 10,
    /// negative 10, printed 10.
    @Test("exact readings per kind stay at their measured floors", arguments: [
        ("spaced", 9, 9), ("close", 8, 8), ("touching", 9, 2), ("overlapping", 9, 2),
        ("decimal", 8, 9), ("negative", 9, 9), ("printed", 9, 9),
    ])
    func floors(kind: String, floor: Int, cuttingFloor: Int) throws {
        let pictures = NumberFixtures.numbers.filter { $0.kind == kind }
        #expect(pictures.count == 10)
        for (reader, floor) in [(try NumberFixtures.reader(), floor), (try NumberFixtures.cuttingReader(), cuttingFloor)] {
            var right = 0
            for picture in pictures where try reader.read(fileAtPath: Fixtures.path("numbers/\(picture.file)")).text == picture.text {
                right += 1
            }
            #expect(right >= floor, "\(kind), line model \(reader.lineModel != nil): \(right) of \(pictures.count)")
        }
    }

    @Test("wrong readings are marked doubtful: at most 2 of the 70 are confidently wrong")
    func confidentlyWrong() throws {
        let reader = try NumberFixtures.reader()
        var confidentlyWrong: [String] = []
        for picture in NumberFixtures.numbers {
            let reading = try reader.read(fileAtPath: Fixtures.path("numbers/\(picture.file)"))
            let doubtful = reading.confidence < 0.8 || reading.ambiguous || reading.mayHoldTouchingDigits
            if reading.text != picture.text && !doubtful { confidentlyWrong.append("\(picture.file): \(reading.text ?? "nil")") }
        }
        #expect(confidentlyWrong.count <= 2, "\(confidentlyWrong)")
    }
}
