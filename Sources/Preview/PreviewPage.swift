import CadenceCues
import Sidecars

/// The catalog preview page: one self-contained `index.html` with a player per track.
///
/// Each track shows its title and length, an `<audio>` player, a breathing ring
/// that follows the cue sheet and the waveform picture with a playhead
/// (clicking it seeks). The ring's state is computed from the audio element's
/// own `currentTime`, never from a timer of the page: the same rule a player app
/// follows (cues-v1). Styles, script and each track's cue data are inline, so
/// the page works opened from disk (`file://`) and loads nothing from the network.
///
/// The output is a pure function of the input: the same tracks give the same bytes.
public enum PreviewPage {
    /// One track of the page.
    public struct Track: Sendable, Equatable {
        /// The catalog id; the track's element carries it as `data-track-id`.
        public var id: String
        public var title: String
        /// The category it is listed under; nil lists it under "Uncategorized", last.
        public var category: String?
        /// The audio file's path relative to `index.html` (`box-breathing-5m.flac`).
        public var audioFile: String
        /// The waveform picture's path relative to `index.html` (`WaveformPicture.svg`), if there is one.
        public var pictureFile: String?
        /// The audio's length in seconds, shown as `m:ss` or `h:mm:ss`.
        public var duration: Double
        /// The decoded cue sheet, or why there is none.
        public var cues: Cues

        public init(id: String, title: String, category: String?, audioFile: String, pictureFile: String?, duration: Double, cues: Cues) {
            self.id = id
            self.title = title
            self.category = category
            self.audioFile = audioFile
            self.pictureFile = pictureFile
            self.duration = duration
            self.cues = cues
        }
    }

    /// The heading of tracks without a category.
    public static let uncategorized = TrackCatalog.uncategorized

    /// The whole page for `tracks`: grouped by category (categories sorted, tracks in the given order inside each).
    public static func html(title: String, tracks: [Track]) -> String {
        let groups = grouped(tracks)
        let checked = tracks.map(\.cues.checked)
        let total = tracks.reduce(0.0) { $0 + ($1.duration.isFinite ? max(0, $1.duration) : 0) }
        var kindsShown = Set<String>()
        var sectionsShown = Set<String>()
        for case .success(let sheet) in checked {
            for p in sheet.phases { kindsShown.insert(PhaseStyle.styleClass(of: p.kind)) }
            for s in sheet.sections where s.kind == "intro" || s.kind == "outro" { sectionsShown.insert(s.kind) }
        }

        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(PageAssets.contentSecurityPolicy)\">\n"
        out += "<meta name=\"generator\" content=\"Cadence\">\n"
        out += "<title>\(Markup.text(title))</title>\n<style>\n\(PageAssets.css)</style>\n</head>\n<body>\n"
        out += "<header class=\"page-head\">\n<h1>\(Markup.text(title))</h1>\n"
        let trackWord = tracks.count == 1 ? "track" : "tracks"
        let categoryWord = groups.count == 1 ? "category" : "categories"
        out += "<p class=\"summary\">\(tracks.count) \(trackWord) in \(groups.count) \(categoryWord), \(formatDuration(total)) in all</p>\n"
        if !kindsShown.isEmpty || !sectionsShown.isEmpty {
            out += "<ul class=\"legend\" aria-label=\"Colours of the phases in the pictures\">"
            for (kind, _) in PhaseStyle.kinds where kindsShown.contains(kind) {
                out += "<li><span class=\"swatch k-\(kind)\"></span>\(kind.replacingUnderscores())</li>"
            }
            for kind in ["intro", "outro"] where sectionsShown.contains(kind) {
                out += "<li><span class=\"swatch s-\(kind)\"></span>\(kind)</li>"
            }
            out += "</ul>\n"
        }
        out += "<noscript><p class=\"note\">The breathing rings need JavaScript; the players work without it.</p></noscript>\n"
        out += "</header>\n<main>\n"
        if tracks.isEmpty { out += "<p class=\"empty\">No tracks.</p>\n" }
        for (g, group) in groups.enumerated() {
            let name = group.category ?? uncategorized
            out += "<section class=\"category\" aria-labelledby=\"category-\(g)\" data-category=\"\(Markup.text(name))\">\n"
            out += "<h2 id=\"category-\(g)\">\(Markup.text(name))</h2>\n<div class=\"grid\">\n"
            for index in group.indices {
                out += trackHTML(tracks[index], number: index, checked: checked[index])
            }
            out += "</div>\n</section>\n"
        }
        out += "</main>\n<script>\n\(PageAssets.script)</script>\n</body>\n</html>\n"
        return out
    }

    /// `m:ss` under an hour, `h:mm:ss` from an hour, rounded to the nearest second (negative or non-finite → `0:00`).
    public static func formatDuration(_ seconds: Double) -> String {
        let total = seconds.isFinite && seconds > 0 ? Int64(seconds.rounded()) : 0
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// Categories in order (case-insensitive, then exact; nil last) with the indices of their tracks in the given order.
    static func grouped(_ tracks: [Track]) -> [(category: String?, indices: [Int])] {
        var order: [String?] = []
        var members: [String?: [Int]] = [:]
        for (i, track) in tracks.enumerated() {
            if members[track.category] == nil { order.append(track.category) }
            members[track.category, default: []].append(i)
        }
        // the app's order (TrackCatalog.sections), so the page lists a catalog as the app does
        let sorted = order.sorted(by: TrackCatalog.categoryOrder)
        return sorted.map { ($0, members[$0] ?? []) }
    }

    private static func trackHTML(_ track: Track, number: Int, checked: Result<CueSheet, Problem>) -> String {
        let anchor = "track-\(number)"
        let title = track.title.isEmpty ? track.id : track.title
        let status: String
        switch checked {
        case .success: status = "ok"
        case .failure: status = "error"
        }
        var out = "<article class=\"track\" id=\"\(anchor)\" data-track-id=\"\(Markup.text(track.id))\""
        out += " data-duration=\"\(Markup.number(track.duration, digits: 3))\" data-cue-status=\"\(status)\" aria-labelledby=\"\(anchor)-title\">\n"
        out += "<header class=\"track-head\"><h3 id=\"\(anchor)-title\">\(Markup.text(title))</h3>"
        out +=
            "<p class=\"meta\"><span class=\"length\">\(formatDuration(track.duration))</span> · <code>\(Markup.text(track.id))</code></p></header>\n"
        out += "<div class=\"stage\">"
        switch checked {
        case .success:
            out += "<div class=\"ring-box\">"
            out += "<div class=\"ring\" aria-hidden=\"true\" data-phase-kind=\"\" data-phase-index=\"-1\" data-section=\"\" data-progress=\"0.000\""
            out += " data-scale=\"0.450\" style=\"transform:scale(0.450)\"></div></div>"
            out += "<div class=\"ring-text\"><span class=\"phase-label\" id=\"\(anchor)-phase\" role=\"status\" aria-live=\"polite\"></span>"
            out += "<span class=\"phase-detail\" aria-hidden=\"true\"></span>"
            // the words of the voice prompt sounding now, as captions (cues-v1.1)
            if case .success(let sheet) = checked, sheet.voice != nil {
                out += "<span class=\"prompt-text\" id=\"\(anchor)-prompt\" role=\"status\" aria-live=\"polite\"></span>"
            }
            out += "</div>"
        case .failure(let problem):
            out += "<p class=\"cue-error\" role=\"alert\">Cue sheet problem: \(Markup.text(problem.message))</p>"
        }
        out += "</div>\n"
        out +=
            "<audio controls preload=\"metadata\" src=\"\(Markup.text(Markup.urlPath(track.audioFile)))\" aria-label=\"Play \(Markup.text(title))\"></audio>\n"
        out += "<p class=\"audio-error\" role=\"alert\" hidden></p>\n"
        out += "<div class=\"wave\" title=\"Click to seek\">"
        if let picture = track.pictureFile {
            out += "<img src=\"\(Markup.text(Markup.urlPath(picture)))\" alt=\"Waveform of \(Markup.text(title)) with its phases and cues\""
            out += " width=\"\(WaveformPicture.width)\" height=\"\(WaveformPicture.height)\">"
        } else {
            out += "<span class=\"no-picture\">No waveform picture</span>"
        }
        out += "<div class=\"playhead\" aria-hidden=\"true\"></div></div>\n"
        if case .success(let sheet) = checked {
            out += "<script type=\"application/json\" class=\"cue-data\">\(compactJSON(sheet))</script>\n"
        }
        out += "</article>\n"
        return out
    }
}

extension String {
    /// `short_break` → `short break`, for the legend.
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? " " : $0 })
    }
}
