import DigitKit
import Hummingbird

/// The options a request gives as query parameters, each checked as the
/// CLI checks its flags; a bad one is a 400 "bad_option" naming it.
struct QueryOptions {
    let parameters: [String: String]

    init(_ request: Request) {
        var parameters: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { parameters[String(name)] = String(value) }
        self.parameters = parameters
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = parameters[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .badOption("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(text.debugDescription)")
        }
        return value
    }

    func probability(_ name: String) throws(APIError) -> Double? {
        guard let text = parameters[name] else { return nil }
        guard let value = Double(text), (0...1).contains(value) else {
            throw .badOption("\(name) must be a probability from 0 to 1, got \(text.debugDescription)")
        }
        return value
    }

    func flag(_ name: String) throws(APIError) -> Bool {
        guard let text = parameters[name] else { return false }
        switch text.lowercased() {
        case "true", "1", "yes", "": return true
        case "false", "0", "no": return false
        default: throw .badOption("\(name) must be true or false, got \(text.debugDescription)")
        }
    }

    var classify: ClassifyOptions {
        get throws(APIError) {
            var options = ClassifyOptions()
            options.top = try integer("top", in: 1...10)
            options.raw = try flag("raw")
            if let text = parameters["invert"] {
                guard let inversion = Preprocessor.Inversion(rawValue: text) else {
                    throw .badOption("invert must be auto, always or never, got \(text.debugDescription)")
                }
                guard !options.raw || inversion == .auto else {
                    throw .badOption("invert has no effect with raw, which keeps the picture as it is")
                }
                options.inversion = inversion
            }
            if let threshold = try probability("uncertain_below") { options.uncertainty = UncertaintyRule(uncertainBelow: threshold) }
            options.includePreprocessed = try flag("preprocessed")
            return options
        }
    }

    var read: ReadOptions {
        get throws(APIError) {
            var options = ReadOptions()
            options.length = try integer("length", in: 1...64)
            if let threshold = try probability("uncertain_below") { options.uncertainBelow = threshold }
            return options
        }
    }
}
