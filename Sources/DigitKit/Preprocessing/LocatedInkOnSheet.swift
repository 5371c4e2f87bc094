extension LocatedInk {
    /// This look with what it sees off `paper`'s sheet left out, when a
    /// sheet was found (step 2) and the locator sees ink both off it and on
    /// it; nil otherwise, and this look stands. Step 2 analyses only the
    /// sheet: a pencil on the desk beside it is not the subject. Seeing
    /// nothing on the sheet, the locator may be right and the sheet wrong
    /// (a bright card on a desk).
    func onSheet(_ paper: PaperRegion) -> LocatedInk? {
        within(paper).flatMap { $0.seesInk ? $0 : nil }
    }

    /// This look with its probabilities off `paper`'s sheet set to 0; nil
    /// when no sheet was found or nothing off it reaches `keepLevel`.
    /// `inkPixels` counts the locator's own pixels, which are not kept: the
    /// sheet's pixels at `inkLevel` or above, over the area of one of the
    /// locator's pixels, stand in for them.
    func within(_ paper: PaperRegion) -> LocatedInk? {
        guard let mask = paper.mask else { return nil }
        precondition(paper.width == probabilities.width && paper.height == probabilities.height)
        var values = probabilities.values
        var offSheet = false, peak = 0.0, inkCount = 0
        // Through buffers, with no branch on the mask: indexing the array
        // checked its uniqueness at every write, a few percent of a photo on a desk.
        let inkLevel = Self.inkLevel, keepLevel = Self.keepLevel
        mask.withUnsafeBufferPointer { mask in
            values.withUnsafeMutableBufferPointer { values in
                for index in values.indices {
                    let value = values[index], on = mask[index]
                    peak = on ? max(peak, value) : peak
                    inkCount &+= on && value >= inkLevel ? 1 : 0
                    offSheet = offSheet || (!on && value >= keepLevel)
                    values[index] = on ? value : 0
                }
            }
        }
        guard offSheet else { return nil }
        let pixels = Int((Double(inkCount) / (pixelSize * pixelSize)).rounded())
        return LocatedInk(probabilities: Raster(width: probabilities.width, height: probabilities.height, values: values),
                          peak: peak, inkPixels: pixels, pixelSize: pixelSize)
    }
}
