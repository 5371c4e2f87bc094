internal import TorchBridgeLoader

/// The TorchBridge functions, found on first use (DigitsTorchBridgeOpen):
/// linked into the program, or in libDigitsTorchBridge.so, which is then
/// opened and loads libtorch. Until a model is loaded or a libtorch setting
/// changed, nothing of libtorch is in the process.
enum TorchBridgeFunctions {
    /// The bridge, or `runtimeUnavailable` saying where the library was looked
    /// for and how to build it. The same result on every call.
    static func open() throws(DigitError) -> UnsafePointer<DigitsTorchBridge> {
        var message: UnsafePointer<CChar>? = nil
        guard let bridge = DigitsTorchBridgeOpen(&message) else {
            throw DigitError(.runtimeUnavailable, message.map { String(cString: $0) } ?? "cannot open the libtorch bridge")
        }
        return bridge
    }

    /// The libtorch version the bridge was built against, read without
    /// loading libtorch (DigitsTorchBridgeTorchVersion); nil if no bridge
    /// library is found.
    static var torchVersion: String? {
        DigitsTorchBridgeTorchVersion().map { String(cString: $0) }
    }
}
