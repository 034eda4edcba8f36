/// The colour of each phase kind, shared by the waveform picture, the page's legend and its ring.
///
/// A kind the table does not know (a recipe may name its own) is drawn as `other`.
public enum PhaseStyle {
    /// The kinds with a colour of their own, in legend order, and their colours.
    public static let kinds: [(kind: String, colour: String)] = [
        ("inhale", "#38bdf8"),
        ("hold", "#fbbf24"),
        ("exhale", "#34d399"),
        ("rest", "#a78bfa"),
        ("work", "#f87171"),
        ("short_break", "#4ade80"),
        ("long_break", "#2dd4bf"),
        ("other", "#94a3b8"),
    ]

    /// The style class of a phase kind: the kind itself when it has a colour, else `other`.
    public static func styleClass(of kind: String) -> String {
        kinds.contains { $0.kind == kind } ? kind : "other"
    }

    /// The colour of a phase kind (`other`'s for kinds without one).
    public static func colour(of kind: String) -> String {
        kinds.first { $0.kind == styleClass(of: kind) }?.colour ?? "#94a3b8"
    }

    /// The fill of intro sections, outro sections and any other non-practice section in the picture.
    public static let introColour = "#cbd5e1"
    public static let outroColour = "#e2e8f0"
    public static let sectionColour = "#e2e8f0"
}
