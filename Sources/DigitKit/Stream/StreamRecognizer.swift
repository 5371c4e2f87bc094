/// Live recognition on a video stream: reads frames on a thread of its
/// own, looks for the digit in the region of interest of each frame it
/// analyses (the single-picture pipeline: preprocessing, then the model),
/// and turns the readings into events that do not flicker
/// (StabilityTracker).
///
/// The analysis runs on the calling thread, one frame at a time. From a
/// source that can wait (a file) every frame is analysed; from one that
/// cannot (a pipe from a camera) only the newest, and the frames replaced
/// meanwhile are counted as dropped (FrameHandOff), so the answer is always
/// about the latest picture and latency never grows.
public struct StreamRecognizer: Sendable {
    /// The TorchScript model that classifies the region of each analysed frame.
    public let model: DigitModel
    /// Region of interest, stability count, uncertainty threshold and frame policy.
    public var options: StreamOptions
    /// Decodes the frames of an image stream, at full size and as stored
    /// (video frames carry no EXIF orientation), so that the region's
    /// pixel coordinates mean the same in every frame.
    public var decoder = ImageDecoder(applyOrientation: false)
    /// Finds the digit in the region and turns it into the 28x28 tensor the model
    /// takes, as for a single picture.
    public var preprocessor = Preprocessor()

    /// A recognizer that runs `model` with `options`; nothing is checked or read
    /// until `run(_:shouldStop:onFrame:onEvent:)`.
    public init(model: DigitModel, options: StreamOptions = StreamOptions()) {
        self.model = model
        self.options = options
    }

    /// Reads `source` to its end, or until `shouldStop` returns true (checked
    /// between frames and every 50 ms while waiting for one).
    ///
    /// `onFrame` sees each analysed frame and the counts so far (for a live
    /// view), and `onEvent` each decision, with the time its frame was read
    /// (StreamClock), in the order taken. A frame whose picture fails to decode is passed to
    /// `onFrame` with its error and skipped; a stream that breaks (cut off,
    /// garbage where a frame should start) ends the run, as does an error
    /// thrown by a callback. The summary says which.
    public func run(
        _ source: consuming VideoFrameSource,
        shouldStop: @escaping () -> Bool = { false },
        onFrame: (FrameAnalysis, StreamProgress) throws -> Void = { _, _ in },
        onEvent: (StreamEvent, _ frameReadTime: Double) throws -> Void
    ) throws -> StreamSummary {
        try run(FrameFeed(source, everyFrame: options.everyFrame), shouldStop: shouldStop, onFrame: onFrame, onEvent: onEvent)
    }

    /// As `run(_:shouldStop:onFrame:onEvent:)`, on a feed already reading
    /// (made before the model loaded, so that the frames that arrived
    /// meanwhile are analysed); `feed`'s own policy decides which frames are.
    /// A feed is read by one run: it stops reading when the run ends.
    public func run(
        _ feed: FrameFeed,
        shouldStop: @escaping () -> Bool = { false },
        onFrame: (FrameAnalysis, StreamProgress) throws -> Void = { _, _ in },
        onEvent: (StreamEvent, _ frameReadTime: Double) throws -> Void
    ) throws -> StreamSummary {
        try warmUp()
        let handOff = feed.handOff
        defer { feed.stop() }
        var tracker = StabilityTracker(stableFrames: options.stableFrames)
        var analysed = 0, failed = 0
        var firstReadTime: Double?
        while true {
            switch handOff.take(shouldStop: shouldStop) {
            case .stopped:
                return summary(handOff, analysed: analysed, failed: failed, since: firstReadTime, interrupted: true)
            case .end(let error):
                return summary(handOff, analysed: analysed, failed: failed, since: firstReadTime, error: error)
            case .frame(let frame):
                if firstReadTime == nil { firstReadTime = frame.readTime }
                let analysis: FrameAnalysis
                do throws(DigitError) {
                    analysis = try analyse(frame)
                } catch where error.code == .invalidImage || error.code == .imageTooLarge {
                    failed += 1
                    try onFrame(FrameAnalysis(frameIndex: frame.index, error: error.prefixed("frame \(frame.index)")),
                                StreamProgress(handOff, analysed: analysed, failed: failed))
                    continue
                } catch {
                    return summary(handOff, analysed: analysed, failed: failed, since: firstReadTime, error: error.prefixed("frame \(frame.index)"))
                }
                analysed += 1
                try onFrame(analysis, StreamProgress(handOff, analysed: analysed, failed: failed))
                if let event = tracker.observe(analysis.reading, frame: frame.index) {
                    try onEvent(event, frame.readTime)
                }
            }
        }
    }

    /// The region of interest of one frame, preprocessed and classified.
    public func analyse(_ frame: VideoFrame) throws(DigitError) -> FrameAnalysis {
        let image: GrayImage
        switch frame.content {
        case .luma(let luma): image = luma
        case .encoded(let bytes): image = try decoder.decode(bytes: bytes)
        }
        let region = try options.region.rectangle(inFrameWidth: image.width, height: image.height)
        let stages = try preprocessor.stages(for: image.cropped(to: region))
        guard let tensor = stages.tensor else {
            return FrameAnalysis(frameIndex: frame.index, region: region, tensor: nil, prediction: nil, reading: .noDigit)
        }
        let answer = try model.answer(for: tensor, of: stages)
        let prediction = answer.prediction
        // Something that is not a digit (a hand, a letter) clears the digit, as nothing would.
        if prediction.isNotADigit {
            return FrameAnalysis(frameIndex: frame.index, region: region, tensor: answer.tensor, prediction: prediction, reading: .noDigit)
        }
        let reading: FrameReading = options.uncertainty.isUncertain(prediction, warnings: answer.warnings)
            ? .uncertain(digit: prediction.digit, confidence: prediction.confidence)
            : .confident(digit: prediction.digit, confidence: prediction.confidence)
        return FrameAnalysis(frameIndex: frame.index, region: region, tensor: answer.tensor, prediction: prediction, reading: reading)
    }

    /// Runs the model and the ink locator a few times before the first
    /// frame: TorchScript's profiling executor optimizes the graph during
    /// the first calls, which take tens of milliseconds each and would
    /// otherwise delay the first events (and drop frames from a live source).
    func warmUp() throws(DigitError) {
        for _ in 0..<3 { _ = try model.predict(.blank) }
        try preprocessor.locator?.warmUp()
    }

    private func summary(_ handOff: FrameHandOff, analysed: Int, failed: Int, since start: Double?,
                         error: DigitError? = nil, interrupted: Bool = false) -> StreamSummary {
        let seconds = start.map { StreamClock.now() - $0 } ?? 0
        return StreamSummary(frames: handOff.framesRead, analysed: analysed, dropped: handOff.droppedCount,
                             failed: failed, seconds: seconds, error: error, interrupted: interrupted)
    }
}

/// How `StreamRecognizer` reads and decides.
public struct StreamOptions: Sendable {
    /// Where in each frame the digit is looked for.
    public var region: RegionOfInterest = .default
    /// Consecutive analysed frames that must agree before a digit (or a
    /// clear) is reported: K.
    public var stableFrames = 3
    /// Uncertain readings (`UncertaintyRule`: below the threshold, or with
    /// warnings) never count towards a digit, and count as frames without one.
    public var uncertainty = UncertaintyRule()
    /// The threshold of `uncertainty`: readings below this probability are uncertain.
    public var uncertainBelow: Double {
        get { uncertainty.uncertainBelow }
        set { uncertainty.uncertainBelow = newValue }
    }
    /// Analyse every frame (a file), or only the newest one (a pipe, a camera).
    public var everyFrame = true

    /// Options with the defaults of `digits stream`: the centred square half
    /// the frame's shorter side, 3 stable frames, 0.8 as the uncertainty
    /// threshold, every frame analysed. Nothing is checked here.
    public init(region: RegionOfInterest = .default, stableFrames: Int = 3, uncertainBelow: Double = UncertaintyRule.defaultThreshold, everyFrame: Bool = true) {
        self.region = region
        self.stableFrames = stableFrames
        self.uncertainty = UncertaintyRule(uncertainBelow: uncertainBelow)
        self.everyFrame = everyFrame
    }
}

/// What one analysed frame showed, for a live view.
public struct FrameAnalysis: Sendable {
    /// 0-based position of the frame in the stream.
    public let frameIndex: Int
    /// The region looked at, in the frame's pixels; nil if the frame failed.
    public let region: PixelRectangle?
    /// The 28x28 tensor the model saw; nil when no digit was found.
    public let tensor: DigitTensor?
    /// The model's probabilities for the tensor; nil when no digit was found or
    /// the frame failed.
    public let prediction: Prediction?
    /// What the frame counts as for the stability tracker: confident, uncertain
    /// or no digit (also no digit when the frame failed).
    public let reading: FrameReading
    /// Why the frame could not be analysed (its picture does not decode).
    public let error: DigitError?

    init(frameIndex: Int, region: PixelRectangle, tensor: DigitTensor?, prediction: Prediction?, reading: FrameReading) {
        self.frameIndex = frameIndex
        self.region = region
        self.tensor = tensor
        self.prediction = prediction
        self.reading = reading
        self.error = nil
    }

    init(frameIndex: Int, error: DigitError) {
        self.frameIndex = frameIndex
        self.region = nil
        self.tensor = nil
        self.prediction = nil
        self.reading = .noDigit
        self.error = error
    }
}

/// Counts so far, as each frame is analysed.
public struct StreamProgress: Sendable {
    /// Frames read from the stream so far.
    public let frames: Int
    /// Frames analysed so far (a frame that failed to decode is not).
    public let analysed: Int
    /// Frames replaced by a newer one before they could be analysed, so far.
    public let dropped: Int
    /// Frames whose picture failed to decode, so far.
    public let failed: Int

    init(_ handOff: FrameHandOff, analysed: Int, failed: Int) {
        frames = handOff.framesRead
        dropped = handOff.droppedCount
        self.analysed = analysed
        self.failed = failed
    }
}

/// How a stream run went.
public struct StreamSummary: Sendable {
    /// Frames read from the stream.
    public let frames: Int
    /// Frames analysed (a frame that failed to decode is not).
    public let analysed: Int
    /// Frames replaced by a newer one before they could be analysed.
    public let dropped: Int
    /// Frames whose picture failed to decode.
    public let failed: Int
    /// From the first frame read to the end of the run.
    public let seconds: Double
    /// Why the stream ended early, if it broke.
    public let error: DigitError?
    /// Whether `shouldStop` ended the run.
    public let interrupted: Bool

    /// Frames analysed per second of the run.
    public var framesPerSecond: Double { seconds > 0 ? Double(analysed) / seconds : 0 }
}
