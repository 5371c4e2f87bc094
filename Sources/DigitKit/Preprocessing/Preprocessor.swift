/// Turns a decoded greyscale picture into the tensor the model reads.
///
/// The MNIST pipeline (the default) makes any picture look like MNIST, as
/// LeCun et al. made MNIST itself. Each step is a stage (a value with a
/// typed input and output, `Stages/`) that records what it decided and why
/// in the `PipelineAnalysis`, numbered as `PipelineStep` defines:
/// 1. analysis size: at most 512 pixels on the longer side (`AnalysisSizeStage`);
/// 2. paper: the sheet lying on a desk, if any, or where one digit is read
///    a meter's window in a light frame (`PaperStage`, `PaperRegion`);
///    after step 7, where the rules found no ink or other ink than the
///    located, the region around the located ink (`LocatedRegionStage`),
///    and steps 3 to 6 again;
/// 3. background and noise, polarity unknown (`BackgroundStage`);
/// 4. polarity: dark ink is inverted to bright; three rules, any one says
///    dark (`PolarityStage`), or `--invert`;
/// 5. stroke width and the background measured again, knowing the
///    polarity, on the paper alone in a tight crop (`StrokeWidthStage`);
/// 6. stand-out ink: the rules' ink map (`StandOutInkStage`);
/// 7. ink locator: the learned locator's map, when one is set, kept to the
///    sheet of step 2 where it sees ink there (`InkLocatorStage`); not
///    asked of a clean drawing, which the rules read alone (`CleanDrawing`);
/// 8. subject ink: the rules', the located, or none (`SubjectInkStage`);
/// 9. digit components: the digit's components, specks dropped, and their
///    box (`DigitComponentsStage`);
/// 10. normalization tail: 20-pixel box, thin strokes thickened, centre of
///    mass in 28x28, ToTensor + Normalize((0.1307,), (0.3081,))
///    (`NormalizationTail`, shared with `read`'s pieces).
/// A picture with no ink clearly above its noise has no digit: no tensor.
///
/// The raw path resizes the whole picture to 28x28 by area averaging and
/// normalizes it, nothing else; for a 28x28 input it equals torchvision's
/// ToTensor + Normalize exactly.
public struct Preprocessor: Sendable {
    /// Which path a picture takes to the tensor (`digits --raw` picks `raw`).
    public enum Mode: String, Sendable, CaseIterable {
        /// The MNIST pipeline.
        case mnist
        /// Whole-picture resize only.
        case raw
    }

    /// Whether the MNIST pipeline inverts the picture.
    public enum Inversion: String, Sendable, CaseIterable {
        /// When the ink is darker than the background.
        case auto
        /// Always: for pictures known to be dark ink on light paper.
        case always
        /// Never: for pictures already bright ink on dark, as MNIST's own.
        case never
    }

    /// Pictures are analysed at most this many pixels on their longer side.
    public static let analysisSide = 512

    /// The MNIST pipeline (the default) or the whole-picture resize.
    public var mode: Mode
    /// Whether the MNIST pipeline inverts the picture (`--invert`); ignored in
    /// raw mode.
    public var inversion: Inversion
    /// The learned ink locator the MNIST pipeline asks which ink is the
    /// subject's (step 7); nil: the rules alone decide.
    public var locator: InkLocator?
    /// Whether a clean drawing (`CleanDrawing`: one clear digit the rules
    /// found whole on plain paper) is left to the rules without asking the
    /// locator, which would only confirm them (true by default); false asks
    /// it of every picture.
    public var leavesCleanDrawingsToRules = true

    /// A preprocessor with this mode, inversion and ink locator (by default
    /// the MNIST pipeline deciding the inversion itself, rules alone);
    /// nothing is checked.
    public init(mode: Mode = .mnist, inversion: Inversion = .auto, locator: InkLocator? = nil) {
        self.mode = mode
        self.inversion = inversion
        self.locator = locator
    }

    /// The normalized 28x28 tensor of `image`, or nil when no digit is found
    /// (or the ink locator failed: `stages(for:)` throws that).
    public func tensor(for image: GrayImage) -> DigitTensor? {
        process(image).tensor
    }

    /// Every stage of the pipeline for `image`, for showing and checking; a
    /// failure of the ink locator is kept in `locatorFailure`, with no digit.
    public func process(_ image: GrayImage) -> PreprocessingStages {
        var analysis = PipelineAnalysis()
        do {
            return try stages(for: image, into: &analysis)
        } catch {
            var stages = PreprocessingStages(gray: Self.analysisRaster(image), inverted: nil, ink: nil, field: nil)
            stages.locatorFailure = error
            stages.analysis = analysis
            return stages
        }
    }

    /// Every stage of the pipeline for `image`; throws what the ink locator
    /// throws (a model that fails or returns no probabilities).
    public func stages(for image: GrayImage) throws(DigitError) -> PreprocessingStages {
        var analysis = PipelineAnalysis()
        return try stages(for: image, into: &analysis)
    }

    /// Steps 1 to 10, each recorded in `analysis` as it runs.
    func stages(for image: GrayImage, into analysis: inout PipelineAnalysis) throws(DigitError) -> PreprocessingStages {
        let side = DigitTensor.side
        if mode == .raw {
            let field = image.width == side && image.height == side
                ? Raster(image) : AreaResampler.resize(image, targetWidth: side, targetHeight: side)
            var stages = PreprocessingStages(gray: field, inverted: nil, ink: nil, field: field)
            stages.analysis = analysis
            return stages
        }
        let (found, located) = try inkAndLocated(for: image, into: &analysis, skippingCleanDrawings: leavesCleanDrawingsToRules)
        let subject = SubjectInkStage().run(.init(rules: found.map, located: located, cleanDrawing: found.cleanDrawing,
                                                  choice: found.choice),
                                            into: &analysis)
        var stages = PreprocessingStages(gray: found.gray, inverted: found.inverted, ink: nil, field: nil,
                                         surface: found.surface, paper: found.paper,
                                         inkDecision: subject.decision, located: located?.probabilities)
        guard let map = subject.map,
              let (digit, field) = Self.digitAndField(of: map, located: located != nil, cleanDrawing: found.cleanDrawing,
                                                      into: &analysis) else {
            stages.analysis = analysis
            return stages
        }
        // `parts` holds digits beside the one kept too: they make several
        // digits, though only the one around the component holding the most ink is read.
        stages.ink = digit.ink
        stages.field = field
        stages.warnings = InkLayout.warnings(parts: digit.parts) + (field.map(InkLayout.warnings(field:)) ?? [])
        if field != nil, let located, subject.decision.keepsRulesWithLocator {
            stages.secondLook = SecondLook(ink: located.inkMap, decision: subject.decision, read: digit.box)
        } else if field != nil, subject.decision.takesLocatedInk {
            stages.secondLook = SecondLook(insideWindow: map, of: found.gray, read: digit.box)
        }
        stages.analysis = analysis
        return stages
    }

    /// Steps 9 and 10 on the subject's ink `map`: the digit's components
    /// and its 28x28 field (nil when normalization finds nothing); nil when
    /// no component is a digit. A clean drawing's components, found in `map`
    /// by step 7, are taken as they are.
    static func digitAndField(of map: InkMap, located: Bool, cleanDrawing: CleanDrawing.Ink? = nil,
                              into analysis: inout PipelineAnalysis) -> (digit: DigitComponentsStage.Digit, field: Raster?)? {
        // A clean drawing's components were found with the locator not asked.
        precondition(cleanDrawing == nil || !located)
        let stage = DigitComponentsStage(located: located)
        let digit = cleanDrawing.map { stage.taking($0.digit, into: &analysis) } ?? stage.run(map, into: &analysis)
        guard let digit else { return nil }
        return (digit, NormalizationTail().run(digit.ink, into: &analysis)?.field)
    }

    /// The located ink `ink` through steps 9 and 10 as the subject's ink
    /// goes (not recorded): a `SecondLook`'s tensor; nil when it holds no digit.
    static func normalized(located ink: InkMap) -> DigitTensor? {
        var unrecorded = PipelineAnalysis()
        guard let field = digitAndField(of: ink, located: true, into: &unrecorded)?.field else { return nil }
        return DigitTensor(intensities: field.values)
    }

    /// What steps 1 to 6 of the MNIST pipeline found: the rules' ink.
    struct FoundInk {
        /// The picture at analysis size, and its bytes when it was not shrunk.
        let picture: AnalysisSizeStage.Output
        /// The picture at analysis size.
        var gray: Raster { picture.gray }
        /// Whether its ink is dark (and so the picture is inverted).
        let inverted: Bool
        /// The ink map, before weak pixels and specks are dropped; nil when no ink stands out of the noise.
        let map: InkMap?
        /// The background surface the ink was measured against.
        let surface: BackgroundSurface
        /// The sheet found on a desk or the window in a light frame, or the region around the located ink, if any.
        let region: PaperRegion
        /// The sheet or window step 2 found (no mask when none): `region`, unless
        /// steps 3 to 6 ran again around the located ink.
        var sheet: PaperRegion
        /// The box around `region`, if any.
        var paper: BoundingBox? { region.bounds }
        /// The picture's ink where it is a clean drawing, so the locator was not asked (`CleanDrawing`).
        var cleanDrawing: CleanDrawing.Ink?
        /// Step 8's choice between the rules' strong ink and the located,
        /// where step 7 made it already (to decide whether to measure again).
        var choice: SubjectInkStage.Output?
    }

    /// Steps 1 to 6 of the MNIST pipeline, shared with NumberReader.
    func inkMap(for image: GrayImage) -> FoundInk {
        var analysis = PipelineAnalysis()
        return inkMap(for: image, into: &analysis)
    }

    /// Steps 1 to 6, each recorded in `analysis`; with `windows`, step 2
    /// takes a meter's window in a light frame for the paper too.
    func inkMap(for image: GrayImage, into analysis: inout PipelineAnalysis, windows: Bool = false) -> FoundInk {
        let picture = AnalysisSizeStage().run(image, into: &analysis)
        let paper = PaperStage(windows: windows).run(picture.gray, into: &analysis)
        return inkMap(in: picture, paper: paper, into: &analysis)
    }

    /// Steps 1 to 7, shared with NumberReader: the rules' ink, and the
    /// locator's map when a locator is set. Steps 3 to 6 run again on the
    /// region around the located ink (`LocatedRegionStage`) where the rules
    /// find no ink in the whole picture but the locator sees some (a busy
    /// desk, a checked cloth, sets a noise threshold that a note's ink does
    /// not rise above), and where they find other ink than the located
    /// (`againAroundLocated`; around the located digit, or with
    /// `oneDigit` false, as `read` asks, around all the located ink). Only
    /// with `oneDigit` does step 2 look for a window in a light frame. With
    /// `skippingCleanDrawings`, a clean drawing (`CleanDrawing`) is left to
    /// the rules: no locator map.
    func inkAndLocated(for image: GrayImage, into analysis: inout PipelineAnalysis, skippingCleanDrawings: Bool = false,
                       oneDigit: Bool = true) throws(DigitError) -> (found: FoundInk, located: LocatedInk?) {
        var found = inkMap(for: image, into: &analysis, windows: oneDigit)
        guard let locator else { return (found, nil) }
        if skippingCleanDrawings,
           let clean = CleanDrawing.ink(found.gray, rules: found.map, paper: found.sheet, inkIsDark: found.inverted) {
            found.cleanDrawing = clean
            analysis.record(.inkLocator, "not asked: the rules' ink is one clear digit on plain paper (CleanDrawing)")
            return (found, nil)
        }
        let located = try InkLocatorStage(locator: locator).run(.init(gray: found.gray, rules: found.map, paper: found.sheet),
                                                              into: &analysis)
        analysis.runningAgain = true
        defer { analysis.runningAgain = false }
        guard let rules = found.map else {
            guard let region = LocatedRegionStage(reason: .noRulesInk).run(located, into: &analysis) else { return (found, located) }
            var again = inkMap(in: found.picture, paper: region, into: &analysis)
            again.sheet = found.sheet
            return (again, located)
        }
        found.choice = SubjectInkStage.choose(rules: InkExtractor.strong(rules), located: located)
        guard found.choice?.decision == .located else { return (found, located) }
        return againAroundLocated(found, located: located, oneDigit: oneDigit, into: &analysis) ?? (found, located)
    }

    /// Steps 3 to 6 again around the located ink, where the rules' ink in
    /// the whole picture is other ink than the located: a desk, or a note's
    /// colour against it, set the polarity or the background there (a dark
    /// pen on a yellow note on a blue desk is "light ink" to the whole
    /// picture). The ink measured again stands, with the located ink within
    /// the region, only where step 8 then keeps it where located, and it
    /// lies clear of the region's edges (`LocatedRegionStage.isClear`);
    /// else nil, and nothing is recorded.
    func againAroundLocated(_ found: FoundInk, located: LocatedInk, oneDigit: Bool,
                            into analysis: inout PipelineAnalysis) -> (found: FoundInk, located: LocatedInk)? {
        var trial = analysis
        guard let region = LocatedRegionStage(reason: .rulesInkElsewhere(oneDigit: oneDigit)).run(located, into: &trial),
              let box = region.bounds else { return nil }
        var again = inkMap(in: found.picture, paper: region, into: &trial)
        let near = located.within(region) ?? located
        guard let rules = again.map.map(InkExtractor.strong) else { return nil }
        let choice = SubjectInkStage.choose(rules: rules, located: near)
        guard choice.decision.keepsRulesWithLocator, let map = choice.map,
              LocatedRegionStage.isClear(map, of: rules, in: box) else { return nil }
        again.sheet = found.sheet
        again.choice = choice
        analysis = trial
        return (again, near)
    }

    /// Steps 3 to 6 on `picture`, within `paper`.
    func inkMap(in picture: AnalysisSizeStage.Output, paper: PaperRegion, into analysis: inout PipelineAnalysis) -> FoundInk {
        let first = BackgroundStage().run(.init(picture: picture, paper: paper), into: &analysis)
        let inkIsDark = PolarityStage(inversion: inversion).run(.init(first: first, paper: paper), into: &analysis)
        let background = StrokeWidthStage().run(.init(picture: picture, paper: paper, first: first, inkIsDark: inkIsDark),
                                                into: &analysis)
        let map = StandOutInkStage().run(.init(gray: picture.gray, paper: paper, background: background, inkIsDark: inkIsDark),
                                         into: &analysis)
        return FoundInk(picture: picture, inverted: inkIsDark, map: map, surface: background.surface,
                        region: paper, sheet: paper)
    }

    /// The picture as a Raster, area-averaged down when longer than `analysisSide`.
    static func analysisRaster(_ image: GrayImage) -> Raster {
        let longer = max(image.width, image.height)
        guard longer > analysisSide else { return Raster(image) }
        let scale = Double(analysisSide) / Double(longer)
        let width = max(1, Int((Double(image.width) * scale + 0.5).rounded(.down)))
        let height = max(1, Int((Double(image.height) * scale + 0.5).rounded(.down)))
        return AreaResampler.resize(image, targetWidth: width, targetHeight: height)
    }
}

/// What each step of the preprocessing made of one picture (grey levels 0-255).
public struct PreprocessingStages: Sendable {
    /// The decoded picture (at analysis size in the MNIST pipeline; the 28x28 resize in raw mode).
    public let gray: Raster
    /// Whether the picture was inverted; nil in raw mode.
    public let inverted: Bool?
    /// The picture with its ink bright, for showing; nil in raw mode. Derived
    /// on demand, so classification does not pay for a copy it never shows.
    public var inkIsBright: Raster? {
        inverted.map { $0 ? PolarityDetector.inverted(gray) : gray }
    }
    /// The digit's box from the cleaned, contrast-stretched ink map; nil when no digit was found.
    public internal(set) var ink: Raster?
    /// The 28x28 field the tensor is made of; nil when no digit was found.
    public internal(set) var field: Raster?
    /// What makes a single-digit answer for this picture doubtful (InkLayout).
    public var warnings: [PreprocessingWarning] = []
    /// The background level the ink was measured against, at analysis size;
    /// nil in raw mode. Made from the surface each time it is read (a
    /// picture-sized raster): classification never reads it.
    public var background: Raster? {
        get { backgroundOverride ?? surface?.levels }
        set {
            backgroundOverride = newValue
            surface = nil
        }
    }
    /// The background surface the levels are made of.
    var surface: BackgroundSurface?
    /// A background set through `background`.
    var backgroundOverride: Raster?
    /// The box around the sheet of paper found lying on a desk (or, since
    /// 0.32.0, a meter's window in a light frame), at analysis size; nil
    /// when there was none (or in raw mode).
    public var paper: BoundingBox?
    /// Which part of the pipeline decided where the digit's ink is.
    public var inkDecision: InkDecision = .rules
    /// The ink locator's probabilities (0-1) at analysis size; nil without a locator.
    public var located: Raster?
    /// A second look, to take when the model finds the ink above is not a
    /// digit, or doubts it: the located ink alone where the rules chose the
    /// ink with a locator that saw some, inside a window where the located
    /// ink was chosen, then after "not a digit" the other located ink
    /// (`OtherLocatedInk`); nil otherwise.
    public var secondLook: SecondLook?
    /// What the ink locator threw, if it failed (`Preprocessor.process`).
    public var locatorFailure: DigitError?
    /// What each step decided and why, in order (`digits ascii --steps`
    /// prints it); empty in raw mode.
    public var analysis = PipelineAnalysis()

    /// The normalized tensor, or nil when no digit was found.
    public var tensor: DigitTensor? {
        field.map { DigitTensor(intensities: $0.values) }
    }
}
