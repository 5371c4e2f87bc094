import ArgumentParser
import DigitKit

/// Which pictures a command reads: files and folders as arguments, a list
/// of paths, images on standard input, and the share of them this process
/// takes. Shared by classify, read and preprocess.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("files-from"), help: ArgumentHelp(
        "Also read the paths in this list file, one per line (- for standard input), after the arguments.", valueName: "list"),
        completion: .file())
    var filesFrom: String?

    @Flag(name: [.customShort("0"), .customLong("null")], help: "The --files-from list is NUL-separated (find -print0), for names with newlines.")
    var nullSeparated = false

    @Flag(name: [.short, .long], help: "Take every picture inside folders given as arguments, and in their sub-folders, sorted by name; other files are counted, not read.")
    var recursive = false

    // Parsed in validate() rather than as ExpressibleByArgument: a value that
    // fails to convert takes ArgumentParser 1.x down an error path that leaks
    // (LeakSanitizer fails the run), and our message says more.
    @Option(name: .customLong("shard"), parsing: .unconditional, help: ArgumentHelp(
        "Take only shard I of N (0 <= I < N): inputs I, I+N, I+2N, ... of the whole list, for N processes sharing the work.",
        valueName: "I/N"))
    var shardArgument: String?

    @Argument(help: ArgumentHelp("Image files or (with --recursive) folders; - reads standard input (the overview above says what it may hold).", valueName: "file"),
              completion: .file())
    var files: [String] = []

    func validate() throws {
        if files.isEmpty && filesFrom == nil {
            throw ValidationError("give at least one image file (or - for standard input, or --files-from LIST)")
        }
        if files.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("standard input (-) can be read only once")
        }
        if filesFrom == "-" && files.contains("-") {
            throw ValidationError("standard input cannot hold both the --files-from list and images (-)")
        }
        if nullSeparated && filesFrom == nil {
            throw ValidationError("-0 describes the --files-from list; give --files-from too")
        }
        if let shardArgument {
            do { _ = try InputShard(parsing: shardArgument) } catch { throw ValidationError("--shard: \(error.message)") }
        }
    }

    /// --shard, parsed (validate() has checked it).
    var shard: InputShard? {
        shardArgument.flatMap { try? InputShard(parsing: $0) }
    }

    /// Every input, lazily, in order: the arguments (a folder expanded with
    /// --recursive, "-" to the images on standard input, or to one picture
    /// when `standardInputHoldsOne`), then the list;
    /// then this process's shard of them. Paths keep the bytes they were
    /// given as (RawArguments). What a folder walk leaves out goes to `skipped`.
    /// `counted`, if given, learns how many inputs there were once the
    /// last has been taken (a progress bar's total for folders and lists).
    func inputs(skipped: SkippedFiles? = nil, standardInputHoldsOne: Bool = false,
                counted: (@Sendable (Int) -> Void)? = nil) -> InputSequence {
        let (files, recursive, shard) = (RawArguments.paths(self.files), self.recursive, self.shard)
        let list = filesFrom.map { (RawArguments.path($0), nullSeparated ? FileList.Separator.nul : .newline) }
        return InputSequence {
            let arguments = files.lazy.flatMap { argument -> AnySequence<ClassificationInput> in
                if argument.isStandardInput {
                    return standardInputHoldsOne ? AnySequence(CollectionOfOne(.file(argument))) : AnySequence(ConcatenatedImages())
                }
                guard Self.isFolder(argument) else { return AnySequence(CollectionOfOne(.file(argument))) }
                if recursive { return AnySequence(ImageFolder(path: argument) { skipped?.add($0, under: argument) }) }
                let error = DigitError(.unreadableFile, "is a folder; add --recursive to take the images in it")
                return AnySequence(CollectionOfOne(ClassificationInput(source: .failure(error), origin: InputOrigin(path: argument))))
            }
            let listed = list.map { AnySequence(FileList(path: $0.0, separator: $0.1)) } ?? AnySequence([])
            let all = [AnySequence(arguments), listed].lazy.joined()
            let selected = (shard.map { AnySequence($0.selectPictures(all)) } ?? AnySequence(all)).makeIterator()
            var taken = 0
            return AnyIterator {
                guard let next = selected.next() else {
                    counted?(taken)
                    return nil
                }
                taken += 1
                return next
            }
        }
    }

    /// The number of inputs, when it is known before reading any: plain
    /// files as arguments (no folder, list or standard input).
    var knownCount: Int? {
        guard filesFrom == nil, !files.contains("-"), !RawArguments.paths(files).contains(where: Self.isFolder) else { return nil }
        guard let shard else { return files.count }
        return (0..<files.count).filter { shard.contains(position: $0) }.count
    }

    /// Whether the arguments name one picture alone: a single file or "-",
    /// no folder and no list.
    var namesOnePicture: Bool {
        filesFrom == nil && files.count == 1 && !RawArguments.paths(files).contains(where: Self.isFolder)
    }

    /// Whether `path` is a folder, or a link to one.
    static func isFolder(_ path: InputPath) -> Bool {
        !path.isStandardInput && path.isFolder
    }
}
