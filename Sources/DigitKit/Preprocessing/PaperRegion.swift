#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Step 2 (`PaperStage`): finds a sheet of paper or a sticky note lying on a
/// desk that shows around it, so that the desk (wood grain, a tablecloth's
/// checks, the sheet's own edge) is never taken for ink and the background is
/// measured on the paper alone.
///
/// The picture is shrunk to `side` cells on its longer side (area
/// averaging, then a 3x3 median against texture) and split at Otsu's level
/// into a bright and a dark class. A sheet is found when the frame's border
/// is mostly dark (the desk) and the largest bright group, holes filled and
/// opened by two cells (bright desk patches touching it cut off):
/// - covers at least 12% of the picture and is mostly bright itself (ink
///   on it is a minority);
/// - is at least 30 grey levels brighter than the desk;
/// - fills at least 85% of a box turned by up to 20 degrees, with a
///   shorter side of a quarter of the picture's: a sheet is a quadrilateral,
///   where a large bright digit ("0" on black) is round or thin;
/// - has sharp edges: the steepest two-pixel step around its boundary is,
///   in the median, at least 0.35 of its contrast with the desk; the soft edge
///   of a shadow on a page is far below that.
/// The region is then the sheet eroded by two cells, its edge left out.
///
/// Where one digit is read (`windows`), a meter's counter window cropped
/// with its light plate around it is found the same way with the classes
/// swapped: the border mostly bright, the largest dark group the window.
/// The light digit inside is its holes, at least `windowInk` of it (a bold
/// dark bar on light paper has none) and at most 1 - `windowPaper` (it
/// fills more of a window than a digit does of a sheet), and it is the ink,
/// the thinner class: the window is thicker than the digit's strokes (more
/// erosions empty it, `depth`), where a dark digit's strokes, a 0's ring or a
/// 7-segment 8, are thinner than the light counters they hold. Small crops are
/// searched down to `minimumWindowSide`, on the picture itself. Without
/// this the light plate reads as a bright border, so the dark window is
/// taken for ink and the digit for a hole (docs/decisions.md, "A window in
/// a light frame"). `read` does not ask: a meter's row of windows is one
/// number.
///
/// The share of the border in the bright class is kept: when no sheet is
/// found and that share is at least `paperBorder`, the border is paper and
/// the ink is dark (`Preprocessor` uses it for tight crops, whose thick ink
/// can drag a local background down with it).
struct PaperRegion {
    /// The picture's size.
    let width: Int, height: Int
    /// One flag per pixel, row-major: inside the sheet or window; nil when
    /// none was found and the whole picture counts.
    let mask: [Bool]?
    /// The share of the frame's border cells in the bright class.
    let borderBrightShare: Double
    /// Whether the region is a dark window in a light frame, not a sheet
    /// (a `var` so that the memberwise initializer defaults it).
    var isWindow = false

    /// The longer side of the coarse picture.
    static let side = 64
    /// Pictures shorter than this on either side are not searched for a sheet.
    static let minimumSide = 48
    /// A border at least this bright is paper (see above).
    static let paperBorder = 0.75
    /// A sheet's border is at most this share bright; a window's at most this share dark.
    static let frameBorder = 0.3
    /// A window's light ink, its holes, is at least this share of it...
    static let windowInk = 0.02
    /// ...and at most the rest of this: a meter's digit fills more of its window than a digit its sheet.
    static let windowPaper = 0.6
    /// Pictures shorter than this on either side are not searched for a window.
    static let minimumWindowSide = 16
    /// A window's dark group covers at least `windowPaper` of 12% of the
    /// picture, 7.2%; its largest dark group, which holds it, is not
    /// searched further below this, a little less.
    static let windowLargestGroup = 0.07

    /// The box around the region; nil when there is none.
    var bounds: BoundingBox? {
        guard let mask else { return nil }
        // Row by row with plain integers: a box grown pixel by pixel through
        // an optional was a few percent of a photo on a desk, which asks twice.
        var minX = width, minY = height, maxX = -1, maxY = -1
        mask.withUnsafeBufferPointer { mask in
            for y in 0..<height {
                let row = y &* width
                guard let first = (0..<width).first(where: { mask[row &+ $0] }) else { continue }
                let last = (first..<width).last(where: { mask[row &+ $0] })!
                (minX, maxX) = (min(minX, first), max(maxX, last))
                (minY, maxY) = (min(minY, y), y)
            }
        }
        return maxY < 0 ? nil : BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// Whether pixel `index` (y * width + x) counts.
    @inline(__always)
    func contains(_ index: Int) -> Bool { mask?[index] ?? true }

    /// How many cells of the coarse grid `find` searches span `pixels` at `scale` cells per pixel.
    static func cellCount(_ pixels: Int, scale: Double) -> Int { max(1, Int((Double(pixels) * scale + 0.5).rounded(.down))) }

    /// The sheet in `raster`, if there is one; with `windows`, a window in a light frame too.
    static func find(in raster: Raster, windows: Bool = false) -> PaperRegion {
        // Below `minimumSide` only a window is looked for, on the picture itself, and its border's share is not kept.
        let small = min(raster.width, raster.height) < minimumSide
        let none = { (share: Double) in
            PaperRegion(width: raster.width, height: raster.height, mask: nil, borderBrightShare: small ? 0 : share)
        }
        guard !small || windows && min(raster.width, raster.height) >= minimumWindowSide else { return none(0) }
        let scale = small ? 1 : Double(side) / Double(max(raster.width, raster.height))
        let coarseWidth = cellCount(raster.width, scale: scale), coarseHeight = cellCount(raster.height, scale: scale)
        let shrunk = AreaResampler.resize(raster, targetWidth: coarseWidth, targetHeight: coarseHeight)
        let coarse = CellGrid(width: coarseWidth, height: coarseHeight, cells: shrunk.values)
            .windowed(radius: 1, repeatEdges: true, RobustStatistics.lowerMedian(reordering:))
        let level = OtsuLevel.of(coarse.cells)
        let bright = CellGrid(width: coarseWidth, height: coarseHeight, cells: coarse.cells.map { OtsuLevel.bin($0) > level })
        var ringCells = 0, ringBright = 0
        for y in 0..<coarseHeight {
            for x in 0..<coarseWidth where bright.isOnFrame(x: x, y: y) {
                ringCells += 1
                if bright[x, y] { ringBright += 1 }
            }
        }
        let share = Double(ringBright) / Double(ringCells)
        // A dark window in a bright frame: the frame's border is bright and the paper class dark.
        let isWindow = windows && share >= 1 - frameBorder
        guard isWindow || !small && share <= frameBorder else { return none(share) }
        let paperClass = isWindow ? CellGrid(width: coarseWidth, height: coarseHeight, cells: bright.cells.map { !$0 }) : bright
        guard let largest = paperClass.largestComponent() else { return none(share) }
        // A shortcut, no condition of its own (`windowLargestGroup`).
        guard !isWindow || Double(largest.count) >= windowLargestGroup * Double(largest.cells.count) else { return none(share) }
        guard let (sheet, whole) = opened(largest) else { return none(share) }
        let wholeCount = whole.count
        guard Double(wholeCount) >= 0.12 * Double(whole.cells.count),
              Double(sheet.count) >= (isWindow ? windowPaper : 0.75) * Double(wholeCount),
              wholeCount < whole.cells.count else { return none(share) }
        guard !isWindow || holdsLightDigit(window: sheet, filled: whole, bright: bright) else { return none(share) }
        let paper = RobustStatistics.lowerMedian(coarse.cells.indices.filter { sheet.cells[$0] }.map { coarse.cells[$0] })
        let desk = RobustStatistics.lowerMedian(coarse.cells.indices.filter { !whole.cells[$0] }.map { coarse.cells[$0] })
        let contrast = isWindow ? desk - paper : paper - desk
        guard contrast >= 30 else { return none(share) }
        let (fill, shorter) = rectangularity(whole)
        guard fill >= 0.85, shorter >= 0.25 * Double(min(coarseWidth, coarseHeight)) else { return none(share) }
        let inner = whole.eroded(times: 1)
        var boundary = whole
        for y in 0..<coarseHeight {
            for x in 0..<coarseWidth {
                boundary[x, y] = whole[x, y] && !inner[x, y] && !whole.isOnFrame(x: x, y: y)
            }
        }
        guard edgeSharpness(raster, boundary: boundary, scale: scale) >= 0.35 * contrast else { return none(share) }
        let region = whole.eroded(times: 2)
        let columns = (0..<raster.width).map { min(Int((Double($0) + 0.5) * scale), coarseWidth - 1) }
        return PaperRegion(width: raster.width, height: raster.height,
                           mask: upscaled(region, width: raster.width, height: raster.height, columns: columns, scale: scale),
                           borderBrightShare: small ? 0 : share, isWindow: isWindow)
    }

    /// `region`'s cells as one flag per pixel of a `width` x `height`
    /// picture: pixel (x, y) takes cell (`columns[x]`, its row at `scale`).
    /// Pixel rows of one cell row are alike, so each cell row is spelled
    /// out once and copied; cell by cell, this was a few percent of a photo.
    static func upscaled(_ region: CellGrid<Bool>, width: Int, height: Int, columns: [Int], scale: Double) -> [Bool] {
        [Bool](unsafeUninitializedCapacity: width * height) { mask, initialized in
            var spelled = -1
            for y in 0..<height {
                let row = min(Int((Double(y) + 0.5) * scale), region.height - 1)
                let out = mask.baseAddress! + y * width
                if row == spelled {
                    out.initialize(from: out - width, count: width)
                } else {
                    for x in 0..<width { (out + x).initialize(to: region[columns[x], row]) }
                    spelled = row
                }
            }
            initialized = width * height
        }
    }

    /// Whether the dark group `window` (`filled`, its holes filled) holds a
    /// light digit, the bright cells inside it: at least `windowInk` of it
    /// (a bold dark bar has none), and thinner than the window (a dark 0's
    /// ring is thinner than the light counter inside it).
    static func holdsLightDigit(window: CellGrid<Bool>, filled: CellGrid<Bool>, bright: CellGrid<Bool>) -> Bool {
        let digit = CellGrid(width: filled.width, height: filled.height, cells: zip(filled.cells, bright.cells).map { $0 && $1 })
        return Double(digit.count) >= windowInk * Double(filled.count) && digit.depth < window.depth
    }

    /// Bright desk cells touching the sheet (a tablecloth's white checks,
    /// a bright object beside it) are cut off by opening the sheet, holes
    /// filled, by this many cells: 4-connected erosion, the largest group
    /// left, dilation back, within what it was. Smaller than a sheet's
    /// quarter of the picture by far, so a sheet loses nothing but such
    /// patches (docs/decisions.md, "Opening the sheet").
    static let openingCells = 2

    /// The bright group `largest` and the same with its holes filled, both
    /// opened by `openingCells` (see there); nil when nothing is left.
    static func opened(_ largest: CellGrid<Bool>) -> (sheet: CellGrid<Bool>, whole: CellGrid<Bool>)? {
        let filled = largest.holesFilled()
        guard let core = filled.eroded(times: openingCells).largestComponent() else { return nil }
        let kept = core.dilated(times: openingCells)
        func within(_ grid: CellGrid<Bool>) -> CellGrid<Bool> {
            CellGrid(width: grid.width, height: grid.height, cells: zip(grid.cells, kept.cells).map { $0 && $1 })
        }
        return (within(largest), within(filled))
    }

    /// The largest share of a box turned by -20 to 20 degrees (2-degree
    /// steps) that the set cells fill, and that box's shorter side in cells.
    static func rectangularity(_ region: CellGrid<Bool>) -> (fill: Double, shorter: Double) {
        var points: [(x: Double, y: Double)] = []
        for y in 0..<region.height {
            for x in 0..<region.width where region[x, y] { points.append((Double(x), Double(y))) }
        }
        var best = 0.0, shorter = 0.0
        for degrees in stride(from: -20, through: 20, by: 2) {
            let angle = Double(degrees) * .pi / 180
            let c = cos(angle), s = sin(angle)
            var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
            for p in points {
                let u = p.x * c + p.y * s, v = p.y * c - p.x * s
                minU = min(minU, u); maxU = max(maxU, u); minV = min(minV, v); maxV = max(maxV, v)
            }
            let du = maxU - minU + 1, dv = maxV - minV + 1
            let fill = Double(points.count) / (du * dv)
            if fill > best { best = fill; shorter = min(du, dv) }
        }
        return (best, shorter)
    }

    /// The median over the boundary cells of the steepest two-pixel step
    /// (across or down) in `raster` within the cell and the cells beside it.
    /// The boundary's cells are off the grid's frame, as `find` makes them.
    static func edgeSharpness(_ raster: Raster, boundary: CellGrid<Bool>, scale: Double) -> Double {
        let width = raster.width, height = raster.height
        // A cell's pixels along one axis start at this one, within the picture.
        func edge(_ cell: Int, _ size: Int) -> Int { min(size, Int(Double(cell) / scale)) }
        // The steepest step in each cell (-1 until made), made when a boundary
        // cell first asks: the windows of neighbouring boundary cells overlap, and a
        // pixel's step was made for each window holding it, up to nine times.
        var cellSteepest = [Double](repeating: -1, count: boundary.cells.count)
        func cellMaximum(_ cx: Int, _ cy: Int) -> Double {
            let index = cy * boundary.width + cx
            if cellSteepest[index] >= 0 { return cellSteepest[index] }
            var found = 0.0
            for y in edge(cy, height)..<edge(cy + 1, height) {
                for x in edge(cx, width)..<edge(cx + 1, width) { found = max(found, steepestStep(raster, x, y)) }
            }
            cellSteepest[index] = found
            return found
        }
        var steps: [Double] = []
        for cy in 0..<boundary.height {
            for cx in 0..<boundary.width where boundary[cx, cy] {
                precondition(!boundary.isOnFrame(x: cx, y: cy))
                // The window is the three cells each way around this one; an empty one counts no step.
                guard edge(cx + 2, width) > edge(cx - 1, width), edge(cy + 2, height) > edge(cy - 1, height) else { continue }
                var steepest = 0.0
                for ny in (cy - 1)...(cy + 1) {
                    for nx in (cx - 1)...(cx + 1) { steepest = max(steepest, cellMaximum(nx, ny)) }
                }
                steps.append(steepest)
            }
        }
        return steps.isEmpty ? 0 : RobustStatistics.lowerMedian(steps)
    }

    /// The larger of the two-pixel steps across and down through (x, y);
    /// 0 along an axis at the picture's border.
    static func steepestStep(_ raster: Raster, _ x: Int, _ y: Int) -> Double {
        var steepest = 0.0
        if x > 0 && x < raster.width - 1 { steepest = abs(raster[x + 1, y] - raster[x - 1, y]) }
        if y > 0 && y < raster.height - 1 { steepest = max(steepest, abs(raster[x, y + 1] - raster[x, y - 1])) }
        return steepest
    }
}

/// Otsu's threshold between two classes of grey levels.
enum OtsuLevel {
    /// The grey level (0-255) a value falls in: its integer part, clamped.
    @inline(__always)
    static func bin(_ value: Double) -> Int { min(255, max(0, Int(value))) }

    /// The first level that maximizes the between-class variance of the
    /// values' levels; a value is in the upper class when its level is above it.
    static func of(_ values: [Double]) -> Int {
        split(histogram(values)).level
    }

    /// How many of `values` fall in each level (256 counts), only those
    /// whose flag in `mask` is set when there is one.
    static func histogram(_ values: [Double], mask: [Bool]? = nil) -> [Double] {
        values.withUnsafeBufferPointer { values in tallied(values.count, mask: mask) { bin(values[$0]) } }
    }

    /// The same counts from the bytes a raster was made of unchanged
    /// (`AnalysisSizeStage.Output.levels`): an eighth of the memory, no conversion.
    static func histogram(levels: [UInt8], mask: [Bool]? = nil) -> [Double] {
        levels.withUnsafeBufferPointer { levels in tallied(levels.count, mask: mask) { Int(levels[$0]) } }
    }

    /// How many of the `count` items fall in each level, `levelOf(i)` being
    /// item i's. Four interleaved tallies, so that items of one level in a
    /// row do not wait on each other's increments.
    @inline(__always)
    private static func tallied(_ count: Int, mask: [Bool]?, _ levelOf: (Int) -> Int) -> [Double] {
        precondition(mask.map { $0.count == count } ?? true)
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * 256) { tallies in
            tallies.initialize(repeating: 0)
            if let mask {
                for index in 0..<count where mask[index] { tallies[levelOf(index)] &+= 1 }
            } else {
                let quads = count / 4
                for quad in 0..<quads {
                    let i = quad &* 4
                    tallies[levelOf(i)] &+= 1
                    tallies[256 &+ levelOf(i &+ 1)] &+= 1
                    tallies[512 &+ levelOf(i &+ 2)] &+= 1
                    tallies[768 &+ levelOf(i &+ 3)] &+= 1
                }
                for i in (quads &* 4)..<count { tallies[levelOf(i)] &+= 1 }
            }
            return (0..<256).map { level -> Double in
                let sum: Int = tallies[level] &+ tallies[256 &+ level] &+ tallies[512 &+ level] &+ tallies[768 &+ level]
                return Double(sum)
            }
        }
    }

    /// Otsu's level for a histogram of levels (256 counts), and its
    /// separability: the share of the levels' variance that the split into
    /// two classes explains (between-class over total, 0 to 1; 0 when all
    /// levels are one). A picture of ink on plain paper scores over 0.9;
    /// grain, shadows and vignetting spread the classes and bring it down.
    /// Every sum is of whole numbers (exact), so the numpy reference gets
    /// the same Doubles.
    static func split(_ histogram: [Double]) -> (level: Int, separability: Double) {
        precondition(histogram.count == 256)
        var total = 0.0, allMass = 0.0, allSquares = 0.0
        for level in 0..<256 {
            total += histogram[level]
            allMass += histogram[level] * Double(level)
            allSquares += histogram[level] * Double(level * level)
        }
        // `between` is total² times the between-class variance, the
        // denominator total² times the total variance.
        var best = -1.0, bestLevel = 0, weight = 0.0, mass = 0.0
        for level in 0..<256 {
            weight += histogram[level]
            mass += histogram[level] * Double(level)
            guard weight != 0 && weight != total else { continue }
            let spread = allMass * weight - mass * total
            let between = spread * spread / (weight * (total - weight))
            if between > best { best = between; bestLevel = level }
        }
        let spread = total * allSquares - allMass * allMass
        return (bestLevel, best > 0 && spread > 0 ? best / spread : 0)
    }
}
