import AudioIO
import CSndfile
import CadenceCues
import Foundation
import TestKit
import Testing

// Corrupt media (issue 6): beds and cue files that are cut short, have garbage
// headers, lie about their length, rate or channels, or hold no frames. Every
// damaged file is made here, byte by byte, from a valid file libsndfile wrote,
// and rendered by the real `render` binary, as a bed and as a cue, under a time
// limit and a memory ceiling. Each case states what must happen: the exact exit
// status, and either the words of the error (which must name the file) or the
// audio a readable file must give.

// MARK: - Valid files

/// A valid sound written with libsndfile, from which damaged variants are made.
enum Pristine: String, Sendable {
    /// 1 s of 44.1 kHz stereo 16-bit WAV: a 44-byte header, then the samples.
    case wav
    /// The same samples as 16-bit FLAC.
    case flac
    /// 3 s of 44.1 kHz stereo Ogg Vorbis: long enough to span several Ogg pages.
    case ogg
    /// The WAV's samples as RF64 (its sizes in a 64-bit `ds64` chunk).
    case rf64
    /// A 16-bit WAV header with no frames after it.
    case wavNoFrames
    /// Ogg Vorbis with its three header packets and no audio.
    case oggNoFrames
    /// 0.1 s of genuine 256-channel WAV.
    case wav256Channels
    /// 0.1 s of genuine 255-channel Ogg Vorbis (Vorbis's most).
    case ogg255Channels

    static let rate = 44100

    var frames: Int {
        switch self {
        case .wav, .flac, .rf64: 44100
        case .ogg: 132_300
        case .wavNoFrames, .oggNoFrames: 0
        case .wav256Channels, .ogg255Channels: 4410
        }
    }

    var channels: Int {
        switch self {
        case .wav256Channels: 256
        case .ogg255Channels: 255
        default: 2
        }
    }

    var fileExtension: String {
        switch self {
        case .wav, .wavNoFrames, .wav256Channels: "wav"
        case .flac: "flac"
        case .ogg, .oggNoFrames, .ogg255Channels: "ogg"
        case .rf64: "rf64"
        }
    }

    var format: SoundFileWriter.Format {
        switch self {
        case .wav, .wavNoFrames, .wav256Channels: .wav16
        case .flac: .flac16
        case .ogg, .oggNoFrames, .ogg255Channels: .init(major: Int32(SF_FORMAT_OGG), subtype: Int32(SF_FORMAT_VORBIS))
        case .rf64: .init(major: Int32(SF_FORMAT_RF64), subtype: Int32(SF_FORMAT_PCM_16))
        }
    }

    /// Writes the file (a 440 Hz sine at 0.3 on every channel) under `folder` and returns its bytes.
    func write(in folder: TempFolder) throws -> [UInt8] {
        let path = folder.file("pristine/\(rawValue).\(fileExtension)")
        if !FileManager.default.fileExists(atPath: path) {
            let sine = Fixture.sine(
                frequency: 440, amplitudes: Array(repeating: 0.3, count: channels), sampleRate: Self.rate, frames: frames)
            try Fixture.writeSound(path, sine, sampleRate: Self.rate, channels: channels, format: format)
        }
        return try bytes(path)
    }
}

// MARK: - Byte surgery

/// Reads and patches the headers of WAV, FLAC and Ogg files.
enum Surgery {
    static func le32(_ b: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[offset + $1]) << (8 * $1) }
    }

    /// `b` with `value` written little-endian in `width` bytes at `offset`.
    static func patched(_ b: [UInt8], at offset: Int, _ value: UInt64, width: Int) -> [UInt8] {
        var out = b
        for i in 0..<width { out[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
        return out
    }

    /// The offset of RIFF chunk `id` (its 4-byte name) in a WAV or RF64 file.
    static func chunk(_ id: String, in b: [UInt8]) throws -> Int {
        var offset = 12
        while offset + 8 <= b.count {
            if String(decoding: b[offset..<(offset + 4)], as: UTF8.self) == id { return offset }
            let size = Int(le32(b, at: offset + 4))
            offset += 8 + size + (size & 1)
        }
        throw TestFailure("no '\(id)' chunk")
    }

    /// A WAV with its `fmt ` chunk's channel count (16 bits) or sample rate (32 bits) replaced.
    static func wavFormat(_ b: [UInt8], channels: UInt16? = nil, rate: UInt32? = nil) throws -> [UInt8] {
        let fmt = try chunk("fmt ", in: b)
        var out = b
        if let channels { out = patched(out, at: fmt + 10, UInt64(channels), width: 2) }
        if let rate { out = patched(out, at: fmt + 12, UInt64(rate), width: 4) }
        return out
    }

    /// Where a WAV's samples start.
    static func wavAudioStart(_ b: [UInt8]) throws -> Int { try chunk("data", in: b) + 8 }

    /// Where a FLAC file's first audio frame starts: after `fLaC` and every metadata block.
    static func flacAudioStart(_ b: [UInt8]) throws -> Int {
        var offset = 4
        while offset + 4 <= b.count {
            let header = b[offset]
            offset += 4 + (Int(b[offset + 1]) << 16 | Int(b[offset + 2]) << 8 | Int(b[offset + 3]))
            if header & 0x80 != 0 { return offset }
        }
        throw TestFailure("no last metadata block")
    }

    /// A FLAC with STREAMINFO's sample rate (20 bits), channel count (3 bits, stored
    /// minus one) or total samples (36 bits, 0 = unknown) replaced. STREAMINFO is the
    /// first metadata block; these fields are its bytes 10..<18 (file bytes 18..<26).
    static func flacStreamInfo(_ b: [UInt8], rate: UInt64? = nil, channels: UInt64? = nil, totalSamples: UInt64? = nil) -> [UInt8] {
        var x = (18..<26).reduce(UInt64(0)) { $0 << 8 | UInt64(b[$1]) }
        let bits = x >> 36 & 31
        let r = rate ?? (x >> 44 & 0xFFFFF)
        let c = channels.map { $0 - 1 } ?? (x >> 41 & 7)
        let t = totalSamples ?? (x & (1 << 36 - 1))
        x = r << 44 | c << 41 | bits << 36 | t
        var out = b
        for i in 0..<8 { out[18 + i] = UInt8(truncatingIfNeeded: x >> (56 - 8 * i)) }
        return out
    }

    /// An Ogg file's pages: offset, granule position (the frames decoded by the page's end), size.
    static func oggPages(_ b: [UInt8]) throws -> [(offset: Int, granule: Int64, size: Int)] {
        var pages: [(Int, Int64, Int)] = []
        var offset = 0
        while offset + 27 <= b.count {
            guard b[offset..<(offset + 4)].elementsEqual("OggS".utf8) else { throw TestFailure("no Ogg page at \(offset)") }
            let granule = Int64(bitPattern: (6..<14).reduce(UInt64(0)) { $0 | UInt64(b[offset + $1]) << (8 * ($1 - 6)) })
            let segments = Int(b[offset + 26])
            let size = 27 + segments + b[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
            pages.append((offset, granule, size))
            offset += size
        }
        return pages
    }

    /// Where an Ogg Vorbis file's first audio page starts (the first with a granule position above 0).
    static func oggAudioStart(_ b: [UInt8]) throws -> Int {
        guard let page = try oggPages(b).first(where: { $0.granule > 0 }) else { throw TestFailure("no audio page") }
        return page.offset
    }

    /// An Ogg Vorbis file whose identification header (the first page) claims another channel
    /// count or rate; the page's CRC is recomputed unless `fixCRC` is false, so libogg takes the page.
    static func vorbisIdentification(_ b: [UInt8], channels: UInt8? = nil, rate: UInt32? = nil, fixCRC: Bool = true) throws
        -> [UInt8]
    {
        guard let page = try oggPages(b).first else { throw TestFailure("no Ogg page") }
        // packet: 0x01 "vorbis", version (4 bytes), channels (1), rate (4)
        let packet = 27 + Int(b[26])
        var out = b
        if let channels { out[packet + 11] = channels }
        if let rate { out = patched(out, at: packet + 12, UInt64(rate), width: 4) }
        if fixCRC {
            out = patched(out, at: 22, 0, width: 4)
            out = patched(out, at: 22, UInt64(oggCRC(out[0..<page.size])), width: 4)
        }
        return out
    }

    /// Ogg's page checksum: CRC-32, polynomial 0x04C11DB7, no reflection, initial 0.
    static func oggCRC(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    /// The first `count` bytes replaced by `replacement` (zeros by default).
    static func overwritten(_ b: [UInt8], first count: Int, with replacement: [UInt8]? = nil) -> [UInt8] {
        (replacement ?? [UInt8](repeating: 0, count: count)) + b.dropFirst(count)
    }
}

// MARK: - Cases

/// What a damaged file must give.
enum Expected: Sendable {
    /// It still decodes, to exactly what the undamaged file gives: exit 0, the same audio bytes.
    case sameAsPristine
    /// It decodes to `frames` frames at `rate` (what the file really holds, at the rate it claims;
    /// nil: fewer frames than the undamaged file, more than none): exit 0.
    case renders(frames: Int?, rate: Int)
    /// Exit 65 and an error at the line naming the file, whose own words (before any
    /// `(libsndfile: …)`) contain every one of `words`. `check`: `render --check`, which
    /// opens assets but does not decode them, refuses it too (else it passes it).
    case refused(_ words: [String], check: Bool)
}

/// One damaged file: how it is made from a valid one, and what must happen.
struct Damage: Sendable, CustomTestStringConvertible {
    let name: String
    let source: Pristine
    let make: @Sendable ([UInt8]) throws -> [UInt8]
    let expected: Expected
    /// The recipe's `output.sample_rate`.
    var outputRate = 48000

    var testDescription: String { name }
}

/// Where a damaged file is used.
enum Use: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case bed, cue
    var testDescription: String { "as \(rawValue)" }
    /// The recipe key that names the file.
    var key: String { self == .bed ? "bed.file" : "cues.inhale.file" }
    var folder: String { self == .bed ? "beds" : "cues" }
}

/// The words of each kind of error, as the renderer says them.
enum Says {
    static let notSound = "not a sound file"
    static let damagedHeader = "damaged or cut-short header"
    static let damaged = "damaged or cut short"
    static let empty = "the file is empty"
    static let noFrames = "holds no audio"
    static let nothingDecoded = "no audio could be decoded"
    static let noRateOrChannels = "no valid sample rate or channel count"
    static let overLimit = "longer than the limit"
    static let bedTooShort = "a bed must last at least 1 s"
    static func channels(_ n: Int) -> String { "unsupported channel count \(n)" }
    static func rate(_ hz: UInt64) -> String { "unsupported sample rate \(hz) Hz" }
}

extension Damage {
    static func wav(_ name: String, _ expected: Expected, _ make: @escaping @Sendable ([UInt8]) throws -> [UInt8]) -> Damage {
        Damage(name: "WAV: " + name, source: .wav, make: make, expected: expected)
    }
    static func flac(_ name: String, _ expected: Expected, _ make: @escaping @Sendable ([UInt8]) throws -> [UInt8]) -> Damage {
        Damage(name: "FLAC: " + name, source: .flac, make: make, expected: expected)
    }
    static func ogg(_ name: String, _ expected: Expected, _ make: @escaping @Sendable ([UInt8]) throws -> [UInt8]) -> Damage {
        Damage(name: "Ogg: " + name, source: .ogg, make: make, expected: expected)
    }

    static let all: [Damage] = wavCases + flacCases + oggCases + otherCases

    static let wavCases: [Damage] = {
        let frameBytes = 4  // 16-bit stereo
        let f = Pristine.wav.frames
        return [
            // truncated
            .wav("cut inside the RIFF header (12 bytes)", .refused([Says.damaged], check: true)) { Array($0.prefix(12)) },
            .wav("cut inside the fmt chunk (30 bytes)", .refused([Says.damaged], check: true)) { Array($0.prefix(30)) },
            .wav("cut just after the header", .refused([Says.noFrames], check: true)) { Array($0.prefix(try Surgery.wavAudioStart($0))) },
            .wav("cut mid-data", .renders(frames: f / 2, rate: 44100)) { Array($0.prefix(try Surgery.wavAudioStart($0) + f / 2 * frameBytes)) },
            .wav("one byte short", .renders(frames: f - 1, rate: 44100)) { Array($0.dropLast()) },
            // garbage header
            .wav("first 64 bytes zeroed", .refused([Says.notSound], check: true)) { Surgery.overwritten($0, first: 64) },
            .wav("first 64 bytes random", .refused([Says.notSound], check: true)) {
                Surgery.overwritten($0, first: 64, with: Fixture.randomBytes(64, seed: 1))
            },
            .wav("'RIFF', then 200 random bytes", .refused([Says.notSound], check: true)) {
                Surgery.overwritten($0, first: 204, with: Array("RIFF".utf8) + Fixture.randomBytes(200, seed: 2))
            },
            .wav("a text file named .wav", .refused([Says.notSound], check: true)) { _ in
                Array(String(repeating: "this is not a sound, just words\n", count: 20).utf8)
            },
            .wav("an empty file (0 bytes)", .refused([Says.empty], check: true)) { _ in [] },
            // lying length
            .wav("RIFF size 0xFFFFFFFF", .sameAsPristine) { Surgery.patched($0, at: 4, 0xFFFF_FFFF, width: 4) },
            .wav("data size 0xFFFFFFFF, past the end of the file", .sameAsPristine) {
                Surgery.patched($0, at: try Surgery.chunk("data", in: $0) + 4, 0xFFFF_FFFF, width: 4)
            },
            .wav("RIFF and data sizes 0xFFFFFFFF", .sameAsPristine) {
                Surgery.patched(Surgery.patched($0, at: 4, 0xFFFF_FFFF, width: 4), at: try Surgery.chunk("data", in: $0) + 4, 0xFFFF_FFFF, width: 4)
            },
            .wav("RIFF size 36, smaller than the file", .sameAsPristine) { Surgery.patched($0, at: 4, 36, width: 4) },
            .wav("data size 1000 bytes, less than the data", .renders(frames: 250, rate: 44100)) {
                Surgery.patched($0, at: try Surgery.chunk("data", in: $0) + 4, 1000, width: 4)
            },
            .wav("data size 0", .refused([Says.noFrames], check: true)) {
                Surgery.patched($0, at: try Surgery.chunk("data", in: $0) + 4, 0, width: 4)
            },
            // lying rate
            .wav("claims 22050 Hz (really 44100)", .renders(frames: f, rate: 22050)) { try Surgery.wavFormat($0, rate: 22050) },
            // zero frames
            Damage(
                name: "WAV: a header and no frames (written so)", source: .wavNoFrames, make: { $0 },
                expected: .refused([Says.noFrames], check: true)),
            // hundreds of channels
            .wav("header claims 300 channels", .refused([Says.channels(300)], check: true)) { try Surgery.wavFormat($0, channels: 300) },
            .wav("header claims 1024 channels", .refused([Says.channels(1024)], check: true)) { try Surgery.wavFormat($0, channels: 1024) },
            .wav("header claims 65535 channels", .refused(["more channels than libsndfile accepts"], check: true)) {
                try Surgery.wavFormat($0, channels: 65535)
            },
            .wav("header claims 0 channels", .refused(["claims 0 channels"], check: true)) { try Surgery.wavFormat($0, channels: 0) },
            Damage(
                name: "WAV: a genuine 256-channel file", source: .wav256Channels, make: { $0 },
                expected: .refused([Says.channels(256)], check: true)),
            // rates
            .wav("1 Hz", .refused([Says.rate(1)], check: true)) { try Surgery.wavFormat($0, rate: 1) },
            .wav("10 MHz", .refused([Says.rate(10_000_000)], check: true)) { try Surgery.wavFormat($0, rate: 10_000_000) },
            .wav("0 Hz", .refused([Says.noRateOrChannels], check: true)) { try Surgery.wavFormat($0, rate: 0) },
            .wav("0xFFFFFFFF Hz", .refused([Says.noRateOrChannels], check: true)) { try Surgery.wavFormat($0, rate: 0xFFFF_FFFF) },
            .wav("999 Hz, just under the limit", .refused([Says.rate(999)], check: true)) { try Surgery.wavFormat($0, rate: 999) },
            .wav("1000 Hz, the lowest rate read", .renders(frames: f, rate: 1000)) { try Surgery.wavFormat($0, rate: 1000) },
            .wav("768 kHz, the highest rate read", .renders(frames: f, rate: 768_000)) { try Surgery.wavFormat($0, rate: 768_000) },
            .wav("768001 Hz, just over the limit", .refused([Says.rate(768_001)], check: true)) { try Surgery.wavFormat($0, rate: 768_001) },
            Damage(
                name: "WAV: 1000 Hz rendered at 384 kHz, past libsamplerate's 256× ratio", source: .wav,
                make: { try Surgery.wavFormat($0, rate: 1000) },
                // the header tells the rate, so --check finds it without decoding
                expected: .refused(["cannot convert 1000 Hz to 384000 Hz", "at most 256×"], check: true), outputRate: 384_000),
        ]
    }()

    static let flacCases: [Damage] = {
        let f = Pristine.flac.frames
        return [
            // truncated
            .flac("cut inside STREAMINFO (12 bytes)", .refused([Says.damagedHeader], check: true)) { Array($0.prefix(12)) },
            // STREAMINFO whole, nothing after it: libsndfile opens it, and nothing decodes
            .flac("cut just after STREAMINFO (42 bytes)", .refused([Says.nothingDecoded, "claims 1 s"], check: false)) { Array($0.prefix(42)) },
            .flac("cut inside the metadata, after STREAMINFO", .refused([Says.damaged], check: true)) {
                Array($0.prefix((42 + (try Surgery.flacAudioStart($0))) / 2))
            },
            .flac("cut just after the metadata", .refused([Says.nothingDecoded], check: false)) {
                Array($0.prefix(try Surgery.flacAudioStart($0)))
            },
            .flac("cut mid-data", .refused([Says.damaged, "after"], check: false)) {
                Array($0.prefix((try Surgery.flacAudioStart($0) + $0.count) / 2))
            },
            .flac("one byte short", .refused([Says.damaged, "after"], check: false)) { Array($0.dropLast()) },
            // garbage header
            .flac("first 64 bytes zeroed", .refused([Says.notSound], check: true)) { Surgery.overwritten($0, first: 64) },
            .flac("first 64 bytes random", .refused([Says.notSound], check: true)) {
                Surgery.overwritten($0, first: 64, with: Fixture.randomBytes(64, seed: 3))
            },
            .flac("'fLaC', then 200 random bytes", .refused([Says.damaged], check: true)) {
                Surgery.overwritten($0, first: 204, with: Array("fLaC".utf8) + Fixture.randomBytes(200, seed: 4))
            },
            .flac("an empty file (0 bytes)", .refused([Says.empty], check: true)) { _ in [] },
            // lying length
            .flac("total samples 0 (unknown length)", .sameAsPristine) { Surgery.flacStreamInfo($0, totalSamples: 0) },
            .flac("total samples 30 s (holds 1 s)", .sameAsPristine) { Surgery.flacStreamInfo($0, totalSamples: 30 * 44100) },
            .flac("total samples 2^36 − 1 (18 days)", .refused([Says.overLimit, "432 h"], check: true)) {
                Surgery.flacStreamInfo($0, totalSamples: 1 << 36 - 1)
            },
            .flac("total samples 100 (holds 44100)", .renders(frames: 100, rate: 44100)) { Surgery.flacStreamInfo($0, totalSamples: 100) },
            // lying rate and channels
            .flac("claims 22050 Hz (really 44100)", .renders(frames: f, rate: 22050)) { Surgery.flacStreamInfo($0, rate: 22050) },
            .flac("STREAMINFO claims 8 channels (frames hold 2)", .refused([Says.damaged, "after"], check: false)) {
                Surgery.flacStreamInfo($0, channels: 8)
            },
            // zero frames
            .flac("metadata only, total samples 0", .refused([Says.nothingDecoded], check: false)) {
                Surgery.flacStreamInfo(Array($0.prefix(try Surgery.flacAudioStart($0))), totalSamples: 0)
            },
            // rates
            .flac("1 Hz", .refused([Says.rate(1)], check: true)) { Surgery.flacStreamInfo($0, rate: 1) },
            .flac("0 Hz", .refused([Says.noRateOrChannels], check: true)) { Surgery.flacStreamInfo($0, rate: 0) },
            .flac("1048575 Hz (the most STREAMINFO holds)", .refused([Says.rate(1_048_575)], check: true)) {
                Surgery.flacStreamInfo($0, rate: 0xFFFFF)
            },
        ]
    }()

    static let oggCases: [Damage] = [
        // truncated
        .ogg("cut inside the first page header (12 bytes)", .refused([Says.damagedHeader], check: true)) { Array($0.prefix(12)) },
        .ogg("cut inside the header packets", .refused([Says.damaged], check: true)) { Array($0.prefix(try Surgery.oggAudioStart($0) / 2)) },
        .ogg("cut just after the header packets", .refused([Says.noFrames], check: true)) { Array($0.prefix(try Surgery.oggAudioStart($0))) },
        .ogg("cut inside the first audio page", .refused([Says.nothingDecoded], check: false)) {
            let pages = try Surgery.oggPages($0)
            guard let first = pages.first(where: { page in page.granule > 0 }) else { throw TestFailure("no audio page") }
            return Array($0.prefix(first.offset + first.size / 2))
        },
        // a cut last page is dropped: what the whole pages before it hold is played
        .ogg("one byte short", .renders(frames: nil, rate: 44100)) { Array($0.dropLast()) },
        // garbage header
        .ogg("first 64 bytes zeroed", .refused([Says.notSound], check: true)) { Surgery.overwritten($0, first: 64) },
        .ogg("first 64 bytes random", .refused([Says.notSound], check: true)) {
            Surgery.overwritten($0, first: 64, with: Fixture.randomBytes(64, seed: 5))
        },
        .ogg("'OggS', then 200 random bytes", .refused([Says.damagedHeader], check: true)) {
            Surgery.overwritten($0, first: 204, with: Array("OggS".utf8) + Fixture.randomBytes(200, seed: 6))
        },
        .ogg("identification page with a wrong checksum", .refused([Says.damaged], check: true)) {
            try Surgery.vorbisIdentification($0, rate: 48000, fixCRC: false)
        },
        // zero frames
        Damage(
            name: "Ogg: header packets and no audio (written so)", source: .oggNoFrames, make: { $0 },
            expected: .refused([Says.noFrames], check: true)),
        // lying rate and channels (checksums fixed: libogg takes the page, libvorbis reads the claim)
        .ogg("claims 22050 Hz (really 44100)", .renders(frames: 132_300, rate: 22050)) { try Surgery.vorbisIdentification($0, rate: 22050) },
        .ogg("1 Hz", .refused([Says.rate(1)], check: true)) { try Surgery.vorbisIdentification($0, rate: 1) },
        .ogg("10 MHz", .refused([Says.rate(10_000_000)], check: true)) { try Surgery.vorbisIdentification($0, rate: 10_000_000) },
        .ogg("0 Hz", .refused([Says.damaged], check: true)) { try Surgery.vorbisIdentification($0, rate: 0) },
        .ogg("identification header claims 255 channels (setup is for 2)", .refused([Says.noRateOrChannels], check: true)) {
            try Surgery.vorbisIdentification($0, channels: 255)
        },
        Damage(
            name: "Ogg: a genuine 255-channel file", source: .ogg255Channels, make: { $0 },
            expected: .refused([Says.channels(255)], check: true)),
    ]

    static let otherCases: [Damage] = [
        // a 64-bit length libsndfile checks against the file's size
        Damage(
            name: "RF64: ds64 claims 2^40 frames", source: .rf64,
            make: { b in
                let ds64 = try Surgery.chunk("ds64", in: b)
                // ds64: RIFF size (8 bytes), data size (8), sample count (8)
                return Surgery.patched(Surgery.patched(b, at: ds64 + 16, 1 << 42, width: 8), at: ds64 + 24, 1 << 40, width: 8)
            }, expected: .sameAsPristine)
    ]
}

// MARK: - Running render with bounds

/// `render` run in a folder under a CPU-time limit (`ulimit -t`), a wall-clock limit
/// (`timeout -s KILL`) and an address-space ceiling (`ulimit -v`), so that a loop, a
/// deadlock or a runaway allocation fails the test instead of the machine; the peak RSS
/// comes from GNU time when `/usr/bin/time` is installed.
enum Bounded {
    /// CPU seconds a render of these 3-second tracks may use: the slowest (a 1 s WAV that
    /// claims 1000 Hz, a 44 s cue resampled 48×) uses about 1.3 s in a debug build. CPU
    /// time does not stretch when the shared machine is busy; wall time does.
    static let cpuLimit = sanitized ? 40 : 10
    /// Wall seconds before a render that does not end (blocked, not spinning) is killed:
    /// generous, since other builds and tests share the machine's two cores.
    static let timeLimit = 60
    /// `ulimit -v` in KiB: 1 GiB of address space (a normal render here maps about 300 MB).
    /// Not set under a sanitizer, whose shadow memory reserves terabytes of address space.
    static let addressSpaceKB = 1 << 20
    /// The peak RSS allowed, in KiB (a render of these tracks peaks near 32 MB; ASan's
    /// shadow and its 256 MB quarantine of freed memory come on top).
    static let residentKB = sanitized ? 800_000 : 200_000
    /// Whether this test process, and so the `render` built beside it, runs under ASan or TSan
    /// (`scripts/sanitizers.sh`): their runtimes define these symbols.
    static let sanitized = ["__asan_init", "__tsan_init"].contains { (name: String) in dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) != nil }

    struct Run: CustomStringConvertible {
        let result: ProcessResult
        /// The peak RSS in KiB, when `/usr/bin/time` measured it.
        let peakKB: Int?
        var description: String { "\(result)" + (peakKB.map { "; peak RSS \($0) KiB" } ?? "") }
    }

    static func render(_ arguments: [String], in folder: TempFolder, label: String) throws -> Run {
        guard let render = renderExecutable else { throw TestFailure("the 'render' executable was not found; build it or set CADENCE_RENDER") }
        guard let timeout = which("timeout") else { throw TestFailure("timeout (coreutils) is not installed") }
        let rssFile = folder.file("rss-\(label)")
        var command = [timeout, "-s", "KILL", "\(timeLimit)", render] + arguments
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
            command = ["/usr/bin/time", "-o", rssFile, "-f", "%M"] + command
        }
        let addressSpace = sanitized ? "" : "ulimit -v \(addressSpaceKB) && "
        let script = addressSpace + "ulimit -t \(cpuLimit) || exit 125; export MALLOC_ARENA_MAX=2; exec \"$@\""
        let result = try run("/bin/sh", ["-c", script, "sh"] + command, in: folder.path, timeLimit: Double(timeLimit + 30))
        let peak = (try? String(contentsOfFile: rssFile, encoding: .utf8))?
            .split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        try? FileManager.default.removeItem(atPath: rssFile)
        return Run(result: result, peakKB: peak)
    }

    /// Neither a hang, a crash nor a runaway: the process ended by itself, with a status it chose.
    static func expectBounded(_ run: Run, _ context: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let status = run.result.status
        // timeout -s KILL exits 137 (128 + SIGKILL); the CPU limit sends SIGXCPU (128 + 24)
        #expect(
            !run.result.timedOut && status != 124 && status != 137,
            "\(context): hung (killed after \(timeLimit) s): \(run)", sourceLocation: sourceLocation)
        #expect(status != 128 + SIGXCPU, "\(context): spun (over \(cpuLimit) s of CPU): \(run)", sourceLocation: sourceLocation)
        #expect(!run.result.signaled && status < 128, "\(context): crashed (status \(status)): \(run)", sourceLocation: sourceLocation)
        #expect(status != 125, "\(context): ulimit failed: \(run)", sourceLocation: sourceLocation)
        if let peak = run.peakKB {
            #expect(peak <= residentKB, "\(context): peak RSS \(peak) KiB over \(residentKB) KiB", sourceLocation: sourceLocation)
        }
    }
}

// MARK: - Tests

@Suite("Corrupt media: damaged beds and cue files")
struct CorruptMediaTests {
    static let trackFrames = 3 * 48000

    /// A 3 s track: one 2 s cycle, a 1 s outro; the bed and the inhale cue are files.
    static func recipe(bed: String, cue: String, outputRate: Int) -> String {
        """
        duration: 3s
        pattern:
          name: Damaged Media
          phases:
            - inhale: 1s
            - exhale: 1s
        bed:
          file: \(bed)
          gain: -6 dB
        cues:
          inhale: { file: \(cue), gain: -6 dB }
        output:
          sample_rate: \(outputRate)
          loudness: off

        """
    }

    /// An assets folder with a valid bed (`beds/calm.wav`) and cue (`cues/tick.wav`, 0.25 s mono 22.05 kHz).
    static func assets(in folder: TempFolder) throws {
        try folder.write(Pristine.wav.write(in: folder), to: "assets/beds/calm.wav")
        let tick = Fixture.sine(frequency: 880, amplitudes: [0.3], sampleRate: 22050, frames: 22050 / 4)
        try Fixture.writeSound(folder.file("assets/cues/tick.wav"), tick, sampleRate: 22050, channels: 1, format: .wav16)
    }

    /// Whether a file that still decodes holds less than 1 s at the rate it claims.
    static func shorterThanBedMinimum(_ expected: Expected, source: Pristine) -> Bool {
        switch expected {
        case .sameAsPristine: source.frames < Pristine.rate
        case .renders(let frames?, let rate): frames < rate
        case .renders(nil, _), .refused: false
        }
    }

    @Test(
        "a damaged file gives its documented exit status and a clear error naming it, or a correct render; never a crash, hang or runaway",
        arguments: Damage.all, Use.allCases)
    func damaged(_ damage: Damage, as use: Use) throws {
        let folder = try TempFolder("corrupt")
        try Self.assets(in: folder)
        let pristine = try damage.source.write(in: folder)
        let relative = "\(use.folder)/damaged.\(damage.source.fileExtension)"
        try folder.write(try damage.make(pristine), to: "assets/" + relative)
        let bed = use == .bed ? relative : "beds/calm.wav"
        let cue = use == .cue ? relative : "cues/tick.wav"
        let text = Self.recipe(bed: bed, cue: cue, outputRate: damage.outputRate)
        try folder.write(text, to: "recipes/track.yml")
        try folder.folder("out")
        let context = "\(damage.name) \(use.testDescription)"

        let rendered = try Bounded.render(
            ["recipes/track.yml", "-o", "out/track.flac", "--assets", "assets", "--quiet"], in: folder, label: "render")
        Bounded.expectBounded(rendered, context)
        let checked = try Bounded.render(["--check", "recipes/track.yml", "--assets", "assets", "--quiet"], in: folder, label: "check")
        Bounded.expectBounded(checked, context + " (--check)")
        let line = try #require(position(of: "file: \(relative)", in: text)).line

        switch damage.expected {
        case .refused(let words, let check):
            #expect(rendered.result.status == 65, "\(context): \(rendered)")
            Self.expectError(rendered.result.stderr, line: line, use: use, file: relative, words: words, context: context)
            #expect(try folder.listing("out") == [], "\(context): a failed render left files")
            #expect(checked.result.status == (check ? 65 : 0), "\(context): --check \(checked)")
            if check {
                Self.expectError(checked.result.stderr, line: line, use: use, file: relative, words: words, context: context + " (--check)")
            }
        case .sameAsPristine, .renders:
            if use == .bed, Self.shorterThanBedMinimum(damage.expected, source: damage.source) {
                // a bed under PreparedBed.minimumSeconds (1 s) is refused: looped, it is a buzz or a DC offset.
                // --check sees it when the header says so; a file holding less than its header claims is found decoding.
                #expect(rendered.result.status == 65, "\(context): \(rendered)")
                Self.expectError(rendered.result.stderr, line: line, use: use, file: relative, words: [Says.bedTooShort], context: context)
                #expect(try folder.listing("out") == [], "\(context): a failed render left files")
                let header = try? SoundFileReader(path: folder.file("assets/" + relative))
                let claimsShort = header.flatMap { h in h.knownFrames.map { $0 < Int64(h.sampleRate) } } ?? false
                #expect(checked.result.status == (claimsShort ? 65 : 0), "\(context): --check \(checked)")
                return
            }
            #expect(rendered.result.status == 0, "\(context): \(rendered)")
            #expect(rendered.result.stderr.isEmpty, "\(context): \(rendered.result.stderr)")
            #expect(checked.result.status == 0, "\(context): --check \(checked)")
            guard rendered.result.status == 0 else { return }
            #expect(try folder.listing("out") == ["track.cues.json", "track.flac"], "\(context)")
            let audio = try readAudio(folder.file("out/track.flac"))
            #expect(audio.frames == Self.trackFrames * damage.outputRate / 48000 && audio.channels == 2, "\(context)")
            let sheet = try readCueSheet(folder.file("out/track.cues.json"))
            let tick = try #require(sheet.cues.first { $0.name == "inhale" })
            switch use {
            case .bed:
                // the bed sounds in the outro, where no cue does: 0.3 at -6 dB is an RMS near 0.106
                // (less for a bed of a few frames, looped with crossfades as long as half of it)
                let outro = (2 * 48000)..<(3 * 48000)
                #expect(audio.rms(0, outro) > 0.02, "\(context): the bed is missing (RMS \(audio.rms(0, outro)))")
            case .cue:
                // the cue is as long as what the file holds, at the rate it claims (libsamplerate's count ±2)
                let (frames, rate) =
                    switch damage.expected {
                    case .renders(let frames, let rate): (frames, rate)
                    default: (damage.source.frames, Pristine.rate)
                    }
                if let frames {
                    let expected = min(Int64(frames) * 48000 / Int64(rate), Int64(Self.trackFrames))
                    #expect(abs(tick.lengthFrames - expected) <= 2, "\(context): cue of \(tick.lengthFrames) frames, expected \(expected)")
                } else {
                    let whole = Int64(damage.source.frames) * 48000 / Int64(rate)
                    #expect(tick.lengthFrames > 0 && tick.lengthFrames < whole - 2, "\(context): cue of \(tick.lengthFrames) frames, whole \(whole)")
                }
            }
            if case .sameAsPristine = damage.expected {
                try folder.write(pristine, to: "assets/" + relative)
                try folder.folder("pristine-out")
                let reference = try Bounded.render(
                    ["recipes/track.yml", "-o", "pristine-out/track.flac", "--assets", "assets", "--quiet"], in: folder,
                    label: "pristine")
                #expect(reference.result.status == 0, "\(context): the undamaged file: \(reference)")
                #expect(
                    try bytes(folder.file("out/track.flac")) == bytes(folder.file("pristine-out/track.flac")),
                    "\(context): the audio differs from the undamaged file's")
            }
        }
        #expect(try folder.listing("recipes") == ["track.yml"], "\(context): files beside the recipe")
    }

    /// One `recipes/track.yml:LINE:COL: error: KEY: FILE: …` line, whose own words say what is wrong.
    static func expectError(
        _ stderr: String, line: Int, use: Use, file: String, words: [String], context: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let errors = stderr.split(separator: "\n").map(String.init).filter { $0.contains(" error: ") }
        #expect(errors.count == 1, "\(context): expected one error, got: \(stderr)", sourceLocation: sourceLocation)
        guard let message = errors.first else { return }
        let prefix = "recipes/track.yml:\(line):"
        #expect(message.hasPrefix(prefix), "\(context): not at \(prefix): \(message)", sourceLocation: sourceLocation)
        #expect(message.contains("\(use.key): \(file): "), "\(context): the key and file are not named: \(message)", sourceLocation: sourceLocation)
        // the renderer's own words, not only libsndfile's text in parentheses
        let own = message.components(separatedBy: "(libsndfile:").first ?? message
        for word in words {
            #expect(own.contains(word), "\(context): '\(word)' not said in: \(message)", sourceLocation: sourceLocation)
        }
    }

    @Test("a named pipe in place of a sound file is refused, not waited on", arguments: Use.allCases)
    func pipe(as use: Use) throws {
        let folder = try TempFolder("corrupt-pipe")
        try Self.assets(in: folder)
        let relative = "\(use.folder)/damaged.wav"
        // nothing ever writes to it: opening it for reading would block for good
        guard mkfifo(folder.file("assets/" + relative), 0o644) == 0 else {
            throw TestFailure("mkfifo: \(String(cString: strerror(errno)))")
        }
        let text = Self.recipe(
            bed: use == .bed ? relative : "beds/calm.wav", cue: use == .cue ? relative : "cues/tick.wav", outputRate: 48000)
        try folder.write(text, to: "recipes/track.yml")
        try folder.folder("out")
        let line = try #require(position(of: "file: \(relative)", in: text)).line
        for arguments in [["recipes/track.yml", "-o", "out/track.flac"], ["--check", "recipes/track.yml"]] {
            let context = "a pipe \(use.testDescription), \(arguments[0])"
            let run = try Bounded.render(arguments + ["--assets", "assets", "--quiet"], in: folder, label: "pipe")
            Bounded.expectBounded(run, context)
            #expect(run.result.status == 65, "\(context): \(run)")
            Self.expectError(run.result.stderr, line: line, use: use, file: relative, words: ["not a regular file"], context: context)
        }
        #expect(try folder.listing("out") == [])
    }

    @Test("a catalog with damaged beds renders its good tracks and reports the bad ones; --check reports what opening finds")
    func catalog() throws {
        let folder = try TempFolder("corrupt-catalog")
        try Self.assets(in: folder)
        let flac = try Pristine.flac.write(in: folder)
        // cut mid-data: opens (so the plan and --check pass it), fails while decoding
        try folder.write(Array(flac.prefix((try Surgery.flacAudioStart(flac) + flac.count) / 2)), to: "assets/beds/cut.flac")
        // garbage header: refused when opened
        try folder.write(Surgery.overwritten(try Pristine.wav.write(in: folder), first: 64), to: "assets/beds/noise.wav")
        let good = Self.recipe(bed: "beds/calm.wav", cue: "cues/tick.wav", outputRate: 48000)
        for id in ["good-a", "good-b"] { try folder.write("id: \(id)\n" + good, to: "recipes/\(id).yml") }
        let cut = "id: cut\n" + Self.recipe(bed: "beds/cut.flac", cue: "cues/tick.wav", outputRate: 48000)
        let noise = "id: noise\n" + Self.recipe(bed: "beds/noise.wav", cue: "cues/tick.wav", outputRate: 48000)
        try folder.write(cut, to: "recipes/cut.yml")
        try folder.write(noise, to: "recipes/noise.yml")

        let rendered = try Bounded.render(["recipes", "-o", "dist", "--assets", "assets", "-j", "2", "--quiet"], in: folder, label: "catalog")
        Bounded.expectBounded(rendered, "catalog")
        #expect(rendered.result.status == 65, "\(rendered)")
        let listing = try folder.listing("dist")
        for id in ["good-a", "good-b"] {
            #expect(listing.contains("\(id).flac") && listing.contains("\(id).cues.json"), "\(id) not rendered: \(listing)")
        }
        #expect(!listing.contains { $0.hasPrefix("cut.") || $0.hasPrefix("noise.") || $0.hasPrefix(".") }, "\(listing)")
        let manifest = try #require(try readJSONObject(folder.file("dist/catalog.json"))["tracks"] as? [[String: Any]])
        #expect(manifest.compactMap { $0["id"] as? String } == ["good-a", "good-b"])
        let stderr = rendered.result.stderr
        let cutLine = try #require(position(of: "file: beds/cut.flac", in: cut)).line
        let noiseLine = try #require(position(of: "file: beds/noise.wav", in: noise)).line
        #expect(
            stderr.split(separator: "\n").contains {
                $0.hasPrefix("recipes/cut.yml:\(cutLine):") && $0.contains("bed.file: beds/cut.flac: ") && $0.contains(Says.damaged)
            }, "\(stderr)")
        #expect(
            stderr.split(separator: "\n").contains {
                $0.hasPrefix("recipes/noise.yml:\(noiseLine):") && $0.contains("bed.file: beds/noise.wav: ") && $0.contains(Says.notSound)
            }, "\(stderr)")
        #expect(!stderr.contains("good-a.yml") && !stderr.contains("good-b.yml"), "\(stderr)")

        // --check opens assets without decoding them: the garbage header is found, the cut data is not
        let checked = try Bounded.render(["--check", "recipes", "--assets", "assets", "--quiet"], in: folder, label: "check")
        Bounded.expectBounded(checked, "catalog --check")
        #expect(checked.result.status == 65, "\(checked)")
        #expect(checked.result.stderr.contains("recipes/noise.yml:\(noiseLine):"), "\(checked)")
        #expect(!checked.result.stderr.contains("recipes/cut.yml"), "\(checked)")
    }
}
