/// A box drawn or printed around a digit (a form's field, a label's frame):
/// one component whose ink runs along the four sides of its own box, with
/// ink in all four corners and almost none inside, around another
/// component large enough to be part of a digit. It would be read with the
/// digit ("not a digit", or the box's walls taken for a 1);
/// step 9 anchors the digit inside it instead (docs/decisions.md, "A frame
/// around the digit").
extension ConnectedComponents {
    /// The band along each side of a component's box, as a share of its
    /// shorter side, in which a frame's ink lies: room for a frame turned
    /// by about 7 degrees.
    static let frameBand = 0.12
    /// Each side's band holds ink along at least this share of its length:
    /// a hand-drawn box may have a gap.
    static let frameSideCover = 0.6
    /// At most this share of a frame's ink lies inside the bands.
    static let frameInterior = 0.1
    /// A frame is at least this many pixels wide and high.
    static let frameSmallestSide = 12

    /// The component to anchor the digit on instead of `anchor` when
    /// `anchor` is a frame around a candidate component (at least a tenth
    /// of its area, not faint beside it, its box inside the frame's): the
    /// heaviest component inside the frame; nil when `anchor` is no frame.
    /// A 0 has no ink in its box's corners and nothing inside it.
    static func inside(frame anchor: Int, in map: InkMap, labels: [Int32], components: [Component]) -> Int? {
        let box = components[anchor].box
        let candidates = candidates(components, beside: anchor)
        let enclosed = components.indices.filter { $0 != anchor && encloses(box, components[$0].box) }
        guard enclosed.contains(where: { candidates[$0] }), isFrame(anchor, in: map, labels: labels, box: box) else { return nil }
        return enclosed.min { heavierFirst($0, $1, in: components) }
    }

    /// The first of the `candidates` (components that may join a digit
    /// anchored on `anchor`) that is a frame around `anchor`; nil when
    /// there is none. A bold digit outweighs a thin box around it.
    static func frame(around anchor: Int, among candidates: [Bool], in map: InkMap, labels: [Int32], components: [Component]) -> Int? {
        components.indices.first { i in
            i != anchor && candidates[i] && encloses(components[i].box, components[anchor].box)
                && isFrame(i, in: map, labels: labels, box: components[i].box)
        }
    }

    /// Whether `inner` lies inside `outer` without touching its edges, and
    /// `outer` is large enough to be a frame (`frameSmallestSide`).
    static func encloses(_ outer: BoundingBox, _ inner: BoundingBox) -> Bool {
        outer.width >= frameSmallestSide && outer.height >= frameSmallestSide
            && inner.minX > outer.minX && inner.maxX < outer.maxX && inner.minY > outer.minY && inner.maxY < outer.maxY
    }

    /// Whether component `component` (whose box is `box`) runs along its box's
    /// four sides (`frameSideCover`), has ink in each corner square of the
    /// band's size and at most `frameInterior` of its ink inside the bands.
    static func isFrame(_ component: Int, in map: InkMap, labels: [Int32], box: BoundingBox) -> Bool {
        let band = max(2, Int((frameBand * Double(min(box.width, box.height))).rounded()))
        var top = [Bool](repeating: false, count: box.width), bottom = top
        var left = [Bool](repeating: false, count: box.height), right = left
        var corners = [false, false, false, false]
        var total = 0, interior = 0
        var k = 0
        map.forEachPixel { x, y, _ in
            defer { k += 1 }
            guard Int(labels[k]) - 1 == component else { return }
            total += 1
            let (dx, dy) = (x - box.minX, y - box.minY)
            let nearTop = dy < band, nearBottom = box.maxY - y < band
            let nearLeft = dx < band, nearRight = box.maxX - x < band
            if nearTop { top[dx] = true }
            if nearBottom { bottom[dx] = true }
            if nearLeft { left[dy] = true }
            if nearRight { right[dy] = true }
            if !(nearTop || nearBottom || nearLeft || nearRight) { interior += 1 }
            if nearTop && nearLeft { corners[0] = true }
            if nearTop && nearRight { corners[1] = true }
            if nearBottom && nearLeft { corners[2] = true }
            if nearBottom && nearRight { corners[3] = true }
        }
        func covered(_ side: [Bool]) -> Bool { Double(side.filter { $0 }.count) >= frameSideCover * Double(side.count) }
        return corners.allSatisfy { $0 } && covered(top) && covered(bottom) && covered(left) && covered(right)
            && Double(interior) <= frameInterior * Double(total)
    }
}
