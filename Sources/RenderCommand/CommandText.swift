import AudioCore

/// How the command line prints what the libraries report: the settings their messages name
/// (`SettingWords`), spelled as the flags that give them.
enum CommandText {
    /// The command line's spelling of a setting a message names.
    static func flag(_ words: SettingWords) -> String {
        switch words {
        case .assetsFolder: "--assets"
        case .setAssetsFolder: "use --assets DIR"
        case .outputPath: "-o"
        case .refusingDrafts: "--no-drafts"
        case .draftsCanBeRefused: "render --no-drafts refuses drafts"
        case .localeAskedFor: "--locale"
        }
    }

    /// A diagnostic as `render` prints it: `file:line:col: error: message`, flags in place of settings.
    static func text(_ diagnostic: Diagnostic) -> String { diagnostic.text(spelling: flag) }
}
