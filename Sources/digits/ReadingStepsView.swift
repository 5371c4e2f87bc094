import DigitKit

/// Draws how `digits read --steps` cut a picture into characters: what each
/// step that found the ink decided (as `ascii --steps` prints them), the ink
/// the reader found (NumberReader.inkSteps), shrunk to fit the terminal,
/// and under it each character's box as [ ] with what was read in it
/// (boxes that overlap, as overlapping digits' do, on rows of their own).
enum ReadingStepsView {
    /// The widest drawing, in picture cells (two characters each).
    static let maxSide = 48

    static func render(steps: NumberInkSteps, reading: NumberReading, pictureWidth: Int, renderer: AsciiRenderer) -> String {
        let decisions = steps.analysis.lines.map { $0 + "\n" }.joined()
        guard let ink = steps.picture else { return decisions + "no ink to cut into characters\n" }
        // Rows without ink above and below the number are left out.
        let rows = renderer.renderPreview(ink, maxSide: maxSide).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let inked = rows.indices.filter { rows[$0].contains { $0 != " " } }
        let drawing = inked.isEmpty ? "" : rows[inked.first!...inked.last!].joined(separator: "\n") + "\n"
        let columns = rows.first?.count ?? 0
        var text = decisions + "the ink, with what was read in each box:\n" + drawing
        guard !reading.characters.isEmpty, columns > 0 else { return text + "(nothing read)\n" }
        // Picture columns to drawing columns.
        let scale = Double(columns) / Double(pictureWidth)
        // Boxes that share columns (digits that overlap) go on rows of their
        // own, each row of boxes with its labels under it.
        var rowsOfBoxes: [[(left: Int, right: Int, text: String)]] = []
        for character in reading.characters {
            let left = min(columns - 1, Int(Double(character.box.x) * scale))
            let right = max(left, min(columns, Int(Double(character.box.x + character.box.width) * scale) - 1))
            let box = (left, right, character.text)
            if let row = rowsOfBoxes.firstIndex(where: { $0.allSatisfy { $0.right <= left } }) {
                rowsOfBoxes[row].append(box)
            } else {
                rowsOfBoxes.append([box])
            }
        }
        for row in rowsOfBoxes {
            var boxes = [Character](repeating: " ", count: columns + 1)
            var labels = [Character](repeating: " ", count: columns + 1)
            for (left, right, label) in row {
                boxes[left] = boxes[left] == "]" ? "|" : "["
                boxes[right] = boxes[right] == "[" ? "|" : "]"
                for (offset, letter) in label.enumerated() where (left + right) / 2 + offset <= columns {
                    labels[(left + right) / 2 + offset] = letter
                }
            }
            text += String(boxes).trimmingSuffixSpaces() + "\n" + String(labels).trimmingSuffixSpaces() + "\n"
        }
        return text
    }
}

private extension String {
    func trimmingSuffixSpaces() -> String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
