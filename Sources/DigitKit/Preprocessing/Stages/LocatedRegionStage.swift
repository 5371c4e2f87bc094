/// Step 2 again, after step 7: the region around the located ink, on which
/// steps 3 to 6 run again, where the rules found no ink in the whole
/// picture (step 6) but the locator sees some, or other ink than it sees
/// (`Reason`). A note on a checked cloth is the first case: the cloth's
/// contrast sets the noise threshold, and the pen's ink on the note does
/// not rise above it; `PaperRegion` finds no sheet where the cloth's bright
/// checks join the note's border. A yellow note on a blue desk is the
/// second: the whole picture's polarity takes the note for light ink.
struct LocatedRegionStage: PreprocessingStage {
    /// The located box grows by this share of its longer side on each
    /// side: enough paper around the ink for the background cells, little
    /// of the desk beyond a note.
    static let margin = 0.5

    var step: PipelineStep { .paper }

    /// Why steps 3 to 6 run again.
    enum Reason {
        /// No ink stood out of the whole picture.
        case noRulesInk
        /// The rules' ink is other ink than the located (`InkDecision.located`);
        /// `oneDigit` for `classify`, which reads one digit, not for `read`,
        /// whose number may be located in pieces farther apart than a digit's cluster.
        case rulesInkElsewhere(oneDigit: Bool)
    }

    /// Why the steps run again here.
    var reason = Reason.noRulesInk

    /// The region, or nil (nothing recorded) when the locator sees no ink
    /// or, around one digit, no digit is in what it sees.
    func run(_ located: LocatedInk, into analysis: inout PipelineAnalysis) -> PaperRegion? {
        guard located.seesInk, let box = box(of: located) else { return nil }
        let width = located.probabilities.width, height = located.probabilities.height
        let grow = Int((Double(max(box.width, box.height)) * Self.margin).rounded(.up))
        let region = BoundingBox(minX: max(0, box.minX - grow), minY: max(0, box.minY - grow),
                                 maxX: min(width - 1, box.maxX + grow), maxY: min(height - 1, box.maxY + grow))
        var mask = [Bool](repeating: false, count: width * height)
        for y in region.minY...region.maxY {
            for x in region.minX...region.maxX { mask[y * width + x] = true }
        }
        let why = switch reason {
        case .noRulesInk: "no ink stood out of the whole picture, the locator saw some"
        case .rulesInkElsewhere: "the rules' ink in the whole picture is not the ink the locator sees"
        }
        analysis.record(step, why + ": only \(AnalysisFormat.box(region)) around it is analysed")
        return PaperRegion(width: width, height: height, mask: mask, borderBrightShare: 0)
    }

    /// Whether `kept`, the ink measured again in `region` that step 8
    /// keeps where located, lies clear of the region's edges inside the
    /// picture, each of the components of `rules` (the strong ink measured
    /// again) it keeps any of taken whole: a digit has paper all round it
    /// there, where a pen or a pencil the locator marked in part runs on
    /// beyond the region, though step 8 keeps only its part near the located ink.
    static func isClear(_ kept: InkMap, of rules: InkMap, in region: BoundingBox) -> Bool {
        let (labels, components) = ConnectedComponents.label(rules)
        var touched = [Bool](repeating: false, count: components.count)
        var next = 0
        for index in kept.indices {
            // Both index lists increase, and the kept pixels are rules' pixels.
            while next < rules.count && rules.indices[next] < index { next += 1 }
            if next < rules.count && rules.indices[next] == index { touched[Int(labels[next]) - 1] = true }
        }
        var box: BoundingBox?
        for (component, isTouched) in zip(components, touched) where isTouched {
            if box == nil { box = component.box } else { box!.include(component.box) }
        }
        guard let box else { return false }
        return (box.minX > region.minX || region.minX == 0) && (box.minY > region.minY || region.minY == 0)
            && (box.maxX < region.maxX || region.maxX == rules.width - 1)
            && (box.maxY < region.maxY || region.maxY == rules.height - 1)
    }

    /// The box the region grows from: all the located ink where the rules
    /// found none, or other ink and a number is read; where they found other
    /// ink and one digit is read, the digit step 9 would take from the
    /// located ink, so that other things it marks (a pen, an eraser) do not
    /// widen the region to the desk.
    func box(of located: LocatedInk) -> BoundingBox? {
        switch reason {
        case .noRulesInk, .rulesInkElsewhere(oneDigit: false): located.locatedBox
        case .rulesInkElsewhere(oneDigit: true): ConnectedComponents.digit(in: located.inkMap, located: true)?.box
        }
    }
}
