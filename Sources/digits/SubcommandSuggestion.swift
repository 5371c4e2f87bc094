/// "did you mean 'classify'?" for a mistyped subcommand, which ArgumentParser
/// reports only as an unexpected argument.
enum SubcommandSuggestion {
    /// The subcommand `word` was most likely meant to be: the nearest of
    /// `names` within two edits (insert, delete, replace, swap two
    /// neighbours), or the only one it begins; nil for a known name or none near.
    static func suggestion(for word: String, among names: [String]) -> String? {
        guard !word.isEmpty, !word.hasPrefix("-"), !names.contains(word) else { return nil }
        let starting = names.filter { $0.hasPrefix(word) }
        if starting.count == 1 { return starting[0] }
        let scored = names.map { (name: $0, distance: distance(Array(word), Array($0))) }.filter { $0.distance <= 2 }
        guard let best = scored.min(by: { $0.distance < $1.distance }),
              scored.filter({ $0.distance == best.distance }).count == 1 else { return nil }
        return best.name
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
