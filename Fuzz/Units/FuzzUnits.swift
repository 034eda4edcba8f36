import AudioCore
import FuzzDriver
import Recipe

// Fuzzing build (scripts/fuzz.sh: -sanitize=fuzzer -DFUZZING): libFuzzer's own `main` calls
// `LLVMFuzzerTestOneInput`. Ordinary build: this `main` replays the files named on the command line.
//
/// `fuzz-units`: one string (the input as UTF-8, invalid bytes replaced) through every value parser of recipe-v1.
///
/// `Units.duration`, `gain`, `frequency`, `loudness`, `truePeak` and `bitrate` must return a value or a
/// reason for any text; never crash. Checked:
/// - a duration is exact, in 0…24 h (`RecipeLimits.maxDuration`), and reads back from its own
///   decimal text, bare and with `s`; a bit rate is a whole number of bits/s in 32k…320k that reads
///   back in bps, k and kbps; a gain, loudness or peak is finite, in its range and never
///   -0; a frequency is finite and above 0; each reads back from its shortest text, with its unit;
/// - results do not depend on spaces and tabs around the text, nor on the ASCII case;
/// - `loudness` is nil for `off` only;
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
            fuzzCheck(Units.bitrateRange.contains(bits), "bitrate \(bits) of \(text.debugDescription)")
            for form in ["\(bits) bps", "\(Double(bits) / 1000)k", "\(Double(bits) / 1000) kbps"] {
                fuzzCheck(value(Units.bitrate(form)) == bits, "bitrate \(bits) does not read back from \(form.debugDescription)")
            }
        }

        let loudness = Units.loudness(text)
        let isOff = text.trimmingCharacters(in: " \t").lowercased() == "off"
        fuzzCheck((value(loudness) == .some(nil)) == isOff, "loudness of \(text.debugDescription) is \(loudness)")
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
