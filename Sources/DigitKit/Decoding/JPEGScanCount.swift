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
    /// further than `limit` + 1 (JPEGStructure.walkAfterFirstScan).
    static func scanCount(_ jpeg: [UInt8], stoppingAfter limit: Int) -> Int {
        var count = 1
        let end = walkAfterFirstScan(jpeg) { marker in
            if marker == JPEGMarker.sos { count += 1 }
            return count <= limit
        }
        return end == nil ? 0 : count
    }
}
