/// Steps 1 to 8 for a number: the ink `NumberReader` cuts into characters.
///
/// One digit's pipeline keeps only the rules' strong ink; a number keeps the
/// weak ink too, because it tells where touching digits may be cut
/// (`NumberInk`). With a locator, `SubjectInkStage` decides as for one
/// digit, on the same strong ink; where it keeps the rules' ink, a number's
/// is narrowed by `kept(_:located:)`, so that ruled and squared lines, a
/// desk and a shadow's edge are left out. Where the locator sees nothing,
/// there is no number, as there is no digit for `classify`: a blank ruled
/// page is not read as lines.
struct NumberSubjectInk {
    /// The picture at analysis size, in which the ink was found.
    let gray: Raster
    /// The ink to cut; nil when none stands out of the noise.
    let map: InkMap?
    /// Which part decided (`.rules` without a locator, or when the rules found no ink).
    let decision: InkDecision
    /// Whether ink of a digit's size on the number's line, beside it, was
    /// left out because the locator did not mark it (`kept(_:located:)`).
    var leftOut = false

    /// The number ink of `image` under `preprocessor`, each step's decision
    /// recorded in `analysis` (step 7 with a locator, step 8 only when the
    /// rules found ink, around all the located ink if not in the whole
    /// picture, or other ink than the located); throws what the ink locator throws.
    init(_ image: GrayImage, preprocessor: Preprocessor, into analysis: inout PipelineAnalysis) throws(DigitError) {
        let (found, located) = try preprocessor.inkAndLocated(for: image, into: &analysis, oneDigit: false)
        gray = found.gray
        guard let rules = found.map else {
            (map, decision) = (nil, .rules)
            return
        }
        let stage = SubjectInkStage()
        guard var located else {
            (map, decision) = (rules, stage.run(.init(rules: rules, located: nil), into: &analysis).decision)
            return
        }
        let strong = InkExtractor.strong(rules)
        var subject = found.choice ?? SubjectInkStage.choose(rules: strong, located: located)
        var narrowed = Self.map(for: subject, rules: rules, located: located)
        if narrowed.leftOut, let locator = preprocessor.locator, located.closerLookIsFiner {
            // A digit at the end of a wide number, which the locator did not
            // mark at `LocatedInk.side`: its closer look, with the first,
            // off a found sheet left out as step 7 leaves it out.
            let closer = try LocatedInk.locate(found.gray, with: locator, side: LocatedInk.closerSide)
            let both = located.union(closer)
            located = both.onSheet(found.sheet) ?? both
            analysis.record(.inkLocator, "ink of a digit's size beside the number, not marked: looked again at "
                + "\(LocatedInk.closerSide) px, \(InkLocatorStage.describe(closer))")
            subject = SubjectInkStage.choose(rules: strong, located: located)
            narrowed = Self.map(for: subject, rules: rules, located: located)
        }
        stage.record(subject, into: &analysis)
        decision = subject.decision
        (map, leftOut) = (narrowed.map, narrowed.leftOut)
        if decision == .rulesWhereLocated || decision == .rulesBeyondLocated {
            analysis.amend(.subjectInk, appending: "; for a number, narrowed to each blob of located ink, small marks (a point, a minus) kept")
        }
    }

    /// As `init(_:preprocessor:into:)`, the decisions not kept.
    init(_ image: GrayImage, preprocessor: Preprocessor) throws(DigitError) {
        var analysis = PipelineAnalysis()
        try self.init(image, preprocessor: preprocessor, into: &analysis)
    }

    /// The number's ink for what step 8 decided: the rules' ink narrowed by
    /// `kept(_:located:)` where the locator agrees with it, the located ink
    /// where it saw other ink, none where it saw none (unless the rules'
    /// strokes are finer than its pixels: then theirs).
    static func map(for subject: SubjectInkStage.Output, rules: InkMap, located: LocatedInk) -> (map: InkMap?, leftOut: Bool) {
        switch subject.decision {
        case .rulesWhereLocated, .rulesBeyondLocated: kept(rules, located: located)
        case .located, .locatedBolder: (subject.map, false)
        case .nothingLocated: (nil, false)
        case .rules, .rulesOnCleanDrawing, .rulesFinerThanLocator: (rules, false)
        }
    }

    /// `rules` where the locator agrees, for a number (docs/decisions.md,
    /// "A number's ink where the locator agrees"). One digit's rule
    /// (`LocatedInk.kept`) keeps a component whole unless it reaches far
    /// beyond the located box; a number's box spans nearly the picture, so
    /// a ruled line through it would stay whole. Here the reach is measured
    /// against each blob of located ink (mostly one a digit): a component
    /// within `LocatedInk.reach` times the box of a blob it touches stays
    /// whole (a stroke's end the coarser locator missed), a larger one keeps
    /// only its pixels near located ink (a line through the digits keeps
    /// what crosses them). `leftOut`: some component apart from the located
    /// ink has strong ink and may be a digit of the number left out
    /// (`isBeside`).
    static func kept(_ rules: InkMap, located: LocatedInk) -> (map: InkMap, leftOut: Bool) {
        let near = located.nearInk, radius = located.widening
        let locatedMap = located.inkMap
        let (blobLabels, blobs) = ConnectedComponents.label(locatedMap)
        var blobAt = [Int32](repeating: 0, count: near.count)
        for (k, index) in locatedMap.indices.enumerated() { blobAt[index] = blobLabels[k] }
        let (labels, components) = ConnectedComponents.label(rules)
        var touches = [Bool](repeating: false, count: components.count)
        var whole = [Bool](repeating: false, count: components.count)
        for k in 0..<rules.count where near[rules.indices[k]] {
            let component = Int(labels[k]) - 1
            touches[component] = true
            let blob = blobAt[rules.indices[k]]
            guard blob > 0, !whole[component] else { continue }
            let box = blobs[Int(blob) - 1].box, size = components[component].box
            whole[component] = Double(size.width) <= LocatedInk.reach * Double(box.width + 2 * radius)
                && Double(size.height) <= LocatedInk.reach * Double(box.height + 2 * radius)
        }
        let byLocator = { (k: Int) -> Bool in
            let component = Int(labels[k]) - 1
            return touches[component] && (whole[component] || near[rules.indices[k]])
        }
        // Punctuation the locator, trained on digits, may not mark: a
        // component apart from the located ink stays when it is small and
        // lies within the number's box, or up to a box's height before it (a
        // minus). A dash there stays whole where the locator marked a part
        // of it: one that knows pencils marks a minus's middle only.
        let number = rules.filtered(byLocator)
        guard let box = number.boundingBox else { return (number, false) }
        let mark = components.indices.map { index in
            let c = components[index].box
            return c.minX >= box.minX - box.height && c.maxX <= box.maxX && c.minY >= box.minY && c.maxY <= box.maxY
                && c.height * 2 <= box.height && c.width <= box.height
                && (!touches[index] || Punctuation.isDash(c, lineHeight: box.height))
        }
        var strong = [Bool](repeating: false, count: components.count)
        for (label, value) in zip(labels, rules.values) where value >= InkExtractor.weakShare { strong[Int(label) - 1] = true }
        let leftOut = components.indices.contains { !touches[$0] && strong[$0] && isBeside(components[$0].box, number: box) }
        // A component the locator marked in part stays whole when it is a
        // digit's size within the number's columns: of a fine 1 whose foot
        // alone was marked, the foot was left, and read as a decimal point.
        let partDigit = components.indices.map { touches[$0] && strong[$0] && isWithin(components[$0].box, number: box) }
        let map = rules.filtered { k in
            let component = Int(labels[k]) - 1
            return byLocator(k) || mark[component] || partDigit[component]
        }
        return (map, leftOut)
    }

    /// Whether `c` could be a digit on the line of the number in `box`:
    /// half to one and a quarter times its height, no wider than that
    /// height, at least half of it within its rows.
    static func isDigitSized(_ c: BoundingBox, number box: BoundingBox) -> Bool {
        let rows = min(c.maxY, box.maxY) - max(c.minY, box.minY) + 1
        return c.height * 2 >= box.height && c.height * 4 <= box.height * 5 && c.width <= box.height && rows * 2 >= c.height
    }

    /// Whether `c` is digit-sized and lies between the first and last
    /// columns of the number in `box`.
    static func isWithin(_ c: BoundingBox, number box: BoundingBox) -> Bool {
        isDigitSized(c, number: box) && c.minX > box.minX && c.maxX < box.maxX
    }

    /// Whether `c` may be a digit of the number in `box` that was left
    /// out: digit-sized, and outside it by at most half its height (a
    /// digit's spacing) to the left or the right.
    static func isBeside(_ c: BoundingBox, number box: BoundingBox) -> Bool {
        let gap = c.minX > box.maxX ? c.minX - box.maxX : box.minX - c.maxX
        return isDigitSized(c, number: box) && gap > 0 && gap * 2 <= box.height
    }
}
