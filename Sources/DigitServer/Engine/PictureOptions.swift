import DigitKit

/// The options of one classify request (query parameters `top`, `raw`,
/// `invert`, `uncertain_below`, `preprocessed`), checked.
struct ClassifyOptions: Sendable {
    var top: Int?
    var raw = false
    var inversion: Preprocessor.Inversion = .auto
    var uncertainty = UncertaintyRule()
    var includePreprocessed = false
}

/// The options of one read request (`length`, `uncertain_below`).
struct ReadOptions: Sendable {
    var length: Int?
    var uncertainBelow = UncertaintyRule.defaultThreshold
}
