import AudioCore
import CCrypto
import Foundation

/// SHA-256 through OpenSSL's EVP interface.
public struct SHA256Hasher: ~Copyable {
    private let context: OpaquePointer

    public init() {
        // EVP_MD_CTX_new only fails when out of memory
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    /// The digest's 32 bytes.
    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest
    }

    /// The digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// The lower-case hex SHA-256 of a file, read in 1 MiB pieces; nil if it cannot be read.
    public static func hex(ofFile path: String) -> String? {
        guard let input = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? input.close() }
        var hasher = SHA256Hasher()
        while true {
            let chunk: Data?
            do { chunk = try input.read(upToCount: 1 << 20) } catch { return nil }
            // nil or empty: the end of the file
            guard let chunk, !chunk.isEmpty else { break }
            chunk.withUnsafeBytes { hasher.update($0) }
        }
        return hex(hasher.finalize())
    }

    /// Lower-case hex of a digest.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
