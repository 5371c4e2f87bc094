/// Step 2b: the background's level at every pixel, measured locally, so
/// that a hand's shadow, vignetting, a lamp on one side or a shadow over one
/// corner are removed with the paper's tint, where one plane fitted to the
/// border could only follow a straight gradient.
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
struct BackgroundSurface {
    /// The level at every pixel, row-major, the raster's size.
    let levels: Raster

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
    /// then counted in a histogram of the bytes, the same values as by
    /// selection.
    static func cellMedians(_ raster: Raster, levels: [UInt8]?, region: PaperRegion, cell: Int) -> CellGrid<Double> {
        guard let levels else { return selectedMedians(raster, region: region, cell: cell) }
        precondition(levels.count == raster.values.count)
        return histogramMedians(levels, width: raster.width, height: raster.height, region: region, cell: cell)
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
            return BackgroundSurface(levels: Raster(width: width, height: height, values: Array(repeating: level, count: width * height)))
        }
        if let inkIsDark {
            let fill = RobustStatistics.lowerMedian(defined)
            let grid = CellGrid(width: columns, height: rows, cells: cells.cells.map { $0.isNaN ? fill : $0 })
            let largest: (inout [Double]) -> Double = { $0.max()! }, smallest: (inout [Double]) -> Double = { $0.min()! }
            let morphed = grid.windowed(radius: 1, repeatEdges: true, inkIsDark ? largest : smallest)
                .windowed(radius: 1, repeatEdges: true, inkIsDark ? smallest : largest)
            for i in cells.cells.indices where !cells.cells[i].isNaN { cells.cells[i] = morphed.cells[i] }
        }
        let smoothed = cells.windowed(radius: 2, repeatEdges: false, RobustStatistics.lowerMedian(reordering:))
        let missingFill = RobustStatistics.lowerMedian(smoothed.cells.filter { !$0.isNaN })
        let grid = smoothed.cells.map { $0.isNaN ? missingFill : $0 }
        return BackgroundSurface(levels: interpolated(grid, columns: columns, rows: rows, cell: cell, width: width, height: height))
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

    /// `selectedMedians` for a raster of whole levels, from its bytes:
    /// each cell's pixels are counted per level and the lower median read
    /// off the running total, with no copy and no comparison of values (a
    /// quarter of the time on a 400x400 picture; reading the bytes rather
    /// than the Doubles they became, a third less again).
    private static func histogramMedians(_ levels: [UInt8], width: Int, height: Int, region: PaperRegion, cell: Int) -> CellGrid<Double> {
        let columns = (width + cell - 1) / cell, rows = (height + cell - 1) / cell
        var cells = CellGrid<Double>(width: columns, height: rows, repeating: .nan)
        // Four interleaved tallies, summed when read: neighbouring pixels
        // mostly share a level, and one tally made each count wait for the
        // one before it.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 4 * 256) { counts in
            levels.withUnsafeBufferPointer { levels in
                for row in 0..<rows {
                    for column in 0..<columns {
                        counts.initialize(repeating: 0)
                        var count = 0
                        let x0 = column * cell, x1 = min(width, x0 + cell), y0 = row * cell, y1 = min(height, y0 + cell)
                        for y in y0..<y1 {
                            let start = y * width
                            if let mask = region.mask {
                                for x in x0..<x1 where mask[start + x] {
                                    counts[(x & 3) << 8 | Int(levels[start + x])] &+= 1
                                    count += 1
                                }
                            } else {
                                for x in x0..<x1 { counts[(x & 3) << 8 | Int(levels[start + x])] &+= 1 }
                                count += x1 - x0
                            }
                        }
                        guard 4 * count >= (x1 - x0) * (y1 - y0), count > 0 else { continue }
                        let rank = RobustStatistics.rank(of: 0.5, count: count)
                        @inline(__always) func tally(_ level: Int) -> Int {
                            Int(counts[level]) + Int(counts[256 | level]) + Int(counts[512 | level]) + Int(counts[768 | level])
                        }
                        var level = 0, below = tally(0)
                        while below <= rank {
                            level += 1
                            below += tally(level)
                        }
                        cells[column, row] = Double(level)
                    }
                }
            }
        }
        return cells
    }

    /// Bilinear interpolation between cell centres ((i + 0.5) * cell),
    /// clamped to the outer centres.
    private static func interpolated(_ grid: [Double], columns: Int, rows: Int, cell: Int, width: Int, height: Int) -> Raster {
        func taps(_ size: Int, _ count: Int) -> [(lower: Int, upper: Int, fraction: Double)] {
            (0..<size).map { i in
                let position = min(max((Double(i) + 0.5) / Double(cell) - 0.5, 0), Double(count - 1))
                let lower = Int(position.rounded(.down))
                return (lower, min(lower + 1, count - 1), position - Double(lower))
            }
        }
        let xTaps = taps(width, columns), yTaps = taps(height, rows)
        // Each row of cells interpolated along x once, for every column of
        // pixels: the rows of pixels between two cell centres share them.
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
        let values = [Double](unsafeUninitializedCapacity: width * height) { out, initialized in
            across.withUnsafeBufferPointer { across in
                for y in 0..<height {
                    let (y0, y1, fy) = yTaps[y]
                    let upper = across.baseAddress! + y0 * width, lower = across.baseAddress! + y1 * width
                    let row = out.baseAddress! + y * width
                    for x in 0..<width { row[x] = upper[x] * (1 - fy) + lower[x] * fy }
                }
            }
            initialized = width * height
        }
        return Raster(width: width, height: height, values: values)
    }
}
