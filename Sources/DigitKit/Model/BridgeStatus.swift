internal import TorchBridgeLoader

/// Runs one TorchBridge call that reports a TBStatus and a malloc'd message;
/// returns the status and the message (freed with the bridge's TBMessageFree).
func callBridge(
    _ bridge: UnsafePointer<DigitsTorchBridge>,
    _ call: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> TBStatus
) -> (status: TBStatus, message: String) {
    var message: UnsafeMutablePointer<CChar>? = nil
    let status = call(&message)
    defer { bridge.pointee.messageFree(message) }
    return (status, message.map { String(cString: $0) } ?? "TorchBridge failed with status \(status.rawValue)")
}

/// Runs one TorchBridge call and turns a failure into a thrown DigitError.
func checkBridge(
    _ bridge: UnsafePointer<DigitsTorchBridge>,
    _ call: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> TBStatus
) throws(DigitError) {
    let outcome = callBridge(bridge, call)
    guard outcome.status != TBStatusOK else { return }
    throw DigitError(errorCode(for: outcome.status), outcome.message)
}

/// The DigitError code for a TBStatus other than OK.
func errorCode(for status: TBStatus) -> DigitError.Code {
    switch status {
    case TBStatusLoadFailed, TBStatusNotAnArchive, TBStatusNotAPyTorchArchive, TBStatusSavedWithTorchSave,
         TBStatusNewerFileFormat, TBStatusUnknownOperator:
        return .modelLoadFailed
    case TBStatusNotADigitModel: return .notADigitModel
    case TBStatusInferenceFailed: return .inferenceFailed
    case TBStatusOutOfMemory: return .outOfMemory
    default: return .invalidArgument
    }
}
