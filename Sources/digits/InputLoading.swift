import DigitKit

/// Decodes one input for a command (PNG, JPEG or PNM, as the classifier
/// reads it, so that `ascii` and `preprocess` show what `classify` sees),
/// reporting a failure on stderr as "digits: <file>: <cause>".
enum InputLoading {
    static func decode(_ file: String, with decoder: ImageDecoder) throws -> GrayImage {
        do {
            return try decoder.decode(fileAtPath: file)
        } catch {
            StandardError.report(error.description)
            throw ExitStatus.inputFailed.exitCode
        }
    }
}
