import AudioCore
import AudioIO
import Foundation
import Recipe
import Sidecars
import Timeline

/// One recipe file → its track, or a track per variant (`render RECIPE.yml [-o FILE]`).
///
/// The job loads the recipe, delivers it in `format` if one is given, refuses draft prompts
/// when asked to, lays out every variant before the first renders (so a variant too short
/// for its cues fails before any file is written), renders each track, and removes the
/// staging files a killed earlier render of the same outputs left. What a front end prints
/// comes back as data (`Track`); a failure is a `DiagnosticList` whose messages name settings,
/// not flags.
public struct RenderJob: Sendable {
    /// The recipe file.
    public var recipePath: String
    /// The audio file to write (its extension may give the format); nil: `<id>.<format>` here.
    /// A variant's file joins its suffix to this one's stem (`Recipe.variantPath`).
    public var outputPath: String?
    /// The folder asset paths are relative to; nil: the nearest `assets` folder above the recipe.
    public var assets: String?
    /// Delivers the track in this format instead of the recipe's `output.format`.
    public var format: AudioFormat?
    /// Files beside the track, besides those the recipe lists.
    public var sidecars: Set<SidecarKind>
    /// Refuses (before any work) a recipe whose prompts are still spoken by the draft voice.
    public var refusingDrafts: Bool
    /// Renders only the renditions in these locales (tags compared case-insensitively); empty:
    /// every rendition. A tag the recipe does not have is refused (a usage error).
    public var locales: [String]

    public init(
        recipePath: String, outputPath: String? = nil, assets: String? = nil, format: AudioFormat? = nil, sidecars: Set<SidecarKind> = [],
        refusingDrafts: Bool = false, locales: [String] = []
    ) {
        self.recipePath = recipePath
        self.outputPath = outputPath
        self.assets = assets
        self.format = format
        self.sidecars = sidecars
        self.refusingDrafts = refusingDrafts
        self.locales = locales
    }

    /// One track the job rendered.
    public struct Track: Sendable {
        /// What the render wrote and measured.
        public let rendered: RenderedTrack
        /// What the recipe's check noticed and let pass, located; the first track carries them,
        /// the recipe's other variants share them (so they are reported once).
        public let warnings: [Diagnostic]
        /// The staging files of a killed earlier render of this track's outputs, removed (names).
        public let leftoversRemoved: [String]
        /// Wall-clock seconds the track took, from the start of the job (the first) or the end of the previous one.
        public let elapsed: Double
    }

    /// Runs the job: `each` sees every track as soon as it is written, in order (variants in the
    /// order of `Recipe.variants()`). Throws the located diagnostics of the recipe, of every
    /// variant that cannot be laid out, of the drafts refused, or of the first track that fails.
    @discardableResult
    public func run(renderer: TrackRenderer = TrackRenderer(), each: (Track) -> Void = { _ in }) throws(DiagnosticList) -> [Track] {
        var started = Date()
        // an output that names a folder, a device or an unwritable place fails before the work, not after
        if let outputPath {
            do throws(AudioError) { try AtomicOutputFile.checkDestination(outputPath) } catch { throw DiagnosticList([error.diagnostic]) }
        }
        var loaded = try RecipeLoader.load(path: recipePath).settlingDraftVoices()
        if let format { loaded.deliver(as: format) }
        if refusingDrafts {
            let drafts = loaded.draftPrompts
            if !drafts.isEmpty { throw DiagnosticList(drafts) }
        }
        // a track per rendition (length × locale); all are checked before the first renders, so
        // one that cannot be laid out or lacks an asset writes nothing for any
        let renditions = try Self.chosen(of: loaded, locales: locales)
        var failed: [(variant: Recipe, diagnostics: [Diagnostic])] = []
        var timelines: [String: Timeline] = [:]
        for rendition in renditions where renditions.count > 1 {
            do throws(DiagnosticList) { timelines[rendition.id] = try TrackRenderer.checked(recipe: rendition, assets: assets).timeline } catch {
                failed.append((rendition, error.diagnostics))
            }
        }
        if !failed.isEmpty { throw DiagnosticList(VariantDiagnostics.merged(failed, of: renditions.count)) }
        var tracks: [Track] = []
        for (number, rendition) in renditions.enumerated() {
            let output =
                rendition.id == loaded.id ? outputPath : outputPath.map { Recipe.variantPath($0, baseID: loaded.id, variantID: rendition.id) }
            let rendered: RenderedTrack
            do throws(DiagnosticList) {
                rendered = try renderer.render(
                    recipe: rendition, timeline: timelines[rendition.id], outputPath: output, assets: assets, sidecars: sidecars)
            } catch {
                throw DiagnosticList(rendition.naming(error.diagnostics))
            }
            // staging files a killed render of these outputs left (see AtomicOutputFile)
            var removed: [String] = []
            let written = [rendered.audioPath, rendered.cueSheetPath] + rendered.sidecarPaths
            for (folder, paths) in Dictionary(grouping: written, by: { PathName.folder(of: $0) }) {
                removed += AtomicOutputFile.removeLeftovers(in: folder, names: Set(paths.map { PathName.name(of: $0) }))
            }
            // the recipe's warnings once; a warning per draft prompt of every rendition (recipe-v1.2 § Drafts made visible)
            let drafts = TrackRenderer.draftWarnings(of: rendition)
            let warnings =
                (number == 0 ? rendered.warnings.filter { !drafts.contains($0) } : []) + (renditions.count > 1 ? rendition.naming(drafts) : drafts)
            let track = Track(
                rendered: rendered, warnings: TrackRenderer.inLineOrder(warnings), leftoversRemoved: removed.sorted(),
                elapsed: Date().timeIntervalSince(started))
            each(track)
            tracks.append(track)
            started = Date()
        }
        return tracks
    }

    /// The locale of `known` a mistyped `tag` likely meant: one of its language (`pt` → `pt-BR`), else the nearest spelling.
    public static func likely(_ tag: String, in known: [String]) -> String? {
        known.first { LanguageTag.primaryLanguage($0) == LanguageTag.primaryLanguage(tag) }
            ?? Suggestions.closest(to: tag.lowercased(), in: known.map { $0.lowercased() }).flatMap { near in known.first { $0.lowercased() == near }
            }
    }

    /// The renditions `locales` asks for, in the recipe's order; every rendition when it asks for none.
    static func chosen(of recipe: Recipe, locales: [String]) throws(DiagnosticList) -> [Recipe] {
        if let unknown = locales.first(where: { recipe.locale(named: $0) == nil }) {
            let has = recipe.locales.isEmpty ? "it has no locales: add 'locales:'" : "its locales: " + recipe.locales.joined(separator: ", ")
            throw DiagnosticList([
                Diagnostic(
                    "", .localeAskedFor,
                    " '\(unknown)': \(PathName.name(of: recipe.file)) has no locale '\(unknown)' (\(has))"
                        + (Self.likely(unknown, in: recipe.locales).map { "; did you mean '\($0)'?" } ?? ""),
                    file: nil, kind: .setting)
            ])
        }
        return locales.isEmpty ? recipe.renditions() : recipe.renditions(in: locales)
    }
}
