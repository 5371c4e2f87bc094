import DigitKit

/// The committed number pictures (Tests/Tools/make_number_fixtures.py: MNIST
/// test digits laid out as whole numbers, 10 pictures of each kind) and the
/// readers the tests read them with.
package enum NumberFixtures {
    package static let model = Result { try DigitModel(path: Fixtures.shippedModel) }

    /// (file, kind, condition, text) of every committed picture.
    package static let numbers: [(file: String, kind: String, condition: String, text: String)] = {
        (try? Fixtures.tsv("numbers/numbers.tsv").dropFirst().map { ($0[0], $0[1], $0[2], $0[3]) }) ?? []
    }()

    package static let lineModel = Result { try LineModel(path: Fixtures.shippedLineModel) }

    package static let locator = Result { try InkLocator(path: Fixtures.shippedLocator) }

    /// The reader `digits read` uses: the digit model, the line model for
    /// glyphs too wide for one digit, and the ink locator.
    package static func reader() throws -> NumberReader {
        NumberReader(model: try model.get(), lineModel: try lineModel.get(), preprocessor: Preprocessor(locator: try locator.get()))
    }

    /// The reader without the line model: wide glyphs cut into pieces for
    /// the digit model (GlyphSegmentation).
    package static func cuttingReader() throws -> NumberReader { NumberReader(model: try model.get()) }
}
