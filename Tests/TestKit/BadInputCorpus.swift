import Foundation

/// The bad-input corpus: `Tests/RecipeTests/BadInput` holds one malformed recipe per file, and
/// its `expected.tsv` says, for each, where the error is reported and which words the message
/// holds. RecipeTests parses every case in-process (timed and measured); RenderCommandTests runs them
/// through the `render` binary. Both read the corpus here.
public enum BadInputCorpus {
    /// One row of `expected.tsv`.
    public struct Case: Sendable, CustomStringConvertible {
        /// Where the error shows up: reading the recipe, laying it out in frames (`Timeline`), or
        /// only checking it as a track (assets on disk, all its cue sound). `render --check` finds all three.
        public enum Stage: String, Sendable {
            case recipe, timeline, render
        }

        /// The corpus file: `name.yml`, or `name.gen` for a recipe the test generates.
        public var file: String
        public var line: Int
        /// nil when only the line is checked.
        public var column: Int?
        /// The exit status of `render file.yml -o out.flac`.
        public var exit: Int32
        public var category: String
        public var stage: Stage
        /// Every one must appear in the message of one diagnostic at `line:column`.
        public var words: [String]

        public var description: String { file }
        /// The recipe's name: the file name without its extension (its id when it has none).
        public var name: String { (file as NSString).deletingPathExtension }
        /// `:line:column: error: ` (or `:line:` and any column), after the recipe's path.
        public var place: String { ":\(line):" + (column.map { "\($0): error: " } ?? "") }
    }

    /// `Tests/RecipeTests/BadInput`.
    public static let folder = repositoryRoot + "/Tests/RecipeTests/BadInput"
    public static let expectationsFile = "expected.tsv"

    /// Every row of `expected.tsv`, in file order (empty when it cannot be read: RecipeTests' completeness test says why).
    public static let cases: [Case] = (try? expectations()) ?? []

    /// Parses `expected.tsv`: `file  line[:column]  exit  category  stage  word…`, tab-separated; `#` starts a comment line.
    public static func expectations() throws -> [Case] {
        let text = try String(contentsOfFile: folder + "/" + expectationsFile, encoding: .utf8)
        var rows: [Case] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let place = fields.count > 1 ? fields[1].split(separator: ":").map { Int($0) } : []
            guard fields.count >= 6, (1...2).contains(place.count), let lineNumber = place[0], place.allSatisfy({ $0 != nil }),
                let exit = Int32(fields[2]), let stage = Case.Stage(rawValue: fields[4]), !fields[5...].contains("")
            else {
                throw TestFailure("\(expectationsFile):\(index + 1): expected 'file, line[:column], exit, category, stage, words…' separated by tabs")
            }
            rows.append(
                Case(
                    file: fields[0], line: lineNumber, column: place.count == 2 ? place[1] : nil, exit: exit, category: fields[3],
                    stage: stage, words: Array(fields[5...])))
        }
        return rows
    }

    /// The files of the corpus folder (the expectations aside), sorted.
    public static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != expectationsFile }.sorted()
    }

    /// A case's recipe bytes: the file itself, or what its `.gen` description makes.
    public static func bytes(of file: String) throws -> [UInt8] {
        let stored = try TestKit.bytes(folder + "/" + file)
        return file.hasSuffix(".gen") ? try generate(String(decoding: stored, as: UTF8.self), file: file) : stored
    }

    /// Makes a generated case from its one-line description. The one form is
    /// `bytes COUNT seed N`: COUNT bytes, each the top byte of a SplitMix64 draw seeded with N
    /// (`SplitMix64.bytes`).
    public static func generate(_ description: String, file: String) throws -> [UInt8] {
        let words = description.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 4, words[0] == "bytes", words[2] == "seed", let count = Int(words[1]), let seed = UInt64(words[3]) else {
            throw TestFailure("\(file): expected 'bytes COUNT seed N', found '\(description)'")
        }
        return SplitMix64.bytes(count, seed: seed)
    }
}
