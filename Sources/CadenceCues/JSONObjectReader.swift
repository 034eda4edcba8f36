/// A key as a reader is asked for it: a case of a key enum (whose raw value is the key as spelt in the
/// JSON) or a plain string.
package protocol JSONKey {
    var jsonName: String { get }
}

extension JSONKey where Self: RawRepresentable, RawValue == String {
    package var jsonName: String { rawValue }
}

extension String: JSONKey {
    package var jsonName: String { self }
}

/// One JSON object being read into the model: typed accessors that name the key path when they fail.
///
/// Keys it is not asked for are ignored, which is how a reader of version 1 skips the keys a later writer adds.
/// Visible to the package's other targets (the catalog's manifest reader), not to apps.
package struct JSONObjectReader {
    package let members: [String: JSONValue]
    /// Where this object is in the document (`phases[3]`); empty for the root.
    package let path: String

    /// The object `value`, or a type mismatch at `path`.
    package init(_ value: JSONValue, path: String) throws(CueSheetError) {
        guard case .object(let members) = value else {
            throw .typeMismatch(path: path.isEmpty ? "document" : path, expected: "an object", found: value.found)
        }
        self.members = members
        self.path = path
    }

    /// The path of a member: `audio.sample_rate`.
    package func path(_ key: some JSONKey) -> String { path.isEmpty ? key.jsonName : path + "." + key.jsonName }

    package func required(_ key: some JSONKey) throws(CueSheetError) -> JSONValue {
        guard let value = members[key.jsonName] else { throw .missingKey(path: path(key)) }
        return value
    }

    package func string(_ key: some JSONKey) throws(CueSheetError) -> String {
        let value = try required(key)
        guard case .string(let s) = value else { throw mismatch(key, "a string", value) }
        return s
    }

    /// A string, or nil when the key is absent or `null`.
    package func optionalString(_ key: some JSONKey) throws(CueSheetError) -> String? {
        switch members[key.jsonName] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let value?: throw mismatch(key, "a string or null", value)
        }
    }

    /// A whole number (`480000`, and also `480000.0` or `4.8e5`, which are the same number).
    package func int64(_ key: some JSONKey) throws(CueSheetError) -> Int64 {
        let value = try required(key)
        guard case .number(let text) = value, let n = ExactDecimal(text)?.int64 else {
            throw mismatch(key, "an integer", value)
        }
        return n
    }

    package func int(_ key: some JSONKey) throws(CueSheetError) -> Int {
        let value = try required(key)
        guard let n = Int(exactly: try int64(key)) else { throw mismatch(key, "an integer", value) }
        return n
    }

    /// A finite number.
    package func double(_ key: some JSONKey) throws(CueSheetError) -> Double {
        let value = try required(key)
        guard let x = Self.finite(value) else { throw mismatch(key, "a number", value) }
        return x
    }

    /// A finite number, or nil when the key is absent or `null`.
    package func optionalDouble(_ key: some JSONKey) throws(CueSheetError) -> Double? {
        switch members[key.jsonName] {
        case nil, .null?: return nil
        case let value?:
            guard let x = Self.finite(value) else { throw mismatch(key, "a number or null", value) }
            return x
        }
    }

    /// A number kept as its exact decimal (`5.5` stays 5.5, not the nearest `Double`).
    func decimal(_ key: some JSONKey) throws(CueSheetError) -> DecimalText {
        let value = try required(key)
        guard case .number(let text) = value, let exact = ExactDecimal(text) else { throw mismatch(key, "a number", value) }
        return DecimalText(exact)
    }

    package func object(_ key: some JSONKey) throws(CueSheetError) -> JSONObjectReader {
        try JSONObjectReader(try required(key), path: path(key))
    }

    /// An array of objects, each with its path `key[i]`.
    package func objects(_ key: some JSONKey) throws(CueSheetError) -> [JSONObjectReader] {
        let value = try required(key)
        guard case .array(let items) = value else { throw mismatch(key, "an array", value) }
        var readers: [JSONObjectReader] = []
        readers.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            readers.append(try JSONObjectReader(item, path: "\(path(key))[\(i)]"))
        }
        return readers
    }

    /// An array of objects, or nil when the key is absent or `null`.
    package func optionalObjects(_ key: some JSONKey) throws(CueSheetError) -> [JSONObjectReader]? {
        switch members[key.jsonName] {
        case nil, .null?: return nil
        default: return try objects(key)
        }
    }

    /// An exact decimal number, or nil when the key is absent or `null`.
    func optionalDecimal(_ key: some JSONKey) throws(CueSheetError) -> DecimalText? {
        switch members[key.jsonName] {
        case nil, .null?: return nil
        default: return try decimal(key)
        }
    }

    /// `true` or `false`.
    package func bool(_ key: some JSONKey) throws(CueSheetError) -> Bool {
        let value = try required(key)
        guard case .bool(let b) = value else { throw mismatch(key, "true or false", value) }
        return b
    }

    /// A whole number, or nil when the key is absent or `null`.
    package func optionalInt64(_ key: some JSONKey) throws(CueSheetError) -> Int64? {
        switch members[key.jsonName] {
        case nil, .null?: return nil
        case let value?:
            guard case .number(let text) = value, let n = ExactDecimal(text)?.int64 else { throw mismatch(key, "an integer or null", value) }
            return n
        }
    }

    /// A whole number that fits in `Int`, or nil when the key is absent or `null`.
    package func optionalInt(_ key: some JSONKey) throws(CueSheetError) -> Int? {
        guard let n = try optionalInt64(key) else { return nil }
        guard let int = Int(exactly: n) else { throw mismatch(key, "an integer or null", try required(key)) }
        return int
    }

    /// An object, or nil when the key is absent or `null`.
    package func optionalObject(_ key: some JSONKey) throws(CueSheetError) -> JSONObjectReader? {
        switch members[key.jsonName] {
        case nil, .null?: return nil
        case .object?: return try object(key)
        case let value?: throw mismatch(key, "an object or null", value)
        }
    }

    /// An array of strings; an item of another type is named `key[i]`.
    package func strings(_ key: some JSONKey) throws(CueSheetError) -> [String] {
        let value = try required(key)
        guard case .array = value, let strings = try optionalStrings(key) else { throw mismatch(key, "an array of strings", value) }
        return strings
    }

    /// An array of strings, or nil when the key is absent or `null`; an item of another type is named `key[i]`.
    package func optionalStrings(_ key: some JSONKey) throws(CueSheetError) -> [String]? {
        switch members[key.jsonName] {
        case nil, .null?: return nil
        case .array(let items)?:
            var strings: [String] = []
            strings.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                guard case .string(let s) = item else {
                    throw .typeMismatch(path: "\(path(key))[\(i)]", expected: "a string", found: item.found)
                }
                strings.append(s)
            }
            return strings
        case let value?: throw mismatch(key, "an array of strings or null", value)
        }
    }

    /// A version number's major version, its whole part (`1` for `1`, `1.0`, `1.1`), with the number as written;
    /// the major is nil when the number is negative or its whole part does not fit `Int64`.
    package func majorVersion(_ key: some JSONKey) throws(CueSheetError) -> (major: Int64?, written: String) {
        let value = try required(key)
        guard case .number(let text) = value, let exact = ExactDecimal(text) else { throw mismatch(key, "a number", value) }
        return (exact.negative ? nil : exact.wholePart, text)
    }

    private func mismatch(_ key: some JSONKey, _ expected: String, _ value: JSONValue) -> CueSheetError {
        .typeMismatch(path: path(key), expected: expected, found: value.found)
    }

    private static func finite(_ value: JSONValue) -> Double? {
        guard case .number(let text) = value, let x = Double(text), x.isFinite else { return nil }
        return x
    }
}
