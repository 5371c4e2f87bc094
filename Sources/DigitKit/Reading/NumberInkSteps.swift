/// How the reader found a number's ink, for showing (`digits read --steps`):
/// what steps 1 to 8 decided, and the ink it cuts into characters.
public struct NumberInkSteps: Sendable {
    /// Each step's decision, as `ascii --steps` prints one digit's: which
    /// part decided the ink (the rules, the locator, or nothing) is step 8.
    /// Step 7 runs with a locator; where the rules found no ink in the
    /// whole picture but the locator sees some, steps 2 to 6 run again
    /// around it. Step 8 runs only when the rules found ink.
    public let analysis: PipelineAnalysis
    /// The picture at analysis size (at most `Preprocessor.analysisSide`
    /// on its longer side) with its ink contrast-stretched to 255 and
    /// everything else 0; nil when there is no ink to cut, or when the ink
    /// locator failed (then `analysis` ends before step 7, and `read` throws
    /// the failure).
    public let picture: Raster?
}

extension NumberReader {
    /// The steps that found `image`'s ink, and that ink, as `read(_:length:)`
    /// finds them.
    public func inkSteps(for image: GrayImage) -> NumberInkSteps {
        var analysis = PipelineAnalysis()
        do {
            let found = try NumberSubjectInk(image, preprocessor: preprocessor, into: &analysis)
            guard let map = found.map, map.count > 0 else { return NumberInkSteps(analysis: analysis, picture: nil) }
            let picture = map.cropped(BoundingBox(minX: 0, minY: 0, maxX: map.width - 1, maxY: map.height - 1), scale: 255)
            return NumberInkSteps(analysis: analysis, picture: picture)
        } catch {
            return NumberInkSteps(analysis: analysis, picture: nil)
        }
    }
}
