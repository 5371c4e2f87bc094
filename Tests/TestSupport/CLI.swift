import Foundation

/// The built `digits` run as a user runs it: without DIGITS_MODEL, so that the
/// default model lookup is what is tested.
package enum CLI {
    /// The environment without DIGITS_MODEL.
    package static let environment = ProcessInfo.processInfo.environment.filter { $0.key != "DIGITS_MODEL" }

    package static func digits(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = CLI.environment,
                               in directory: String? = nil) throws -> CommandResult {
        try CommandRunner.digits(arguments, stdin: stdin, environment: environment, in: directory)
    }
}
