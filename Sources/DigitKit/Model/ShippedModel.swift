#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Finds the model that ships with digits (Models/digits.pt in the
/// repository, share/digits/digits.pt in an install), for the CLI and for
/// programs that depend on DigitKit, without a path written into them.
public enum ShippedModel {
    /// The environment variable that names a model file and wins over the search.
    public static let environmentVariable = "DIGITS_MODEL"
    /// The environment variable that names a line model file (LineModel)
    /// and wins over the search for `lineFileName`.
    public static let lineEnvironmentVariable = "DIGITS_LINE_MODEL"
    /// The environment variable that names an ink locator file (InkLocator)
    /// and wins over the search for `locatorFileName`.
    public static let locatorEnvironmentVariable = "DIGITS_LOCATOR"
    /// The file names of the digit model, of the line model that reads
    /// runs of touching digits and of the ink locator (Models/README.md
    /// describes them).
    static let fileName = "digits.pt", lineFileName = "digit-line.pt", locatorFileName = "locator.pt"
    /// Where the model lives in a checkout of the repository.
    static let checkoutPath = "Models/\(fileName)"
    /// Where `scripts/install` puts it, relative to the executable's folder.
    static let installedPath = "../share/digits/\(fileName)"

    /// The model file, searched in this order:
    /// 1. $DIGITS_MODEL, if set;
    /// 2. Models/digits.pt in the executable's folder, the current folder, or
    ///    any folder above either (the repository's own builds and tests);
    /// 3. Models/digits.pt in a SwiftPM or Xcode checkout of this package
    ///    above the executable (`.build/checkouts/<name>/`,
    ///    `SourcePackages/checkouts/<name>/`): a program that depends on
    ///    DigitKit, built with SwiftPM;
    /// 4. ../share/digits/digits.pt beside the executable (an install);
    /// 5. Models/digits.pt in the package DigitKit was compiled from (a
    ///    local path dependency, `.package(path:)`, whose checkout is not
    ///    above the program that uses it).
    public static func path() throws(DigitError) -> String {
        if let fromEnvironment = environment(environmentVariable) { return fromEnvironment }
        let candidates = searchPaths(for: fileName)
        if let found = candidates.first(where: { access($0, R_OK) == 0 }) { return found }
        throw DigitError(.modelNotFound, "no model found: set \(environmentVariable) or load one by its path (\(searched))")
    }

    /// Where the search looks, in words, for the errors that say nothing was found.
    public static let searched = "looked for \(checkoutPath) above the executable and the current directory, in SwiftPM checkouts of digits, for \(installedPath) beside the executable, and in the digits package DigitKit was built from"

    /// Loads the shipped model (`path()`).
    public static func load() throws(DigitError) -> DigitModel {
        try DigitModel(path: path())
    }

    /// The line model file: $DIGITS_LINE_MODEL if set, else `lineFileName`
    /// beside `digitModel` (the digit model in use, wherever it came from;
    /// by default the one `path()` finds), else searched for as `path()` searches for the digit model; nil when
    /// there is none (a reader then cuts touching digits instead).
    public static func linePath(besideDigitModel digitModel: String? = nil) -> String? {
        companionPath(lineFileName, environmentVariable: lineEnvironmentVariable, besideDigitModel: digitModel)
    }

    /// The ink locator file: $DIGITS_LOCATOR if set, else `locatorFileName`
    /// beside `digitModel` (by default the one `path()` finds), else searched for as `path()` searches for the
    /// digit model; nil when there is none (the rules alone then find the ink).
    public static func locatorPath(besideDigitModel digitModel: String? = nil) -> String? {
        companionPath(locatorFileName, environmentVariable: locatorEnvironmentVariable, besideDigitModel: digitModel)
    }

    /// Where `locatorPath(besideDigitModel:)` looks, in words.
    public static func locatorSearched(besideDigitModel digitModel: String?) -> String {
        let beside = (digitModel ?? (try? path())).map { "beside \($0), " } ?? ""
        return "set \(locatorEnvironmentVariable), or put \(locatorFileName) \(beside)where \(fileName) is searched for"
    }

    /// A model file that goes with the digit model: named by `environmentVariable`,
    /// else `name` beside `digitModel` (nil: the one `path()` finds, which
    /// $DIGITS_MODEL may name), else searched for as the digit model is.
    private static func companionPath(_ name: String, environmentVariable: String, besideDigitModel digitModel: String?) -> String? {
        if let fromEnvironment = environment(environmentVariable) { return fromEnvironment }
        let beside = (digitModel ?? (try? path())).map { ["\(parent($0))/\(name)"] } ?? []
        return (beside + searchPaths(for: name)).first { access($0, R_OK) == 0 }
    }

    /// Where `linePath(besideDigitModel:)` looks, in words, for the warning
    /// that none was found.
    public static func lineSearched(besideDigitModel digitModel: String?) -> String {
        let beside = (digitModel ?? (try? path())).map { "beside \($0), " } ?? ""
        return "set \(lineEnvironmentVariable), or put \(lineFileName) \(beside)where \(fileName) is searched for"
    }

    /// The value of the environment variable `name`; nil when unset or empty.
    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Every place looked at for the model file `name`, in order.
    static func searchPaths(for name: String) -> [String] {
        let checkoutPath = "Models/\(name)", installedPath = "../share/digits/\(name)"
        let executableFolder = executablePath().map(parent)
        var paths: [String] = []
        for start in [executableFolder, currentFolder()].compactMap({ $0 }) {
            paths += ancestors(of: start).map { "\($0)/\(checkoutPath)" }
        }
        if let executableFolder {
            for folder in ancestors(of: executableFolder) {
                for checkouts in ["\(folder)/checkouts", "\(folder)/SourcePackages/checkouts"] {
                    paths += subfolders(of: checkouts).map { "\($0)/\(checkoutPath)" }
                }
            }
            paths.append("\(executableFolder)/\(installedPath)")
        }
        paths.append("\(sourcePackageRoot)/\(checkoutPath)")
        return paths
    }

    /// The root of the digits package this file was compiled in: four
    /// levels above Sources/DigitKit/Model/ShippedModel.swift.
    static let sourcePackageRoot: String = {
        var path = #filePath
        for _ in 0..<4 { path = parent(path) }
        return path
    }()

    /// The running executable, links resolved (/proc/self/exe).
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func currentFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` without its last component ("/" stays "/").
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `folder`, its parent, and so on up to the root.
    static func ancestors(of folder: String) -> [String] {
        var folders = [folder]
        while let last = folders.last, last != "/", parent(last) != last {
            folders.append(parent(last))
        }
        return folders.map { $0 == "/" ? "" : $0 }
    }

    /// The folders inside `folder`, sorted; none if it cannot be read.
    static func subfolders(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted().map { "\(folder)/\($0)" }
    }
}

extension DigitModel {
    /// The model that ships with digits, wherever this program runs from
    /// (`ShippedModel.path()` says where it is looked for).
    public static func shipped() throws(DigitError) -> DigitModel {
        try ShippedModel.load()
    }
}

extension InkLocator {
    /// The ink locator that ships with digits, looked for beside
    /// `digitModel` first (`ShippedModel.locatorPath(besideDigitModel:)`).
    /// Throws `modelNotFound`, saying where it looked, when there is none.
    public static func shipped(besideDigitModel digitModel: String? = nil) throws(DigitError) -> InkLocator {
        guard let path = ShippedModel.locatorPath(besideDigitModel: digitModel) else {
            throw DigitError(.modelNotFound, "no ink locator found: \(ShippedModel.locatorSearched(besideDigitModel: digitModel))")
        }
        return try InkLocator(path: path)
    }
}

extension LineModel {
    /// The line model that ships with digits, looked for beside
    /// `digitModel` first (`ShippedModel.linePath(besideDigitModel:)`).
    /// Throws `modelNotFound`, saying where it looked, when there is none:
    /// without one a reader cuts touching digits apart, which reads them
    /// worse, so that is a choice to make (`try? LineModel.shipped()`), not
    /// something to happen unseen. A file that is found but does not load throws too.
    public static func shipped(besideDigitModel digitModel: String? = nil) throws(DigitError) -> LineModel {
        guard let path = ShippedModel.linePath(besideDigitModel: digitModel) else {
            throw notFound(besideDigitModel: digitModel)
        }
        return try LineModel(path: path)
    }

    /// The error for no line model anywhere it is looked for.
    static func notFound(besideDigitModel digitModel: String?) -> DigitError {
        DigitError(.modelNotFound, "no line model found: \(ShippedModel.lineSearched(besideDigitModel: digitModel))")
    }
}
