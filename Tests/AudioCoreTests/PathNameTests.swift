import AudioCore
import Testing

@Suite("Path names without Foundation")
struct PathNameTests {
    /// (path, folder, directory, name): POSIX dirname/basename, except that a bare name's folder is "".
    static let cases: [(String, String, String, String)] = [
        ("a", "", ".", "a"),
        ("x", "", ".", "x"),
        ("ab", "", ".", "ab"),
        ("./a", ".", ".", "a"),
        ("/a", "/", "/", "a"),
        ("/", "/", "/", "/"),
        ("//", "/", "/", "/"),
        ("a/", "", ".", "a"),
        ("a/b", "a", "a", "b"),
        ("a/b/", "a", "a", "b"),
        ("a//b", "a", "a", "b"),
        ("/x/y/z.flac", "/x/y", "/x/y", "z.flac"),
        ("dist/é.flac", "dist", "dist", "é.flac"),
        ("", "", ".", ""),
    ]

    @Test("folder, directory and name", arguments: cases)
    func split(_ c: (String, String, String, String)) {
        #expect(PathName.folder(of: c.0) == c.1)
        #expect(PathName.directory(of: c.0) == c.2)
        #expect(PathName.name(of: c.0) == c.3)
    }
}
