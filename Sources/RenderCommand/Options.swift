/// The command line, parsed: what to do and with which options.
struct Options {
    enum Action: Equatable {
        case render(String)
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

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var inputs: [String] = []
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count, !arguments[i].isEmpty else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[i]
        }
        var wantsHelp = false, wantsVersion = false
        while i < arguments.count {
            let argument = arguments[i]
            switch argument {
            case "-o", "--output": options.output = try value(argument)
            case "--assets": options.assets = try value(argument)
            case "-q", "--quiet": options.quiet = true
            case "-h", "--help": wantsHelp = true
            case "--version": wantsVersion = true
            case "--": inputs.append(contentsOf: arguments[(i + 1)...]); i = arguments.count
            default:
                if argument.hasPrefix("--output=") {
                    options.output = String(argument.dropFirst(9))
                } else if argument.hasPrefix("--assets=") {
                    options.assets = String(argument.dropFirst(9))
                } else if argument.hasPrefix("-") && argument.count > 1 {
                    throw UsageError(message: "unknown option '\(argument)'")
                } else {
                    inputs.append(argument)
                }
            }
            i += 1
        }
        if wantsHelp { options.action = .help; return options }
        if wantsVersion { options.action = .version; return options }
        guard let recipe = inputs.first else { throw UsageError(message: "no recipe given") }
        guard inputs.count == 1 else { throw UsageError(message: "one recipe at a time (got \(inputs.count))") }
        if options.output?.isEmpty == true { throw UsageError(message: "-o needs a file name") }
        options.action = .render(recipe)
        return options
    }
}
