import DSP
import Foundation
import Testing

/// The hot loops rewritten for speed must give exactly what the plain code gave.
@Suite("Fast paths equal the plain code")
struct FastPathTests {
    /// The plain definition: roundf of the float product, clamped, as Int32.
    static func plainRound24(_ x: Float) -> Int32 {
        var v = (x * 8_388_607).rounded()
        v = min(8_388_607, max(-8_388_608, v))
        return Int32(v)
    }

    @Test("24-bit rounding: bit-identical to roundf, at halves, near full scale and beyond")
    func round24() {
        var values: [Float] = [0, -0, 1, -1, 1.5, -1.5, 0.5 / 8_388_607, -0.5 / 8_388_607, 2, -2, .infinity, -.infinity]
        for k in -2000...2000 {
            let v = Float(k) / 2  // every half-integer step in sample units
            values.append(v / 8_388_607)
            values.append((v / 8_388_607).nextUp)
            values.append((v / 8_388_607).nextDown)
        }
        var random = SeededRandom(seed: 42)
        for _ in 0..<200_000 { values.append(Float(random.nextBipolar()) * 1.1) }
        let out = UnsafeMutableBufferPointer<Int32>.allocate(capacity: values.count)
        defer { out.deallocate() }
        values.withUnsafeBufferPointer { Quantizer(depth: .int24, seed: 1).quantize24Right($0, into: out, count: values.count) }
        var mismatches = 0
        for (i, x) in values.enumerated() where out[i] != Self.plainRound24(x) {
            mismatches += 1
            if mismatches < 5 { Issue.record("x = \(x): \(out[i]) vs roundf \(Self.plainRound24(x))") }
        }
        #expect(mismatches == 0)
        // the left-justified form is the same value shifted
        let left = UnsafeMutableBufferPointer<Int32>.allocate(capacity: values.count)
        defer { left.deallocate() }
        values.withUnsafeBufferPointer { Quantizer(depth: .int24, seed: 1).quantize24($0, into: left, count: values.count) }
        #expect((0..<values.count).allSatisfy { left[$0] == out[$0] << 8 })
    }

    @Test("peak scan: the largest magnitude, for every length and alignment")
    func peakScan() {
        var random = SeededRandom(seed: 7)
        let samples = (0..<1000).map { _ in Float(random.nextBipolar()) }
        samples.withUnsafeBufferPointer { p in
            for start in 0..<9 {
                for count in [0, 1, 7, 8, 9, 15, 16, 17, 100, 991 - start] {
                    let plain = p[start..<(start + count)].reduce(Float(0)) { max($0, abs($1)) }
                    #expect(PeakScan.peak(p.baseAddress! + start, count: count) == plain, "start \(start) count \(count)")
                }
            }
        }
        let spike: [Float] = [0.1, -0.2, 0.3, -0.99, 0.5, 0, 0, 0, 0, 0.2]
        #expect(spike.withUnsafeBufferPointer { PeakScan.peak($0.baseAddress!, count: $0.count) } == 0.99)
    }
}
