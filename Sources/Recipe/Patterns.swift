import AudioCore

/// The built-in patterns of recipe-v1 and the default labels of phase kinds.
public enum BuiltinPatterns {
    /// The built-in names, in the order messages list them.
    public static let names = ["box", "4-7-8", "coherent", "relax", "pomodoro"]

    /// The built-in pattern called `name` (exact spelling), or nil.
    public static func named(_ name: String) -> Pattern? {
        switch name {
        case "box":
            return make("Box Breathing", name, [("inhale", 4), ("hold", 4), ("exhale", 4), ("hold", 4)])
        case "4-7-8":
            return make("4-7-8 Breathing", name, [("inhale", 4), ("hold", 7), ("exhale", 8)])
        case "coherent":
            return Pattern(
                name: "Coherent Breathing", builtin: name,
                phases: [
                    phase("inhale", ExactSeconds(nanoseconds: 5_500_000_000)),
                    phase("exhale", ExactSeconds(nanoseconds: 5_500_000_000)),
                ])
        case "relax":
            return make("Relax", name, [("inhale", 4), ("hold", 2), ("exhale", 6), ("rest", 2)])
        case "pomodoro":
            let work = ("work", Int64(25 * 60))
            let shortBreak = ("short_break", Int64(5 * 60))
            return make("Pomodoro", name, [work, shortBreak, work, shortBreak, work, shortBreak, work, ("long_break", 15 * 60)])
        default:
            return nil
        }
    }

    /// The label shown for a phase kind when the recipe gives none.
    ///
    /// Known kinds have fixed labels (`inhale` → `Breathe In`); any other word
    /// becomes its words capitalized, underscores and hyphens read as spaces
    /// (`slow_exhale` → `Slow Exhale`).
    public static func defaultLabel(for kind: String) -> String {
        switch kind {
        case "inhale": return "Breathe In"
        case "hold": return "Hold"
        case "exhale": return "Breathe Out"
        case "rest": return "Rest"
        case "work": return "Work"
        case "short_break": return "Short Break"
        case "long_break": return "Long Break"
        default:
            return kind.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " })
                .map { $0.prefix(1).uppercased() + $0.dropFirst() }
                .joined(separator: " ")
        }
    }

    private static func phase(_ kind: String, _ length: ExactSeconds) -> Phase {
        Phase(kind: kind, length: length, label: defaultLabel(for: kind))
    }

    /// A built-in pattern from whole-second phases.
    private static func make(_ display: String, _ key: String, _ phases: [(String, Int64)]) -> Pattern {
        Pattern(name: display, builtin: key, phases: phases.map { phase($0.0, ExactSeconds(seconds: $0.1)) })
    }
}
