/// The `preprocess --json` object, keys in this order (README, "preprocess"):
///
///     {"file", "tensor": [784 floats, row by row]}
///     {"file", "tensor": null, "reason": "no digit found"}
struct PreprocessLine: Encodable {
    let file: String
    /// The 28x28 values the model is given, nil when no digit was found.
    let tensor: [Float]?
    let reason: String?

    private enum CodingKeys: String, CodingKey { case file, tensor, reason }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encode(file, forKey: .file)
        try object.encodeOrNull(tensor, forKey: .tensor)
        try object.encodeIfPresent(reason, forKey: .reason)
    }
}
