/// One step of the MNIST pipeline as a value: a typed input, a typed output,
/// and a line in the analysis saying what it decided and why. The steps are
/// composed in order by `Preprocessor` (as torchvision's `Compose`, but each
/// output typed as the next step's input).
protocol PreprocessingStage {
    associatedtype Input
    associatedtype Output
    /// Which numbered step of the pipeline this is.
    var step: PipelineStep { get }
    /// The step's output for `input`, its decision recorded in `analysis`.
    func run(_ input: Input, into analysis: inout PipelineAnalysis) throws(DigitError) -> Output
}
