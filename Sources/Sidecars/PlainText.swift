/// Titles and labels as one line of plain text, for places with no escape for control characters.
///
/// WebVTT cue text, chapter names in Vorbis comments and WAV marker labels are read
/// as plain lines (and often as C strings, where a NUL ends the text). A recipe's text
/// can hold any character through YAML escapes (`"\0"`, `"\e"`, `"\n"`), so line
/// breaks and tabs become a space and every other control character (C0, DEL, C1)
/// becomes U+FFFD, visibly: nothing is dropped in silence, and nothing raw gets through.
public enum PlainText {
    public static func line(_ s: String) -> String {
        var out = ""
        for c in s {
            if c.isNewline || c == "\t" {
                out.append(" ")
                continue
            }
            for u in c.unicodeScalars {
                out.unicodeScalars.append(u.properties.generalCategory == .control ? "\u{FFFD}" : u)
            }
        }
        return out
    }
}
