import CadenceCues
import Sidecars

/// The catalog preview page: one self-contained `index.html` with a card per track.
///
/// The cards sit in a responsive grid, grouped by category (`grouped(_:)` gives the order).
/// Each card shows the track's title, its premium and changed-since-the-last-render badges,
/// its length, format, size, loudness and true peak, an `<audio>` player, a breathing
/// ring that follows the cue sheet and the waveform picture with a playhead (clicking it
/// seeks). Times are clocks: `m:ss`, or `h:mm:ss` from an hour.
///
/// The ring's state is computed from the audio element's own `currentTime`, never from a
/// timer of the page: the same rule a player app follows (cues-v1). Styles, script and
/// each track's cue data are inline, so the page works opened from disk (`file://`) and
/// loads nothing from the network.
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
        /// The audio file's path relative to `index.html` (`box-breathing-5m.flac`); its extension gives the format shown.
        public var audioFile: String
        /// The waveform picture's path relative to `index.html` (`WaveformPicture.svg`), if there is one.
        public var pictureFile: String?
        /// The audio's length in seconds, shown as `m:ss` or `h:mm:ss`.
        public var duration: Double
        /// The decoded cue sheet, or why there is none.
        public var cues: Cues
        /// The recipe's `sort_order`: the order inside a category, and the category's place (see `grouped(_:)`).
        public var sortOrder: Int?
        /// A premium track: the card gets a "Premium" badge.
        public var premium: Bool
        /// Fetched when first played rather than shipped inside the app: an "On demand" badge.
        public var onDemand: Bool
        /// The audio file's size in bytes (`data-bytes`), if known.
        public var bytes: Int64?
        /// The same size as people read it (`4.2 MB`), shown as given.
        public var size: String?
        /// Integrated loudness in LUFS; nil takes the cue sheet's, if it has one.
        public var loudnessLUFS: Double?
        /// True peak in dBTP; nil takes the cue sheet's, if it has one.
        public var truePeakDBTP: Double?
        /// The audio file's SHA-256: what the page remembers, in its page state, to tell a changed track on the next render.
        public var sha256: String?
        /// New, or its audio differs from what the page listed before (see `PageState`): a "Changed" badge.
        public var changed: Bool
        /// The id of its session (recipe-v1.2 § Sessions in the catalog): the tracks of one session share a card,
        /// in the order given, with pickers of length and language. Nil: a session of its own.
        public var session: String?
        /// Its locale tag, for the language picker; nil without.
        public var locale: String?
        /// A variant's length in seconds, for the length picker (else `duration`).
        public var variant: Double?
        /// Its draft prompts (`drafts` in `catalog.json`): above 0, a "Draft" badge.
        public var drafts: Int

        public init(
            id: String, title: String, category: String?, audioFile: String, pictureFile: String?, duration: Double, cues: Cues,
            sortOrder: Int? = nil, premium: Bool = false, onDemand: Bool = false, bytes: Int64? = nil, size: String? = nil,
            loudnessLUFS: Double? = nil, truePeakDBTP: Double? = nil, sha256: String? = nil, changed: Bool = false, session: String? = nil,
            locale: String? = nil, variant: Double? = nil, drafts: Int = 0
        ) {
            self.id = id
            self.title = title
            self.category = category
            self.audioFile = audioFile
            self.pictureFile = pictureFile
            self.duration = duration
            self.cues = cues
            self.sortOrder = sortOrder
            self.premium = premium
            self.onDemand = onDemand
            self.bytes = bytes
            self.size = size
            self.loudnessLUFS = loudnessLUFS
            self.truePeakDBTP = truePeakDBTP
            self.sha256 = sha256
            self.changed = changed
            self.session = session
            self.locale = locale
            self.variant = variant
            self.drafts = drafts
        }

        /// The session's id: `session`, or its own id.
        var sessionID: String { session ?? id }
        /// The length the picker shows and matches: a variant's, else the track's.
        var length: Double { variant ?? duration }
    }

    /// The heading of tracks without a category.
    public static let uncategorized = TrackCatalog.uncategorized

    /// At most this many cards side by side are asked for by one category (its `data-columns`).
    static let widestCategory = 4

    /// The whole page for `tracks`, grouped by category (`grouped(_:)`). `removed` is how many tracks
    /// the last render that changed the catalog took away (`PageState.removed`), for the summary line.
    public static func html(title: String, tracks: [Track], removed: Int = 0) -> String {
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
        out += "<p class=\"summary\">\(summary(tracks, categories: groups.count, seconds: total, removed: removed))</p>\n"
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
        out += "</header>\n<main class=\"categories\">\n"
        if tracks.isEmpty { out += "<p class=\"empty\">No tracks.</p>\n" }
        var position = 0  // anchors are numbered in the page's order, so they do not depend on the order given
        for (g, group) in groups.enumerated() {
            let name = group.category ?? uncategorized
            let columns = min(max(1, group.sessions.count), widestCategory)
            out +=
                "<section class=\"category\" aria-labelledby=\"category-\(g)\" data-category=\"\(Markup.text(name))\" data-columns=\"\(columns)\">\n"
            out += "<h2 id=\"category-\(g)\" title=\"\(Markup.text(name))\">\(Markup.text(name))</h2>\n<div class=\"grid\">\n"
            for session in group.sessions {
                out +=
                    "<div class=\"session\" data-session-id=\"\(Markup.text(tracks[session[0]].sessionID))\" data-renditions=\"\(session.count)\">\n"
                for (k, index) in session.enumerated() {
                    let pickers = self.pickers(of: index, in: session, tracks: tracks)
                    out += trackHTML(tracks[index], number: position, checked: checked[index], shown: k == 0, pickers: pickers)
                    position += 1
                }
                out += "</div>\n"
            }
            out += "</div>\n</section>\n"
        }
        out += "</main>\n"
        out += "<script type=\"application/json\" id=\"\(PageState.elementID)\">\(PageState(tracks, removed: removed).json())</script>\n"
        out += "<script>\n\(PageAssets.script)</script>\n</body>\n</html>\n"
        return out
    }

    /// `m:ss` under an hour, `h:mm:ss` from an hour (`0:00`, `0:59`, `25:00`, `1:00:00`, `1:02:03`).
    /// Rounded to the nearest second, halves up (59.5 s is `1:00`); negative or non-finite → `0:00`.
    /// The page's script writes a phase's time left in the same form, rounded up instead (a
    /// countdown reads `0:01` in its last second, never `0:00` while the phase lasts).
    public static func formatDuration(_ seconds: Double) -> String {
        let total = seconds.isFinite && seconds > 0 ? Int64(min(seconds, 9e15).rounded()) : 0
        return clock(total)
    }

    /// A whole number of seconds as `m:ss` or `h:mm:ss`.
    static func clock(_ total: Int64) -> String {
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// The format shown for an audio file, from its extension: `FLAC`, `M4A`, `Ogg`, `Opus`, `MP3`, `WAV`, `CAF`, `AIFF`;
    /// another extension upper-cased; nil without one.
    public static func formatName(ofFile file: String) -> String? {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return nil }
        let ext = String(name[name.index(after: dot)...])
        switch ext.lowercased() {
        case "flac": return "FLAC"
        case "m4a", "mp4", "aac": return "M4A"
        case "ogg", "oga": return "Ogg"
        case "opus": return "Opus"
        case "mp3": return "MP3"
        case "wav", "wave": return "WAV"
        case "caf": return "CAF"
        case "aif", "aiff": return "AIFF"
        default: return ext.uppercased()
        }
    }

    /// A level with one decimal, always shown (`-16.0`, `-1.2`); the sign is ASCII.
    static func level(_ x: Double) -> String {
        let text = Markup.number(x, digits: 1)
        return text.contains(".") ? text : text + ".0"
    }

    /// Categories in order, with the sessions of each in order, a session as the indices of its tracks.
    ///
    /// A session's tracks (those with the same `sessionID`) stay in the order given (the catalog's:
    /// by locale, then length); the session is placed, and its category taken, by its first track.
    /// Inside a category, sessions go by `sortOrder` (those without one after every number),
    /// then title, then id, as the apps list them (`TrackCatalog.sections`). A category's
    /// place is the smallest `sortOrder` among its sessions (a category none of whose sessions
    /// has one comes after every numbered category); ties go by name, case-insensitive then
    /// exact (`TrackCatalog.categoryOrder`). Sessions without a category come last, under
    /// "Uncategorized", whatever their `sortOrder`.
    static func grouped(_ tracks: [Track]) -> [(category: String?, sessions: [[Int]])] {
        var sessionOf: [String: Int] = [:]
        var sessions: [[Int]] = []
        for (i, track) in tracks.enumerated() {
            if let s = sessionOf[track.sessionID] {
                sessions[s].append(i)
            } else {
                sessionOf[track.sessionID] = sessions.count
                sessions.append([i])
            }
        }
        var members: [String?: [[Int]]] = [:]
        for session in sessions { members[tracks[session[0]].category, default: []].append(session) }
        func key(_ session: [Int]) -> (Int, String, String, Int) {
            let first = tracks[session[0]]
            return (first.sortOrder ?? Int.max, first.title, first.sessionID, session[0])
        }
        let ordered = members.mapValues { $0.sorted { key($0) < key($1) } }
        let rank = members.mapValues { $0.map { tracks[$0[0]].sortOrder ?? Int.max }.min() ?? Int.max }
        let categories = ordered.keys.sorted { a, b in
            switch (a, b) {
            case (nil, _): return false
            case (_, nil): return true
            default:
                let ra = rank[a] ?? Int.max, rb = rank[b] ?? Int.max
                return ra != rb ? ra < rb : TrackCatalog.categoryOrder(a, b)
            }
        }
        return categories.map { ($0, ordered[$0] ?? []) }
    }

    /// The pickers of track `index`'s card in its session (nil for a session of one track): the lengths of
    /// its locale, and the locales (each the rendition of that locale nearest its length, shorter on a tie);
    /// each option's value is the id of the track it shows, the track's own selected.
    static func pickers(of index: Int, in session: [Int], tracks: [Track]) -> String? {
        guard session.count > 1 else { return nil }
        let track = tracks[index]
        func localeKey(_ t: Track) -> String { t.locale?.lowercased() ?? "" }
        var out = "<div class=\"pickers\">"
        let sameLocale = session.filter { localeKey(tracks[$0]) == localeKey(track) }
        if sameLocale.count > 1 {
            out += "<label>Length <select class=\"pick-length\" aria-label=\"Length\">"
            for i in sameLocale {
                let selected = i == index ? " selected" : ""
                out += "<option value=\"\(Markup.text(tracks[i].id))\"\(selected)>\(formatDuration(tracks[i].length))</option>"
            }
            out += "</select></label>"
        }
        var locales: [String] = []
        for i in session where !locales.contains(localeKey(tracks[i])) { locales.append(localeKey(tracks[i])) }
        if locales.count > 1 {
            out += "<label>Language <select class=\"pick-locale\" aria-label=\"Language\">"
            for locale in locales {
                let candidates = session.filter { localeKey(tracks[$0]) == locale }
                let nearest =
                    candidates.min { a, b in
                        let da = abs(tracks[a].length - track.length), db = abs(tracks[b].length - track.length)
                        return da != db ? da < db : tracks[a].length < tracks[b].length
                    } ?? candidates[0]
                let selected = locale == localeKey(track) ? " selected" : ""
                let name = tracks[nearest].locale ?? "default"
                out += "<option value=\"\(Markup.text(tracks[nearest].id))\"\(selected)>\(Markup.text(name))</option>"
            }
            out += "</select></label>"
        }
        return out + "</div>"
    }

    /// The line under the page's title: counts, total length, premium tracks, the last render's changes.
    private static func summary(_ tracks: [Track], categories: Int, seconds: Double, removed: Int) -> String {
        let trackWord = tracks.count == 1 ? "track" : "tracks"
        let categoryWord = categories == 1 ? "category" : "categories"
        var out = "\(tracks.count) \(trackWord) in \(categories) \(categoryWord), \(formatDuration(seconds)) in all"
        let premium = tracks.filter(\.premium).count
        if premium > 0 { out += " · \(premium) premium" }
        let drafted = tracks.filter { $0.drafts > 0 }.count
        if drafted > 0 { out += " · <span class=\"drafted\">\(drafted) with draft prompts</span>" }
        let changed = tracks.filter(\.changed).count
        if changed > 0 || removed > 0 {
            out += " · <span class=\"changes\">\(changed) new or changed in the last render"
            if removed > 0 { out += ", \(removed) removed" }
            out += "</span>"
        }
        return out
    }

    /// One track's card; `shown`: the card its session shows first (the others are `hidden` until picked, their audio
    /// not preloaded); `pickers`: its session's pickers, as `pickers(of:in:tracks:)` gives them.
    private static func trackHTML(_ track: Track, number: Int, checked: Result<CueSheet, Problem>, shown: Bool, pickers: String?) -> String {
        let anchor = "track-\(number)"
        let title = track.title.isEmpty ? track.id : track.title
        let status: String
        switch checked {
        case .success: status = "ok"
        case .failure: status = "error"
        }
        var sheetAudio: CueSheet.Audio?
        if case .sheet(let sheet) = track.cues { sheetAudio = sheet.audio }
        let loudness = (track.loudnessLUFS ?? sheetAudio?.loudnessLUFS).flatMap { $0.isFinite ? $0 : nil }
        let peak = (track.truePeakDBTP ?? sheetAudio?.truePeakDBTP).flatMap { $0.isFinite ? $0 : nil }
        let format = formatName(ofFile: track.audioFile)

        var out = "<article class=\"track\" id=\"\(anchor)\" data-track-id=\"\(Markup.text(track.id))\""
        out += " data-duration=\"\(Markup.number(track.duration, digits: 3))\" data-cue-status=\"\(status)\""
        out += " data-premium=\"\(track.premium)\" data-changed=\"\(track.changed)\" data-drafts=\"\(track.drafts)\""
        out += " data-length=\"\(Markup.number(track.length, digits: 3))\""
        if let locale = track.locale { out += " data-locale=\"\(Markup.text(locale))\"" }
        if let format { out += " data-format=\"\(Markup.text(format))\"" }
        if let bytes = track.bytes { out += " data-bytes=\"\(bytes)\"" }
        if let loudness { out += " data-loudness-lufs=\"\(Markup.number(loudness, digits: 2))\"" }
        if let peak { out += " data-true-peak-dbtp=\"\(Markup.number(peak, digits: 2))\"" }
        out += " aria-labelledby=\"\(anchor)-title\"\(shown ? "" : " hidden")>\n"
        out += "<header class=\"track-head\"><h3 id=\"\(anchor)-title\">\(Markup.text(title))</h3>"
        var badges = ""
        if track.premium { badges += "<span class=\"badge premium\">Premium</span>" }
        if track.drafts > 0 {
            let prompts = track.drafts == 1 ? "1 draft prompt" : "\(track.drafts) draft prompts"
            badges +=
                "<span class=\"badge draft\" title=\"\(prompts), spoken by the draft voice: record them before release (render --no-drafts refuses them)\">Draft</span>"
        }
        if track.onDemand { badges += "<span class=\"badge on-demand\" title=\"Fetched when first played, not shipped in the app\">On demand</span>" }
        if track.changed {
            badges += "<span class=\"badge changed\" title=\"New, or its audio differs from the version this page listed before\">Changed</span>"
        }
        if !badges.isEmpty { out += "<p class=\"badges\">\(badges)</p>" }
        if let pickers { out += pickers }
        out += "</header>\n<ul class=\"facts\">"
        out += "<li class=\"length\" title=\"Length\">\(formatDuration(track.duration))</li>"
        if let format { out += "<li class=\"format\" title=\"Format\">\(Markup.text(format))</li>" }
        if let size = track.size { out += "<li class=\"size\" title=\"File size\">\(Markup.text(size))</li>" }
        if let loudness { out += "<li class=\"loudness\" title=\"Integrated loudness\">\(level(loudness)) LUFS</li>" }
        if let peak { out += "<li class=\"true-peak\" title=\"True peak\">\(level(peak)) dBTP</li>" }
        out += "<li class=\"id\" title=\"Catalog id\"><code>\(Markup.text(track.id))</code></li></ul>\n"
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
            "<audio controls preload=\"\(shown ? "metadata" : "none")\" src=\"\(Markup.text(Markup.urlPath(track.audioFile)))\" aria-label=\"Play \(Markup.text(title))\"></audio>\n"
        out += "<p class=\"audio-error\" role=\"alert\" hidden></p>\n"
        // cues-v1.2: a sheet with breath guidance gets a thin line under the picture, drawn by the script from E
        var guided = false
        if case .success(let sheet) = checked, sheet.guide != nil { guided = true }
        out += "<div class=\"wave\(guided ? " guided" : "")\" title=\"Click to seek\">"
        if let picture = track.pictureFile {
            out += "<img src=\"\(Markup.text(Markup.urlPath(picture)))\" alt=\"Waveform of \(Markup.text(title)) with its phases and cues\""
            out += " width=\"\(WaveformPicture.width)\" height=\"\(WaveformPicture.height)\">"
        } else {
            out += "<span class=\"no-picture\">No waveform picture</span>"
        }
        if guided {
            out += "<svg class=\"guide-line\" viewBox=\"0 0 \(PageAssets.guideLineWidth) \(PageAssets.guideLineHeight)\" preserveAspectRatio=\"none\""
            out += " aria-hidden=\"true\"><title>How full the breath is (E): full at the top, empty at the bottom</title>"
            out += "<polyline points=\"\"/></svg>"
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
