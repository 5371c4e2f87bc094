/// Turns a decoded greyscale picture into the tensor the model reads.
///
/// The MNIST pipeline (the default) makes any picture look like MNIST, as
/// LeCun et al. made MNIST itself:
/// 1. work on the picture at most 512 pixels on its longer side (area-averaged down);
/// 2. paper, background and polarity: find the sheet when it lies on a
///    desk (`PaperRegion`); measure the background locally, in cells, so
///    that shadows, vignetting and tints go (`BackgroundSurface`), with the
///    noise level; decide whether the ink lies below or above it, so it can
///    be made bright on dark (`Inversion`; on light paper it is always
///    below, `PolarityDetector.isLight`); measure the strokes' width and
///    measure the background again with cells wider than the strokes,
///    knowing the polarity, and on the paper alone in a tight crop on
///    plain paper (`TightCrop`);
/// 3. find the digit: how far each pixel stands out from the background on
///    the ink's side, minus the noise, contrast stretched; with an ink
///    locator, keep that ink only where the locator sees the subject's ink,
///    or take the located ink when the rules found none or other ink, and
///    find no digit when the locator sees none (`LocatedInk`); keep the
///    ink's large connected components (no specks) and take their box;
/// 4. scale that box so its longer side is 20 pixels, aspect ratio kept,
///    and thicken strokes far thinner than MNIST's (`StrokeThickener`);
/// 5. centre it in 28x28 by its centre of mass;
/// 6. normalize as ToTensor + Normalize((0.1307,), (0.3081,)).
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
    /// subject's (step 3); nil: the rules alone decide.
    public var locator: InkLocator?

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
        do {
            return try stages(for: image)
        } catch {
            var stages = PreprocessingStages(gray: Self.analysisRaster(image), inverted: nil, ink: nil, field: nil)
            stages.locatorFailure = error
            return stages
        }
    }

    /// Every stage of the pipeline for `image`; throws what the ink locator
    /// throws (a model that fails or returns no probabilities).
    public func stages(for image: GrayImage) throws(DigitError) -> PreprocessingStages {
        let side = DigitTensor.side
        if mode == .raw {
            let field = image.width == side && image.height == side
                ? Raster(image) : AreaResampler.resize(image, targetWidth: side, targetHeight: side)
            return PreprocessingStages(gray: field, inverted: nil, ink: nil, field: field)
        }
        let found = inkMap(for: image)
        let located = try locator.map { (locator) throws(DigitError) in try LocatedInk.locate(found.gray, with: locator) }
        let (chosen, decision) = Self.subjectInk(rules: found.map.map(InkExtractor.strong), located: located)
        guard let map = chosen, let (cleaned, box, parts) = ConnectedComponents.digit(in: map) else {
            return PreprocessingStages(gray: found.gray, inverted: found.inverted, ink: nil, field: nil,
                                       surface: found.surface, paper: found.paper,
                                       inkDecision: decision, located: located?.probabilities)
        }
        let ink = cleaned.cropped(box, scale: 255)
        let field = MNISTNormalizer.centred(StrokeThickener.thickened(MNISTNormalizer.scaled(ink)))
        // `parts` holds digits beside the one kept too: they make several
        // digits, though only the one around the component holding the most ink is read.
        let warnings = InkLayout.warnings(parts: parts) + (field.map(InkLayout.warnings(field:)) ?? [])
        return PreprocessingStages(gray: found.gray, inverted: found.inverted, ink: ink, field: field, warnings: warnings,
                                   surface: found.surface, paper: found.paper,
                                   inkDecision: decision, located: located?.probabilities)
    }

    /// The subject's ink and which part decided it: the rules' (strong) ink
    /// alone without a locator; none when the locator sees no ink; the rules'
    /// ink where the locator agrees, when that overlaps the located ink
    /// enough; else the located ink.
    static func subjectInk(rules: InkMap?, located: LocatedInk?) -> (InkMap?, InkDecision) {
        guard let located else { return (rules, .rules) }
        guard located.seesInk else { return (nil, .nothingLocated) }
        if let rules {
            let kept = located.kept(rules)
            if located.overlap(with: kept) >= LocatedInk.agreement { return (kept, .rulesWhereLocated) }
        }
        return (located.inkMap, .located)
    }

    /// What steps 1 to 3b of the MNIST pipeline found.
    struct FoundInk {
        /// The picture at analysis size.
        let gray: Raster
        /// Whether its ink is dark (and so the picture is inverted).
        let inverted: Bool
        /// The ink map, before specks are dropped; nil when no ink stands out of the noise.
        let map: InkMap?
        /// The background surface the ink was measured against.
        let surface: BackgroundSurface
        /// The box around the sheet found on a desk, if any.
        let paper: BoundingBox?
    }

    /// Steps 1 to 3b of the MNIST pipeline, shared with NumberReader.
    func inkMap(for image: GrayImage) -> FoundInk {
        let gray = Self.analysisRaster(image)
        // Not shrunk: the raster's values are the picture's bytes.
        let levels = gray.width == image.width && gray.height == image.height ? image.pixels : nil
        let paper = PaperRegion.find(in: gray)
        var cell = BackgroundSurface.cell(width: gray.width, height: gray.height)
        // Where the background and the noise are measured: the paper
        // region, or only its paper in a tight crop (`TightCrop`).
        var measured = paper
        var medians: (cell: Int, grid: CellGrid<Double>)?
        /// The surface with cells of `cell` pixels, measuring them again only when `cell` or `measured` changed.
        func surface(inkIsDark: Bool?) -> BackgroundSurface {
            if medians?.cell != cell {
                medians = (cell, BackgroundSurface.cellMedians(gray, levels: levels, region: measured, cell: cell))
            }
            return .estimate(gray, region: measured, cell: cell, medians: medians!.grid, inkIsDark: inkIsDark)
        }
        let first = StandOutPixels(gray, surface: surface(inkIsDark: nil), region: paper)
        let invert: Bool
        switch inversion {
        case .auto:
            invert = PolarityDetector.inkIsDark(first)
                || (paper.mask == nil && paper.borderBrightShare >= PaperRegion.paperBorder)
                || PolarityDetector.isLight(background: medians!.grid)
        case .always: invert = true
        case .never: invert = false
        }
        if let paperSide = TightCrop.paperSide(of: gray, region: paper, inkIsDark: invert) {
            measured = paperSide
            medians = nil
        }
        let strokes = StrokeWidth.of(first.ink(isDark: invert).indices, width: gray.width, height: gray.height)
        cell = max(cell, Int((Self.cellsPerStroke * strokes).rounded(.up)))
        let background = surface(inkIsDark: invert)
        let standOut = StandOutPixels(gray, surface: background, region: paper, noiseRegion: measured)
        return FoundInk(gray: gray, inverted: invert, map: InkExtractor.inkMap(standOut, inkIsDark: invert),
                        surface: background, paper: paper.bounds)
    }

    /// The second background surface's cells are at least this many
    /// strokes wide.
    static let cellsPerStroke = 1.2

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
    public let ink: Raster?
    /// The 28x28 field the tensor is made of; nil when no digit was found.
    public let field: Raster?
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
    /// The box around the sheet of paper found lying on a desk, at analysis
    /// size; nil when there was none (or in raw mode).
    public var paper: BoundingBox?
    /// Which part of the pipeline decided where the digit's ink is.
    public var inkDecision: InkDecision = .rules
    /// The ink locator's probabilities (0-1) at analysis size; nil without a locator.
    public var located: Raster?
    /// What the ink locator threw, if it failed (`Preprocessor.process`).
    public var locatorFailure: DigitError?

    /// The normalized tensor, or nil when no digit was found.
    public var tensor: DigitTensor? {
        field.map { DigitTensor(intensities: $0.values) }
    }
}
