import Foundation
import Sidecars

extension PreviewPage {
    /// What a page remembers about the render that wrote it, so that the next render can mark what changed.
    ///
    /// The page carries it as `<script type="application/json" id="page-state">`:
    ///
    ///     {"format":"cadence-preview-state","version":1,"removed":0,"tracks":[
    ///     ["box-breathing-5m","<sha256 of the audio>",true], …]}
    ///
    /// A track is *changed* when the page before did not list it, or listed audio with
    /// another SHA-256. A render after which no track is new, changed or gone keeps the
    /// marks of the page before (`next(after:now:)`): the marks always show what the last
    /// render that changed the catalog's audio changed, and a run with nothing to do
    /// writes the same page again (so leaves it untouched). Without a page before (a new
    /// bundle, or `index.html` deleted) every track is changed.
    public struct PageState: Sendable, Equatable {
        /// The element's id in the page.
        public static let elementID = "page-state"
        static let formatName = "cadence-preview-state"

        /// The audio's SHA-256 of every track, by id.
        public var tracks: [String: String]
        /// The ids marked changed.
        public var changed: Set<String>
        /// How many tracks the render that made these marks took away.
        public var removed: Int

        public init(tracks: [String: String], changed: Set<String>, removed: Int) {
            self.tracks = tracks
            self.changed = changed
            self.removed = removed
        }

        /// The state a page of `tracks` carries: their ids, SHA-256s and marks (tracks without a SHA-256 are left out).
        init(_ tracks: [Track], removed: Int) {
            var known: [String: String] = [:]
            var changed = Set<String>()
            for track in tracks {
                guard let sha = track.sha256 else { continue }
                known[track.id] = sha
                if track.changed { changed.insert(track.id) }
            }
            self.init(tracks: known, changed: changed, removed: removed)
        }

        /// The marks of a page listing `now` (SHA-256 by id), written over a page whose state was `previous`.
        public static func next(after previous: PageState?, now: [String: String]) -> PageState {
            guard let previous else { return PageState(tracks: now, changed: Set(now.keys), removed: 0) }
            let changed = Set(now.compactMap { id, sha in previous.tracks[id] == sha ? nil : id })
            let gone = previous.tracks.keys.filter { now[$0] == nil }.count
            if changed.isEmpty && gone == 0 {
                return PageState(tracks: now, changed: previous.changed.intersection(now.keys), removed: previous.removed)
            }
            return PageState(tracks: now, changed: changed, removed: gone)
        }

        /// The state's JSON, safe inside `<script>`: keys in a fixed order, tracks sorted by id, one a line.
        func json() -> String {
            var out = "{\"format\":\(Markup.scriptJSONString(Self.formatName)),\"version\":1,\"removed\":\(removed),\"tracks\":["
            out += tracks.keys.sorted().map { id in
                "\n[\(Markup.scriptJSONString(id)),\(Markup.scriptJSONString(tracks[id] ?? "")),\(changed.contains(id))]"
            }.joined(separator: ",")
            out += "]}"
            return out
        }

        /// The state a page carries, or nil when it has none that this version reads (an older page, another file).
        public static func read(fromPage html: String) -> PageState? {
            let open = "<script type=\"application/json\" id=\"\(elementID)\">"
            guard let start = html.range(of: open), let end = html[start.upperBound...].range(of: "</script>") else { return nil }
            let text = html[start.upperBound..<end.lowerBound]
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                object["format"] as? String == formatName, (object["version"] as? NSNumber)?.intValue == 1,
                let removed = (object["removed"] as? NSNumber)?.intValue, removed >= 0,
                let rows = object["tracks"] as? [[Any]]
            else { return nil }
            var state = PageState(tracks: [:], changed: [], removed: removed)
            for row in rows {
                guard row.count == 3, let id = row[0] as? String, let sha = row[1] as? String, let mark = row[2] as? Bool,
                    state.tracks[id] == nil
                else { return nil }
                state.tracks[id] = sha
                if mark { state.changed.insert(id) }
            }
            return state
        }
    }
}
