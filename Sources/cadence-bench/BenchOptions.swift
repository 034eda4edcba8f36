import Foundation

/// The command line of `cadence-bench`, parsed.
struct BenchOptions {
    /// The parts of a run; with none named on the command line, all of them.
    enum Section: String, CaseIterable {
        case reference, compare, aac, voice, catalog, check, swell
    }

    var sections: Set<Section> = []
    /// Length of the reference job, minutes.
    var minutes = 60.0
    var catalogTracks = 20
    var catalogMinutes = 10.0
    var checkRecipes = 500
    var swellRuns = 3
    var work = "/tmp/cadence-bench"
    var render: String?
    var json = false
    var help = false

    static let usage = """
        usage: cadence-bench [--minutes 60] [--reference] [--compare] [--aac] [--voice] [--catalog] [--check] [--swell] [--all]
                             [--catalog-tracks 20] [--catalog-minutes 10] [--check-recipes 500] [--swell-runs 3]
                             [--work DIR] [--render PATH] [--json]
        Times the release `render` on the reference job of issue 5 (a box-breathing session over a
        generated rain bed, -16 LUFS, -1 dBTP, FLAC 24-bit), and again at 10 minutes (its twin);
        compares each with `flac -5` on the same PCM, and the hour with ffmpeg and SoX doing the
        same job; times two `flac -5` side by side on the twin's PCM; renders the reference recipe
        as M4A (AAC 128k) beside ffmpeg's `aac` encoder on the same PCM; renders the reference
        recipe with a voice prompt every minute and without; renders a catalog with -j 1 and -j 2;
        times `render --check` on a catalog of recipes; renders the reference recipe without a swell,
        with a tone swell and with a pink-noise swell. Prints a Markdown table (or JSON) with the
        goals of issues 12, 13, 14 and 33 marked PASS or MISS.

        options:
          --minutes M          length of the reference job (default 60)
          --reference          the reference job (and its 10-minute twin)
          --compare            flac floors (hour, twin, two side by side), ffmpeg and SoX
                               (runs the reference job too; the -j 2 goal needs it)
          --aac                the reference recipe as M4A (AAC 128k, -o x.m4a) at --minutes and
                               at 1 minute, and ffmpeg's aac encoder on the same PCM (a 32-bit
                               float WAV render makes, untimed)
          --voice              the reference recipe with a 5 s prompt every minute (ducking the bed
                               12 dB) and without voice, each at --minutes and at 1 minute
          --catalog            the catalog at -j 1 and -j 2
          --check              render --check on many recipes
          --swell              the reference recipe without a swell, with a tone swell and with
                               a pink-noise swell (issue 33), each at --minutes, --swell-runs times
          --all                all of the above (the default when none is named)
          --catalog-tracks N   tracks in the catalog (default 20)
          --catalog-minutes M  length of each catalog track (default 10)
          --check-recipes N    recipes for --check (default 500)
          --swell-runs N       rounds of the swell job (default 3; the goal compares medians)
          --work DIR           scratch folder (default /tmp/cadence-bench)
          --render PATH        the render binary (default: the one next to cadence-bench)
          --json               print the report as JSON instead of Markdown
        """

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: `BenchError` naming the option that is unknown, lacks its value or has a bad one.
    static func parse(_ arguments: [String]) throws(BenchError) -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        func value(_ name: String) throws(BenchError) -> String {
            guard let next = rest.popFirst() else { throw BenchError("\(name) needs a value") }
            return next
        }
        func positive(_ name: String) throws(BenchError) -> Double {
            let text = try value(name)
            guard let number = Double(text), number.isFinite, number > 0 else {
                throw BenchError("\(name) takes a positive number, not '\(text)'")
            }
            return number
        }
        func count(_ name: String) throws(BenchError) -> Int {
            let text = try value(name)
            guard let number = Int(text), number > 0 else { throw BenchError("\(name) takes a positive whole number, not '\(text)'") }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--minutes": options.minutes = try positive(argument)
            case "--reference": options.sections.insert(.reference)
            case "--compare": options.sections.formUnion([.reference, .compare])
            case "--aac": options.sections.insert(.aac)
            case "--voice": options.sections.insert(.voice)
            case "--catalog": options.sections.insert(.catalog)
            case "--check": options.sections.insert(.check)
            case "--swell": options.sections.insert(.swell)
            case "--all": options.sections = Set(Section.allCases)
            case "--catalog-tracks": options.catalogTracks = try count(argument)
            case "--catalog-minutes": options.catalogMinutes = try positive(argument)
            case "--check-recipes": options.checkRecipes = try count(argument)
            case "--swell-runs": options.swellRuns = try count(argument)
            case "--work": options.work = try value(argument)
            case "--render": options.render = try value(argument)
            case "--json": options.json = true
            case "-h", "--help": options.help = true
            default: throw BenchError("unknown option '\(argument)'")
            }
        }
        if options.sections.isEmpty { options.sections = Set(Section.allCases) }
        guard options.referenceSeconds >= 16 else { throw BenchError("--minutes: the reference job needs at least 16 s") }
        guard options.catalogSeconds >= 60 else { throw BenchError("--catalog-minutes: a catalog track needs at least 1 minute") }
        return options
    }

    /// The reference job's length in whole seconds, rounded down to a whole 4 s phase.
    var referenceSeconds: Int { Int(minutes * 60) / 4 * 4 }
    /// The short twin of the reference job, for the memory comparison: 10 minutes, or a sixth of
    /// a reference shorter than an hour (at least 1 minute).
    var shortSeconds: Int { min(600, max(60, referenceSeconds / 6 / 4 * 4)) }
    var catalogSeconds: Int { Int(catalogMinutes * 60) }
    /// The memory twin of the AAC and voice jobs: 1 minute, or the whole reference when that is no longer.
    var minuteTwinSeconds: Int { min(60, referenceSeconds) }
}
