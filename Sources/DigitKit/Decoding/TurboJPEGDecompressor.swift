internal import CTurboJPEG

/// A libjpeg-turbo TurboJPEG decompressor, for one decode on one thread
/// (TurboJPEG handles are not thread-safe); the handle is created by
/// `tjInitDecompress` and freed by `tjDestroy` when this value ends.
///
/// Why TurboJPEG rather than libjpeg's jpeglib API: every TurboJPEG
/// function returns a status, and the error or warning text is kept for
/// `tjGetErrorStr2` (in a thread-local buffer, or in the handle for the
/// handle's own errors). libjpeg reports errors by calling an error
/// handler that must not return: jpeglib's default one calls exit(), and
/// a custom one has to longjmp back to a setjmp in the caller, which in a
/// Swift program would jump over Swift frames (skipping their cleanup and
/// reference counting). TurboJPEG does its setjmp/longjmp inside
/// libjpeg-turbo's own C frames, so a corrupt file is a return value here.
struct TurboJPEGDecompressor: ~Copyable {
    /// A failed TurboJPEG call: the message of the error, or of the warning
    /// that stopped it.
    struct Failure: Error {
        let message: String
    }

    /// What `tjDecompressHeader3` reads from the frame header.
    struct Header {
        let width: Int
        let height: Int
        let colorspace: Colorspace
    }

    /// The colour spaces TurboJPEG reports (TJCS_*).
    enum Colorspace {
        case gray
        /// RGB or YCbCr: three components, decoded to RGB.
        case color
        /// CMYK or YCCK (Adobe): four components, decoded to CMYK as stored.
        case cmyk
    }

    /// The output layouts `decompress` asks for (TJPF_*).
    enum PixelFormat {
        case gray, rgb, cmyk

        var channels: Int {
            switch self {
            case .gray: 1
            case .rgb: 3
            case .cmyk: 4
            }
        }

        fileprivate var code: Int32 {
            switch self {
            case .gray: Int32(TJPF_GRAY.rawValue)
            case .rgb: Int32(TJPF_RGB.rawValue)
            case .cmyk: Int32(TJPF_CMYK.rawValue)
            }
        }
    }

    private let handle: tjhandle

    /// A new decompressor (tjInitDecompress).
    init() throws(DigitError) {
        guard let handle = tjInitDecompress() else {
            throw DigitError(.invalidImage, "cannot start libjpeg-turbo's decoder: \(Self.text(tjGetErrorStr2(nil)))")
        }
        self.handle = handle
    }

    deinit {
        // tjDestroy fails only for a handle it did not make; nothing to report.
        _ = tjDestroy(handle)
    }

    /// The scaling factors libjpeg-turbo can decode at (tjGetScalingFactors),
    /// as numerator and denominator; empty if it reports none.
    static func scalingFactors() -> [(numerator: Int, denominator: Int)] {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [] }
        return UnsafeBufferPointer(start: factors, count: Int(count)).map { (Int($0.num), Int($0.denom)) }
    }

    /// Reads the frame header of `jpeg` (tjDecompressHeader3).
    func header(_ jpeg: UnsafeBufferPointer<UInt8>) -> Result<Header, Failure> {
        // A tables-only stream makes tjDecompressHeader3 return success
        // without setting the outputs: they start at values it never gives.
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = -1, colorspace: Int32 = -1
        guard let base = jpeg.baseAddress,
              tjDecompressHeader3(handle, base, UInt(jpeg.count), &width, &height, &subsampling, &colorspace) == 0
        else { return .failure(failure()) }
        guard width > 0, height > 0 else {
            return .failure(Failure(message: "no image in the JPEG stream"))
        }
        let space: Colorspace
        switch colorspace {
        case Int32(TJCS_GRAY.rawValue): space = .gray
        case Int32(TJCS_RGB.rawValue), Int32(TJCS_YCbCr.rawValue): space = .color
        case Int32(TJCS_CMYK.rawValue), Int32(TJCS_YCCK.rawValue): space = .cmyk
        default: return .failure(Failure(message: "unknown colour space \(colorspace)"))
        }
        return .success(Header(width: Int(width), height: Int(height), colorspace: space))
    }

    /// Decodes `jpeg` at `width` x `height` (a size one scaling factor gives)
    /// into `output`, rows packed, in `format` (tjDecompress2). Any libjpeg
    /// warning stops the decode and fails it (TJFLAG_STOPONWARNING): a warning
    /// means the data is corrupt or cut off, and libjpeg would go on with
    /// made-up pixels. Progressive files of more than 500 scans are refused
    /// (TJFLAG_LIMITSCANS), which bounds the work a tiny file can cause.
    func decompress(_ jpeg: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
                    width: Int, height: Int, format: PixelFormat) -> Result<Void, Failure> {
        precondition(output.count == width * height * format.channels, "the output buffer must fit the decoded size")
        guard let source = jpeg.baseAddress, let destination = output.baseAddress,
              let width32 = Int32(exactly: width), let height32 = Int32(exactly: height),
              let pitch = Int32(exactly: width * format.channels)
        else { return .failure(Failure(message: "image too large for TurboJPEG")) }
        let status = tjDecompress2(handle, source, UInt(jpeg.count), destination, width32, pitch, height32,
                                   format.code, TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)
        return status == 0 ? .success(()) : .failure(failure())
    }

    /// The failure TurboJPEG just reported (tjGetErrorStr2). Warnings and
    /// errors are refused alike, so tjGetErrorCode, which tells them apart,
    /// is not needed.
    private func failure() -> Failure {
        Failure(message: Self.text(tjGetErrorStr2(handle)))
    }

    private static func text(_ message: UnsafeMutablePointer<CChar>?) -> String {
        guard let message else { return "unknown libjpeg-turbo error" }
        let text = String(cString: message)
        return text.isEmpty ? "unknown libjpeg-turbo error" : text
    }
}
