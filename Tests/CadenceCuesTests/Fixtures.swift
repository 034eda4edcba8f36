import CadenceCues
import Foundation
import Testing

/// Cue sheets as the renderer writes them (cues-v1), kept as text so a test can edit them and
/// compare bytes. Both were rendered by `render` from the recipes in their comments.
enum Fixture {
    /// Box breathing (4-4-4-4) at 48 kHz: 10 s intro, 2 cycles (8 phases, 32 s), 8 s outro, 50 s in all.
    ///
    /// ```yaml
    /// id: box-breathing-fixture
    /// title: Box Breathing
    /// category: Focus
    /// cycles: 2
    /// pattern: box
    /// intro: 10s
    /// outro: 8s
    /// cues: { inhale: { tone: 528 Hz, length: 800ms }, exhale: { tone: 396 Hz, length: 800ms }, start: chime, end: chime }
    /// output: { sample_rate: 48000, channels: 2, format: flac }
    /// ```
    static let box = #"""
        {
          "format": "session-cues",
          "version": 1,
          "id": "box-breathing-fixture",
          "title": "Box Breathing",
          "category": "Focus",
          "audio": {
            "file": "out.flac",
            "sample_rate": 48000,
            "channels": 2,
            "frames": 2400000,
            "duration": 50.0,
            "sha256": "8d24d7cf3b3747b45e5dc966d0ba927cf2b1aa2e3280efedc6031226a947e602",
            "loudness_lufs": -15.99,
            "true_peak_dbtp": -2.31
          },
          "pattern": {
            "name": "Box Breathing",
            "cycle": 16.0,
            "phases": [
              { "kind": "inhale", "label": "Breathe In", "length": 4.0 },
              { "kind": "hold", "label": "Hold", "length": 4.0 },
              { "kind": "exhale", "label": "Breathe Out", "length": 4.0 },
              { "kind": "hold", "label": "Hold", "length": 4.0 }
            ]
          },
          "sections": [
            { "kind": "intro", "start_frame": 0, "end_frame": 480000, "start": 0.0, "end": 10.0 },
            { "kind": "practice", "start_frame": 480000, "end_frame": 2016000, "start": 10.0, "end": 42.0 },
            { "kind": "outro", "start_frame": 2016000, "end_frame": 2400000, "start": 42.0, "end": 50.0 }
          ],
          "phases": [
            { "index": 0, "cycle": 0, "kind": "inhale", "label": "Breathe In", "start_frame": 480000, "end_frame": 672000, "start": 10.0, "end": 14.0 },
            { "index": 1, "cycle": 0, "kind": "hold", "label": "Hold", "start_frame": 672000, "end_frame": 864000, "start": 14.0, "end": 18.0 },
            { "index": 2, "cycle": 0, "kind": "exhale", "label": "Breathe Out", "start_frame": 864000, "end_frame": 1056000, "start": 18.0, "end": 22.0 },
            { "index": 3, "cycle": 0, "kind": "hold", "label": "Hold", "start_frame": 1056000, "end_frame": 1248000, "start": 22.0, "end": 26.0 },
            { "index": 4, "cycle": 1, "kind": "inhale", "label": "Breathe In", "start_frame": 1248000, "end_frame": 1440000, "start": 26.0, "end": 30.0 },
            { "index": 5, "cycle": 1, "kind": "hold", "label": "Hold", "start_frame": 1440000, "end_frame": 1632000, "start": 30.0, "end": 34.0 },
            { "index": 6, "cycle": 1, "kind": "exhale", "label": "Breathe Out", "start_frame": 1632000, "end_frame": 1824000, "start": 34.0, "end": 38.0 },
            { "index": 7, "cycle": 1, "kind": "hold", "label": "Hold", "start_frame": 1824000, "end_frame": 2016000, "start": 38.0, "end": 42.0 }
          ],
          "cues": [
            { "name": "start", "phase": 0, "frame": 480000, "length_frames": 72000, "time": 10.0 },
            { "name": "inhale", "phase": 0, "frame": 480000, "length_frames": 38400, "time": 10.0 },
            { "name": "exhale", "phase": 2, "frame": 864000, "length_frames": 38400, "time": 18.0 },
            { "name": "inhale", "phase": 4, "frame": 1248000, "length_frames": 38400, "time": 26.0 },
            { "name": "exhale", "phase": 6, "frame": 1632000, "length_frames": 38400, "time": 34.0 },
            { "name": "end", "phase": 7, "frame": 2016000, "length_frames": 72000, "time": 42.0 }
          ]
        }
        """# + "\n"

    /// An inline pattern of odd lengths (1.234567891 s, 2.5 s) at 44.1 kHz, 3.3 s intro, 3 cycles, 2.7 s outro:
    /// times that are not round, a decimal with nine places, escapes and non-ASCII text, a null category.
    ///
    /// ```yaml
    /// id: odd-fixture
    /// title: "Odd \"Rates\" — ünïcode"
    /// cycles: 3
    /// pattern: { name: Odd, phases: [ inhale: 1.234567891s, { kind: slow_exhale, length: 2.5s, label: "Out\tslow" } ] }
    /// intro: 3.3s
    /// outro: 2.7s
    /// cues: { inhale: chime }
    /// output: { sample_rate: 44100, channels: 1, format: wav }
    /// ```
    static let odd = #"""
        {
          "format": "session-cues",
          "version": 1,
          "id": "odd-fixture",
          "title": "Odd \"Rates\" — ünïcode",
          "category": null,
          "audio": {
            "file": "odd.wav",
            "sample_rate": 44100,
            "channels": 1,
            "frames": 758683,
            "duration": 17.203696145124717,
            "sha256": "7f7c2e04c323ce83be302932de891f5c8af8b5e294242849c324a540f500ddfb",
            "loudness_lufs": -16.0,
            "true_peak_dbtp": -3.51
          },
          "pattern": {
            "name": "Odd",
            "cycle": 3.734567891,
            "phases": [
              { "kind": "inhale", "label": "Breathe In", "length": 1.234567891 },
              { "kind": "slow_exhale", "label": "Out\tslow", "length": 2.5 }
            ]
          },
          "sections": [
            { "kind": "intro", "start_frame": 0, "end_frame": 145530, "start": 0.0, "end": 3.3 },
            { "kind": "practice", "start_frame": 145530, "end_frame": 639613, "start": 3.3, "end": 14.503696145124717 },
            { "kind": "outro", "start_frame": 639613, "end_frame": 758683, "start": 14.503696145124717, "end": 17.203696145124717 }
          ],
          "phases": [
            { "index": 0, "cycle": 0, "kind": "inhale", "label": "Breathe In", "start_frame": 145530, "end_frame": 199974, "start": 3.3, "end": 4.534557823129251 },
            { "index": 1, "cycle": 0, "kind": "slow_exhale", "label": "Out\tslow", "start_frame": 199974, "end_frame": 310224, "start": 4.534557823129251, "end": 7.034557823129251 },
            { "index": 2, "cycle": 1, "kind": "inhale", "label": "Breathe In", "start_frame": 310224, "end_frame": 364669, "start": 7.034557823129251, "end": 8.269138321995465 },
            { "index": 3, "cycle": 1, "kind": "slow_exhale", "label": "Out\tslow", "start_frame": 364669, "end_frame": 474919, "start": 8.269138321995465, "end": 10.769138321995465 },
            { "index": 4, "cycle": 2, "kind": "inhale", "label": "Breathe In", "start_frame": 474919, "end_frame": 529363, "start": 10.769138321995465, "end": 12.003696145124717 },
            { "index": 5, "cycle": 2, "kind": "slow_exhale", "label": "Out\tslow", "start_frame": 529363, "end_frame": 639613, "start": 12.003696145124717, "end": 14.503696145124717 }
          ],
          "cues": [
            { "name": "inhale", "phase": 0, "frame": 145530, "length_frames": 66150, "time": 3.3 },
            { "name": "inhale", "phase": 2, "frame": 310224, "length_frames": 66150, "time": 7.034557823129251 },
            { "name": "inhale", "phase": 4, "frame": 474919, "length_frames": 66150, "time": 10.769138321995465 }
          ]
        }
        """# + "\n"

    /// The box sheet, decoded.
    static func boxSheet() throws -> CueSheet { try CueSheet.decode(from: box) }

    /// `text` with each `(of, with)` replaced; each `of` must occur exactly once, so an edit cannot miss.
    static func edit(_ text: String, _ replacements: [(of: String, with: String)]) throws -> String {
        var result = text
        for r in replacements {
            let count = result.components(separatedBy: r.of).count - 1
            try #require(count == 1, "\(r.of) occurs \(count) times")
            result = result.replacingOccurrences(of: r.of, with: r.with)
        }
        return result
    }

    /// The error `decode` throws for `text`, or nil if it decodes.
    static func decodeError(_ text: String) -> CueSheetError? {
        do {
            _ = try CueSheet.decode(from: text)
            return nil
        } catch {
            return error
        }
    }
}
