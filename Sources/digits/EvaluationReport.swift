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

    /// {"accuracy", "correct", "total", "no_digit", "confusion", "per_class", "images_per_second",
    ///  "forward_images_per_second", "ms_per_image", "forward_ms_per_image", "batch", "threads", "misclassified"}
    func json() -> String {
        let c = report.confusion
        var line = JSONLine()
        line.add("accuracy", report.accuracy)
        line.add("correct", c.correct)
        line.add("total", report.evaluated)
        line.add("no_digit", report.noDigit.count)
        line.addRaw("confusion", "[" + c.counts.map { "[" + $0.map(String.init).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]")
        let perClass = (0...9).map { digit in
            "{\"digit\": \(digit), \"precision\": \(c.precision(digit).map(JSONLine.number) ?? "null"), "
                + "\"recall\": \(c.recall(digit).map(JSONLine.number) ?? "null"), \"support\": \(c.support(digit))}"
        }
        line.addRaw("per_class", "[" + perClass.joined(separator: ", ") + "]")
        line.add("images_per_second", report.imagesPerSecond)
        line.add("forward_images_per_second", report.forwardImagesPerSecond)
        line.add("ms_per_image", report.totalSeconds * 1000 / Double(max(1, report.evaluated)))
        line.add("forward_ms_per_image", report.forwardSeconds * 1000 / Double(max(1, report.evaluated)))
        line.add("batch", batchSize)
        line.add("threads", threads)
        let mistakes = report.mistakes.map {
            "{\"index\": \($0.index), \"label\": \($0.label), \"predicted\": \($0.predicted), \"confidence\": \(JSONLine.number($0.confidence))}"
        }
        line.addRaw("misclassified", "[" + mistakes.joined(separator: ", ") + "]")
        return line.text
    }

    private func percent(_ value: Double) -> String { String(format: "%.2f%%", value * 100) }
    private func ms(_ seconds: Double) -> String { String(format: "%.3f", seconds * 1000 / Double(max(1, report.evaluated))) }
    private func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
}
