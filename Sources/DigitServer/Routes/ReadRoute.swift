import DigitKit
import DigitsJSON
import Hummingbird

/// `POST /v1/read`: the number one picture shows, as `read --json` answers
/// it (docs/serve.md).
struct ReadRoute: Sendable {
    let engine: RecognitionEngine
    let configuration: ServerConfiguration

    func respond(_ request: Request) async throws -> Response {
        let options = try QueryOptions(request).read
        return try await withDeadline(configuration.deadline) { [engine, configuration] in
            try await engine.admission.admit(pictures: 1, bytes: PictureBody.expectedBytes(request, maxBody: configuration.maxBody)) {
                // One picture a reading: multipart is refused by its media type.
                let bytes = try await PictureBody.picture(request, maxBody: configuration.maxBody)
                let reading = try await engine.read(bytes, name: "the picture", options: options)
                return JSONResponse.ok(ReadingLine(file: nil, index: nil, outcome: .init(reading, uncertainBelow: options.uncertainBelow)))
            }
        }
    }
}
