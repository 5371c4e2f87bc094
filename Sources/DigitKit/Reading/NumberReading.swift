/// Why a reading is doubtful whatever its confidence.
public enum ReadingWarning: String, Sendable, Equatable, CaseIterable {
    /// Ink read as a digit is more likely not a digit (the model's
    /// rejection class): a letter, a slash, a plus or percent sign.
    case notADigit = "not a digit"
    /// Ink beside the digits, on their line, that was read as no
    /// character: a stroke too faint or too short for a digit, which a
    /// person may read as one (`NumberLayout.unread`), or ink of a digit's
    /// size that the locator did not mark (`NumberSubjectInk.leftOut`).
    case unreadInk = "ink left unread"
}

/// What `NumberReader` read in one picture: the characters left to right,
/// each with its box, and the probability of the whole reading.
public struct NumberReading: Sendable, Equatable {
    /// One character of a reading.
    public struct Character: Sendable, Equatable {
        /// What the character is.
        public enum Kind: Sendable, Equatable {
            /// A digit 0-9, as the model read it.
            case digit(Int)
            /// A decimal point, told by its size and its place on the baseline.
            case decimalPoint
            /// A leading minus sign, told by its shape and its place at mid-height.
            case minus
        }

        /// What the character is.
        public let kind: Kind
        /// The model's probability for a digit; 1 for a decimal point or a
        /// minus sign, which are told by shape, not by the model.
        public let confidence: Double
        /// The character's box in the picture as decoded (after its EXIF
        /// orientation, when that is applied).
        public let box: PixelRectangle

        /// The character as text: "0"-"9", "." or "-".
        public var text: String {
            switch kind {
            case .digit(let digit): return String(digit)
            case .decimalPoint: return "."
            case .minus: return "-"
            }
        }
    }

    /// The characters, left to right; empty when the picture holds no digit.
    public let characters: [Character]
    /// The probability of the whole reading: the product of its digits'
    /// probabilities. 0 when nothing was read.
    public let confidence: Double
    /// Whether another way of cutting the ink into digits came close to the
    /// chosen one (its probability at least a third of this reading's): the
    /// reading is then doubtful whatever its confidence.
    public let ambiguous: Bool
    /// Whether some ink may hold touching digits that were cut apart
    /// without a line model: it was too wide for one digit and was cut into
    /// several, or was read as one digit much wider than that digit usually
    /// is (more than 2.5 deviations above MNIST's median shape). Cut
    /// touching digits are often misread (docs/read.md), so such a
    /// reading is doubtful too. Ink the line model read is judged by its
    /// probability instead, and never sets this.
    public let mayHoldTouchingDigits: Bool
    /// What makes the reading doubtful whatever its confidence, beside the
    /// two above: ink read as a digit that the model finds is more likely
    /// no digit at all (a letter, a slash, a plus sign), or ink beside the
    /// digits left unread.
    public let warnings: [ReadingWarning]

    /// The characters as text ("2026", "3.14", "-12"); nil when the picture
    /// holds no digit.
    public var text: String? {
        characters.contains { if case .digit = $0.kind { true } else { false } }
            ? characters.map(\.text).joined() : nil
    }

    /// A reading of `characters` with probability `confidence`; nothing is checked.
    public init(characters: [Character], confidence: Double, ambiguous: Bool, mayHoldTouchingDigits: Bool,
                warnings: [ReadingWarning] = []) {
        self.characters = characters
        self.confidence = confidence
        self.ambiguous = ambiguous
        self.mayHoldTouchingDigits = mayHoldTouchingDigits
        self.warnings = warnings
    }

    /// The reading of a picture that holds no digit: no characters.
    static let noDigit = NumberReading(characters: [], confidence: 0, ambiguous: false, mayHoldTouchingDigits: false)
}
