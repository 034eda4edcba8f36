import Foundation

/// Everything a run measured, from which the goals are judged and the report printed.
struct BenchResults: Codable, Sendable {
    var cores: Int
    var renderVersion: String
    /// The 1-minute load average (`/proc/loadavg`) before and after the run: other work on the
    /// machine shows here, and makes every figure slower.
    var loadBefore: Double?
    var loadAfter: Double?
    var beds: [BedStats] = []
    var forecast: LimiterForecast?
    var reference: RunFigures?
    var referenceLevels: OutputLevels?
    var referenceShort: RunFigures?
    var flacFloor: RunFigures?
    /// `flac -5` on the 10-minute twin's PCM.
    var flacFloorShort: RunFigures?
    /// Two `flac -5` started together on the twin's PCM (the reference's without a twin).
    var flacFloorPair: RunFigures?
    var ffmpeg: RunFigures?
    var ffmpegNormalization: String?
    var sox: RunFigures?
    /// The reference recipe rendered as M4A (AAC 128k), at the reference length and at 1 minute.
    var aac: RunFigures?
    var aacShort: RunFigures?
    var aacLevels: OutputLevels?
    /// ffmpeg's `aac` encoder on the same recipe's PCM (a WAV), to M4A.
    var ffmpegAAC: RunFigures?
    /// The reference recipe with a prompt a minute (ducking) and without voice, at the length and
    /// at 1 minute (issue 14), and the prompts the voiced render's cue sheet lists.
    var voiced: RunFigures?
    var unvoiced: RunFigures?
    var voicedShort: RunFigures?
    var unvoicedShort: RunFigures?
    var voicePrompts: PromptSummary?
    var catalogJ1: RunFigures?
    var catalogJ2: RunFigures?
    var check: RunFigures?
    var checkRecipes = 500
    /// The reference recipe without a swell, with a tone swell and with a pink-noise swell, each
    /// round in turn (issue 33).
    var swell: SwellJob.Figures?
    var notes: [String] = []
    var goals: [GoalResult] = []

    /// Every timed run, in the order the report lists them.
    var runs: [RunFigures] {
        [
            reference, referenceShort, flacFloor, flacFloorShort, flacFloorPair, ffmpeg, sox, aac, aacShort, ffmpegAAC, unvoiced,
            voiced, unvoicedShort, voicedShort, catalogJ1, catalogJ2, check,
        ].compactMap { $0 } + (swell.map { $0.plain + $0.tone + $0.pink } ?? [])
    }
}
