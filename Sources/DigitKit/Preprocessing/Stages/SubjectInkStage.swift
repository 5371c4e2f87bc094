/// Step 8: which ink is the subject's. The rules' ink loses its weak pixels
/// first (`InkExtractor.strong`). Without a locator, or on a clean drawing
/// (`CleanDrawing`), it is the rules' ink;
/// none when the locator sees no ink; the located ink where its strokes
/// are bolder than the rules' kept ink (`LocatedInk.strokesBolder`); the
/// rules' ink where the locator agrees, when that overlaps the located ink
/// enough (`LocatedInk.agreement`) or covers it with fine strokes
/// (`LocatedInk.fineCoverage`); else the located ink.
struct SubjectInkStage: PreprocessingStage {
    struct Input {
        /// The rules' ink map (step 6), weak pixels included.
        let rules: InkMap?
        /// The locator's map (step 7), if a locator is set and was asked.
        let located: LocatedInk?
        /// The clean drawing's ink, where step 7 left it to the rules (`CleanDrawing`).
        var cleanDrawing: CleanDrawing.Ink?
        /// The choice `choose(rules:located:)` made of these inks already, if any.
        var choice: Output?
    }

    struct Output {
        let map: InkMap?
        let decision: InkDecision
    }

    var step: PipelineStep { .subjectInk }

    func run(_ input: Input, into analysis: inout PipelineAnalysis) -> Output {
        // The strong ink only where no choice or clean drawing came with the input: step 7 made them from it already.
        let output = input.cleanDrawing.map { Output(map: $0.strong, decision: .rulesOnCleanDrawing) }
            ?? input.choice ?? Self.choose(rules: input.rules.map(InkExtractor.strong), located: input.located)
        record(output, into: &analysis)
        return output
    }

    /// Records `output`'s decision, for a caller that chose with `choose`.
    func record(_ output: Output, into analysis: inout PipelineAnalysis) {
        let decision = output.decision == .rules ? "rules (no locator)" : output.decision.rawValue
        analysis.record(step, decision + (output.map == nil ? ", no ink" : ""))
    }

    /// The subject's ink among the rules' strong ink and the located ink.
    static func choose(rules: InkMap?, located: LocatedInk?) -> Output {
        guard let located else { return Output(map: rules, decision: .rules) }
        guard located.seesInk else {
            // A stroke thinner than one of the locator's pixels is a faint
            // trace in its picture: its "nothing" says nothing of such ink.
            if let rules, StrokeWidth.of(rules.indices, width: rules.width, height: rules.height) < located.pixelSize {
                return Output(map: rules, decision: .rulesFinerThanLocator)
            }
            return Output(map: nil, decision: .nothingLocated)
        }
        if let rules {
            let kept = located.kept(rules)
            if located.strokesBolder(than: kept) { return Output(map: located.inkMap, decision: .locatedBolder) }
            if located.overlap(with: kept) >= LocatedInk.agreement { return Output(map: kept, decision: .rulesWhereLocated) }
            if located.coverage(by: kept) >= LocatedInk.fineCoverage,
               StrokeWidth.of(kept.indices, width: kept.width, height: kept.height) <= LocatedInk.fineStrokeWidth * located.pixelSize {
                return Output(map: kept, decision: .rulesBeyondLocated)
            }
        }
        return Output(map: located.inkMap, decision: .located)
    }
}
