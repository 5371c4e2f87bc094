/// Turns libtorch's reasons for refusing a model file into a cause a user
/// recognizes and what to do about it. libtorch's own texts name its
/// internals ("PytorchStreamReader failed locating file constants.pkl").
enum ModelLoadDiagnosis {
    static let export = "export the model with torch.jit.script(model).save(path)"

    /// The one-line message for a TorchBridge load failure `detail`.
    static func message(for detail: String) -> String {
        let cause = detail.replacingPrefix("cannot load TorchScript model: ", with: "")
        if cause.contains("not a ZIP archive") || cause.contains("failed finding central directory") {
            return "not a TorchScript model (not a zip archive); \(export)"
        }
        if cause.contains("hasRecord(\"version\")") {
            return "a zip archive, but not a TorchScript model; \(export)"
        }
        if cause.contains("constants.pkl") || cause.contains("data.pkl") {
            return "saved with torch.save (a state dict or pickled module), not a TorchScript export; load it into its module in Python and \(export)"
        }
        if let range = cause.firstRange(of: "Attempted to read a PyTorch file with version ") {
            let versions = cause[range.upperBound...].prefix { $0 != "." }
            return "saved by a newer PyTorch than this libtorch \(TorchRuntime.torchVersion) (file format version \(versions)); "
                + "re-export it with PyTorch \(TorchRuntime.torchVersion.prefix(4)) or build digits against a newer LibTorch (LIBTORCH, see README)"
        }
        if cause.contains("Unknown builtin op") || cause.contains("Unknown type name") {
            return "uses operators this libtorch \(TorchRuntime.torchVersion) does not have (saved by a newer PyTorch?): \(clean(cause))"
        }
        return "cannot load TorchScript model: \(clean(cause))"
    }

    /// libtorch's text without its boilerplate.
    static func clean(_ text: String) -> String {
        var text = text
        if let range = text.firstRange(of: "  (Could this error message be improved?") { text = String(text[..<range.lowerBound]) }
        if let range = text.firstRange(of: try! Regex(#"\[enforce fail at [^\]]*\] \.? ?"#)) { text.removeSubrange(range) }
        return String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

private extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
