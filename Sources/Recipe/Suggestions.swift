/// Near-miss suggestions for misspelt keys and names: `did you mean 'duration'?`.
public enum Suggestions {
    /// Words longer than this are never close to anything a recipe knows.
    static let maxWordLength = 64

    /// The candidate closest to `word`, when close enough to be a likely typo.
    ///
    /// Close enough: an edit distance (insertions, deletions, substitutions and
    /// swaps of neighbours, ignoring case) of at most 2 or at most a third of the
    /// candidate's length, less than the length of either word (so `xy` is
    /// never "corrected" to `id`), and less than half the longer word (so `aac` is
    /// not `wav`, nor `gong` `none`). Ties go to the earlier candidate. Failing that, the
    /// one candidate the word begins, if it has three letters or more (`pink` → `pink-noise`).
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let typed = Array(word.lowercased().unicodeScalars)
        guard !typed.isEmpty, typed.count <= maxWordLength else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let known = Array(candidate.lowercased().unicodeScalars)
            let limit = max(2, known.count / 3)
            guard abs(known.count - typed.count) <= limit else { continue }
            let d = distance(typed, known)
            guard d <= limit, d < typed.count, d < known.count, 2 * d < max(typed.count, known.count) else { continue }
            if best == nil || d < best?.distance ?? Int.max { best = (candidate, d) }
        }
        if let best { return best.candidate }
        // `pink` → `pink-noise`: a word that starts exactly one candidate.
        guard typed.count >= 3 else { return nil }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
        return prefixed.count == 1 ? prefixed.first : nil
    }

    /// The optimal-string-alignment distance between two words (Damerau–Levenshtein without re-edits).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var previous2 = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// ` (did you mean 'x'?)` when a candidate is close, else the empty string.
    static func hint(for word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }
}
