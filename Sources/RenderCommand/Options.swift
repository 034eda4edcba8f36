import AudioCore
import Catalog
import CatalogManifest
import Foundation
import Recipe
import Sidecars

/// The command line, parsed: what to do and with which options.
struct Options {
    enum Action: Equatable {
        /// One recipe → one track.
        case render(String)
        /// Folders (or several recipes) → a bundle folder.
        case catalog([String])
        /// Validate without rendering.
        case check([String])
        /// Validate and print each track's layout, without rendering.
        case plan([String])
        /// Shard folders → one bundle.
        case merge([String])
        case help
        case version
    }

    /// A command-line mistake, reported with the usage line and status 64.
    struct UsageError: Error {
        let message: String
    }

    var action: Action = .help
    var output: String?
    var assets: String?
    var quiet = false
    /// `--no-drafts`: refuse recipes with prompts spoken by the draft voice (a release job's guard).
    var noDrafts = false
    var jobs: Int?
    var shard: ShardSpec?
    /// `--format m4a`: every track in this format, whatever its recipe's `output.format` says.
    var format: AudioFormat?
    /// `--bundle-budget 80MB`: the most the bundled tracks' audio may weigh, in bytes.
    var bundleBudget: Int64?
    /// `--sidecars vtt,chapters`: files written beside every track, besides those its recipe asks for.
    var sidecars: Set<SidecarKind> = []
    /// `--locale de --locale pt-BR`: only these locales' renditions (recipe-v1.2 § Locales).
    var locales: [String] = []

    /// A `--locale` tag: letters, digits and hyphens (whether a recipe has it is the job's question).
    private static func locale(_ text: String) throws(UsageError) -> String {
        let allowed = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        guard !text.isEmpty, allowed, !text.hasPrefix("-"), !text.hasSuffix("-") else {
            throw UsageError(message: "--locale needs a language tag like 'en', 'de' or 'pt-BR', got '\(text)'")
        }
        return text
    }

    private static func sidecarList(_ text: String) throws(UsageError) -> Set<SidecarKind> {
        do {
            return try SidecarKind.parseList(text)
        } catch {
            let names = SidecarKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "--sidecars takes a list from \(names), all or none (like vtt,chapters), not '\(error.word)'")
        }
    }

    private static func format(_ text: String) throws(UsageError) -> AudioFormat {
        guard let format = AudioFormat(rawValue: text.lowercased()) else {
            let hint = ["aac", "mp4", "m4b"].contains(text.lowercased()) ? " (AAC in an MP4 file is m4a)" : ""
            throw UsageError(message: "--format takes one of \(AudioFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'\(hint)")
        }
        return format
    }

    private static func budget(_ text: String) throws(UsageError) -> Int64 {
        switch ByteSize.parse(text, limit: Manifest.Limits.maxBundleBytes) {
        case .success(let bytes): return bytes
        case .failure(let error): throw UsageError(message: "--bundle-budget needs \(error)")
        }
    }

    /// Every option, for "did you mean" on a misspelt one.
    static let optionNames = [
        "--output", "--assets", "--quiet", "--no-drafts", "--help", "--version", "--check", "--plan", "--jobs", "--shard", "--sidecars",
        "--bundle-budget", "--format",
    ]

    static func parse(
        _ arguments: [String], environment: [String: String] = [:],
        isDirectory: (String) -> Bool = { _ in false }
    ) throws(UsageError) -> Options {
        var options = Options()
        var inputs: [String] = []
        var arguments = arguments
        var merging = false
        if arguments.first == "merge" {
            merging = true
            arguments.removeFirst()
        }
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count, !arguments[i].isEmpty else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[i]
        }
        var wantsHelp = false, wantsVersion = false, checking = false, planning = false
        var shardText: String?
        while i < arguments.count {
            let argument = arguments[i]
            switch argument {
            case "-o", "--output": options.output = try value(argument)
            case "--assets": options.assets = try value(argument)
            case "-q", "--quiet": options.quiet = true
            case "--no-drafts": options.noDrafts = true
            case "-h", "--help": wantsHelp = true
            case "--version": wantsVersion = true
            case "--check": checking = true
            case "--plan": planning = true
            case "-j", "--jobs":
                let text = try value(argument)
                guard let n = Int(text), n >= 1, n <= 256 else { throw UsageError(message: "-j needs a number of jobs from 1 to 256, got '\(text)'") }
                options.jobs = n
            case "--shard": shardText = try value(argument)
            case "--sidecars": options.sidecars.formUnion(try sidecarList(try value(argument)))
            case "--bundle-budget": options.bundleBudget = try budget(try value(argument))
            case "--format": options.format = try format(try value(argument))
            case "--locale": options.locales.append(try locale(try value(argument)))
            case "--": inputs.append(contentsOf: arguments[(i + 1)...]); i = arguments.count
            default:
                if argument.hasPrefix("--output=") {
                    options.output = String(argument.dropFirst(9))
                } else if argument.hasPrefix("--assets=") {
                    options.assets = String(argument.dropFirst(9))
                } else if argument.hasPrefix("--shard=") {
                    shardText = String(argument.dropFirst(8))
                } else if argument.hasPrefix("--locale=") {
                    options.locales.append(try locale(String(argument.dropFirst(9))))
                } else if argument.hasPrefix("--format=") {
                    options.format = try format(String(argument.dropFirst(9)))
                } else if argument.hasPrefix("--bundle-budget=") {
                    options.bundleBudget = try budget(String(argument.dropFirst(16)))
                } else if argument.hasPrefix("--sidecars=") {
                    options.sidecars.formUnion(try sidecarList(String(argument.dropFirst(11))))
                } else if argument.hasPrefix("-j"), let n = Int(argument.dropFirst(2)) {
                    // `-j4` is `-j 4`, with the same range
                    guard n >= 1, n <= 256 else { throw UsageError(message: "-j needs a number of jobs from 1 to 256, got '\(n)'") }
                    options.jobs = n
                } else if argument.hasPrefix("-") && argument.count > 1 {
                    let name = String(argument.prefix { $0 != "=" })
                    let hint = Suggestions.closest(to: name, in: Self.optionNames).map { " (did you mean '\($0)'?)" } ?? ""
                    throw UsageError(message: "unknown option '\(argument)'\(hint)")
                } else {
                    inputs.append(argument)
                }
            }
            i += 1
        }
        if wantsHelp { options.action = .help; return options }
        if wantsVersion { options.action = .version; return options }
        if let shardText {
            if shardText == "auto" {
                let found: ShardSpec?
                do { found = try ShardSpec.fromEnvironment(environment) } catch {
                    throw UsageError(message: "--shard auto: \(error.message)")
                }
                guard let spec = found else {
                    throw UsageError(
                        message:
                            "--shard auto found no shard in the environment (CADENCE_SHARD, CI_NODE_INDEX/CI_NODE_TOTAL, or JOB_COMPLETION_INDEX with CADENCE_SHARD_TOTAL)"
                    )
                }
                options.shard = spec
            } else {
                guard let spec = ShardSpec(shardText) else {
                    throw UsageError(
                        message: "--shard needs K/N with 1 ≤ K ≤ N ≤ \(Manifest.Limits.maxShards) (e.g. 3/8) or 'auto', got '\(shardText)'")
                }
                options.shard = spec
            }
        }
        if options.output?.isEmpty == true { throw UsageError(message: "-o needs a file or folder name") }
        if merging {
            guard !inputs.isEmpty else { throw UsageError(message: "merge needs the shard folders to join") }
            guard options.output != nil else { throw UsageError(message: "merge needs -o FOLDER for the joined bundle") }
            options.action = .merge(inputs)
            return options
        }
        guard let first = inputs.first else { throw UsageError(message: "no recipe given") }
        if options.bundleBudget != nil {
            // the budget is the whole bundle's, measured on what was rendered
            if checking || planning {
                throw UsageError(message: "--bundle-budget is checked after rendering; \(planning ? "--plan" : "--check") renders nothing")
            }
            if options.shard != nil {
                throw UsageError(message: "--bundle-budget applies to the whole catalog, not one shard: give it to 'render merge'")
            }
            if inputs.count == 1 && !isDirectory(first) {
                throw UsageError(message: "--bundle-budget applies to a folder of recipes rendered into a bundle")
            }
        }
        if checking && planning { throw UsageError(message: "--plan checks as --check does: give one of them") }
        if planning {
            options.action = .plan(inputs)
            return options
        }
        if checking {
            options.action = .check(inputs)
            return options
        }
        if inputs.count == 1 && !isDirectory(first) {
            if options.shard != nil { throw UsageError(message: "--shard applies to a folder of recipes") }
            options.action = .render(first)
            return options
        }
        guard let output = options.output else {
            // `render a.yml out/x.wav`: the output named without -o
            if inputs.count == 2, !isDirectory(first), let last = inputs.last,
                AudioFormat(fileExtension: (last as NSString).pathExtension) != nil
            {
                throw UsageError(message: "'\(last)' looks like the output file: write it after -o (render \(first) -o \(last))")
            }
            throw UsageError(message: "rendering a folder of recipes needs -o FOLDER for the bundle")
        }
        if AudioFormat(fileExtension: (output as NSString).pathExtension) != nil {
            throw UsageError(
                message: "one recipe at a time for an audio file; several recipes or a folder render into a folder (-o DIST/), not '\(output)'")
        }
        options.action = .catalog(inputs)
        return options
    }
}
