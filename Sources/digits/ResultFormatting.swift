import DigitKit
import DigitsJSON
import Foundation

/// How `classify` writes one result: a text line, a JSON line or a CSV row.
struct ResultFormatting {
    /// Below this confidence a prediction is marked uncertain, unless --uncertain-below says otherwise.
    static let defaultUncertainBelow = UncertaintyRule.defaultThreshold
    static let noDigitReason = ClassificationLine.noDigitReason
    static let notADigitReason = ClassificationLine.notADigitReason

    let format: OutputFormat
    /// --top K, if given.
    let top: Int?
    /// When a prediction is marked uncertain: DigitKit's rule, with --uncertain-below.
    let uncertainty: UncertaintyRule

    init(format: OutputFormat, top: Int?, uncertainBelow: Double) {
        self.format = format
        self.top = top
        self.uncertainty = UncertaintyRule(uncertainBelow: uncertainBelow)
    }

    /// The CSV header row; nil for the other formats.
    var header: String? {
        format == .csv ? CSVRow.text(CSVRow.columns) : nil
    }

    /// The line for one result on standard output; nil for a failed input in
    /// text mode, which is reported on standard error only.
    func line(for result: ClassificationResult) -> String? {
        switch format {
        case .text: return textLine(result)
        case .json: return jsonLine(result)
        case .csv: return CSVRow.text(csvFields(result))
        }
    }

    /// "seven.png: 7 (99.8%)", "(41.0%, uncertain)" below the threshold,
    /// "(91.2%, uncertain: several digits)" with warnings, then the ranking
    /// when `top` > 1; "letter.png: not a digit (99.1%)", then the ranking
    /// whenever `top` is given, since no digit is named before it;
    /// "blank.png: no digit found".
    func textLine(_ result: ClassificationResult) -> String? {
        let label = result.origin.label
        switch result.outcome {
        case .failed: return nil
        case .noDigit: return "\(label): \(Self.noDigitReason)"
        case .notADigit(let prediction):
            return "\(label): \(Self.notADigitReason) (\(Self.percent(prediction.notADigit)))" + ranking(prediction, from: 1)
        case .digit(let prediction):
            let reasons = result.warnings.map(\.rawValue).joined(separator: ", ")
            let marker = result.isUncertain(under: uncertainty) ? (reasons.isEmpty ? ", uncertain" : ", uncertain: \(reasons)") : ""
            return "\(label): \(prediction.digit) (\(Self.percent(prediction.confidence))\(marker))" + ranking(prediction, from: 2)
        }
    }

    /// "  top 3: 7 99.8%, 1 0.1%, 4 0.0%" when `top` is at least `least`, else "".
    private func ranking(_ prediction: Prediction, from least: Int) -> String {
        guard let top, top >= least else { return "" }
        return "  top \(top): " + prediction.top(top).map { "\($0.digit) \(Self.percent($0.probability))" }.joined(separator: ", ")
    }

    /// The `--json` line for one result (ClassificationLine).
    func jsonLine(_ result: ClassificationResult) -> String {
        let outcome = result.classification(under: uncertainty).map { ClassificationLine.Outcome($0, top: top) }
            ?? .error(result.error?.message ?? "")
        return JSONLineEncoder().line(ClassificationLine(file: JSONFileName(result.origin.path), index: result.origin.indexInSource, outcome: outcome))
    }

    /// The fields of CSVRow.columns for one result. The file is the path as
    /// given when it is UTF-8 (CSV quotes line breaks), else escaped as text
    /// shows it (InputPath.escaped).
    func csvFields(_ result: ClassificationResult) -> [String] {
        let file = result.origin.path.escaped(keepingControlCharacters: true), index = result.origin.indexInSource.map(String.init) ?? ""
        switch result.outcome {
        case .failed(let error): return [file, index, "error", "", "", "", error.message]
        case .noDigit: return [file, index, "no_digit", "", "", "", Self.noDigitReason]
        case .notADigit(let prediction):
            return [file, index, "not_a_digit", "", JSONText.number(prediction.notADigit), "", Self.notADigitReason]
        case .digit(let prediction):
            return [file, index, "digit", String(prediction.digit), JSONText.number(prediction.confidence),
                    String(result.isUncertain(under: uncertainty)), result.warnings.map(\.rawValue).joined(separator: "; ")]
        }
    }

    static func percent(_ probability: Double) -> String {
        String(format: "%.1f%%", probability * 100)
    }
}

/// One row of RFC 4180 CSV.
enum CSVRow {
    /// The columns of `classify --format csv`.
    static let columns = ["file", "index", "status", "digit", "confidence", "uncertain", "message"]

    /// The fields joined by commas; a field holding a comma, a double quote,
    /// a line break or a leading or trailing space is quoted, its quotes doubled.
    static func text(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",")
    }

    static func quoted(_ field: String) -> String {
        // Scalars, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
        let needsQuotes = field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || field.first == " " || field.last == " "
        return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
