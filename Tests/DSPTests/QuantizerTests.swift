import Foundation
import Testing

@testable import DSP

/// `Quantizer`: exact 24-bit values and clipping, and the 16-bit TPDF dither its doc comment
/// describes (±1 LSB, reproducible from its seed, silence kept silent, unbiased on average).
@Suite struct QuantizerTests {
    static func quantize16(_ input: [Float], seed: UInt64 = 1, pieces: [Int]? = nil) -> [Int16] {
        var quantizer = Quantizer(depth: .int16, seed: seed)
        var out = [Int16](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                var done = 0
                for piece in pieces ?? [input.count] {
                    let count = min(piece, input.count - done)
                    quantizer.quantize16(
                        UnsafeBufferPointer(rebasing: source[done..<(done + count)]),
                        into: UnsafeMutableBufferPointer(rebasing: target[done..<(done + count)]), count: count)
                    done += count
                }
            }
        }
        return out
    }

    static func quantize24(_ input: [Float]) -> (right: [Int32], left: [Int32]) {
        let quantizer = Quantizer(depth: .int24, seed: 1)
        var right = [Int32](repeating: 0, count: input.count)
        var left = right
        input.withUnsafeBufferPointer { source in
            right.withUnsafeMutableBufferPointer { quantizer.quantize24Right(source, into: $0, count: input.count) }
            left.withUnsafeMutableBufferPointer { quantizer.quantize24(source, into: $0, count: input.count) }
        }
        return (right, left)
    }

    static let exact24Values: [(x: Float, value: Int32)] = [
        (0, 0), (1, 8_388_607), (-1, -8_388_607), (2, 8_388_607), (-2, -8_388_608), (.infinity, 8_388_607),
        (-.infinity, -8_388_608), (0.5, 4_194_304), (-0.5, -4_194_304), (1 / 8_388_607, 1), (-3 / 8_388_607, -3),
        (1.5 / 8_388_607, 2), (-2.5 / 8_388_607, -3), (0.49 / 8_388_607, 0), (0.25, 2_097_152),
    ]

    @Test(
        "24-bit: x · 8388607 rounded half away from zero, clipped to [-8388608, 8388607]; left-justified is the same << 8",
        arguments: exact24Values)
    func exact24(_ x: Float, _ expected: Int32) {
        let (right, left) = Self.quantize24([x])
        #expect(right == [expected])
        #expect(left == [expected << 8])
    }

    @Test("16-bit: silence stays exactly silent and draws no dither")
    func silence() {
        #expect(Self.quantize16([Float](repeating: 0, count: 1000)).allSatisfy { $0 == 0 })
        // zeros between samples do not move the dither: the non-zero samples get the same values
        let dense: [Float] = (0..<500).map { Float($0 % 13 + 1) / 32_767 }
        let sparse = dense.flatMap { x -> [Float] in [x, 0, 0] }
        let fromSparse = Self.quantize16(sparse)
        #expect(stride(from: 0, to: sparse.count, by: 3).map { fromSparse[$0] } == Self.quantize16(dense))
    }

    @Test(
        "16-bit: each value within 1.5 steps of x · 32767 (±1 LSB of dither, then rounding), the same from the same seed however it is split, another seed differs"
    )
    func dither() {
        let input = (0..<20_000).map { Float(sin(Double($0) * 0.01) * 0.9) }
        let once = Self.quantize16(input)
        #expect(zip(input, once).allSatisfy { abs(Double($1) - Double($0) * 32_767) <= 1.5 })
        #expect(Self.quantize16(input, pieces: [1, 7, 4096, 333, 20_000]) == once)
        #expect(Self.quantize16(input, seed: 2) != once)
        // dither, not rounding: some samples land a step away from the nearest value
        #expect(zip(input, once).contains { Double($1) != (Double($0) * 32_767).rounded() })
    }

    @Test("16-bit: the dither makes the mean exact: a constant 1000.3 steps averages 1000.3, not the 1000 rounding gives")
    func unbiased() {
        let x = Float(1000.3 / 32_767)
        let out = Self.quantize16([Float](repeating: x, count: 100_000))
        let mean = out.reduce(0.0) { $0 + Double($1) } / 100_000
        #expect(abs(mean - Double(x) * 32_767) < 0.01, "\(mean)")
        #expect(Set(out).isSubset(of: [999, 1000, 1001, 1002]))
    }

    static let rails: [(x: Float, low: Int16, high: Int16)] = [(2, .max, .max), (-2, .min, .min), (1, 32_766, .max), (-1, -32_768, -32_766)]

    @Test("16-bit: clipping at the rails", arguments: rails)
    func clipping(_ x: Float, _ low: Int16, _ high: Int16) {
        let out = Self.quantize16([Float](repeating: x, count: 1000))
        #expect(out.allSatisfy { $0 >= low && $0 <= high })
    }
}

@Suite struct GainTests {
    static let pairs: [(dB: Double, linear: Double)] = [(0, 1), (20, 10), (-20, 0.1), (-6.020_599_913, 0.5), (6.020_599_913, 2), (-120, 1e-6)]

    @Test("decibels ↔ linear", arguments: pairs)
    func conversions(_ dB: Double, _ linear: Double) {
        #expect(abs(Gain.linear(dB: dB) / linear - 1) < 1e-9)
        #expect(abs(Gain.decibels(linear: linear) - dB) < 1e-8)
    }

    @Test func zeroIsMinusInfinity() {
        #expect(Gain.decibels(linear: 0) == -.infinity)
        #expect(Gain.decibels(linear: -1) == -.infinity)
        #expect(Gain.linear(dB: -.infinity) == 0)
    }
}
