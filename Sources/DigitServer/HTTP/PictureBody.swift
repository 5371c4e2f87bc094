import Foundation
import Hummingbird

/// The pictures of a request: the body itself, or (for classify) the
/// parts of a `multipart/form-data` body. The format of each picture is
/// read from its bytes; the media type only rules out what is no picture
/// we read (415, naming it).
enum PictureBody {
    case single([UInt8])
    case multipart([MultipartFormData.Part])

    /// Media types sent as one picture; `curl --data-binary @photo.png`
    /// labels its body application/x-www-form-urlencoded, so that one is
    /// taken as bytes too.
    static let pictureTypes: Set<String> = [
        "image/png", "image/jpeg", "image/pjpeg", "image/x-portable-anymap", "image/x-portable-graymap",
        "image/x-portable-pixmap", "image/x-portable-bitmap", "application/octet-stream", "application/x-www-form-urlencoded",
    ]

    /// The body bytes to reserve before reading it (AdmissionLimit): its
    /// Content-Length, or the limit for a body sent in chunks.
    static func expectedBytes(_ request: Request, maxBody: Int) -> Int {
        request.headers[.contentLength].flatMap(Int.init).map { min(max($0, 0), maxBody) } ?? maxBody
    }

    /// Reads the body (at most `maxBody` bytes, refused early by its
    /// Content-Length) and splits it as its media type says.
    static func read(_ request: Request, maxBody: Int, maxParts: Int) async throws -> PictureBody {
        let contentType = request.headers[.contentType] ?? "application/octet-stream"
        guard mediaType(of: contentType) == "multipart/form-data" else {
            return .single(try await picture(request, maxBody: maxBody))
        }
        let bytes = try await collect(request, maxBody: maxBody)
        guard let boundary = MultipartFormData.boundary(ofContentType: contentType) else {
            throw APIError.badRequest("multipart/form-data needs a boundary parameter of 1 to 70 plain characters")
        }
        return .multipart(try MultipartFormData(body: bytes, boundary: boundary, maxParts: maxParts).parts)
    }

    /// The body as one picture (at most `maxBody` bytes); a multipart body
    /// is refused by its media type, as any other that is no picture.
    static func picture(_ request: Request, maxBody: Int) async throws -> [UInt8] {
        let mediaType = mediaType(of: request.headers[.contentType] ?? "application/octet-stream")
        guard pictureTypes.contains(mediaType) else {
            throw APIError.unsupportedMediaType(mediaType.isEmpty ? "(empty)" : mediaType)
        }
        let bytes = try await collect(request, maxBody: maxBody)
        guard !bytes.isEmpty else { throw APIError.badRequest("the request body is empty: send one picture") }
        return bytes
    }

    /// The media type of a Content-Type value, lowercased, without parameters.
    private static func mediaType(of contentType: String) -> String {
        contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// The whole body, refused by its Content-Length before it is read when that is over `maxBody`.
    private static func collect(_ request: Request, maxBody: Int) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBody {
            throw APIError.bodyTooLarge(limit: maxBody)
        }
        var request = request
        return Array(try await request.collectBody(upTo: maxBody).readableBytesView)
    }
}
