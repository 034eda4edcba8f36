import Foundation

/// `cadence-bench`: see `BenchOptions.usage`.
func benchMain() -> Int32 {
    do {
        let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
        if options.help {
            print(BenchOptions.usage)
            return 0
        }
        let tools = try Tools.locate(renderOverride: options.render)
        let workspace = try Workspace(root: options.work)
        let results = try Benchmark(options: options, tools: tools, workspace: workspace).run()
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(results)
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(MarkdownReport.text(results), terminator: "")
        }
        return 0
    } catch let error as BenchError {
        FileHandle.standardError.write(Data("cadence-bench: \(error)\n".utf8))
        return 1
    } catch {
        FileHandle.standardError.write(Data("cadence-bench: encoding the JSON report failed: \(error)\n".utf8))
        return 1
    }
}

exit(benchMain())
