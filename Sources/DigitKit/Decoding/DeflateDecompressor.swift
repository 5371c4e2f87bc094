internal import CLibDeflate

/// Owns one libdeflate decompressor (libdeflate_alloc_decompressor, freed
/// with libdeflate_free_decompressor when the value goes away), for
/// inflating a whole zlib stream whose inflated size is known in one call.
///
/// Not Copyable, so the handle has exactly one owner and is freed once.
struct DeflateDecompressor: ~Copyable {
    private let handle: OpaquePointer

    /// A fresh decompressor, or nil when libdeflate cannot allocate one
    /// (then the caller decodes another way).
    init?() {
        guard let handle = libdeflate_alloc_decompressor() else { return nil }
        self.handle = handle
    }

    deinit { libdeflate_free_decompressor(handle) }

    /// What `inflateZlib` made of a stream.
    enum Outcome {
        /// A valid stream (its Adler-32 checked) that used every input byte and filled the output exactly.
        case filled
        /// The output filled up with the stream still going on: libdeflate stops there.
        case overflowed
        /// Anything else: corrupt data, too little output, trailing bytes.
        case failed
    }

    /// Inflates the zlib stream `input` into `output` with
    /// libdeflate_zlib_decompress_ex, which never writes (nor inflates)
    /// beyond `output`. Only `.filled` leaves `output` usable.
    func inflateZlib(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Outcome {
        guard let source = input.baseAddress, let destination = output.baseAddress else { return .failed }
        var consumed = 0, produced = 0
        let result = libdeflate_zlib_decompress_ex(handle, source, input.count, destination, output.count,
                                                   &consumed, &produced)
        if result == LIBDEFLATE_INSUFFICIENT_SPACE { return .overflowed }
        return result == LIBDEFLATE_SUCCESS && consumed == input.count && produced == output.count ? .filled : .failed
    }
}
