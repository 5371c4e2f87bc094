import DigitsJSON
import DigitKit
import Foundation

/// How `eval` writes its report, as text or as one JSON object.
struct EvaluationReport {
    let report: Evaluator.Report
    let batchSize: Int
    let threads: Int

    func text(show: Bool) -> String {
        let c = report.confusion
        var out = "accuracy: \(percent(report.accuracy)) (\(c.correct)/\(report.evaluated))\n"
        if !report.noDigit.isEmpty { out += "no digit found: \(report.noDigit.count) images (counted wrong)\n" }
        if !report.notADigit.isEmpty { out += "not a digit: \(report.notADigit.count) images (counted wrong)\n" }
        out += "\nper digit:  precision  recall  support\n"
        for digit in 0...9 {
            out += "  \(digit)        \(pad(c.precision(digit).map(percent) ?? "-", 9))  \(pad(c.recall(digit).map(percent) ?? "-", 6))  \(pad(String(c.support(digit)), 7))\n"
        }
        out += "\nconfusion (rows: true digit, columns: predicted):\n       " + (0...9).map { pad(String($0), 5) }.joined() + "\n"
        for truth in 0...9 {
            out += "  \(truth)    " + c.counts[truth].map { pad(String($0), 5) }.joined() + "\n"
        }
        if !report.mistakes.isEmpty {
            out += "\nmost confident mistakes:\n"
            for mistake in report.mistakes {
                out += "  #\(mistake.index): true \(mistake.label), predicted \(mistake.predicted) (\(percent(mistake.confidence)))\n"
                if show { out += AsciiRenderer().render(mistake.tensor) }
            }
        }
        out += "\nspeed (batch \(batchSize), \(threads) thread\(threads == 1 ? "" : "s")): "
        out += "\(Int(report.imagesPerSecond.rounded())) images/s end to end (\(ms(report.totalSeconds)) ms/image), "
        out += "\(Int(report.forwardImagesPerSecond.rounded())) images/s forward only (\(ms(report.forwardSeconds)) ms/image)\n"
        return out
    }

    /// The `--json` line (EvaluationLine).
    func json() -> String {
        let c = report.confusion
        let evaluated = Double(max(1, report.evaluated))
        return JSONLineEncoder().line(EvaluationLine(
            accuracy: report.accuracy, correct: c.correct, total: report.evaluated, noDigit: report.noDigit.count, notADigit: report.notADigit.count,
            confusion: c.counts,
            perClass: (0...9).map {
                EvaluationLine.DigitScores(digit: $0, precision: c.precision($0), recall: c.recall($0), support: c.support($0))
            },
            imagesPerSecond: report.imagesPerSecond, forwardImagesPerSecond: report.forwardImagesPerSecond,
            msPerImage: report.totalSeconds * 1000 / evaluated, forwardMsPerImage: report.forwardSeconds * 1000 / evaluated,
            batch: batchSize, threads: threads,
            misclassified: report.mistakes.map {
                EvaluationLine.Mistake(index: $0.index, label: $0.label, predicted: $0.predicted, confidence: $0.confidence)
            }))
    }

    private func percent(_ value: Double) -> String { String(format: "%.2f%%", value * 100) }
    private func ms(_ seconds: Double) -> String { String(format: "%.3f", seconds * 1000 / Double(max(1, report.evaluated))) }
    private func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
}
