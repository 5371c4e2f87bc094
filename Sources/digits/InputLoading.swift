import DigitKit

/// Decodes one input for a command (PNG, JPEG or PNM, as the classifier
/// reads it, so that `ascii` and `preprocess` show what `classify` sees),
/// reporting a failure on stderr as "digits: <file>: <cause>". The file is
/// opened by the bytes it was given as (RawArguments).
enum InputLoading {
    static func decode(_ file: InputPath, with decoder: ImageDecoder) throws -> GrayImage {
        do {
            return try decoder.decode(file: file)
        } catch {
            StandardError.report(error.description)
            throw ExitStatus.inputFailed.exitCode
        }
    }
}
