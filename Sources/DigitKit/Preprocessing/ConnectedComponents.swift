/// Step 3c: finds the digit among the ink: 8-connected components of the
/// non-zero pixels, keeping those at least a tenth the size of the largest
/// and dropping the rest (isolated specks, dust, noise).
enum ConnectedComponents {
    struct Component {
        var area: Int
        var box: BoundingBox
    }

    /// The smallest largest-component area that counts as ink: 4 pixels, or a
    /// 10,000th of the picture.
    static func minimumArea(width: Int, height: Int) -> Int {
        max(4, Int((Double(width * height) * 0.0001).rounded(.up)))
    }

    /// Labels the non-zero pixels of `map`; returns the label of each pixel
    /// (0 for none, components numbered from 1 in row-major order of their
    /// first pixel) and the components.
    static func label(_ map: Raster) -> (labels: [Int32], components: [Component]) {
        let w = map.width, h = map.height
        var labels = [Int32](repeating: 0, count: w * h)
        var components: [Component] = []
        var stack: [Int] = []
        for start in 0..<(w * h) where map.values[start] > 0 && labels[start] == 0 {
            let id = Int32(components.count + 1)
            var component = Component(area: 0, box: BoundingBox(minX: start % w, minY: start / w, maxX: start % w, maxY: start / w))
            labels[start] = id
            stack.append(start)
            while let index = stack.popLast() {
                let x = index % w, y = index / w
                component.area += 1
                component.box.include(BoundingBox(minX: x, minY: y, maxX: x, maxY: y))
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, nx < w, ny >= 0, ny < h else { continue }
                        let neighbour = ny * w + nx
                        if map.values[neighbour] > 0 && labels[neighbour] == 0 {
                            labels[neighbour] = id
                            stack.append(neighbour)
                        }
                    }
                }
            }
            components.append(component)
        }
        return (labels, components)
    }

    /// The ink map with specks removed and the box around what is left, or
    /// nil when even the largest component is too small to be a digit.
    static func digit(in map: Raster) -> (map: Raster, box: BoundingBox)? {
        let (labels, components) = label(map)
        guard let largest = components.map(\.area).max(),
              largest >= minimumArea(width: map.width, height: map.height) else { return nil }
        let keep = components.map { $0.area * 10 >= largest }
        var cleaned = map
        var box: BoundingBox?
        for (i, component) in components.enumerated() where keep[i] {
            if box == nil { box = component.box } else { box!.include(component.box) }
        }
        for index in 0..<labels.count where labels[index] > 0 && !keep[Int(labels[index]) - 1] {
            cleaned.values[index] = 0
        }
        return (cleaned, box!)
    }
}
