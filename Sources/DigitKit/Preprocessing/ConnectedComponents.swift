/// Step 9 (`DigitComponentsStage`): finds the digit among the ink:
/// 8-connected components of the non-zero pixels, keeping those at least a
/// tenth the size of the one holding the most ink (or, in located ink, of
/// the heaviest apart from it when it runs off the picture), not faint beside it, that lie
/// near it, and dropping the rest (isolated specks, dust, noise, faint
/// traces, and grain far from the digit on a photo), but for the dot of a
/// question or an exclamation mark under it (`dot(under:cluster:in:labels:components:)`).
enum ConnectedComponents {
    struct Component {
        var area: Int
        var box: BoundingBox
        /// The sum of the component's ink values, in row-major order.
        var mass = 0.0
    }

    /// The smallest largest-component area that counts as ink: 4 pixels, or a
    /// 10,000th of the picture.
    static func minimumArea(width: Int, height: Int) -> Int {
        max(4, Int((Double(width * height) * 0.0001).rounded(.up)))
    }

    /// Labels the pixels of `map`; returns the label of each (in the order
    /// of `map.indices`; components numbered from 1 in row-major order of
    /// their first pixel) and the components.
    static func label(_ map: InkMap) -> (labels: [Int32], components: [Component]) {
        // The flood fill runs on a grid one pixel larger than the map on
        // every side, whose frame is never ink, so that a pixel's eight
        // neighbours need no bounds checks and no division: the neighbours of
        // position (y + 1) * stride + x + 1, for x in 0..<width and y in
        // 0..<height, are that position plus one of `neighbours`, all inside
        // the grid's (height + 2) * stride cells.
        let stride = map.width + 2
        let neighbours = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1]
        var positions: [Int] = []
        positions.reserveCapacity(map.count)
        map.forEachPixel { x, y, _ in positions.append((y + 1) * stride + x + 1) }
        /// 0: no ink; -1: ink not labelled yet; above 0: the pixel's label.
        var grid = [Int32](repeating: 0, count: stride * (map.height + 2))
        var componentCount: Int32 = 0
        grid.withUnsafeMutableBufferPointer { grid in
            for position in positions { grid[position] = -1 }
            // A pixel is pushed only as it turns from -1 to a label, so at
            // most once: the stack never holds more than positions.count.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, positions.count)) { stack in
                neighbours.withUnsafeBufferPointer { neighbours in
                    for start in positions where grid[start] == -1 {
                        componentCount += 1
                        grid[start] = componentCount
                        stack[0] = start
                        var top = 1
                        while top > 0 {
                            top -= 1
                            let position = stack[top]
                            for offset in neighbours where grid[position + offset] == -1 {
                                grid[position + offset] = componentCount
                                stack[top] = position + offset
                                top += 1
                            }
                        }
                    }
                }
            }
        }
        let labels = positions.map { grid[$0] }
        // Areas and boxes in a second pass over the ink, where each pixel's
        // column and row come for free.
        let empty = Component(area: 0, box: BoundingBox(minX: .max, minY: .max, maxX: .min, maxY: .min))
        var components = [Component](repeating: empty, count: Int(componentCount))
        var k = 0
        map.forEachPixel { x, y, value in
            let c = Int(labels[k]) - 1
            k += 1
            components[c].area += 1
            components[c].mass += value
            components[c].box.include(BoundingBox(minX: x, minY: y, maxX: x, maxY: y))
        }
        return (labels, components)
    }

    /// What `digit(in:located:)` keeps of a map: see there.
    typealias Digit = (map: InkMap, box: BoundingBox, parts: [BoundingBox], kept: Int, found: Int)

    /// The ink map with specks removed, the box around what is left and
    /// the boxes of every component large enough to keep (those far from the
    /// digit too: a digit written beside it is one, and the picture holds
    /// several digits), or nil when the component holding the most ink is
    /// too small to be a digit. `located`: the ink locator chose `map`'s
    /// ink, so ink running off the picture is a pen it marked, not a desk's
    /// pattern the rules took for ink (`inside(insteadOf:in:width:height:)`).
    /// A frame around the digit is dropped (`frame(around:among:in:labels:components:)`,
    /// `inside(frame:in:labels:components:)`); the dot of a `?` or a `!` under it is kept
    /// (`dot(under:cluster:in:labels:components:)`).
    /// `kept` and `found` count the components kept and all the components.
    static func digit(in map: InkMap, located: Bool = false) -> Digit? {
        let (labels, components) = label(map)
        guard !components.isEmpty else { return nil }
        var anchor = heaviest(components)
        guard components[anchor].area >= minimumArea(width: map.width, height: map.height) else { return nil }
        if located, let inside = inside(insteadOf: anchor, in: components, width: map.width, height: map.height) { anchor = inside }
        var frame: Int?
        if let inside = inside(frame: anchor, in: map, labels: labels, components: components) { (frame, anchor) = (anchor, inside) }
        var candidates = candidates(components, beside: anchor)
        if frame == nil { frame = self.frame(around: anchor, among: candidates, in: map, labels: labels, components: components) }
        if let frame { candidates[frame] = false }
        var keep = near(anchor, in: components, among: candidates)
        if let dot = dot(under: anchor, cluster: keep, in: map, labels: labels, components: components) { keep[dot] = true }
        let kept = parts(of: map, labels: labels, components: components, keeping: keep)
        return (kept.map, kept.box, components.indices.filter { candidates[$0] }.map { components[$0].box },
                keep.filter { $0 }.count, components.count)
    }

    /// A component whose mean ink level is under this share of the heaviest
    /// component's is a faint trace, not a part of the digit: the edge of a
    /// shadow or of a sheet in shade, grain along a pencil stroke. Long and
    /// faint, such a trace passed the area test and stretched the digit's
    /// box (docs/decisions.md, "Faint traces").
    static let faintShare = 0.5

    /// The index of the component holding the most ink (the sum of its
    /// levels), the first of that mass (there must be one): the digit is
    /// gathered around it, and specks and faint traces are judged beside
    /// it. By ink, not by area: the shaded edge of a sheet or a shadow's
    /// rim can cover more pixels than the digit at a tenth of its level
    /// (docs/decisions.md, "The heaviest component").
    static func heaviest(_ components: [Component]) -> Int {
        components.indices.min { heavierFirst($0, $1, in: components) }!
    }

    /// Whether component `a` comes before `b`, heaviest first: more ink,
    /// or as much and the lower index.
    static func heavierFirst(_ a: Int, _ b: Int, in components: [Component]) -> Bool {
        components[a].mass > components[b].mass || components[a].mass == components[b].mass && a < b
    }

    /// The component to anchor the digit on instead of `anchor` when that
    /// one reaches the picture's edge: the heaviest of the candidates
    /// `anchor` would keep (a tenth of its area, not faint beside it) that
    /// does not reach the edge and whose cluster among them (`near`,
    /// anchored on it) leaves `anchor` out; nil when there is none. A pen or a pencil
    /// lying across a desk photo runs off the picture and outweighs the
    /// digit written on the sheet beside it; a digit cut by the frame (a
    /// tight crop) has no large ink apart from it, and a piece of it inside
    /// gathers the piece at the edge into its cluster (docs/decisions.md,
    /// "Ink running off the picture").
    static func inside(insteadOf anchor: Int, in components: [Component], width: Int, height: Int) -> Int? {
        func reachesEdge(_ box: BoundingBox) -> Bool {
            box.minX == 0 || box.minY == 0 || box.maxX == width - 1 || box.maxY == height - 1
        }
        guard reachesEdge(components[anchor].box) else { return nil }
        let candidates = candidates(components, beside: anchor)
        let inside = components.indices.filter { candidates[$0] && !reachesEdge(components[$0].box) }
        for i in inside.sorted(by: { heavierFirst($0, $1, in: components) }) {
            if !near(i, in: components, among: candidates)[anchor] { return i }
        }
        return nil
    }

    /// The components that may join a digit anchored on `anchor`: at least
    /// a tenth of its area and not faint beside it.
    static func candidates(_ components: [Component], beside anchor: Int) -> [Bool] {
        notFaint(components, beside: anchor, among: components.map { $0.area * 10 >= components[anchor].area })
    }

    /// Which of the `candidates` are not faint beside component `anchor`:
    /// mean level (mass / area) at least `faintShare` of its.
    static func notFaint(_ components: [Component], beside anchor: Int, among candidates: [Bool]) -> [Bool] {
        let mean = components[anchor].mass / Double(components[anchor].area)
        return components.indices.map { i in
            candidates[i] && components[i].mass / Double(components[i].area) >= faintShare * mean
        }
    }

    /// A component is near when the gap between its box and the cluster's is
    /// at most this share of the cluster's longer side.
    static let nearShare = 0.5

    /// Component `anchor` and the `candidates` that lie near it: starting
    /// from its box, each pass over the components in order adds every
    /// candidate whose box lies within `nearShare` of the cluster's longer
    /// side (as it was when the pass began) of the cluster's box, and grows
    /// the box; until a pass adds none. The pieces of a pencil digit broken
    /// by the paper's grain lie near each other; grain and dust elsewhere on
    /// the photo, which would stretch the digit's box, do not.
    static func near(_ anchor: Int, in components: [Component], among candidates: [Bool]) -> [Bool] {
        var near = components.indices.map { $0 == anchor }
        var cluster = components[anchor].box
        var grown = true
        while grown {
            grown = false
            let reach = nearShare * Double(max(cluster.width, cluster.height))
            for (i, component) in components.enumerated() where candidates[i] && !near[i] {
                if Double(cluster.gap(to: component.box)) <= reach {
                    near[i] = true
                    grown = true
                    cluster.include(component.box)
                }
            }
        }
        return near
    }

    /// `map` with only its components of at least 1/`share` of the largest
    /// one's area, the box around them and their boxes. `labels` and
    /// `components` are `label(map)`'s, which must find at least one.
    static func largeParts(of map: InkMap, labels: [Int32], components: [Component], share: Int)
        -> (map: InkMap, box: BoundingBox, parts: [BoundingBox])
    {
        parts(of: map, labels: labels, components: components, keeping: large(components, share: share))
    }

    /// Which components have at least 1/`share` of the largest one's area
    /// (there must be one).
    static func large(_ components: [Component], share: Int) -> [Bool] {
        let largest = components.map(\.area).max()!
        return components.map { $0.area * share >= largest }
    }

    /// `map` with only the components for which `keep` is true (at least
    /// one), the box around them and their boxes.
    static func parts(of map: InkMap, labels: [Int32], components: [Component], keeping keep: [Bool])
        -> (map: InkMap, box: BoundingBox, parts: [BoundingBox])
    {
        var box: BoundingBox?
        for (i, component) in components.enumerated() where keep[i] {
            if box == nil { box = component.box } else { box!.include(component.box) }
        }
        let parts = components.indices.filter { keep[$0] }.map { components[$0].box }
        return (map.filtered { keep[Int(labels[$0]) - 1] }, box!, parts)
    }
}
