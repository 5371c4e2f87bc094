extension LocatedInk {
    /// This look with what it sees off `paper`'s sheet left out, when a
    /// sheet was found (step 2), the locator sees ink off it, and it still
    /// sees ink on it; nil otherwise (this look stands). Step 2 says only the
    /// sheet is analysed: a pencil or a pen lying on the desk beside the
    /// sheet is not the subject. When the locator sees nothing on the sheet,
    /// the sheet may be something else (a bright box on a desk) and this
    /// look stands whole.
    ///
    /// `inkPixels` counts the locator's own pixels, which are not kept: the
    /// analysis pixels at or above `inkLevel` on the sheet, over the area
    /// of one of the locator's pixels, stand in for them.
    func onSheet(_ paper: PaperRegion) -> LocatedInk? {
        guard let mask = paper.mask else { return nil }
        precondition(mask.count == probabilities.values.count)
        var values = probabilities.values
        var offSheet = false, peak = 0.0, inkCount = 0
        for index in values.indices {
            let value = values[index]
            if mask[index] {
                peak = max(peak, value)
                if value >= Self.inkLevel { inkCount += 1 }
            } else {
                if value >= Self.keepLevel { offSheet = true }
                values[index] = 0
            }
        }
        guard offSheet else { return nil }
        let pixels = Int((Double(inkCount) / (pixelSize * pixelSize)).rounded())
        let kept = LocatedInk(probabilities: Raster(width: probabilities.width, height: probabilities.height, values: values),
                              peak: peak, inkPixels: pixels, pixelSize: pixelSize)
        return kept.seesInk ? kept : nil
    }
}
