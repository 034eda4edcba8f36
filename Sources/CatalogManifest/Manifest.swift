import CadenceCues
import Recipe

/// `catalog.json`: the bundle manifest the player apps load, one entry per track.
///
/// Written with keys in a fixed order and tracks in catalog order (`Manifest.ordered`: session by
/// session, recipe-v1.2 § Sessions in the catalog), so the same catalog gives the same bytes; a
/// shard's manifest also says which shard it is and which ids the whole catalog holds, so that
/// `merge` can find what is missing. The keys are listed once, in `Key`, `BundleKey`, `ShardKey`,
/// `SessionKey` and `EntryKey` (CadenceCues' `TrackCatalog` keys, which the apps' decoder reads too):
/// `jsonText()` writes them in that order and `Manifest.decode` (ManifestReader.swift) reads the same lists.
public struct Manifest: Sendable, Equatable {
    public static let fileName = TrackCatalog.fileName
    /// The value of `format` in every manifest.
    public static let formatName = TrackCatalog.formatName
    /// The `version` this writer writes and the reader reads.
    public static let version = TrackCatalog.supportedVersion

    /// The tracks in catalog order (`ordered(_:)`).
    public var tracks: [Entry]
    public var shard: ShardInfo?
    /// `--bundle-budget` in bytes, written as `bundle.budget` (null without one).
    public var budget: Int64?
    /// Read from a `catalog.json` written before sessions (no `sessions`, no track `session`,
    /// `locale`, `variant`, `drafts`): its entries hold the defaults (each track its own session,
    /// no draft), which a render derives again. Never written.
    public var predatesSessions = false

    public init(tracks: [Entry], shard: ShardInfo? = nil, budget: Int64? = nil) {
        self.tracks = Self.ordered(tracks)
        self.shard = shard
        self.budget = budget
    }

    /// The same tracks, shard and budget (however each was read: `predatesSessions` is not compared).
    public static func == (a: Manifest, b: Manifest) -> Bool { a.tracks == b.tracks && a.shard == b.shard && a.budget == b.budget }

    /// The bundled tracks' audio bytes (`bundle.bytes`): what the app ships inside itself.
    public var bundledBytes: Int64 { tracks.filter { $0.delivery == .bundled }.reduce(0) { $0 + $1.bytes } }

    /// The bundled tracks, largest first (ties by id), for a budget's message.
    public var largestBundled: [Entry] {
        tracks.filter { $0.delivery == .bundled }.sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.id < $1.id }
    }

    public struct Entry: Sendable, Equatable {
        public var id: String
        public var title: String
        public var category: String?
        public var duration: Double
        public var file: String
        public var cues: String
        /// Sidecar files beside the audio (`<id>.vtt`, `<id>.chapters.json`, `<id>.svg`).
        public var sidecars: [String]?
        public var premium: Bool
        public var sortOrder: Int?
        /// The id of its session: the recipe it was rendered from (`Rendition.of`).
        public var session: String
        /// Its locale tag as written in the recipe's `locales:`; nil for a recipe without.
        public var locale: String?
        /// The place of `locale` in the recipe's `locales:` (0 without): the first key of the order of a
        /// session's renditions. Not written: the order of a session's `tracks` gives it back (`ManifestReader`).
        public var localeRank: Int
        /// A variant's length in seconds, as `variants.duration` gives it (`variant.duration`); nil for a track that is no variant.
        public var variant: Double?
        /// How many entries of its cue sheet's `voice` are drafts (`draft: true`); 0 when none.
        public var drafts: Int
        /// Shipped inside the app or fetched when needed; an older manifest without the key reads as bundled.
        public var delivery: Delivery
        public var frames: Int64
        public var sampleRate: Int
        public var sha256: String
        public var bytes: Int64
        public var loudnessLUFS: Double?
        public var truePeakDBTP: Double?
        public var fingerprint: String

        public init(
            id: String, title: String, category: String?, duration: Double, file: String, cues: String, sidecars: [String]?, premium: Bool,
            sortOrder: Int?, session: String, locale: String? = nil, localeRank: Int = 0, variant: Double? = nil, drafts: Int = 0,
            delivery: Delivery, frames: Int64, sampleRate: Int, sha256: String, bytes: Int64, loudnessLUFS: Double?, truePeakDBTP: Double?,
            fingerprint: String
        ) {
            self.id = id
            self.title = title
            self.category = category
            self.duration = duration
            self.file = file
            self.cues = cues
            self.sidecars = sidecars
            self.premium = premium
            self.sortOrder = sortOrder
            self.session = session
            self.locale = locale
            self.localeRank = localeRank
            self.variant = variant
            self.drafts = drafts
            self.delivery = delivery
            self.frames = frames
            self.sampleRate = sampleRate
            self.sha256 = sha256
            self.bytes = bytes
            self.loudnessLUFS = loudnessLUFS
            self.truePeakDBTP = truePeakDBTP
            self.fingerprint = fingerprint
        }
    }

    public struct ShardInfo: Sendable, Equatable {
        public var index: Int
        public var count: Int
        /// Every id of the whole catalog, sorted.
        public var catalog: [String]

        public init(index: Int, count: Int, catalog: [String]) {
            self.index = index
            self.count = count
            self.catalog = catalog
        }
    }
}

extension Manifest.Entry {
    /// Every file of the track: audio, cue sheet, sidecars.
    public var files: [String] { [file, cues] + (sidecars ?? []) }
}

// MARK: - Keys, written once

extension Manifest {
    // One list of catalog.json's keys for the renderer and the apps: CadenceCues' TrackCatalogKeys.swift.

    /// The keys of the document, in the order they are written.
    public typealias Key = TrackCatalog.Key
    /// The keys of `bundle`, in the order they are written: the bundled tracks' audio bytes and the budget.
    public typealias BundleKey = TrackCatalog.BundleKey
    /// The keys of `shard`, in the order they are written.
    public typealias ShardKey = TrackCatalog.ShardKey
    /// The keys of a track entry, in the order they are written; `sidecars` is left out of an entry without the list.
    public typealias EntryKey = TrackCatalog.TrackKey
    /// The keys of a session of `sessions`, in the order they are written.
    public typealias SessionKey = TrackCatalog.SessionKey
    /// The keys of a track's `variant`.
    public typealias VariantKey = TrackCatalog.VariantKey
}

extension Manifest.Entry {
    /// The JSON text of one key's value as the manifest holds it; nil when the key is left out (`sidecars` when nil).
    public func jsonValue(_ key: Manifest.EntryKey) -> String? {
        switch key {
        case .id: JSONText.string(id)
        case .title: JSONText.string(title)
        case .category: category.map(JSONText.string) ?? "null"
        case .duration: JSONText.number(duration)
        case .file: JSONText.string(file)
        case .cues: JSONText.string(cues)
        case .sidecars: sidecars.map { "[" + $0.map(JSONText.string).joined(separator: ", ") + "]" }
        case .premium: premium ? "true" : "false"
        case .sortOrder: sortOrder.map(String.init) ?? "null"
        case .session: JSONText.string(session)
        case .locale: locale.map(JSONText.string) ?? "null"
        case .variant: variant.map { "{\"\(Manifest.VariantKey.duration.rawValue)\": \(JSONText.number($0))}" } ?? "null"
        case .drafts: String(drafts)
        case .delivery: JSONText.string(delivery.rawValue)
        case .frames: String(frames)
        case .sampleRate: String(sampleRate)
        case .sha256: JSONText.string(sha256)
        case .bytes: String(bytes)
        case .loudnessLUFS: loudnessLUFS.map(JSONText.number) ?? "null"
        case .truePeakDBTP: truePeakDBTP.map(JSONText.number) ?? "null"
        case .fingerprint: JSONText.string(fingerprint)
        }
    }

    /// The keys whose values differ between two entries of one track, for a message about a conflict.
    public func differingKeys(from other: Manifest.Entry) -> [Manifest.EntryKey] {
        Manifest.EntryKey.allCases.filter { jsonValue($0) != other.jsonValue($0) }
    }
}

// MARK: - Writing

extension Manifest {
    /// The manifest as JSON, keys in a fixed order, one track per block; `shard` only in a shard's manifest.
    public func jsonText() -> String {
        var j = JSONText()
        j.open()
        for key in Key.allCases {
            let name = key.rawValue
            switch key {
            case .format: j.field(name, Self.formatName)
            case .version: j.field(name, Self.version)
            case .shard:
                guard let shard else { continue }
                j.open(name)
                for k in ShardKey.allCases {
                    switch k {
                    case .index: j.field(k.rawValue, shard.index)
                    case .count: j.field(k.rawValue, shard.count)
                    case .catalog:
                        j.open(k.rawValue, array: true)
                        for id in shard.catalog { j.inlineValue(JSONText.string(id)) }
                        j.close(array: true)
                    }
                }
                j.close()
            case .bundle:
                j.open(name)
                for k in BundleKey.allCases {
                    switch k {
                    case .bytes: j.field(k.rawValue, bundledBytes)
                    case .budget: j.raw(k.rawValue, budget.map(String.init) ?? "null")
                    }
                }
                j.close()
            case .sessions:
                j.open(name, array: true)
                for session in sessions {
                    j.open()
                    for k in SessionKey.allCases { j.raw(k.rawValue, session.jsonValue(k)) }
                    j.close()
                }
                j.close(array: true)
            case .tracks:
                j.open(name, array: true)
                for track in tracks {
                    j.open()
                    for k in EntryKey.allCases {
                        if let value = track.jsonValue(k) { j.raw(k.rawValue, value) }
                    }
                    j.close()
                }
                j.close(array: true)
            }
        }
        j.close()
        return j.text
    }
}

/// A file the catalog needs that cannot be used (an asset to fingerprint, a file to copy).
public struct ManifestError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): error: \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
