import DigitKit
import DigitsJSON
import Hummingbird

/// `POST /v1/read`: the number one picture shows, as `read --json` answers
/// it (README, "serve").
struct ReadRoute: Sendable {
    let engine: RecognitionEngine
    let configuration: ServerConfiguration

    func respond(_ request: Request) async throws -> Response {
        let options = try QueryOptions(request).read
        return try await withDeadline(configuration.deadline) { [engine, configuration] in
            guard case .single(let bytes) = try await PictureBody.read(request, maxBody: configuration.maxBody, maxParts: 1, multipartAllowed: false) else {
                throw APIError.unsupportedMediaType("multipart/form-data")
            }
            let reading = try await engine.admission.admit { try await engine.read(bytes, name: "the picture", options: options) }
            return JSONResponse.ok(ReadingLine(file: nil, index: nil, outcome: .init(reading, uncertainBelow: options.uncertainBelow)))
        }
    }
}
