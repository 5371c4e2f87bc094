import DigitKit

/// Fits the live screen of `digits stream` into the terminal: the region
/// as the model sees it at full size (28 lines of 56 columns) when there is
/// room, at half size (14 lines of 28) when not, and left out when even that
/// does not fit; the status lines are kept first. The last row stays free
/// for the cursor, so that drawing never scrolls the screen, and every line
/// is cut to the width (one column spare: a line that fills the last column
/// would have its last character erased by the clear-to-end that follows).
struct LiveScreenLayout {
    /// "digits stream: <source>" and the region and frame line.
    let heading: [String]
    /// now, stable, speed.
    let status: [String]

    /// The lines to draw for `tensor` (nil: no digit in the region) within
    /// `size` (nil: unknown, everything is drawn).
    func lines(picture tensor: DigitTensor?, in size: TerminalSize?) -> [String] {
        let rows = size.map { $0.rows - 1 } ?? Int.max
        let columns = size.map { $0.columns - 1 } ?? Int.max
        let frame = heading.count + 2 + status.count
        let side = DigitTensor.side
        let picture: [String]
        if rows >= frame + side && columns >= 2 * side {
            picture = Self.full(tensor)
        } else if rows >= frame + side / 2 && columns >= side {
            picture = Self.half(tensor)
        } else {
            let lines = status + heading
            return Array(lines.prefix(max(0, rows))).map { Self.cut($0, to: columns) }
        }
        return (heading + [""] + picture + [""] + status).map { Self.cut($0, to: columns) }
    }

    private static func cut(_ line: String, to columns: Int) -> String {
        line.count > columns ? String(line.prefix(max(0, columns))) : line
    }

    /// 28 lines, two characters a pixel (the view of `digits ascii`).
    private static func full(_ tensor: DigitTensor?) -> [String] {
        guard let tensor else { return placeholder(lines: DigitTensor.side, width: 2 * DigitTensor.side) }
        return AsciiRenderer().render(tensor).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// 14 lines of 28 characters: each character one pixel wide and two
    /// high (their mean), the shape a terminal cell has.
    private static func half(_ tensor: DigitTensor?) -> [String] {
        let side = DigitTensor.side
        guard let tensor else { return placeholder(lines: side / 2, width: side) }
        let renderer = AsciiRenderer()
        return stride(from: 0, to: side, by: 2).map { y in
            String((0..<side).map { x in
                let mean = (DigitTensor.intensity(ofNormalized: tensor[x, y]) + DigitTensor.intensity(ofNormalized: tensor[x, y + 1])) / 2
                return renderer.glyph(forIntensity: mean)
            })
        }
    }

    /// Blank lines with "(no digit in the region)" in the middle.
    private static func placeholder(lines: Int, width: Int) -> [String] {
        let text = "(no digit in the region)"
        let middle = String(repeating: " ", count: max(0, (width - text.count) / 2)) + text
        return (0..<lines).map { $0 == lines / 2 ? middle : "" }
    }
}
