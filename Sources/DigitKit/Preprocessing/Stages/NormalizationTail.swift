/// Step 10, the normalization tail, as MNIST made its digits; the one tail
/// of `classify`, `stream` and `read`'s pieces:
/// a. the digit's box scaled so its longer side is 20 pixels, aspect kept
///    (`MNISTNormalizer.scaled`);
/// b. strokes far thinner than MNIST's thickened (`StrokeThickener`);
/// c. placed in the 28x28 field with its centre of mass where MNIST put it,
///    pixel 14 (`MNISTNormalizer.centred`);
/// d. the field as the model's tensor (`DigitTensor`), made on demand.
struct NormalizationTail: PreprocessingStage {
    /// The 28x28 field, grey levels 0-255.
    struct Normalized {
        let field: Raster
        /// The field normalized for the model (step 10d).
        var tensor: DigitTensor { DigitTensor(intensities: field.values) }
    }

    var step: PipelineStep { .normalization }

    /// The normalized field of `box` (the digit's ink, grey levels 0-255),
    /// nil when it holds no ink.
    func run(_ box: Raster, into analysis: inout PipelineAnalysis) -> Normalized? {
        let scaled = MNISTNormalizer.scaled(box)
        let thin = StrokeThickener.isThin(scaled)
        let field = MNISTNormalizer.centred(thin ? StrokeThickener.thickened(scaled) : scaled)
        let strokes = thin ? "strokes thickened (typical ink \(AnalysisFormat.percent((StrokeThickener.typicalInk(scaled) ?? 0) / 255)) of full)"
            : "strokes kept"
        analysis.record(step, "box \(box.width)x\(box.height) → \(scaled.width)x\(scaled.height), \(strokes)"
            + (field == nil ? "; no ink to centre" : ", centred by mass in 28x28"))
        return field.map(Normalized.init(field:))
    }
}
