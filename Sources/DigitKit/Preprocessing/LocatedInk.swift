/// Steps 7 and 8 of the MNIST pipeline, the learned ones (`InkLocatorStage`,
/// `SubjectInkStage`): where the ink locator (`InkLocator`) sees the
/// subject's ink, and what that makes of the rules' ink map. The rules
/// measure ink at full resolution but cannot tell a digit from a ruled line,
/// a frame or a shadow's edge; the locator can, at a coarser scale. So the
/// locator decides which ink is the subject and whether there is any; the
/// rules' ink is kept where the two agree.
struct LocatedInk {
    /// The locator's probabilities enlarged to the analysis raster, 0-1.
    let probabilities: Raster
    /// The highest of them.
    let peak: Double

    /// The locator's pictures have this many pixels on their longer side.
    static let side = 128
    /// A pixel at or above this probability is the subject's ink.
    static let inkLevel = 0.5
    /// Rule ink is kept where the locator's probability is at least this:
    /// lower than `inkLevel`, so that a stroke's anti-aliased rim, which
    /// the coarser locator blurs, stays with the stroke.
    static let keepLevel = 0.25
    /// The rules' ink (kept where the locator agrees) stands only when it
    /// overlaps the located ink at least this much (intersection over union
    /// of the two); less, and the rules took something else for the ink (the
    /// paper, with the polarity wrong) or missed it (a faint pen in shadow).
    static let agreement = 0.3

    /// Runs `locator` on `gray` (the analysis raster), brought to `side`
    /// pixels on its longer side and padded with its edge to a square, and
    /// enlarges the answer back to `gray`'s size.
    static func locate(_ gray: Raster, with locator: InkLocator) throws(DigitError) -> LocatedInk {
        let scale = Double(side) / Double(max(gray.width, gray.height))
        let width = min(side, max(1, Int((Double(gray.width) * scale).rounded())))
        let height = min(side, max(1, Int((Double(gray.height) * scale).rounded())))
        let small = scale < 1
            ? AreaResampler.resize(gray, targetWidth: width, targetHeight: height)
            : BilinearResampler.resize(gray, targetWidth: width, targetHeight: height)
        let padded = paddedWithEdge(small)
        let map = try locator.probabilities(for: padded)
        var content = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { content[y * width + x] = map[x, y] }
        }
        let located = Raster(width: width, height: height, values: content)
        let enlarged = located.width == gray.width && located.height == gray.height
            ? located : BilinearResampler.resize(located, targetWidth: gray.width, targetHeight: gray.height)
        return LocatedInk(probabilities: enlarged, peak: content.max() ?? 0)
    }

    /// `raster` (at most `side` on each side) padded on the right and
    /// bottom with copies of its edge pixels to a square of `side`: the
    /// locator was trained on pictures padded so.
    static func paddedWithEdge(_ raster: Raster) -> Raster {
        let width = side, height = side
        guard width != raster.width || height != raster.height else { return raster }
        var values = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { values[y * width + x] = raster[min(x, raster.width - 1), min(y, raster.height - 1)] }
        }
        return Raster(width: width, height: height, values: values)
    }

    /// Whether the locator sees any of the subject's ink.
    var seesInk: Bool { peak >= Self.inkLevel }

    /// The located ink as an ink map: the pixels at or above `inkLevel`,
    /// valued by their probability stretched from `inkLevel` to 1.
    var inkMap: InkMap {
        var indices: [Int] = [], values: [Double] = []
        for (i, p) in probabilities.values.enumerated() where p >= Self.inkLevel {
            indices.append(i)
            values.append(min(1, max(0.1, (p - Self.keepLevel) / (1 - Self.keepLevel))))
        }
        return InkMap(width: probabilities.width, height: probabilities.height, indices: indices, values: values)
    }

    /// `rules` with only the pixels the locator gives at least `keepLevel`.
    func kept(_ rules: InkMap) -> InkMap {
        rules.filtered { probabilities.values[rules.indices[$0]] >= Self.keepLevel }
    }

    /// Intersection over union of `map`'s pixels and the located ink's.
    func overlap(with map: InkMap) -> Double {
        let located = probabilities.values.reduce(0) { $0 + ($1 >= Self.inkLevel ? 1 : 0) }
        let both = map.indices.reduce(0) { $0 + (probabilities.values[$1] >= Self.inkLevel ? 1 : 0) }
        let union = located + map.count - both
        return union == 0 ? 0 : Double(both) / Double(union)
    }
}

/// Which part of the MNIST pipeline decided where the digit's ink is.
public enum InkDecision: String, Sendable, Equatable {
    /// The rules alone: no ink locator was given.
    case rules
    /// The rules' ink, kept where the ink locator agrees (lines, frames and
    /// shadow edges away from the subject dropped).
    case rulesWhereLocated = "rules where located"
    /// The located ink: the rules found none, or other ink than the locator.
    case located
    /// The ink locator sees no subject: no digit, whatever the rules found.
    case nothingLocated = "nothing located"
}
