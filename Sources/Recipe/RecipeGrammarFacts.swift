/// Facts of the parser's grammar that the JSON Schema generator (the `Schema` target) writes into
/// `schema/recipe.schema.json`, read from where the parser keeps them.
public enum RecipeGrammarFacts {
    /// The longest text a unit value may be (`Units`): 64 characters.
    public static var unitTextLength: Int { Units.maxLength }
    /// The synthesized beds named by one word: `pink-noise`, `brown-noise`, `white-noise`, `drone`.
    public static var synthNames: [String] { DecodeContext.synthNames }
    /// The cue names of the track's first and last moments: `start`, `end`.
    public static var boundaryCues: [String] { DecodeContext.boundaryCues }
    /// The keys that limit a cue: `until`, `cycles`.
    public static var limitKeys: [String] { DecodeContext.limitKeys }
    /// The keys only the tick cue takes: `every`, `on`.
    public static var tickKeys: [String] { DecodeContext.tickKeys }
    /// The cue that sounds inside phases: `tick`.
    public static var tickCue: String { DecodeContext.tickCue }
}
