import DigitKit

/// Decodes one input for a command, reporting a failure on stderr as
/// "digits: <file>: <cause>".
enum InputLoading {
    static func decode(_ file: String) throws -> GrayImage {
        do {
            return try PNGDecoder().decode(fileAtPath: file)
        } catch {
            StandardError.report(error.description)
            throw ExitStatus.inputFailed.exitCode
        }
    }
}
