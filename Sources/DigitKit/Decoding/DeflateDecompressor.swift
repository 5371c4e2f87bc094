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

    /// Inflates the zlib stream `input` into `output` with
    /// libdeflate_zlib_decompress_ex. True only when the stream is valid
    /// (its Adler-32 checked), uses every input byte, and fills `output`
    /// exactly: any other outcome (corrupt data, too much or too little
    /// output, trailing bytes) is false, and `output` holds nothing usable.
    func inflateZlib(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
        guard let source = input.baseAddress, let destination = output.baseAddress else { return false }
        var consumed = 0, produced = 0
        let result = libdeflate_zlib_decompress_ex(handle, source, input.count, destination, output.count,
                                                   &consumed, &produced)
        return result == LIBDEFLATE_SUCCESS && consumed == input.count && produced == output.count
    }
}
