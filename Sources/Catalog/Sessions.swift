import AudioCore
import CadenceCues
import CatalogManifest
import Recipe

/// What a catalog track is of its recipe (recipe-v1.2 § Sessions in the catalog): the one place that
/// reads a track's session, locale and variant off the recipe it is rendered from.
struct Rendition: Sendable, Equatable {
    /// The session's id: the recipe's.
    var session: String
    /// The rendition's locale tag as written in `locales:`; nil without `locales:`.
    var locale: String?
    /// The place of `locale` in `locales:`; 0 without.
    var localeRank: Int
    /// A variant's length in seconds; nil for a recipe without `variants:`.
    var variant: Double?

    /// The tracks `recipe` (as loaded) makes, each with what it is of the recipe: the one place that
    /// knows how a recipe becomes catalog tracks. Every rendition (variants × locales), or, when
    /// `locales` names some (`--locale`), the renditions in those locales; a recipe without
    /// `locales:` renders whatever is asked. A rendition's own `locales` is empty: the rank of its
    /// locale comes from the recipe as loaded.
    static func tracks(of recipe: Recipe, locales: [String] = []) -> [(track: Recipe, rendition: Rendition)] {
        let renditions = locales.isEmpty ? recipe.renditions() : recipe.renditions(in: locales)
        return renditions.map { track in
            var variant: Double?
            if track.variantOf != nil, case .duration(let length) = track.length { variant = length.seconds }
            let rank = recipe.locales.firstIndex { $0 == track.locale } ?? 0
            return (track, Rendition(session: track.session, locale: track.locale, localeRank: rank, variant: variant))
        }
    }
}

extension Manifest.Entry {
    /// Takes the session, locale and variant of `rendition`.
    mutating func place(_ rendition: Rendition) {
        session = rendition.session
        locale = rendition.locale
        localeRank = rendition.localeRank
        variant = rendition.variant
    }
}

extension CueSheet {
    /// A track's draft count (recipe-v1.2 § Drafts made visible): its `voice` entries with `draft: true`.
    var draftCount: Int { voice?.filter(\.draft).count ?? 0 }
}
