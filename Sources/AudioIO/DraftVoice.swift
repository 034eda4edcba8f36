import AudioCore
import CSpeech
import Foundation

/// The draft voice: espeak-ng, through its C library, speaking a prompt's text (recipe-v1.1).
///
/// libespeak-ng carries state from one utterance to the next (the same text comes out some
/// samples longer and otherwise shaped after another text) and cannot be initialized twice in
/// one process. So each utterance is spoken in a worker process forked for it (`cadence_speak`,
/// C only): it starts from the library's pristine state, and the same text, language and
/// espeak-ng give the same samples whatever was spoken before, in any order, on any thread.
///
/// libespeak-ng 1.51 also corrupts its memory on some texts (`"a."` 85 times in `en-us` smashes
/// its stack; `")-J"` in `vi` is a segmentation fault). The worker is isolated for that: default
/// signal actions and no crash reporter, no descriptor but its pipe, no core file, killed after a
/// time limit, its answer checked. A text it cannot speak is a `Failure` of kind `.unspeakable`.
public enum DraftVoice {
    /// What espeak-ng said: mono samples at its own rate.
    public struct Speech: Sendable {
        public let samples: [Float]
        public let sampleRate: Int
    }

    /// Why the draft voice gave no speech.
    public struct Failure: Error, Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// The speech would last longer than the limit asked for.
            case tooLong
            /// espeak-ng cannot speak this text: it crashed, did not finish in time, or answered
            /// with something that is not speech. The text's problem (exit 65).
            case unspeakable
            /// The draft voice cannot work here: no espeak-ng data, no such voice, no process
            /// could be started (exit 70).
            case unavailable
        }
        public let kind: Kind
        /// What happened, for a message: `espeak-ng crashed on it (SIGSEGV)`.
        public let reason: String
        /// The worker's process id (reaped by then), 0 when none ran.
        public var worker: Int32 = 0
    }

    /// A fault injected into the worker instead of speech (tests only; never from a recipe).
    public enum Fault: Sendable, CaseIterable {
        /// It raises SIGSEGV after a valid header.
        case crash
        /// It never answers: sleeps with its pipe open.
        case hang
        /// It writes bytes that are not speech and exits 0.
        case garbage
        /// It writes without end.
        case flood

        var code: cadence_speech_fault {
            switch self {
            case .crash: CADENCE_SPEECH_FAULT_CRASH
            case .hang: CADENCE_SPEECH_FAULT_HANG
            case .garbage: CADENCE_SPEECH_FAULT_GARBAGE
            case .flood: CADENCE_SPEECH_FAULT_FLOOD
            }
        }
    }

    /// espeak-ng's version (`espeak_Info`), for fingerprints: another version speaks otherwise.
    public static var version: String { String(cString: cadence_speech_version()) }

    /// Speaks `text` in `language` (an espeak-ng voice such as `en-us`); at most `maximumSeconds`
    /// of it, in at most `timeLimitSeconds` (then the worker is killed).
    public static func speak(_ text: String, language: String, maximumSeconds: Int, timeLimitSeconds: Int) throws(Failure) -> Speech {
        let fault = testHook(text: text)?.code ?? CADENCE_SPEECH_FAULT_NONE
        let milliseconds = testTimeLimit ?? timeLimitSeconds * 1000
        // espeak-ng speaks at 22050 Hz; the limit is checked again at the output rate
        return try speakInWorker(text, language: language, maximumSamples: maximumSeconds * 22050 + 1, milliseconds: milliseconds, fault: fault)
    }

    /// `speak` with at most `maximumSamples` at espeak-ng's rate, in at most `milliseconds`, and
    /// `fault` injected into the worker (for tests).
    public static func speak(_ text: String, language: String, maximumSamples: Int, milliseconds: Int, fault: Fault?) throws(Failure) -> Speech {
        try speakInWorker(
            text, language: language, maximumSamples: maximumSamples, milliseconds: milliseconds, fault: fault?.code ?? CADENCE_SPEECH_FAULT_NONE)
    }

    private static func speakInWorker(
        _ text: String, language: String, maximumSamples: Int, milliseconds: Int, fault: cadence_speech_fault
    ) throws(Failure) -> Speech {
        var result = cadence_speech_result()
        let status = cadence_speak_faulty(text, language, maximumSamples, Int32(clamping: milliseconds), Int32(fault.rawValue), &result)
        defer { free(result.samples) }
        do { try check(status, signal: result.signal, milliseconds: milliseconds) } catch {
            var failure = error
            failure.worker = result.pid
            throw failure
        }
        guard let samples = result.samples, result.rate > 0 else {
            throw Failure(kind: .unspeakable, reason: "espeak-ng gave no sound", worker: result.pid)
        }
        return Speech(samples: (0..<result.count).map { Float(samples[$0]) / 32768 }, sampleRate: Int(result.rate))
    }

    /// What a worker sees once isolated, in its own words (tests only): a line `fd N TARGET` per
    /// open descriptor, `handled N` per signal whose action is not the default, `blocked N` per
    /// blocked signal, `core N` (its core file limit), `pipe N` (its pipe).
    public static func workerReport(milliseconds: Int) throws(Failure) -> String {
        var result = cadence_speech_result()
        let status = cadence_speak_faulty(
            "", "en-us", 0, Int32(clamping: milliseconds), Int32(CADENCE_SPEECH_FAULT_REPORT.rawValue), &result)
        defer { free(result.samples) }
        try check(status, signal: result.signal, milliseconds: milliseconds)
        guard let report = result.samples else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: report, count: result.count), as: UTF8.self)
    }

    /// Every language name and voice identifier espeak-ng lists, lower-cased (`espeak_ListVoices`),
    /// once per process; its worker is stopped after `timeLimitSeconds`.
    public static func languages(timeLimitSeconds: Int) throws(Failure) -> Set<String> {
        lock.lock()
        defer { lock.unlock() }
        if let known { return known }
        var names: UnsafeMutablePointer<CChar>?
        var size = 0
        let milliseconds = timeLimitSeconds * 1000
        let status = cadence_voices(Int32(clamping: milliseconds), &names, &size)
        defer { free(names) }
        do { try check(status, signal: 0, milliseconds: milliseconds) } catch {
            // the list of voices is the library's business, not a recipe's
            throw Failure(kind: .unavailable, reason: "listing its voices: \(error.reason)")
        }
        var found = Set<String>()
        if let names {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(names).assumingMemoryBound(to: UInt8.self), count: size)
            for part in bytes.split(separator: 0) { found.insert(String(decoding: part, as: UTF8.self)) }
        }
        known = found
        return found
    }

    /// A few common languages espeak-ng speaks, for messages.
    public static func someLanguages(timeLimitSeconds: Int) -> [String] {
        let known = (try? languages(timeLimitSeconds: timeLimitSeconds)) ?? []
        return ["en-us", "en-gb", "de", "fr", "es", "it", "nl", "pt", "sv", "ja"].filter(known.contains)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: Set<String>?

    /// `SIGSEGV` for 11: the names of the signals a crash ends with.
    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL",
            SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGSYS: "SIGSYS", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
        ]
        return names[number] ?? "signal \(number)"
    }

    private static func check(_ status: Int32, signal: Int32, milliseconds: Int) throws(Failure) {
        switch UInt32(status) {
        case CADENCE_SPEECH_OK.rawValue: return
        case CADENCE_SPEECH_NO_DATA.rawValue:
            throw Failure(kind: .unavailable, reason: "espeak_Initialize failed: is espeak-ng-data installed (Debian: libespeak-ng1)?")
        case CADENCE_SPEECH_NO_VOICE.rawValue: throw Failure(kind: .unavailable, reason: "espeak-ng has no such voice")
        case CADENCE_SPEECH_TOO_LONG.rawValue: throw Failure(kind: .tooLong, reason: "the speech is too long")
        case CADENCE_SPEECH_SYNTH_FAILED.rawValue: throw Failure(kind: .unspeakable, reason: "espeak_Synth failed on it")
        case CADENCE_SPEECH_CRASHED.rawValue:
            throw Failure(kind: .unspeakable, reason: "espeak-ng crashed on it (\(signalName(signal)))")
        case CADENCE_SPEECH_TIMED_OUT.rawValue:
            let limit = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
            throw Failure(kind: .unspeakable, reason: "espeak-ng did not finish speaking it within \(limit) and was stopped")
        case CADENCE_SPEECH_GARBAGE.rawValue:
            throw Failure(kind: .unspeakable, reason: "espeak-ng's worker answered with something that is not speech")
        case CADENCE_SPEECH_SYSTEM.rawValue:
            throw Failure(kind: .unavailable, reason: "cannot run the speech worker: \(String(cString: strerror(errno)))")
        default: throw Failure(kind: .unavailable, reason: "espeak-ng failed (status \(status))")
        }
    }

    #if DEBUG
        /// Test hooks of debug builds only, never a release's: `CADENCE_TEST_SPEECH_FAULT` makes the
        /// worker crash, hang, write garbage or flood (`crash`, `hang`, `garbage`, `flood`, alone
        /// or as `MODE:TEXT` for that text only); `CADENCE_TEST_SPEECH_TIME_LIMIT_MS` shortens the
        /// time limit, so that a test of a hung worker need not wait 20 s.
        private static func testHook(text: String) -> Fault? {
            guard let value = ProcessInfo.processInfo.environment["CADENCE_TEST_SPEECH_FAULT"] else { return nil }
            let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
            guard let mode = parts.first, parts.count == 1 || parts[1] == text else { return nil }
            return Fault.allCases.first { "\($0)" == mode }
        }

        private static var testTimeLimit: Int? {
            ProcessInfo.processInfo.environment["CADENCE_TEST_SPEECH_TIME_LIMIT_MS"].flatMap { Int($0) }
        }
    #else
        private static func testHook(text: String) -> Fault? { nil }
        private static var testTimeLimit: Int? { nil }
    #endif
}
