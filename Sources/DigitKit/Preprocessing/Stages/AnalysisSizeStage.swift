/// Step 1: the picture at most `Preprocessor.analysisSide` pixels on its
/// longer side (area-averaged down), which bounds time and memory for any
/// input.
struct AnalysisSizeStage: PreprocessingStage {
    /// The picture at analysis size.
    struct Output {
        let gray: Raster
        /// The picture's bytes when it was not shrunk (the raster's values
        /// are then exactly these), for the background's fast medians and
        /// the tight-crop check (its histogram and its ink side).
        let levels: [UInt8]?
    }

    var step: PipelineStep { .analysisSize }

    func run(_ image: GrayImage, into analysis: inout PipelineAnalysis) -> Output {
        let gray = Preprocessor.analysisRaster(image)
        let kept = gray.width == image.width && gray.height == image.height
        analysis.record(step, kept ? "\(image.width)x\(image.height), kept"
                                   : "\(image.width)x\(image.height) area-averaged to \(gray.width)x\(gray.height)")
        return Output(gray: gray, levels: kept ? image.pixels : nil)
    }
}
