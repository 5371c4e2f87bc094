import DigitKit
import Synchronization

/// What `--recursive` walks left out as not pictures (ImageFolder), told
/// once per folder argument at the end of a run, on stderr:
/// "digits: scans: 2 files skipped, not pictures (the first: scans/notes.txt)".
/// The walks run on worker threads, hence the lock.
final class SkippedFiles: Sendable {
    private let walks = Mutex<[(folder: InputPath, skipped: ImageFolder.Skipped)]>([])

    func add(_ skipped: ImageFolder.Skipped, under folder: InputPath) {
        guard skipped.count > 0 else { return }
        walks.withLock { $0.append((folder, skipped)) }
    }

    /// One line per folder that had files left out.
    var lines: [String] {
        walks.withLock { walks in
            walks.map { walk in
                let files = walk.skipped.count == 1 ? "1 file" : "\(walk.skipped.count) files"
                let first = walk.skipped.first.map { walk.skipped.count == 1 ? " (\($0))" : " (the first: \($0))" } ?? ""
                return "\(walk.folder): \(files) skipped, not pictures\(first)"
            }
        }
    }

    /// Reports each folder's line on stderr.
    func report() {
        for line in lines { StandardError.report(line) }
    }
}
