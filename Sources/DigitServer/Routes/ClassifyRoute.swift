import DigitKit
import DigitsJSON
import Hummingbird

/// `POST /v1/classify`: the digit in one picture (the body), or in each part
/// of a multipart body, as `classify --json` answers it (docs/serve.md).
struct ClassifyRoute: Sendable {
    let engine: RecognitionEngine
    let configuration: ServerConfiguration

    func respond(_ request: Request) async throws -> Response {
        let options = try QueryOptions(request).classify
        return try await withDeadline(configuration.deadline) { [engine, configuration] in
            try await engine.admission.admit(pictures: 0, bytes: PictureBody.expectedBytes(request, maxBody: configuration.maxBody)) {
                try await Self.answer(PictureBody.read(request, maxBody: configuration.maxBody, maxParts: configuration.maxQueue),
                                      engine: engine, options: options)
            }
        }
    }

    private static func answer(_ body: PictureBody, engine: RecognitionEngine, options: ClassifyOptions) async throws -> Response {
        switch body {
        case .single(let bytes):
            let line = try await engine.admission.admit {
                try await Self.line(for: bytes, name: "the picture", file: nil, index: nil, engine: engine, options: options)
            }
            return JSONResponse.ok(line)
        case .multipart(let parts):
            let lines = try await engine.admission.admit(pictures: parts.count) {
                try await withThrowingTaskGroup(of: (Int, ClassificationLine).self) { group in
                    for (index, part) in parts.enumerated() {
                        group.addTask {
                            let name = part.filename ?? "part \(index)"
                            do {
                                return (index, try await Self.line(for: part.bytes, name: name, file: part.filename.map { JSONFileName(stringLiteral: $0) },
                                                                   index: index, engine: engine, options: options))
                            } catch let error as APIError where error.code == "undecodable_picture" {
                                return (index, ClassificationLine(file: part.filename.map { JSONFileName(stringLiteral: $0) }, index: index, outcome: .error(error.message)))
                            }
                        }
                    }
                    var lines = [ClassificationLine?](repeating: nil, count: parts.count)
                    for try await (index, line) in group { lines[index] = line }
                    return lines.compactMap { $0 }
                }
            }
            return JSONResponse.ok(MultipartResults(results: lines))
        }
    }

    private static func line(for bytes: [UInt8], name: String, file: JSONFileName?, index: Int?,
                             engine: RecognitionEngine, options: ClassifyOptions) async throws -> ClassificationLine {
        let (classification, tensor) = try await engine.classify(bytes, name: name, options: options)
        return ClassificationLine(file: file, index: index, outcome: .init(classification, top: options.top),
                                  preprocessed: options.includePreprocessed ? tensor.map(PreprocessedPicture.init) : nil)
    }
}

/// `{"results": [...]}`: one object per part of a multipart request.
struct MultipartResults<Line: Encodable & Sendable>: Encodable, Sendable {
    let results: [Line]
}
