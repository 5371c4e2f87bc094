/// Decodes a line model's frames (CTC: blank or a digit per frame, a digit
/// repeated over adjacent frames written once) into the best reading with
/// each number of digits: a Viterbi search over the frames whose state is
/// the digits emitted so far and the frame's class, so that `--length` can
/// ask for a count, and a count close to the best one makes the reading
/// ambiguous (PieceCountChoice), as for cut glyphs.
struct LineDecoding {
    /// One digit of a reading and the frames it owns: from its first frame
    /// to the frame before the next digit's first (the first digit also owns
    /// the blank frames before it), so that the digits' log-probabilities
    /// add up to the path's.
    struct Character: Equatable {
        let digit: Int
        /// The log-probability of the path over the frames this digit owns.
        let logProbability: Double
        /// The frames where the model wrote the digit (its peak).
        let firstFrame: Int, lastFrame: Int
    }

    /// The most digits searched for: more than a line of any real number holds.
    static let mostCharacters = 24

    /// `best[n - 1]`: the most probable path with exactly n digits and its
    /// log-probability; nil where no path has n digits.
    let best: [(score: Double, characters: [Character])?]

    /// Decodes `frames`, each holding LineModel.classCount log-probabilities
    /// (class 0 blank, class d + 1 digit d).
    init(_ frames: [[Float]]) {
        let classes = LineModel.classCount
        let frameCount = frames.count
        let most = min(Self.mostCharacters, frameCount)
        guard most > 0 else { best = []; return }
        let states = (most + 1) * classes  // state n * classes + c: n digits so far, this frame's class c
        var score = [Double](repeating: -.infinity, count: states)
        // back[t * states + s]: the class of frame t - 1 on the best path into state s at frame t.
        var back = [Int8](repeating: -1, count: frameCount * states)
        score[0] = Double(frames[0][0])
        for c in 1..<classes { score[classes + c] = Double(frames[0][c]) }
        var next = score
        for t in 1..<frameCount {
            for s in 0..<states { next[s] = -.infinity }
            let frame = frames[t]
            for n in 0...most {
                for last in 0..<classes {
                    let before = score[n * classes + last]
                    guard before > -.infinity else { continue }
                    for c in 0..<classes {
                        // A blank or the same digit again keeps the count; another digit adds one.
                        let count = (c == 0 || c == last) ? n : n + 1
                        guard count <= most else { continue }
                        let candidate = before + Double(frame[c])
                        let s = count * classes + c
                        if candidate > next[s] {
                            next[s] = candidate
                            back[t * states + s] = Int8(last)
                        }
                    }
                }
            }
            swap(&score, &next)
        }
        var best: [(score: Double, characters: [Character])?] = []
        for n in 1...most {
            let end = (0..<classes).max { score[n * classes + $0] < score[n * classes + $1] } ?? 0
            let total = score[n * classes + end]
            guard total > -.infinity else { best.append(nil); continue }
            // The class of every frame on the path, last frame first.
            var path = [Int](repeating: 0, count: frameCount)
            var (count, c) = (n, end)
            for t in stride(from: frameCount - 1, through: 0, by: -1) {
                path[t] = c
                guard t > 0 else { break }
                let last = Int(back[t * states + count * classes + c])
                if c != 0 && c != last { count -= 1 }
                c = last
            }
            best.append((total, Self.characters(of: path, frames: frames)))
        }
        self.best = best
    }

    /// The digits a path writes, with the frames each owns.
    private static func characters(of path: [Int], frames: [[Float]]) -> [Character] {
        var starts: [Int] = []
        for t in path.indices where path[t] != 0 && (t == 0 || path[t] != path[t - 1]) { starts.append(t) }
        return starts.indices.map { i in
            let from = i == 0 ? 0 : starts[i]
            let to = i + 1 < starts.count ? starts[i + 1] : path.count
            var lastFrame = starts[i]
            while lastFrame + 1 < path.count && path[lastFrame + 1] == path[starts[i]] { lastFrame += 1 }
            let logProbability = (from..<to).reduce(0.0) { $0 + Double(frames[$1][path[$1]]) }
            return Character(digit: path[starts[i]] - 1, logProbability: logProbability, firstFrame: starts[i], lastFrame: lastFrame)
        }
    }
}
