/// Turns a decoded greyscale picture into the tensor the model reads.
///
/// The MNIST pipeline (the default) makes any picture look like MNIST, as
/// LeCun et al. made MNIST itself:
/// 1. work on the picture at most 512 pixels on its longer side (area-averaged down);
/// 2. background and polarity: fit a plane to the border (paper tint,
///    illumination gradient) with its noise level, and decide whether the ink
///    lies below or above it, so it can be made bright on dark (`Inversion`);
/// 3. find the digit: how far each pixel stands out from the plane on the
///    ink's side, minus the noise, contrast stretched; keep the ink's large
///    connected components (no specks) and take their box;
/// 4. scale that box so its longer side is 20 pixels, aspect ratio kept;
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

    /// A preprocessor with this mode and inversion (by default the MNIST pipeline
    /// deciding the inversion itself); nothing is checked.
    public init(mode: Mode = .mnist, inversion: Inversion = .auto) {
        self.mode = mode
        self.inversion = inversion
    }

    /// The normalized 28x28 tensor of `image`, or nil when no digit is found.
    public func tensor(for image: GrayImage) -> DigitTensor? {
        process(image).tensor
    }

    /// Every stage of the pipeline for `image`, for showing and checking.
    public func process(_ image: GrayImage) -> PreprocessingStages {
        let side = DigitTensor.side
        if mode == .raw {
            let field = image.width == side && image.height == side
                ? Raster(image) : AreaResampler.resize(image, targetWidth: side, targetHeight: side)
            return PreprocessingStages(gray: field, inverted: nil, ink: nil, field: field)
        }
        let (gray, invert, map) = inkMap(for: image)
        guard let map, let (cleaned, box, parts) = ConnectedComponents.digit(in: map) else {
            return PreprocessingStages(gray: gray, inverted: invert, ink: nil, field: nil)
        }
        let ink = cleaned.cropped(box, scale: 255)
        let field = MNISTNormalizer.centred(MNISTNormalizer.scaled(ink))
        return PreprocessingStages(gray: gray, inverted: invert, ink: ink, field: field, warnings: InkLayout.warnings(parts: parts))
    }

    /// Steps 1 to 3b of the MNIST pipeline, shared with NumberReader: the
    /// picture at analysis size, whether its ink is dark, and its ink map
    /// (nil when no ink stands out of the noise), before specks are dropped.
    func inkMap(for image: GrayImage) -> (gray: Raster, inverted: Bool, map: InkMap?) {
        let gray = Self.analysisRaster(image)
        let background = BackgroundModel.estimate(gray)
        let standOut = StandOutPixels(gray, background: background)
        let invert: Bool
        switch inversion {
        case .auto: invert = PolarityDetector.inkIsDark(standOut)
        case .always: invert = true
        case .never: invert = false
        }
        return (gray, invert, InkExtractor.inkMap(standOut, inkIsDark: invert))
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
    public let ink: Raster?
    /// The 28x28 field the tensor is made of; nil when no digit was found.
    public let field: Raster?
    /// What makes a single-digit answer for this picture doubtful (InkLayout).
    public var warnings: [PreprocessingWarning] = []

    /// The normalized tensor, or nil when no digit was found.
    public var tensor: DigitTensor? {
        field.map { DigitTensor(intensities: $0.values) }
    }
}
