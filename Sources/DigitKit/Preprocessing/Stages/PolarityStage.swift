/// Step 4: whether the ink is darker than the background, so that the
/// picture is inverted to make it bright on dark as MNIST's. Automatically,
/// three rules each say "dark ink", and any one of them decides it:
/// - the dark-ink vote: more stand-out weight below the background than
///   above it (`PolarityDetector.inkIsDark`);
/// - a bright border: no sheet on a desk, and the frame's border mostly the
///   bright class, as in a tight crop (`PaperRegion.paperBorder`);
/// - light paper: the typical background level is light
///   (`PolarityDetector.isLight`).
struct PolarityStage: PreprocessingStage {
    struct Input {
        let first: BackgroundStage.Output
        let paper: PaperRegion
    }

    /// The three rules' verdicts, each recorded.
    struct Rules: Equatable {
        /// The dark side's share of the stand-out weight (the vote is dark above a half).
        let darkShare: Double
        let darkVote: Bool
        let brightBorder: Bool
        let lightPaper: Bool

        var inkIsDark: Bool { darkVote || brightBorder || lightPaper }
    }

    let inversion: Preprocessor.Inversion

    var step: PipelineStep { .polarity }

    /// The three rules on `input`.
    static func rules(_ input: Input) -> Rules {
        let dark = input.first.standOut.dark.weight, light = input.first.standOut.light.weight
        return Rules(darkShare: dark + light > 0 ? dark / (dark + light) : 0.5,
                     darkVote: PolarityDetector.inkIsDark(input.first.standOut),
                     brightBorder: input.paper.mask == nil && input.paper.borderBrightShare >= PaperRegion.paperBorder,
                     lightPaper: PolarityDetector.isLight(background: input.first.medians))
    }

    /// True when the ink is dark (the picture is then inverted).
    func run(_ input: Input, into analysis: inout PipelineAnalysis) -> Bool {
        switch inversion {
        case .always:
            analysis.record(step, "inverted (--invert always)")
            return true
        case .never:
            analysis.record(step, "kept as it is (--invert never)")
            return false
        case .auto:
            let rules = Self.rules(input)
            func yes(_ rule: Bool) -> String { rule ? "yes" : "no" }
            let why = "dark-ink vote \(AnalysisFormat.percent(rules.darkShare)): \(yes(rules.darkVote)); "
                + "bright border: \(yes(rules.brightBorder)); light paper: \(yes(rules.lightPaper))"
            analysis.record(step, rules.inkIsDark ? "inverted (ink darker than background: \(why))"
                                                  : "kept as it is (ink lighter than background: \(why))")
            return rules.inkIsDark
        }
    }
}
