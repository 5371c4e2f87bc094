import DigitKit

/// Finds the model file when --model is not given: the shipped model's
/// search of DigitKit (ShippedModel), which the README documents.
enum ModelLocator {
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
