internal import TorchBridge

/// Runs one TorchBridge call that reports a TBStatus and a malloc'd message,
/// and turns a failure into a thrown DigitError (freeing the message).
func checkBridge(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> TBStatus) throws(DigitError) {
    var message: UnsafeMutablePointer<CChar>? = nil
    let status = call(&message)
    defer { TBMessageFree(message) }
    guard status != TBStatusOK else { return }
    let text = message.map { String(cString: $0) } ?? "TorchBridge failed with status \(status.rawValue)"
    throw DigitError(errorCode(for: status), text)
}

/// The DigitError code for a TBStatus other than OK.
func errorCode(for status: TBStatus) -> DigitError.Code {
    switch status {
    case TBStatusLoadFailed: return .modelLoadFailed
    case TBStatusNotADigitModel: return .notADigitModel
    case TBStatusInferenceFailed: return .inferenceFailed
    case TBStatusOutOfMemory: return .outOfMemory
    default: return .invalidArgument
    }
}
