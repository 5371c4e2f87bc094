import DigitKit

/// When a number's reading is marked uncertain: its confidence is below the
/// threshold, two readings are about as likely, touching digits may hide in
/// it, or the reader warned (a character it cannot read, a "not a digit"
/// piece). One rule for `read` and `POST /v1/read`.
package struct ReadingUncertainty: Sendable {
    package let uncertainBelow: Double

    package init(uncertainBelow: Double) {
        self.uncertainBelow = uncertainBelow
    }

    package func isUncertain(_ reading: NumberReading) -> Bool {
        reading.confidence < uncertainBelow || reading.ambiguous || reading.mayHoldTouchingDigits || !reading.warnings.isEmpty
    }
}
