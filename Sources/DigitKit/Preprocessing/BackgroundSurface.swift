/// Steps 3 and 5 (`BackgroundStage`, `StrokeWidthStage`): the background's
/// level at every pixel, measured locally, so that a hand's shadow,
/// vignetting, a lamp on one side or a shadow over one corner are removed
/// with the paper's tint, where one plane fitted to the border could only
/// follow a straight gradient.
///
/// The picture is cut into square cells (`cell` pixels a side); each cell's
/// level is the lower median of its pixels in the region (a cell with under
/// a quarter of its pixels there has none: it lies on the desk). When the
/// ink's polarity is known, the cell levels are closed (dark ink: the
/// largest over 3x3 cells, then the smallest) or opened (light ink), which
/// removes cells filled with ink but keeps the slow slopes of shadows. Each
/// cell then takes the lower median of the 5x5 cells around it, which
/// drops what is left of strokes and keeps a shadow's edge where it is, and
/// the level at a pixel is interpolated bilinearly between cell centres.
struct BackgroundSurface: Sendable {
    /// The surface's size: the raster's.
    let width: Int, height: Int
    /// Each row of cell levels interpolated along x, for every column of
    /// pixels: `width` values a row of cells.
    private let across: [Double]
    /// For each row of pixels, the rows of `across` it lies between (the
    /// one above, the one below) and its weight on the one below.
    private let yTaps: [Tap]

    /// Where a pixel lies between two cell centres: the cell before it, the
    /// cell after it (along x, or above and below) and its weight on the
    /// cell after.
    typealias Tap = (first: Int, second: Int, fraction: Double)

    /// The level at every pixel, row-major, the raster's size: made on
    /// demand (for showing), since StandOutPixels reads the levels row by
    /// row (`withRows`) rather than from a picture-sized copy.
    var levels: Raster {
        let values = [Double](unsafeUninitializedCapacity: width * height) { out, initialized in
            withRows { y, above, below, fraction in
                let row = out.baseAddress! + y * width
                for x in 0..<width { row[x] = Self.level(above[x], below[x], fraction) }
            }
            initialized = width * height
        }
        return Raster(width: width, height: height, values: values)
    }

    /// The level at a pixel between the cell rows above and below it,
    /// `fraction` of the way down: the one formula for `levels` and
    /// StandOutPixels, so both give the same Doubles.
    @inline(__always)
    static func level(_ above: Double, _ below: Double, _ fraction: Double) -> Double {
        above * (1 - fraction) + below * fraction
    }

    /// Calls `body` for every row of pixels, top first, with the rows of
    /// interpolated cell levels above and below it (`width` values each)
    /// and its weight on the one below; `level` of the three gives each
    /// pixel's level.
    @inline(__always)
    func withRows(_ body: (_ y: Int, _ above: UnsafePointer<Double>, _ below: UnsafePointer<Double>, _ fraction: Double) -> Void) {
        across.withUnsafeBufferPointer { across in
            for y in 0..<height {
                let (above, below, fraction) = yTaps[y]
                body(y, across.baseAddress! + above * width, across.baseAddress! + below * width, fraction)
            }
        }
    }

    /// A surface from cell rows interpolated along x and the rows' taps.
    private init(width: Int, height: Int, across: [Double], yTaps: [Tap]) {
        precondition(across.count % width == 0 && yTaps.count == height)
        self.width = width
        self.height = height
        self.across = across
        self.yTaps = yTaps
    }

    /// A surface at one level everywhere.
    private init(width: Int, height: Int, level: Double) {
        self.init(width: width, height: height, across: Array(repeating: level, count: width),
                  yTaps: Array(repeating: (0, 0, 0), count: height))
    }

    /// The default cell side: a 16th of the picture's shorter side, at
    /// least 4 pixels.
    static func cell(width: Int, height: Int) -> Int {
        max(4, Int((Double(min(width, height)) / 16 + 0.5).rounded(.down)))
    }

    /// Each cell's lower median within `region` (NaN for a cell with under
    /// a quarter of its pixels there), the first step of `estimate`, kept
    /// apart so that two surfaces with the same cells measure them once.
    /// `levels`, when given, are the grey levels `raster` was made of, one
    /// byte a pixel (a picture analysed at its stored size): the medians are
    /// then found by counting the bytes (`countedMedians`), the same values
    /// as by selection.
    static func cellMedians(_ raster: Raster, levels: [UInt8]?, region: PaperRegion, cell: Int) -> CellGrid<Double> {
        guard let levels else { return selectedMedians(raster, region: region, cell: cell) }
        precondition(levels.count == raster.values.count)
        return countedMedians(levels, width: raster.width, height: raster.height, region: region, cell: cell)
    }

    /// The surface of `raster` within `region`, with cells of `cell` pixels,
    /// closed or opened for ink of the given polarity when it is known, from
    /// the cells' `medians` (`cellMedians` of the same raster, region and cell).
    static func estimate(_ raster: Raster, region: PaperRegion, cell: Int, medians: CellGrid<Double>,
                         inkIsDark: Bool? = nil) -> BackgroundSurface {
        let width = raster.width, height = raster.height
        let columns = (width + cell - 1) / cell, rows = (height + cell - 1) / cell
        precondition(medians.width == columns && medians.height == rows)
        var cells = medians
        let defined = cells.cells.filter { !$0.isNaN }
        guard !defined.isEmpty else {
            let inside = raster.values.indices.filter(region.contains).map { raster.values[$0] }
            let level = RobustStatistics.lowerMedian(inside.isEmpty ? raster.values : inside)
            return BackgroundSurface(width: width, height: height, level: level)
        }
        if let inkIsDark {
            let fill = RobustStatistics.lowerMedian(defined)
            let grid = CellGrid(width: columns, height: rows, cells: cells.cells.map { $0.isNaN ? fill : $0 })
            let largest: (UnsafeMutableBufferPointer<Double>) -> Double = { $0.max()! }
            let smallest: (UnsafeMutableBufferPointer<Double>) -> Double = { $0.min()! }
            let morphed = grid.windowed(radius: 1, repeatEdges: true, inkIsDark ? largest : smallest)
                .windowed(radius: 1, repeatEdges: true, inkIsDark ? smallest : largest)
            for i in cells.cells.indices where !cells.cells[i].isNaN { cells.cells[i] = morphed.cells[i] }
        }
        let smoothed = cells.windowed(radius: 2, repeatEdges: false, RobustStatistics.lowerMedian(reordering:))
        let missingFill = RobustStatistics.lowerMedian(smoothed.cells.filter { !$0.isNaN })
        let grid = smoothed.cells.map { $0.isNaN ? missingFill : $0 }
        return interpolated(grid, columns: columns, rows: rows, cell: cell, width: width, height: height)
    }

    /// Each cell's lower median within the region, by selection; NaN for a
    /// cell with under a quarter of its pixels there.
    private static func selectedMedians(_ raster: Raster, region: PaperRegion, cell: Int) -> CellGrid<Double> {
        let width = raster.width, height = raster.height
        let columns = (width + cell - 1) / cell, rows = (height + cell - 1) / cell
        var cells = CellGrid<Double>(width: columns, height: rows, repeating: .nan)
        var block: [Double] = []
        block.reserveCapacity(cell * cell)
        raster.values.withUnsafeBufferPointer { values in
            for row in 0..<rows {
                for column in 0..<columns {
                    block.removeAll(keepingCapacity: true)
                    let x0 = column * cell, x1 = min(width, x0 + cell), y0 = row * cell, y1 = min(height, y0 + cell)
                    for y in y0..<y1 {
                        let start = y * width
                        if let mask = region.mask {
                            for x in x0..<x1 where mask[start + x] { block.append(values[start + x]) }
                        } else {
                            block.append(contentsOf: values[(start + x0)..<(start + x1)])
                        }
                    }
                    if 4 * block.count >= (x1 - x0) * (y1 - y0) {
                        cells[column, row] = RobustStatistics.percentile(reordering: &block, 0.5)
                    }
                }
            }
        }
        return cells
    }

    /// `selectedMedians` for a raster of whole levels, from its bytes: each
    /// cell's bytes in the region are copied together and the lower median
    /// found by a binary search on the level, counting the bytes at or
    /// below it sixteen at a time (eight counts of a few dozen vector
    /// comparisons, where a histogram took one scattered increment a pixel
    /// and a scan of up to 256 levels a cell).
    private static func countedMedians(_ levels: [UInt8], width: Int, height: Int, region: PaperRegion, cell: Int) -> CellGrid<Double> {
        let columns = (width + cell - 1) / cell, rows = (height + cell - 1) / cell
        var cells = CellGrid<Double>(width: columns, height: rows, repeating: .nan)
        let capacity = (cell * cell + 15) / 16 * 16
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let bytes = buffer.baseAddress!
            levels.withUnsafeBufferPointer { levels in
                for row in 0..<rows {
                    for column in 0..<columns {
                        let x0 = column * cell, x1 = min(width, x0 + cell), y0 = row * cell, y1 = min(height, y0 + cell)
                        var count = 0
                        for y in y0..<y1 {
                            let start = y * width
                            if let mask = region.mask {
                                for x in x0..<x1 where mask[start + x] {
                                    bytes[count] = levels[start + x]
                                    count += 1
                                }
                            } else {
                                (bytes + count).initialize(from: levels.baseAddress! + start + x0, count: x1 - x0)
                                count += x1 - x0
                            }
                        }
                        guard 4 * count >= (x1 - x0) * (y1 - y0), count > 0 else { continue }
                        // Padding of 255 to whole chunks: read, but never
                        // counted, since the search asks about levels up to
                        // 254 only.
                        let chunks = (count + 15) / 16
                        (bytes + count).initialize(repeating: 255, count: chunks * 16 - count)
                        let rank = RobustStatistics.rank(of: 0.5, count: count)
                        cells[column, row] = Double(byte(ofRank: rank, in: bytes, chunks: chunks))
                    }
                }
            }
        }
        return cells
    }

    /// The byte sorting would put at `rank` among the `chunks` * 16 bytes
    /// at `bytes` (those past the real ones are 255, and `rank` is a real
    /// one's): the least level with more than `rank` bytes at or below it.
    static func byte(ofRank rank: Int, in bytes: UnsafePointer<UInt8>, chunks: Int) -> UInt8 {
        var low = 0, high = 255
        while low < high {
            let middle = (low + high) / 2  // at most 254
            if countAtMost(UInt8(middle), in: bytes, chunks: chunks) > rank { high = middle } else { low = middle + 1 }
        }
        return UInt8(low)
    }

    /// How many of the `chunks` * 16 bytes at `bytes` are at most `level`.
    @inline(__always)
    static func countAtMost(_ level: UInt8, in bytes: UnsafePointer<UInt8>, chunks: Int) -> Int {
        let levels = SIMD16(repeating: level)
        let raw = UnsafeRawPointer(bytes)
        var total = 0, chunk = 0
        while chunk < chunks {
            // Byte lanes count to 255 at most before they are added up.
            let end = min(chunks, chunk + 255)
            var lanes = SIMD16<UInt8>.zero
            for c in chunk..<end {
                let sixteen = raw.loadUnaligned(fromByteOffset: c &* 16, as: SIMD16<UInt8>.self)
                // A comparison's mask is sixteen bytes, all ones (255) in a
                // true lane, so subtracting its bits adds one there (the
                // mask's layout: a frozen wrapper of SIMD16<Int8>, checked by
                // the cell-median tests against selection).
                // `replacing(with:where:)` went lane by lane through memory.
                lanes &-= unsafeBitCast(sixteen .<= levels, to: SIMD16<UInt8>.self)
            }
            total += Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
            chunk = end
        }
        return total
    }

    /// Bilinear interpolation between cell centres ((i + 0.5) * cell),
    /// clamped to the outer centres: each row of cells is interpolated
    /// along x here, once for every column of pixels (the rows of pixels
    /// between two cell centres share them), and along y as the levels are read.
    private static func interpolated(_ grid: [Double], columns: Int, rows: Int, cell: Int, width: Int, height: Int) -> BackgroundSurface {
        func taps(_ size: Int, _ count: Int) -> [Tap] {
            (0..<size).map { i in
                let position = min(max((Double(i) + 0.5) / Double(cell) - 0.5, 0), Double(count - 1))
                let lower = Int(position.rounded(.down))
                return (lower, min(lower + 1, count - 1), position - Double(lower))
            }
        }
        let xTaps = taps(width, columns)
        var across = [Double](repeating: 0, count: rows * width)
        grid.withUnsafeBufferPointer { grid in
            for row in 0..<rows {
                let start = row * columns
                for x in 0..<width {
                    let (x0, x1, fx) = xTaps[x]
                    across[row * width + x] = grid[start + x0] * (1 - fx) + grid[start + x1] * fx
                }
            }
        }
        return BackgroundSurface(width: width, height: height, across: across, yTaps: taps(height, rows))
    }
}
