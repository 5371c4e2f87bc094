import DigitKit
import Testing
import TestSupport

/// The fast path of `CleanDrawing` against its plain twin on whole sets:
/// leaving clean drawings to the rules gives the answers asking the ink
/// locator gives. Here with the other whole-set checks, which the sanitizer
/// passes leave out (5 to 20 times slower there, scripts/test-sanitizers).
@Suite("Clean drawings: the answers asking the locator gives")
struct CleanDrawingAgreementTests {
    /// The answer as `classify` prints it, the confidence left out.
    static func answer(_ classification: Classification) -> String {
        switch classification.outcome {
        case .digit(let prediction): "\(prediction.digit)\(classification.isUncertain ? ", uncertain" : "")"
        case .noDigit: "no digit found"
        case .notADigit: "not a digit"
        }
    }

    @Test("on the real-world pictures, leaving clean drawings to the rules gives the answers asking the locator gives")
    func sameAnswersAsAsking() throws {
        let model = try NumberFixtures.model.get(), locator = try NumberFixtures.locator.get()
        var asking = Preprocessor(locator: locator)
        asking.leavesCleanDrawingsToRules = false
        let fast = DigitClassifier(model: model, preprocessor: Preprocessor(locator: locator))
        let plain = DigitClassifier(model: model, preprocessor: asking)
        let fixtures = RealWorldFixture.all
        #expect(fixtures.count >= 250)
        var left = 0
        for fixture in fixtures {
            let image = try ImageDecoder().decode(fileAtPath: fixture.path)
            if try Preprocessor(locator: locator).stages(for: image).inkDecision == .rulesOnCleanDrawing { left += 1 }
            let (a, b) = (Self.answer(try fast.classification(of: image)), Self.answer(try plain.classification(of: image)))
            #expect(a == b, "\(fixture.file): \(a) left to the rules, \(b) asking the locator")
        }
        print("clean drawings left to the rules: \(left) of \(fixtures.count) real-world pictures")
        // Most of these pictures are drawing-app exports and scans: the fast path must be taken.
        #expect(left * 2 >= fixtures.count, "\(left) of \(fixtures.count)")
    }
}
