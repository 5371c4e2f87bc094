import Foundation
import Testing
import TestSupport

/// The shipped model files carry no trace of the machine that trained them:
/// torch.jit's debug records name the training scripts by absolute path,
/// so `Models/portable_save.py` leaves them out and files every record
/// under `archive/`.
@Suite("Shipped model files")
struct ShippedModelFilesTests {
    @Test("no debug records, and every record under archive/",
          arguments: [Fixtures.shippedModel, Fixtures.shippedLineModel, Fixtures.shippedLocator])
    func portable(_ path: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data(".debug_pkl".utf8)) == nil, "\(path): run Models/portable_save.py on it")
        #expect(bytes.range(of: Data("archive/data.pkl".utf8)) != nil, "\(path)")
        // The zip's local file headers, one after another from the start:
        // the stored size at 18, the name's length at 26, the extra field's at 28, the name at 30.
        func little(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var names: [String] = []
        var at = bytes.startIndex
        while at + 30 <= bytes.endIndex, little(at, 4) == 0x0403_4B50 {
            let name = little(at + 26, 2), extra = little(at + 28, 2), stored = little(at + 18, 4)
            guard at + 30 + name <= bytes.endIndex else { break }
            names.append(String(decoding: bytes[(at + 30)..<(at + 30 + name)], as: UTF8.self))
            at += 30 + name + extra + stored
        }
        #expect(!names.isEmpty)
        #expect(names.allSatisfy { $0.hasPrefix("archive/") }, "\(names.filter { !$0.hasPrefix("archive/") })")
    }
}
