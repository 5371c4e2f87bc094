/// What each step of the MNIST pipeline decided for one picture and why, in
/// the order the steps ran (`digits ascii --steps` prints it).
public struct PipelineAnalysis: Sendable, Equatable {
    /// One step's decision.
    public struct Decision: Sendable, Equatable {
        /// The step that decided.
        public let step: PipelineStep
        /// What it decided and why, in words.
        public let text: String
        /// Whether the step ran again on a region the ink locator pointed
        /// at (steps 2 to 6 after step 7, `LocatedRegionStage`).
        public var again = false

        /// The decision as one line: "4. polarity: inverted (...)"; indented
        /// under the step that sent it back when it ran again, so that the
        /// numbers read in order.
        public var line: String { "\(again ? "   " : "")\(step.rawValue). \(step.name): \(text)" }
    }

    /// The decisions, in the order the steps ran.
    public private(set) var decisions: [Decision] = []

    /// Whether the steps recorded now run again (`Decision.again`).
    var runningAgain = false

    /// An analysis with no decision yet.
    public init() {}

    /// Every decision as one line each.
    public var lines: [String] { decisions.map(\.line) }

    /// The decision of `step`, if it ran.
    public func decision(of step: PipelineStep) -> Decision? {
        decisions.first { $0.step == step }
    }

    /// Records what `step` decided.
    mutating func record(_ step: PipelineStep, _ text: String) {
        decisions.append(Decision(step: step, text: text, again: runningAgain))
    }

    /// Adds `text` to what `step` decided last, for a caller that carries
    /// a stage's decision further (a number's ink after one digit's).
    mutating func amend(_ step: PipelineStep, appending text: String) {
        guard let last = decisions.lastIndex(where: { $0.step == step }) else { return }
        decisions[last] = Decision(step: step, text: decisions[last].text + text, again: decisions[last].again)
    }
}

/// Numbers as the analysis lines show them, without Foundation.
enum AnalysisFormat {
    /// `share` (0-1) as a whole percentage: "83%".
    static func percent(_ share: Double) -> String {
        share.isFinite ? "\(Int((share * 100).rounded()))%" : "-"
    }

    /// `value` with one decimal: "1.2".
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// `value` with two decimals: "0.97".
    static func hundredths(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        let hundredths = Int((value * 100).rounded())
        let fraction = abs(hundredths) % 100
        return "\(hundredths < 0 ? "-" : "")\(abs(hundredths) / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// A box's place and size: "x 12, y 40, 120x160".
    static func box(_ box: BoundingBox) -> String {
        "x \(box.minX), y \(box.minY), \(box.width)x\(box.height)"
    }
}
