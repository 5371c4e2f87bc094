import DigitKit

/// What is wrong with `reading`, the reader's answer for a picture `width`
/// by `height` pixels read with `length` (nil: any number of digits); empty
/// for a well-formed reading. Shared by ReaderPropertyTests and the
/// fuzzer (Fuzz/Sources/ReadFuzzer links this file).
package func readingProblems(_ reading: NumberReading, width: Int, height: Int, length: Int?) -> [String] {
    var problems: [String] = []
    let digits = reading.characters.compactMap { if case .digit(let digit) = $0.kind { digit } else { nil } }
    if let text = reading.text {
        if text.count != reading.characters.count { problems.append("text \(text) for \(reading.characters.count) characters") }
        if text.filter(\.isNumber).count != digits.count { problems.append("text \(text) for \(digits.count) digits") }
    } else if !reading.characters.isEmpty || reading.confidence != 0 {
        problems.append("no text, but \(reading.characters.count) characters and confidence \(reading.confidence)")
    }
    if !(reading.confidence.isFinite && (0...1).contains(reading.confidence)) {
        problems.append("confidence \(reading.confidence)")
    }
    if let length, !reading.ambiguous, reading.text != nil, digits.count != length {
        problems.append("\(digits.count) digits for length \(length), not marked ambiguous")
    }
    for character in reading.characters {
        let box = character.box
        if !(character.confidence.isFinite && (0...1).contains(character.confidence)) {
            problems.append("character confidence \(character.confidence)")
        }
        if case .digit(let digit) = character.kind, !(0...9).contains(digit) { problems.append("digit \(digit)") }
        if box.x < 0 || box.y < 0 || box.width < 1 || box.height < 1 || box.x + box.width > width || box.y + box.height > height {
            problems.append("box \(box) outside the \(width)x\(height) picture")
        }
    }
    let lefts = reading.characters.map(\.box.x)
    if lefts != lefts.sorted() { problems.append("characters not left to right: \(lefts)") }
    return problems
}
