internal import TorchBridgeLoader

/// Turns the bridge's reason for refusing a model file (its TBStatus) into a
/// cause a user recognizes and what to do about it. The bridge tells the
/// reasons apart (TBModuleInitWithFileAtPath's statuses); no text of
/// libtorch is matched here.
enum ModelLoadDiagnosis {
    static let export = "export the model with torch.jit.script(model).save(path)"

    /// The one-line message for a load failure with bridge status `status`
    /// and bridge message `detail`, or nil if `status` is not a load failure.
    static func message(for status: TBStatus, detail: String) -> String? {
        let version = TorchRuntime.torchVersion ?? "(unknown version)"
        switch status {
        case TBStatusNotAnArchive:
            return "not a TorchScript model (not a zip archive); \(export)"
        case TBStatusNotAPyTorchArchive:
            return "a zip archive, but not a TorchScript model; \(export)"
        case TBStatusSavedWithTorchSave:
            return "saved with torch.save (a state dict or pickled module), not a TorchScript export; "
                + "load it into its module in Python and \(export)"
        case TBStatusNewerFileFormat:
            return "saved by a newer PyTorch than this libtorch \(version) (\(detail)); "
                + "re-export it with PyTorch \(version.prefix(4)) or build digits against a newer LibTorch (LIBTORCH, see README)"
        case TBStatusUnknownOperator:
            return "uses operators this libtorch \(version) does not have (saved by a newer PyTorch?): \(clean(detail))"
        case TBStatusLoadFailed:
            return "cannot load TorchScript model: \(clean(detail))"
        default:
            return nil
        }
    }

    /// libtorch's text without the bridge's prefix and libtorch's boilerplate.
    static func clean(_ text: String) -> String {
        var text = text
        let prefix = "cannot load TorchScript model: "
        if text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        if let range = text.firstRange(of: "  (Could this error message be improved?") { text = String(text[..<range.lowerBound]) }
        if let range = text.firstRange(of: try! Regex(#"\[enforce fail at [^\]]*\] \.? ?"#)) { text.removeSubrange(range) }
        return String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
