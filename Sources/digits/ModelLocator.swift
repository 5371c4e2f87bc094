import DigitKit
import Foundation

/// Finds the model file when --model is not given: the shipped model's
/// search of DigitKit (ShippedModel), which docs/commands.md documents.
enum ModelLocator {
    /// The model path $DIGITS_MODEL names; nil when it is unset or empty.
    static var fromEnvironment: String? {
        ProcessInfo.processInfo.environment[ShippedModel.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `explicit` (--model), else `ShippedModel.path()`.
    static func locate(explicit: String?) throws(DigitError) -> String {
        if let explicit { return explicit }
        do {
            return try ShippedModel.path()
        } catch where error.code == .modelNotFound {
            throw DigitError(.modelNotFound, "no model found: pass --model PATH or set \(ShippedModel.environmentVariable) (\(ShippedModel.searched))")
        }
    }
}
