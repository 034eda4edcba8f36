/// Clock texts for frames, rounded to the nearest millisecond in integer arithmetic.
public enum Timestamp {
    /// Milliseconds of `frame` at `rate`: round(frame × 1000 / rate), halves up, exact.
    public static func milliseconds(_ frame: Int64, rate: Int) -> Int64 {
        let r = Int64(rate)
        return (frame * 1000 + r / 2) / r
    }

    /// `HH:MM:SS.mmm`, as WebVTT and chapter comments write it.
    public static func clock(_ frame: Int64, rate: Int) -> String {
        let ms = milliseconds(frame, rate: rate)
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        return pad(h, 2) + ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(f, 3)
    }

    /// Seconds as a JSON number with millisecond precision (`10.5`, `0`).
    public static func seconds(_ frame: Int64, rate: Int) -> String {
        let ms = milliseconds(frame, rate: rate)
        let whole = String(ms / 1000)
        let fraction = ms % 1000
        guard fraction != 0 else { return whole }
        var digits = pad(fraction, 3)
        while digits.hasSuffix("0") { digits.removeLast() }
        return whole + "." + digits
    }

    private static func pad(_ n: Int64, _ width: Int) -> String {
        let text = String(n)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
