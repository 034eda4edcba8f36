import AudioCore
import CSpeech
import Foundation

/// The draft voice: espeak-ng, through its C library, speaking a prompt's text (recipe-v1.1).
///
/// libespeak-ng carries state from one utterance to the next (the same text comes out some
/// samples longer and otherwise shaped after another text) and cannot be initialized twice in
/// one process. So each utterance is spoken in a child process forked for it (`cadence_speak`,
/// C only): it starts from the library's pristine state, and the same text, language and
/// espeak-ng give the same samples whatever was spoken before, in any order, on any thread.
public enum DraftVoice {
    /// What espeak-ng said: mono samples at its own rate.
    public struct Speech: Sendable {
        public let samples: [Float]
        public let sampleRate: Int
    }

    /// espeak-ng's version (`espeak_Info`), for fingerprints: another version speaks otherwise.
    public static var version: String { String(cString: cadence_speech_version()) }

    /// Speaks `text` in `language` (an espeak-ng voice such as `en-us`); at most `maximumSeconds` of it.
    public static func speak(_ text: String, language: String, maximumSeconds: Int) throws(AudioError) -> Speech {
        var samples: UnsafeMutablePointer<Int16>?
        var count = 0
        var rate: Int32 = 0
        // espeak-ng speaks at 22050 Hz; the limit is checked again at the output rate
        let status = cadence_speak(text, language, maximumSeconds * 22050 + 1, &samples, &count, &rate)
        defer { free(samples) }
        try check(status, what: "speaking \(text.debugDescription) in '\(language)'")
        guard let samples, rate > 0 else {
            throw AudioError(file: "draft voice", operation: "espeak_Synth", reason: "espeak-ng gave no sound", kind: .software)
        }
        return Speech(samples: (0..<count).map { Float(samples[$0]) / 32768 }, sampleRate: Int(rate))
    }

    /// Every language name and voice identifier espeak-ng lists, lower-cased (`espeak_ListVoices`), once per process.
    public static func languages() throws(AudioError) -> Set<String> {
        lock.lock()
        defer { lock.unlock() }
        if let known { return known }
        var names: UnsafeMutablePointer<CChar>?
        var size = 0
        let status = cadence_voices(&names, &size)
        defer { free(names) }
        try check(status, what: "listing its voices")
        var found = Set<String>()
        if let names {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(names).assumingMemoryBound(to: UInt8.self), count: size)
            for part in bytes.split(separator: 0) { found.insert(String(decoding: part, as: UTF8.self)) }
        }
        known = found
        return found
    }

    /// A few common languages espeak-ng speaks, for messages.
    public static func someLanguages() -> [String] {
        let known = (try? languages()) ?? []
        return ["en-us", "en-gb", "de", "fr", "es", "it", "nl", "pt", "sv", "ja"].filter(known.contains)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: Set<String>?

    private static func check(_ status: Int32, what: String) throws(AudioError) {
        let reason: String
        switch UInt32(status) {
        case CADENCE_SPEECH_OK.rawValue: return
        case CADENCE_SPEECH_NO_DATA.rawValue: reason = "espeak_Initialize failed: is espeak-ng-data installed (Debian: libespeak-ng1)?"
        case CADENCE_SPEECH_NO_VOICE.rawValue: reason = "espeak-ng has no such voice"
        case CADENCE_SPEECH_TOO_LONG.rawValue:
            throw AudioError(file: "draft voice", operation: "espeak_Synth", reason: "the speech is too long", kind: .data)
        case CADENCE_SPEECH_SYSTEM.rawValue: reason = "cannot start the speech process: \(String(cString: strerror(errno)))"
        default: reason = "espeak-ng failed (status \(status))"
        }
        throw AudioError(file: "draft voice", operation: what, reason: reason, kind: .software)
    }
}
