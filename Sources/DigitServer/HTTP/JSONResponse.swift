import DigitsJSON
import Hummingbird

/// A 200 (or other) answer holding one JSON object, spelled as the CLI's
/// `--json` lines are (JSONLineEncoder), with a newline at the end.
enum JSONResponse {
    static func ok(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let text = JSONLineEncoder().line(value) + "\n"
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
