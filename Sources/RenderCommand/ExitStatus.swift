import AudioCore

/// The exit statuses of `render` (sysexits(3)): the one place a kind of failure becomes a number.
public enum ExitStatus {
    /// Done: nothing failed.
    public static let success: Int32 = 0

    /// The status of a run that failed with `kind`; `success` for nil.
    public static func of(_ kind: FailureKind?) -> Int32 {
        switch kind {
        case nil: success
        case .usage, .setting: 64  // EX_USAGE: the command line, or a setting it gave, is wrong
        case .data: 65  // EX_DATAERR: the recipe or an asset's content is wrong
        case .noInput: 66  // EX_NOINPUT: a recipe or asset file is missing or unreadable
        case .software: 70  // EX_SOFTWARE: an internal error
        case .cannotCreate: 73  // EX_CANTCREAT: an output cannot be created or written
        case .ioError: 74  // EX_IOERR: a read or write failed midway
        }
    }
}
