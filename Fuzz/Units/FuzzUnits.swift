import AudioCore
import FuzzDriver
import Recipe

// Fuzzing build (scripts/fuzz.sh: -sanitize=fuzzer -DFUZZING): libFuzzer's own `main` calls
// `LLVMFuzzerTestOneInput`. Ordinary build: this `main` replays the files named on the command line.
//
/// `fuzz-units`: one string (the input as UTF-8, invalid bytes replaced) through every value parser of recipe-v1
/// and of recipe-v1.1's voice prompts and ramps.
///
/// `Units.duration`, `gain`, `frequency`, `loudness`, `truePeak`, `bitrate`, `sampleRate`, `promptTime`, `voiceLevel`,
/// `duckDepth`, `breathRate` and `cycleCount` must return a value or a reason for any text; never crash. Checked:
/// - a duration is exact, in 0…24 h (`RecipeLimits.maxDuration`), and reads back from its own
///   decimal text, bare and with `s`; a bit rate is a whole number of bits/s in 32k…320k that reads
///   back in bps, k and kbps; a gain, loudness or peak is finite, in its range and never
///   -0; a frequency is finite and above 0; each reads back from its shortest text, with its unit;
/// - results do not depend on spaces and tabs around the text, nor on the ASCII case;
/// - `loudness` is nil for `off` only;
/// - a prompt time's offset is exact and within ±24 h (not negative from the file's start), its
///   segment counts from 1, and it reads back from its own text (`practice - 2.5s`, `segment 2 + 0`, `3.5s`);
/// - a voice level is nil for `off` only, else finite and in -40…-10 LUFS, the value `loudness` reads;
///   a duck depth is `wcag` for `wcag` only, else finite, in 0…40 dB and never -0; each reads back with its unit;
/// - a breath rate is exact, in 1…60 bpm, and reads back from its own text (`5.454545`, with `bpm`); a
///   cycle count is in 1…100000 and reads back bare and with `cycle`/`cycles`;
/// - a reason is a short one-line text without control characters (it ends up in a diagnostic).
#if !FUZZING
    @main
    enum FuzzUnitsMain {
        static func main() { FuzzDriver.replay("fuzz-units", fuzzUnits) }
    }
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUnits(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    UnitsFuzz.run(fuzzBytes(data, size))
    return 0
}

enum UnitsFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let padded = " \t" + text + "\t "
        let upper = String(decoding: bytes.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)

        let duration = Units.duration(text)
        check(duration, "duration", text)
        fuzzCheck(Units.duration(padded) == duration, "duration: spaces around \(text.debugDescription) change the result")
        fuzzCheck(value(Units.duration(upper)) == value(duration), "duration: case changes the value of \(text.debugDescription)")
        if case .success(let seconds) = duration {
            fuzzCheck(seconds >= .zero && seconds <= RecipeLimits.maxDuration, "duration \(seconds) of \(text.debugDescription)")
            for form in [seconds.description, seconds.description + "s", seconds.description + " s"] {
                fuzzCheck(value(Units.duration(form)) == seconds, "duration \(seconds) does not read back from \(form.debugDescription)")
            }
        }

        let quantities: [(String, (String) -> Result<Double, UnitError>, String, (Double) -> Bool)] = [
            ("gain", Units.gain, "dB", { Units.gainRange.contains($0) }),
            ("frequency", Units.frequency, "Hz", { $0 > 0 }),
            ("truePeak", Units.truePeak, "dBTP", { Units.truePeakRange.contains($0) }),
            ("loudness", { Units.loudness($0).map { $0 ?? -1000 } }, "LUFS", { $0 == -1000 || Units.loudnessRange.contains($0) }),
        ]
        for (name, parse, unit, inRange) in quantities {
            let result = parse(text)
            check(result, name, text)
            fuzzCheck(parse(padded) == result, "\(name): spaces around \(text.debugDescription) change the result")
            fuzzCheck(value(parse(upper)) == value(result), "\(name): case changes the value of \(text.debugDescription)")
            guard case .success(let x) = result else { continue }
            fuzzCheck(x.isFinite && inRange(x), "\(name) \(x) of \(text.debugDescription)")
            fuzzCheck(x != 0 || x.sign == .plus, "\(name) -0 from \(text.debugDescription)")
            if x == -1000 { continue }  // loudness: off
            let shortest = "\(x)"
            guard !shortest.contains("e") else { continue }  // the recipe syntax has no exponents
            for form in [shortest, shortest + " " + unit, shortest + unit] {
                fuzzCheck(value(parse(form)) == x, "\(name) \(x) does not read back from \(form.debugDescription)")
            }
        }

        let bitrate = Units.bitrate(text)
        check(bitrate, "bitrate", text)
        fuzzCheck(Units.bitrate(padded) == bitrate, "bitrate: spaces around \(text.debugDescription) change the result")
        fuzzCheck(value(Units.bitrate(upper)) == value(bitrate), "bitrate: case changes the value of \(text.debugDescription)")
        if case .success(let bits) = bitrate {
            fuzzCheck(AudioFormat.bitrateRange.contains(bits), "bitrate \(bits) of \(text.debugDescription)")
            for form in ["\(bits) bps", "\(Double(bits) / 1000)k", "\(Double(bits) / 1000) kbps"] {
                fuzzCheck(value(Units.bitrate(form)) == bits, "bitrate \(bits) does not read back from \(form.debugDescription)")
            }
        }

        let rate = Units.sampleRate(text)
        check(rate, "sampleRate", text)
        fuzzCheck(Units.sampleRate(padded) == rate, "sampleRate: spaces around \(text.debugDescription) change the result")
        fuzzCheck(value(Units.sampleRate(upper)) == value(rate), "sampleRate: case changes the value of \(text.debugDescription)")
        if case .success(let hertz) = rate {
            fuzzCheck(RecipeLimits.sampleRates.contains(hertz), "sampleRate \(hertz) of \(text.debugDescription)")
            for form in ["\(hertz)", "\(hertz) Hz", "\(hertz)hz", "\(Double(hertz) / 1000) kHz"] {
                fuzzCheck(value(Units.sampleRate(form)) == hertz, "sampleRate \(hertz) does not read back from \(form.debugDescription)")
            }
        }

        let loudness = Units.loudness(text)
        let word = text.trimmingCharacters(in: " \t").lowercased()
        let isOff = word == "off"
        fuzzCheck((value(loudness) == .some(nil)) == isOff, "loudness of \(text.debugDescription) is \(loudness)")

        promptTime(text, padded: padded, upper: upper)
        voiceLevel(text, padded: padded, upper: upper, isOff: isOff, loudness: loudness)
        duckDepth(text, padded: padded, upper: upper, isWCAG: word == "wcag")
        breathRate(text, padded: padded, upper: upper)
        cycleCount(text, padded: padded, upper: upper)
    }

    /// `Units.breathRate`: millionths of a bpm in 1…60 bpm, reading back from `Ramp.text`.
    static func breathRate(_ text: String, padded: String, upper: String) {
        let result = Units.breathRate(text)
        check(result, "breathRate", text)
        fuzzCheck(Units.breathRate(padded) == result, "breathRate: spaces around \(text.debugDescription) change the result")
        fuzzCheck(value(Units.breathRate(upper)) == value(result), "breathRate: case changes the value of \(text.debugDescription)")
        guard case .success(let rate) = result else { return }
        fuzzCheck(Ramp.microBPMRange.contains(rate), "breathRate \(rate) of \(text.debugDescription)")
        let shortest = Ramp.text(microBPM: rate)
        // trailing zeros of a fraction do not count among its 6 decimals
        let forms = [shortest, shortest + " bpm", "+" + shortest + "BPM", "0" + shortest + (shortest.contains(".") ? "000" : ".000000000")]
        for form in forms {
            fuzzCheck(value(Units.breathRate(form)) == rate, "breathRate \(rate) does not read back from \(form.debugDescription)")
        }
    }

    /// `Units.cycleCount`: 1…100000 cycles, reading back bare and with its unit.
    static func cycleCount(_ text: String, padded: String, upper: String) {
        let result = Units.cycleCount(text)
        check(result, "cycleCount", text)
        fuzzCheck(Units.cycleCount(padded) == result, "cycleCount: spaces around \(text.debugDescription) change the result")
        fuzzCheck(value(Units.cycleCount(upper)) == value(result), "cycleCount: case changes the value of \(text.debugDescription)")
        guard case .success(let count) = result else { return }
        fuzzCheck(RecipeLimits.cycles.contains(count), "cycleCount \(count) of \(text.debugDescription)")
        for form in ["\(count)", "\(count) cycles", "\(count)cycle", "000\(count) Cycles"] {
            fuzzCheck(value(Units.cycleCount(form)) == count, "cycleCount \(count) does not read back from \(form.debugDescription)")
        }
    }

    /// `Units.promptTime`: an anchor and an exact offset within ±24 h, reading back from its own text.
    static func promptTime(_ text: String, padded: String, upper: String) {
        let result = Units.promptTime(text)
        check(result, "promptTime", text)
        fuzzCheck(Units.promptTime(padded) == result, "promptTime: spaces around \(text.debugDescription) change the result")
        fuzzCheck(value(Units.promptTime(upper)) == value(result), "promptTime: case changes the value of \(text.debugDescription)")
        guard case .success(let time) = result else { return }
        let offset = time.offset
        let size = offset < .zero ? .zero - offset : offset
        fuzzCheck(size <= RecipeLimits.maxDuration, "promptTime: offset \(offset) of \(text.debugDescription) beyond ±24 h")
        let word: String
        switch time.anchor {
        case .start:
            fuzzCheck(offset >= .zero, "promptTime: \(text.debugDescription) starts \(offset) s before the file")
            // a bare time is a duration: the same exact value
            fuzzCheck(value(Units.duration(text)) == offset, "promptTime: \(text.debugDescription) is \(offset), not its duration")
            for form in [offset.description, offset.description + "s"] {
                fuzzCheck(value(Units.promptTime(form)) == time, "promptTime \(time) does not read back from \(form.debugDescription)")
            }
            return
        case .intro: word = "intro"
        case .practice: word = "practice"
        case .outro: word = "outro"
        case .end: word = "end"
        case .segment(let number):
            fuzzCheck(number >= 1 && number <= 999_999, "promptTime: segment \(number) of \(text.debugDescription)")
            word = "segment \(number)"
        }
        let sign = offset < .zero ? "-" : "+"
        var forms = [word + " " + sign + " " + size.description + "s", word + sign + size.description, word.uppercased() + " \(sign)\t\(size)"]
        if offset == .zero { forms += [word, word + " - 0s"] }
        for form in forms {
            fuzzCheck(value(Units.promptTime(form)) == time, "promptTime \(time) does not read back from \(form.debugDescription)")
        }
    }

    /// `Units.voiceLevel`: nil for `off` only, else what `loudness` reads, within -40…-10 LUFS.
    static func voiceLevel(_ text: String, padded: String, upper: String, isOff: Bool, loudness: Result<Double?, UnitError>) {
        let result = Units.voiceLevel(text)
        check(result, "voiceLevel", text)
        fuzzCheck(Units.voiceLevel(padded) == result, "voiceLevel: spaces around \(text.debugDescription) change the result")
        fuzzCheck(value(Units.voiceLevel(upper)) == value(result), "voiceLevel: case changes the value of \(text.debugDescription)")
        fuzzCheck((value(result) == .some(nil)) == isOff, "voiceLevel of \(text.debugDescription) is \(result)")
        guard case .success(let level?) = result else { return }
        fuzzCheck(level.isFinite && (-40 ... -10).contains(level), "voiceLevel \(level) of \(text.debugDescription)")
        fuzzCheck(value(loudness) == .some(level), "voiceLevel \(level) of \(text.debugDescription), but loudness reads \(loudness)")
        let shortest = "\(level)"
        guard !shortest.contains("e") else { return }
        for form in [shortest, shortest + " LUFS", shortest + "lkfs"] {
            fuzzCheck(value(Units.voiceLevel(form)) == .some(level), "voiceLevel \(level) does not read back from \(form.debugDescription)")
        }
    }

    /// `Units.duckDepth`: `wcag` for `wcag` only, else a depth in 0…40 dB, never -0.
    static func duckDepth(_ text: String, padded: String, upper: String, isWCAG: Bool) {
        let result = Units.duckDepth(text)
        check(result, "duckDepth", text)
        fuzzCheck(Units.duckDepth(padded) == result, "duckDepth: spaces around \(text.debugDescription) change the result")
        fuzzCheck(value(Units.duckDepth(upper)) == value(result), "duckDepth: case changes the value of \(text.debugDescription)")
        fuzzCheck((value(result) == .wcag) == isWCAG, "duckDepth of \(text.debugDescription) is \(result)")
        guard case .success(.depth(let depth)) = result else { return }
        fuzzCheck(depth.isFinite && (0...40).contains(depth), "duckDepth \(depth) of \(text.debugDescription)")
        fuzzCheck(depth != 0 || depth.sign == .plus, "duckDepth -0 from \(text.debugDescription)")
        let shortest = "\(depth)"
        guard !shortest.contains("e") else { return }
        for form in [shortest, shortest + " dB", "+" + shortest + "dB"] {
            fuzzCheck(value(Units.duckDepth(form)) == .depth(depth), "duckDepth \(depth) does not read back from \(form.debugDescription)")
        }
    }

    static func value<T>(_ result: Result<T, UnitError>) -> T? {
        if case .success(let x) = result { return x }
        return nil
    }

    static func check<T>(_ result: Result<T, UnitError>, _ name: String, _ text: String) {
        guard case .failure(let error) = result else { return }
        let reason = error.reason
        fuzzCheck(!reason.isEmpty, "\(name): empty reason for \(text.debugDescription)")
        fuzzCheck(reason.unicodeScalars.count <= 640, "\(name): a reason of \(reason.unicodeScalars.count) characters")
        for scalar in reason.unicodeScalars {
            let v = scalar.value
            fuzzCheck(!(v < 0x20 || v == 0x7F || (0x80..<0xA0).contains(v)), "\(name): control character in \(reason.debugDescription)")
        }
    }
}

extension String {
    /// Without the given characters at either end.
    fileprivate func trimmingCharacters(in set: String) -> String {
        let scalars = Array(unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, set.unicodeScalars.contains(scalars[start]) { start += 1 }
        while end > start, set.unicodeScalars.contains(scalars[end - 1]) { end -= 1 }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[start..<end])
        return String(out)
    }
}
