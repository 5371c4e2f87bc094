extension JPEGStructure {
    /// The most scans a JPEG may have. Each scan of a progressive JPEG
    /// makes libjpeg-turbo go over the whole picture's coefficients again,
    /// so a small file of many tiny scans costs the time of hundreds of
    /// decodes; encoders write about 10 (jpegtran -progressive, mozjpeg).
    static let maxScans = 100

    /// Refuses a JPEG with more than `maxScans` scans (SOS segments), counted
    /// in the bytes before anything is decoded.
    static func checkScanCount(_ jpeg: [UInt8]) throws(DigitError) {
        let count = scanCount(jpeg, stoppingAfter: maxScans)
        guard count <= maxScans else {
            throw DigitError(.invalidImage, "JPEG has more than \(maxScans) scans, the most digits decodes (encoders write about 10)")
        }
    }

    /// The SOS segments up to EOI or the end of the data, counting no
    /// further than `limit` + 1. Image data is skipped as in
    /// `endsBeforeEndOfImage`: only a marker with a length (not a stuffed
    /// FF, a restart marker, TEM or SOI) can be SOS.
    static func scanCount(_ jpeg: [UInt8], stoppingAfter limit: Int) -> Int {
        guard let header = try? headerSegments(jpeg), let firstScan = header.last else { return 0 }
        var count = 1, position = firstScan.payload.upperBound
        while count <= limit {
            guard let ff = jpeg[position...].firstIndex(of: 0xFF) else { return count }
            var next = ff + 1
            while next < jpeg.count && jpeg[next] == 0xFF { next += 1 }
            guard next < jpeg.count else { return count }
            let marker = jpeg[next]
            switch marker {
            case eoi:
                return count
            case 0x00, 0x01, 0xD0...0xD8:
                position = next + 1
            default:
                guard next + 3 <= jpeg.count else { return count }
                let length = Int(jpeg[next + 1]) << 8 | Int(jpeg[next + 2])
                guard length >= 2, next + 1 + length <= jpeg.count else { return count }
                if marker == sos { count += 1 }
                position = next + 1 + length
            }
        }
        return count
    }
}
