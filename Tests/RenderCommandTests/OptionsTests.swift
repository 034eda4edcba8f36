import Testing

@testable import RenderCommand

/// `Options.parse`, in process: what the command line becomes, and each usage error's words.
@Suite struct OptionsTests {
    static func usage(_ arguments: [String], directories: Set<String> = []) -> String? {
        do {
            _ = try Options.parse(arguments, isDirectory: { directories.contains($0) })
            return nil
        } catch {
            return error.message
        }
    }

    static let refused: [(arguments: [String], words: String)] = [
        (["a.yml", "out/x.wav"], "'out/x.wav' looks like the output file: write it after -o (render a.yml -o out/x.wav)"),
        (["a.yml", "-o", "x.wav", "--sidecar", "vtt"], "unknown option '--sidecar' (did you mean '--sidecars'?)"),
        (["a.yml", "--chek"], "unknown option '--chek' (did you mean '--check'?)"),
        (["a.yml", "--formt=flac"], "unknown option '--formt=flac' (did you mean '--format'?)"),
        (["a.yml", "--zzzz"], "unknown option '--zzzz'"),
        (["recipes", "-j0"], "-j needs a number of jobs from 1 to 256, got '0'"),
        (["recipes", "-j400", "-o", "dist"], "-j needs a number of jobs from 1 to 256, got '400'"),
        (["recipes", "-j", "400", "-o", "dist"], "-j needs a number of jobs from 1 to 256, got '400'"),
        (["a.yml", "b.yml"], "rendering a folder of recipes needs -o FOLDER for the bundle"),
    ]

    @Test("a command line render cannot run is a usage error that says what to write", arguments: refused.indices)
    func refusedWithWords(_ i: Int) {
        let (arguments, words) = Self.refused[i]
        let message = Self.usage(arguments, directories: ["recipes"])
        #expect(message?.contains(words) == true, "\(arguments): \(message ?? "accepted")")
        if words == "unknown option '--zzzz'" { #expect(message?.contains("did you mean") == false) }
    }

    @Test("-j4 and -j 4 are the same, and one recipe with -o renders one track")
    func accepted() throws {
        #expect(try Options.parse(["recipes", "-j4", "-o", "dist"], isDirectory: { $0 == "recipes" }).jobs == 4)
        #expect(try Options.parse(["recipes", "-j", "4", "-o", "dist"], isDirectory: { $0 == "recipes" }).jobs == 4)
        #expect(try Options.parse(["a.yml", "-o", "out/x.wav"]).action == .render("a.yml"))
        #expect(try Options.parse(["recipes", "-o", "dist"], isDirectory: { $0 == "recipes" }).action == .catalog(["recipes"]))
    }
}
