import AudioCore
import Recipe
import Testing

@testable import RenderCommand

/// The command line's pure helpers, in process: the clocks `render` and `render --plan` print,
/// how a cue's sound is named in a plan, and which failure a run with several failed recipes ends with.
@Suite struct ClockTextTests {
    @Test(
        "milliseconds as m:ss.fff under an hour and h:mm:ss.fff from one hour",
        arguments: [
            (Int64(0), "0:00.000"), (999, "0:00.999"), (1000, "0:01.000"), (61_001, "1:01.001"), (282_000, "4:42.000"),
            (3_599_999, "59:59.999"), (3_600_000, "1:00:00.000"), (3_723_250, "1:02:03.250"), (360_000_000, "100:00:00.000"),
        ])
    func milliseconds(_ ms: Int64, _ text: String) {
        #expect(RenderCommand.clock(milliseconds: ms) == text)
    }

    @Test(
        "seconds round to the nearest millisecond",
        arguments: [(0.0004, "0:00.000"), (0.0006, "0:00.001"), (59.9996, "1:00.000"), (3599.9996, "1:00:00.000")])
    func seconds(_ seconds: Double, _ text: String) {
        #expect(RenderCommand.clock(seconds) == text)
    }

    @Test(
        "an exact time is printed to the millisecond, halves up",
        arguments: [
            (Int64(1_499_999), "0:00.001"), (1_500_000, "0:00.002"), (2_500_000, "0:00.003"), (2_499_999, "0:00.002"),
            (3_600_000_000_000, "1:00:00.000"), (3_599_999_500_000, "1:00:00.000"),
        ])
    func exactTime(_ nanoseconds: Int64, _ text: String) {
        #expect(TrackPlanText.clock(ExactSeconds(nanoseconds: nanoseconds)) == text)
    }

    static let frameTimes: [(frame: Int64, rate: Int, text: String)] = [
        (23, 48_000, "0:00.000"), (24, 48_000, "0:00.001"), (25, 48_000, "0:00.001"), (72, 48_000, "0:00.002"),
        (22, 44_100, "0:00.000"), (23, 44_100, "0:00.001"), (48_000 * 3600, 48_000, "1:00:00.000"),
        (384_000 * 86_400 - 1, 384_000, "24:00:00.000"), (1 << 53, 48_000, "52124995:41:13.771"),
    ]

    @Test(
        "a frame's time is frame / rate to the millisecond, halves up, past 2^53 frames, where frame × 2000 overflows Int64",
        arguments: frameTimes)
    func frameTime(_ frame: Int64, _ rate: Int, _ text: String) {
        #expect(TrackPlanText.frameClock(frame, rate) == text)
    }
}

@Suite struct PlanSoundTests {
    static let ms800 = ExactSeconds(nanoseconds: 800_000_000)

    @Test(
        "a plan names a preset tone by its name, another tone by its numbers, a file by its path and gain",
        arguments: [
            (CueSound.tone(CuePresets.bell), "bell"),
            (.tone(CuePresets.click), "click"),
            (.tone(Tone(frequency: 528, length: ms800, gainDB: -18, envelope: .bell)), "tone 528 Hz, 800ms, -18 dB"),
            (.file("cues/gong.wav", gainDB: 0), "file cues/gong.wav"),
            (.file("cues/gong.wav", gainDB: -3.5), "file cues/gong.wav, -3.5 dB"),
        ])
    func sound(_ sound: CueSound, _ text: String) {
        #expect(TrackPlanText.sound(sound) == text)
    }
}

/// Which failure a catalog run ends with (its exit status): no input beats the rest, else the highest
/// kind, whatever order the recipes failed in.
@Suite struct RunFailureTests {
    static func diagnostic(_ kind: FailureKind) -> Diagnostic { Diagnostic("x", file: "a.yml", kind: kind) }

    @Test(
        "a scan's problems and the recipes' failure give one kind",
        arguments: [
            ([FailureKind](), FailureKind?.none, FailureKind?.none),
            ([], .data, .data),
            ([], .cannotCreate, .cannotCreate),
            ([.ioError], nil, .ioError),
            ([.noInput], .data, .noInput),
            ([.data], .noInput, .noInput),
            ([.data], .cannotCreate, .cannotCreate),
            ([.ioError], .data, .ioError),
        ])
    func scanAndRecipes(_ scan: [FailureKind], _ recipes: FailureKind?, _ expected: FailureKind?) {
        #expect(CatalogCommand.failure(scan: scan.map(Self.diagnostic), recipes: recipes) == expected)
    }

    @Test(
        "the recipes' failures give the kind DiagnosticList gives all their diagnostics, in either order",
        arguments: [
            ([[FailureKind.data]], FailureKind.data),
            ([[.data], [.cannotCreate]], .cannotCreate),
            ([[.data, .noInput]], .noInput),
            ([[.noInput], [.cannotCreate]], .noInput),
            ([[.noInput], [.software]], .noInput),
            ([[.ioError], [.data]], .ioError),
        ])
    func recipes(_ kinds: [[FailureKind]], _ expected: FailureKind) {
        let failures = kinds.enumerated().map { (file: "r\($0.offset).yml", diagnostics: $0.element.map(Self.diagnostic)) }
        #expect(CatalogCommand.report(failures) == expected)
        #expect(CatalogCommand.report(failures.reversed()) == expected)
        #expect(DiagnosticList(failures.flatMap(\.diagnostics)).kind == expected)
    }

    @Test func noFailureIsNoKind() {
        #expect(CatalogCommand.report([]) == nil)
    }
}
