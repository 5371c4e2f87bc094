import DigitsJSON

/// The `preprocess --json` object, keys in this order (docs/commands.md, "preprocess"):
///
///     {"file"[, "file_base64"], "tensor": [784 floats, row by row]}
///     {"file"[, "file_base64"], "tensor": null, "reason": "no digit found"}
struct PreprocessLine: Encodable {
    let file: JSONFileName
    /// The 28x28 values the model is given, nil when no digit was found.
    let tensor: [Float]?
    let reason: String?

    private enum CodingKeys: String, CodingKey { case file, fileBase64 = "file_base64", tensor, reason }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encode(file.file, forKey: .file)
        try object.encodeIfPresent(file.base64, forKey: .fileBase64)
        try object.encodeOrNull(tensor, forKey: .tensor)
        try object.encodeIfPresent(reason, forKey: .reason)
    }
}
