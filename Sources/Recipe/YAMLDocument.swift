/// The index of a node in a `YAMLDocument`'s arena.
typealias NodeID = Int

/// A 1-based line and column in the recipe text (libyaml's 0-based mark plus one).
struct YAMLMark: Hashable, Sendable {
    var line: Int
    var column: Int
}

/// How a scalar was written; only a plain scalar can mean null.
enum ScalarStyle: Sendable {
    case plain, singleQuoted, doubleQuoted, literal, folded
}

/// One key/value pair of a mapping, in document order.
struct YAMLPair: Sendable {
    var key: NodeID
    var value: NodeID
}

/// One node of a YAML document: a scalar as written, a mapping or a sequence.
struct YAMLNode: Sendable {
    /// What the node holds.
    enum Content: Sendable {
        /// The scalar's text exactly as written (no type resolution: `1:02.5` stays text).
        case scalar(String, ScalarStyle)
        /// Key/value pairs in document order; duplicates are kept for the decoder to report.
        case mapping([YAMLPair])
        case sequence([NodeID])

        /// True for `[]`.
        var isEmptySequence: Bool {
            if case .sequence(let items) = self { return items.isEmpty }
            return false
        }
    }

    var content: Content
    /// Where the node starts.
    var mark: YAMLMark

    /// True for a plain scalar that YAML reads as null: empty, `~` or `null`.
    var isNull: Bool {
        guard case .scalar(let text, .plain) = content else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }
}

/// A parsed YAML document: its nodes in an arena, where an alias shares its anchor's content.
///
/// An alias is one node that holds the anchor's content (the same child ids, the
/// same text: copy-on-write, never expanded) at the alias's own mark. Sharing
/// keeps an alias bomb as small as its text: the children reached through many
/// aliases exist once.
struct YAMLDocument: Sendable {
    var nodes: [YAMLNode]
    var root: NodeID

    subscript(id: NodeID) -> YAMLNode { nodes[id] }
}
