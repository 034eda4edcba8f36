import AudioCore
import CEspeak
import Foundation

/// The draft voice: espeak-ng, through its C library, speaking a prompt's text (recipe-v1.1).
///
/// libespeak-ng is one synthesizer per process (global state, not thread-safe), so every
/// call goes through one lock, and the library is initialized once, in synchronous mode:
/// `espeak_Synth` returns when the whole text is spoken, its samples handed to a callback.
/// The same text, language and espeak-ng give the same samples on every run.
public enum DraftVoice {
    /// What the speech is: mono 16-bit samples at espeak-ng's own rate.
    public struct Speech: Sendable {
        public let samples: [Float]
        public let sampleRate: Int
    }

    private static let lock = NSLock()
    /// Set once under the lock: espeak-ng's output rate, or nil when it could not start.
    nonisolated(unsafe) private static var state: (rate: Int?, reason: String)?
    /// The samples of the text being spoken (filled by the callback, under the lock).
    nonisolated(unsafe) private static var collected: [Int16] = []

    /// espeak-ng's version (`espeak_Info`), for fingerprints: another version speaks otherwise.
    public static var version: String {
        lock.lock()
        defer { lock.unlock() }
        return String(cString: espeak_Info(nil))
    }

    /// Speaks `text` in `language` (an espeak-ng voice such as `en-us`).
    public static func speak(_ text: String, language: String) throws(AudioError) -> Speech {
        lock.lock()
        defer { lock.unlock() }
        let rate = try start()
        guard espeak_SetVoiceByName(language) == EE_OK else {
            throw AudioError(
                file: "draft voice", operation: "espeak_SetVoiceByName",
                reason: "espeak-ng has no voice '\(language)' (known: \(knownLanguages().prefix(12).joined(separator: ", ")), …)", kind: .data)
        }
        collected = []
        let bytes = Array(text.utf8) + [0]
        let result = bytes.withUnsafeBufferPointer { p in
            espeak_Synth(p.baseAddress, p.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil)
        }
        guard result == EE_OK, espeak_Synchronize() == EE_OK else {
            throw AudioError(file: "draft voice", operation: "espeak_Synth", reason: "espeak-ng failed (error \(result.rawValue))", kind: .software)
        }
        let samples = collected.map { Float($0) / 32768 }
        collected = []
        return Speech(samples: samples, sampleRate: rate)
    }

    /// Whether espeak-ng has a voice for `language`: a voice's identifier (`gmw/en-US`) or one of
    /// its languages (`en-us`), case-insensitively.
    public static func knows(_ language: String) throws(AudioError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        _ = try start()
        return knownLanguages().contains(language.lowercased())
    }

    /// A few of the languages espeak-ng speaks, for messages.
    public static func someLanguages() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        guard (try? start()) != nil else { return [] }
        let common = ["en-us", "en-gb", "de", "fr", "es", "it", "nl", "pt", "sv", "ja"]
        let known = Set(knownLanguages())
        return common.filter(known.contains)
    }

    /// Every language name and voice identifier espeak-ng lists, lower-cased (`espeak_ListVoices`).
    private static func knownLanguages() -> [String] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var names: [String] = []
        var index = 0
        while let voice = list[index] {
            index += 1
            if let identifier = voice.pointee.identifier {
                let id = String(cString: identifier).lowercased()
                names.append(id)
                if let slash = id.lastIndex(of: "/") { names.append(String(id[id.index(after: slash)...])) }
            }
            // languages: a priority byte, a name, a zero byte; repeated, then one more zero byte
            guard var p = voice.pointee.languages else { continue }
            while p.pointee != 0 {
                p += 1
                let name = String(cString: p).lowercased()
                names.append(name)
                p += name.utf8.count + 1
            }
        }
        return names
    }

    /// Initializes espeak-ng once (under the lock); its output rate.
    private static func start() throws(AudioError) -> Int {
        if state == nil {
            let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
            if rate > 0 {
                espeak_SetSynthCallback { wav, count, _ in
                    if let wav, count > 0 { DraftVoice.collected.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count))) }
                    return 0
                }
                state = (Int(rate), "")
            } else {
                state = (nil, "espeak_Initialize failed: is espeak-ng-data installed (Debian: libespeak-ng1)?")
            }
        }
        guard let rate = state?.rate else {
            throw AudioError(file: "draft voice", operation: "espeak_Initialize", reason: state?.reason ?? "", kind: .software)
        }
        return rate
    }
}
