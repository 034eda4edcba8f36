import Foundation

/// The few boxes of an MP4 file the tests read: the top-level order, `mvhd`, and the sound
/// track's edit list, durations, time-to-sample table and sample groups.
public struct MP4File {
    public struct Edit: Equatable, Sendable {
        public var duration: Int64
        public var mediaTime: Int64
    }

    public let bytes: [UInt8]
    /// Top-level box types in file order.
    public var topLevel: [String] = []
    public var movieTimescale = 0
    public var creationTime: Int64 = -1
    /// The `elst` entries of the track whose handler is `soun`; nil when it has none.
    public var audioEdits: [Edit]?
    /// `mvhd`'s duration (movie timescale).
    public var movieDuration: Int64 = -1
    /// The sound track's `tkhd` duration (movie timescale) and `mdhd` duration (media timescale).
    public var audioTrackDuration: Int64 = -1
    public var audioMediaDuration: Int64 = -1
    /// The sound track's `stts` entries: (sample count, sample delta).
    public var audioTimeToSample: [[Int64]] = []
    /// The grouping types of the sound track's `sgpd` and `sbgp` boxes, e.g. ["sgpd roll", "sbgp roll"].
    public var audioSampleGroups: [String] = []

    public init(path: String) throws {
        bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let top = children(0..<bytes.count)
        topLevel = top.map(\.type)
        guard let moov = top.first(where: { $0.type == "moov" }) else { return }
        let inMoov = children(moov.payload)
        if let mvhd = inMoov.first(where: { $0.type == "mvhd" }) {
            let p = mvhd.payload.lowerBound
            if bytes[p] == 1 {
                creationTime = Int64(bitPattern: uint(p + 4, 8))
                movieTimescale = Int(uint(p + 20, 4))
                movieDuration = Int64(bitPattern: uint(p + 24, 8))
            } else {
                creationTime = Int64(uint(p + 4, 4))
                movieTimescale = Int(uint(p + 12, 4))
                movieDuration = Int64(uint(p + 16, 4))
            }
        }
        for trak in inMoov where trak.type == "trak" {
            let inTrak = children(trak.payload)
            guard let mdia = inTrak.first(where: { $0.type == "mdia" }),
                let hdlr = children(mdia.payload).first(where: { $0.type == "hdlr" }),
                String(decoding: bytes[(hdlr.payload.lowerBound + 8)..<(hdlr.payload.lowerBound + 12)], as: UTF8.self) == "soun"
            else { continue }
            if let tkhd = inTrak.first(where: { $0.type == "tkhd" }) {
                let q = tkhd.payload.lowerBound
                audioTrackDuration = bytes[q] == 1 ? Int64(bitPattern: uint(q + 28, 8)) : Int64(uint(q + 20, 4))
            }
            let inMdia = children(mdia.payload)
            if let mdhd = inMdia.first(where: { $0.type == "mdhd" }) {
                let q = mdhd.payload.lowerBound
                audioMediaDuration = bytes[q] == 1 ? Int64(bitPattern: uint(q + 24, 8)) : Int64(uint(q + 16, 4))
            }
            if let minf = inMdia.first(where: { $0.type == "minf" }), let stbl = children(minf.payload).first(where: { $0.type == "stbl" }) {
                for box in children(stbl.payload) {
                    let q = box.payload.lowerBound
                    if box.type == "stts" {
                        audioTimeToSample = (0..<Int(uint(q + 4, 4))).map { [Int64(uint(q + 8 + 8 * $0, 4)), Int64(uint(q + 12 + 8 * $0, 4))] }
                    } else if box.type == "sgpd" || box.type == "sbgp" {
                        audioSampleGroups.append(box.type + " " + String(decoding: bytes[(q + 4)..<(q + 8)], as: UTF8.self))
                    }
                }
            }
            guard let edts = inTrak.first(where: { $0.type == "edts" }), let elst = children(edts.payload).first(where: { $0.type == "elst" })
            else { return }
            let p = elst.payload.lowerBound
            let version = bytes[p]
            let count = Int(uint(p + 4, 4))
            var edits: [Edit] = []
            var at = p + 8
            for _ in 0..<count {
                if version == 1 {
                    edits.append(Edit(duration: Int64(bitPattern: uint(at, 8)), mediaTime: Int64(bitPattern: uint(at + 8, 8))))
                    at += 20
                } else {
                    edits.append(Edit(duration: Int64(uint(at, 4)), mediaTime: Int64(Int32(bitPattern: UInt32(uint(at + 4, 4))))))
                    at += 12
                }
            }
            audioEdits = edits
        }
    }

    struct Box {
        var type: String
        var payload: Range<Int>
    }

    func uint(_ at: Int, _ size: Int) -> UInt64 {
        (0..<size).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[at + $1]) }
    }

    func children(_ range: Range<Int>) -> [Box] {
        var boxes: [Box] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = Int(uint(at, 4))
            var header = 8
            if size == 1 {
                size = Int(uint(at + 8, 8))
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, at + size <= range.upperBound else { break }
            boxes.append(Box(type: String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), payload: (at + header)..<(at + size)))
            at += size
        }
        return boxes
    }
}
