/// A small row-major grid of cells (a picture shrunk to a few dozen cells a
/// side), with the few neighbourhood operations the paper and background
/// steps need. Cell operations are cheap at this size, so they are written
/// plainly, as the Python reference writes them.
struct CellGrid<Cell> {
    let width: Int, height: Int
    var cells: [Cell]

    init(width: Int, height: Int, repeating cell: Cell) {
        self.width = width
        self.height = height
        cells = Array(repeating: cell, count: width * height)
    }

    init(width: Int, height: Int, cells: [Cell]) {
        precondition(cells.count == width * height)
        self.width = width
        self.height = height
        self.cells = cells
    }

    subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Whether (x, y) lies on the grid's outer ring.
    func isOnFrame(x: Int, y: Int) -> Bool {
        x == 0 || y == 0 || x == width - 1 || y == height - 1
    }

    /// Calls `body` with each 4-connected neighbour of (x, y) that lies on
    /// the grid. No array is made: the flood fills call it for every cell.
    @inline(__always)
    func forEachNeighbour4(x: Int, y: Int, _ body: (Int, Int) -> Void) {
        if x > 0 { body(x - 1, y) }
        if x < width - 1 { body(x + 1, y) }
        if y > 0 { body(x, y - 1) }
        if y < height - 1 { body(x, y + 1) }
    }
}

extension CellGrid where Cell == Double {
    /// Each cell replaced by `reduce` of the values within `radius` of it
    /// (a square), clipped to the grid when `repeatEdges` is false and with
    /// the edge cells repeated outwards when it is true. NaN marks a cell
    /// without a value: windows leave such cells out, and a window with no
    /// value gives NaN. `reduce` gets the window's values in a buffer it may
    /// reorder (one buffer for all cells, filled in place: appending to an
    /// array, nine times for each of the paper search's 4,096 cells, was
    /// most of that search's time).
    func windowed(radius: Int, repeatEdges: Bool, _ reduce: (UnsafeMutableBufferPointer<Double>) -> Double) -> CellGrid<Double> {
        var out = [Double](repeating: .nan, count: cells.count)
        let side = 2 * radius + 1
        withUnsafeTemporaryAllocation(of: Double.self, capacity: side * side) { near in
            cells.withUnsafeBufferPointer { cells in
                for y in 0..<height {
                    for x in 0..<width {
                        var count = 0
                        for dy in -radius...radius {
                            for dx in -radius...radius {
                                var nx = x + dx, ny = y + dy
                                if repeatEdges {
                                    nx = min(max(nx, 0), width - 1)
                                    ny = min(max(ny, 0), height - 1)
                                } else if nx < 0 || nx >= width || ny < 0 || ny >= height {
                                    continue
                                }
                                let value = cells[ny * width + nx]
                                if !value.isNaN {
                                    near[count] = value
                                    count += 1
                                }
                            }
                        }
                        if count > 0 { out[y * width + x] = reduce(UnsafeMutableBufferPointer(rebasing: near[0..<count])) }
                    }
                }
            }
        }
        return CellGrid(width: width, height: height, cells: out)
    }
}

extension CellGrid where Cell == Bool {
    /// The number of true cells.
    var count: Int { cells.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// How many 4-connected erosions (`eroded(times:)`, the frame outside) leave no cell set:
    /// half the thickness of the thickest part, in cells.
    var depth: Int {
        var grid = self, erosions = 0
        while grid.cells.contains(true) {
            grid = grid.eroded(times: 1)
            erosions += 1
        }
        return erosions
    }

    /// The grid with every cell the flood from `seeds` reaches through cells
    /// for which `passable` holds (4-connected) set, the rest clear.
    func reached(from seeds: [(x: Int, y: Int)], through passable: (Int, Int) -> Bool) -> CellGrid<Bool> {
        var reached = CellGrid(width: width, height: height, repeating: false)
        var stack = seeds.filter { passable($0.x, $0.y) }
        for seed in stack { reached[seed.x, seed.y] = true }
        while let (x, y) = stack.popLast() {
            forEachNeighbour4(x: x, y: y) { nx, ny in
                guard !reached[nx, ny] && passable(nx, ny) else { return }
                reached[nx, ny] = true
                stack.append((nx, ny))
            }
        }
        return reached
    }

    /// The largest 4-connected group of true cells (the first found, in
    /// row-major order of its first cell, among equals); nil when none is true.
    func largestComponent() -> CellGrid<Bool>? {
        var labels = CellGrid<Int>(width: width, height: height, repeating: 0)
        var best: (label: Int, area: Int)?
        var label = 0
        for y in 0..<height {
            for x in 0..<width where self[x, y] && labels[x, y] == 0 {
                label += 1
                labels[x, y] = label
                var stack = [(x, y)], area = 0
                while let (cx, cy) = stack.popLast() {
                    area += 1
                    forEachNeighbour4(x: cx, y: cy) { nx, ny in
                        guard self[nx, ny] && labels[nx, ny] == 0 else { return }
                        labels[nx, ny] = label
                        stack.append((nx, ny))
                    }
                }
                if best == nil || area > best!.area { best = (label, area) }
            }
        }
        guard let best else { return nil }
        return CellGrid(width: width, height: height, cells: labels.cells.map { $0 == best.label })
    }

    /// The grid with its holes filled: every cell that cannot be reached
    /// from the frame through clear cells (4-connected) set.
    func holesFilled() -> CellGrid<Bool> {
        var frame: [(x: Int, y: Int)] = []
        for y in 0..<height {
            for x in 0..<width where isOnFrame(x: x, y: y) { frame.append((x, y)) }
        }
        let outside = reached(from: frame) { !self[$0, $1] }
        return CellGrid(width: width, height: height, cells: outside.cells.map { !$0 })
    }

    /// 4-connected erosion, `times` times; beyond the frame counts as clear.
    func eroded(times: Int) -> CellGrid<Bool> {
        var grid = self
        for _ in 0..<times {
            let before = grid
            for y in 0..<height {
                for x in 0..<width where before[x, y] {
                    let kept = x > 0 && x < width - 1 && y > 0 && y < height - 1
                        && before[x - 1, y] && before[x + 1, y] && before[x, y - 1] && before[x, y + 1]
                    grid[x, y] = kept
                }
            }
        }
        return grid
    }

    /// 4-connected dilation, `times` times.
    func dilated(times: Int) -> CellGrid<Bool> {
        var grid = self
        for _ in 0..<times {
            let before = grid
            for y in 0..<height {
                for x in 0..<width where !before[x, y] {
                    grid[x, y] = (x > 0 && before[x - 1, y]) || (x < width - 1 && before[x + 1, y])
                        || (y > 0 && before[x, y - 1]) || (y < height - 1 && before[x, y + 1])
                }
            }
        }
        return grid
    }
}
