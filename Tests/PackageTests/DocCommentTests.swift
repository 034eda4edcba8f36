import Foundation
import TestKit
import Testing

// Every public symbol of CadenceCues, the library player apps build against, has a DocC comment
// (issue 17): a `///` line directly above it, attributes (`@inlinable`) allowed between. Public
// means declared `public` or `open`, or a case of a public enum (which has no keyword of its own).

/// One public declaration of a Swift file: its 1-based line, its text, and what is wrong with it.
struct PublicDeclaration: Equatable, CustomStringConvertible {
    var line: Int
    var text: String
    /// nil when it is documented; else why not.
    var problem: String?
    var description: String { "\(line): \(text)" + (problem.map { " (\($0))" } ?? "") }
}

/// Finds the public declarations of Swift source text and whether each has a `///` comment.
enum DocComments {
    /// The words that may come before a declaration's keyword (`class func` reads as a `class`: a declaration all the same).
    static let modifiers: Set<String> = [
        "public", "open", "package", "internal", "fileprivate", "private", "static", "final", "mutating", "nonmutating",
        "override", "convenience", "required", "lazy", "weak", "unowned", "indirect", "nonisolated", "dynamic", "optional",
        "prefix", "postfix", "infix", "isolated", "consuming", "borrowing",
    ]
    /// The keywords that start a declaration.
    static let keywords: Set<String> = [
        "struct", "class", "enum", "protocol", "actor", "extension", "typealias", "func", "init", "deinit", "subscript", "var",
        "let", "case", "associatedtype", "macro", "operator", "precedencegroup",
    ]

    /// A line's declaration: whether it is public and its keyword, or nil when the line declares nothing.
    /// `code` is the line with comments and string literals blanked (`SwiftImports.codeOnly`).
    static func declaration(_ code: Substring) -> (isPublic: Bool, keyword: String)? {
        var rest = code.drop { $0 == " " || $0 == "\t" }
        // attributes, with their arguments: `@available(iOS 17, *)`, `@inlinable`
        while rest.first == "@" {
            rest = rest.dropFirst().drop { $0.isLetter || $0.isNumber || $0 == "_" }
            if rest.first == "(" {
                var depth = 0
                while let c = rest.first {
                    rest = rest.dropFirst()
                    if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
                    if depth == 0 { break }
                }
            }
            rest = rest.drop { $0 == " " || $0 == "\t" }
        }
        var isPublic = false
        for word in rest.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            // `private(set)`, `public(set)`: a setter's access, not the declaration's
            let name = String(word.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            if word.hasSuffix("(set)") { continue }
            if modifiers.contains(name), name.count == word.count {
                if name == "public" || name == "open" { isPublic = true }
                continue
            }
            return keywords.contains(name) ? (isPublic, name) : nil
        }
        return nil
    }

    /// Every public declaration of `text`, each with its problem if it has no `///` comment directly above it.
    ///
    /// A case of a public enum must also be the only case of its line, so that its comment is its own.
    static func publicDeclarations(_ text: String) -> [PublicDeclaration] {
        enum Scope { case publicEnum, other }
        let source = text.split(separator: "\n", omittingEmptySubsequences: false)
        let code = String(decoding: SwiftImports.codeOnly(Array(text.utf8)), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var scopes: [Scope] = []
        var found: [PublicDeclaration] = []
        for (i, line) in code.enumerated() {
            let declared = declaration(line)
            let isCase = declared?.keyword == "case" && scopes.last == .publicEnum
            if let declared, declared.isPublic || isCase {
                var above = i - 1
                while above >= 0, source[above].drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("@") { above -= 1 }
                let documented = above >= 0 && source[above].drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("///")
                var problem: String? = documented ? nil : "no /// comment directly above it"
                if isCase, topLevelCommas(line) > 0 { problem = "more than one case on the line: give each its own line and comment" }
                found.append(PublicDeclaration(line: i + 1, text: source[i].trimmingCharacters(in: .whitespaces), problem: problem))
            }
            var opened = false
            for c in line {
                if c == "{" {
                    scopes.append(!opened && declared?.keyword == "enum" && declared?.isPublic == true ? .publicEnum : .other)
                    opened = true
                } else if c == "}" {
                    _ = scopes.popLast()
                }
            }
        }
        return found
    }

    /// Commas outside parentheses: `case a, b` has one, `case a(x: Int, y: Int)` none.
    static func topLevelCommas(_ line: Substring) -> Int {
        var depth = 0, commas = 0
        for c in line {
            switch c {
            case "(", "[", "<": depth += 1
            case ")", "]", ">": depth -= 1
            case "," where depth == 0: commas += 1
            default: break
            }
        }
        return commas
    }
}

@Suite struct DocCommentTests {
    @Test("every public declaration of Sources/CadenceCues has a /// comment directly above it")
    func cadenceCuesIsDocumented() throws {
        let folder = repositoryRoot + "/Sources/CadenceCues"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count >= 10, "Sources/CadenceCues: \(files)")
        var checked = 0
        for file in files {
            let declarations = DocComments.publicDeclarations(try String(contentsOfFile: folder + "/" + file, encoding: .utf8))
            checked += declarations.count
            for declaration in declarations where declaration.problem != nil {
                Issue.record("Sources/CadenceCues/\(file):\(declaration)")
            }
        }
        // the scanner sees the library: a scanner that found nothing would pass any file
        #expect(checked > 150, "only \(checked) public declarations found in Sources/CadenceCues")
    }

    @Test("the scanner: what counts as public, and as documented")
    func scanner() {
        let text = """
            /// A type.
            public struct A {
                /// Documented.
                public var a: Int
                public var b: Int
                /// Attributes may come between.
                @inlinable
                @available(macOS 14, *)
                public func c() {}
                // a plain comment is not a doc comment
                public init() {}
                /// A blank line between does not count.

                public let d = 1
                var internalNeedsNone = 0
                let text = "public var e = 1"
                public private(set) var f = 0
                @inlinable public static func g() {}
                /// Documented, on one line with its attribute.
                @inlinable public static func h() {}
            }

            /// A public enum: its cases are public.
            public enum E: String {
                /// Documented.
                case one
                case two
                /// Two on one line.
                case three, four
                /// With a payload.
                case five(x: Int, y: Int)

                /// Cases in a switch are not declarations.
                public var name: String {
                    switch self {
                    case .one: "one"
                    default: "other"
                    }
                }
            }

            enum Internal {
                case fine, too
            }
            """
        let problems = DocComments.publicDeclarations(text).filter { $0.problem != nil }.map(\.line)
        #expect(problems == [5, 11, 14, 17, 18, 27, 29], "\(DocComments.publicDeclarations(text))")
        #expect(DocComments.publicDeclarations(text).count == 15)
    }
}
