#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif
internal import TorchBridgeLoader

/// The checks every model file gets before libtorch sees it, so that a
/// missing file, a folder or an empty file is named plainly instead of in
/// libtorch's words: for DigitModel and LineModel alike.
enum ModelFile {
    /// Throws `modelNotFound` or `modelLoadFailed`, with `path` as the
    /// subject, unless `path` is a non-empty file (stat).
    static func check(_ path: String) throws(DigitError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw DigitError(.modelNotFound, "model file not found", subject: path)
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            throw DigitError(.modelLoadFailed, "is a directory, not a TorchScript model file", subject: path)
        }
        guard info.st_size > 0 else {
            throw DigitError(.modelLoadFailed, "empty file, not a TorchScript model; \(ModelLoadDiagnosis.export)", subject: path)
        }
    }

    /// Checks the file at `path`, opens the bridge (loading libtorch on first
    /// use) and creates a module with `create`, one of the bridge's init
    /// functions (TBModuleInitWithFileAtPath, TBLineModuleInitWithFileAtPath);
    /// the caller owns the handle and frees it with the bridge's moduleFree.
    /// A failure is thrown with `path` as its subject and libtorch's message
    /// put plainly (ModelLoadDiagnosis).
    static func load(
        _ path: String,
        with create: (UnsafePointer<DigitsTorchBridge>, UnsafeMutablePointer<OpaquePointer?>,
                      UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> TBStatus
    ) throws(DigitError) -> (bridge: UnsafePointer<DigitsTorchBridge>, handle: OpaquePointer) {
        try check(path)
        let bridge = try TorchBridgeFunctions.open()
        var module: OpaquePointer? = nil
        let outcome = callBridge(bridge) { create(bridge, &module, $0) }
        guard outcome.status == TBStatusOK, let module else {
            let message = ModelLoadDiagnosis.message(for: outcome.status, detail: outcome.message) ?? outcome.message
            throw DigitError(errorCode(for: outcome.status), message, subject: path)
        }
        return (bridge, module)
    }
}
