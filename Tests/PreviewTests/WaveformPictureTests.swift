import CadenceCues
import Foundation
import Sidecars
import Testing

@testable import Preview

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML element read back with Foundation's XMLParser.
final class Node {
    let name: String
    let attributes: [String: String]
    var children: [Node] = []
    var text = ""
    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Every descendant (and self) named `name`, in document order.
    func all(_ name: String) -> [Node] {
        (self.name == name ? [self] : []) + children.flatMap { $0.all(name) }
    }

    /// The first `<g class="…">` with this class.
    func group(_ cls: String) -> Node? { all("g").first { $0.attributes["class"] == cls } }
}

/// Parses `text` as XML; throws with the parser's error and position when it is not well-formed.
func parseXML(_ text: String) throws -> Node {
    final class Builder: NSObject, XMLParserDelegate {
        var stack: [Node] = []
        var root: Node?
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let node = Node(name: name, attributes: attributes)
            stack.last?.children.append(node)
            if root == nil { root = node }
            stack.append(node)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }
    }
    let parser = XMLParser(data: Data(text.utf8))
    let builder = Builder()
    parser.delegate = builder
    guard parser.parse(), let root = builder.root else {
        throw TestFailure("not well-formed XML at \(parser.lineNumber):\(parser.columnNumber): \(String(describing: parser.parserError))")
    }
    return root
}

@Suite("Waveform picture")
struct WaveformPictureTests {
    let sheet = testSheet(id: "box", title: "Box Breathing", category: "Breath")
    let peaks: [Float] = (0..<600).map { Float(0.05 + 0.9 * Double($0 % 50) / 50) }

    @Test("one band per phase, classed by kind, and one tick per cue")
    func bandsAndTicks() throws {
        var sheet = self.sheet
        sheet.phases[3].kind = "my own kind"  // unknown kinds are drawn as "other"
        let root = try parseXML(WaveformPicture.svg(peaks: peaks, sheet: sheet))
        #expect(root.name == "svg")
        #expect(root.attributes["viewBox"] == "0 0 1200 140")
        let bands = try #require(root.group("phases")).children
        #expect(bands.count == sheet.phases.count)
        #expect(bands.allSatisfy { $0.name == "rect" })
        #expect(bands.map { $0.attributes["class"] } == sheet.phases.map { $0.kind == "my own kind" ? "other" : $0.kind })
        let ticks = try #require(root.group("cues")).children
        #expect(ticks.count == sheet.cues.count)
        #expect(bands.allSatisfy { $0.attributes["y"] == "118" && $0.attributes["height"] == "22" }, "bands are a strip along the bottom")
        let sections = try #require(root.group("sections")).children
        #expect(sections.map { $0.attributes["class"] } == ["intro", "outro"])
        #expect(sections.allSatisfy { $0.attributes["y"] == nil && $0.attributes["height"] == "140" }, "sections shade the full height")
        #expect(root.all("title").count == 1)
    }

    @Test("bands tile the practice section exactly, intro and outro take the rest")
    func geometry() throws {
        let root = try parseXML(WaveformPicture.svg(peaks: peaks, sheet: sheet))
        let tenths = { (node: Node, key: String) -> Int in
            Int((Double(node.attributes[key] ?? "nan") ?? .nan) * 10 + 0.5)
        }
        let bands = try #require(root.group("phases")).children
        let sections = try #require(root.group("sections")).children
        // 40 s over 1200 units: 30 units a second
        #expect(tenths(sections[0], "x") == 0 && tenths(sections[0], "width") == 1200)
        #expect(tenths(bands[0], "x") == 1200)
        for (a, b) in zip(bands, bands.dropFirst()) {
            #expect(tenths(a, "x") + tenths(a, "width") == tenths(b, "x"))
            #expect(tenths(a, "width") == 1200)
        }
        #expect(tenths(bands.last!, "x") + tenths(bands.last!, "width") == tenths(sections[1], "x"))
        #expect(tenths(sections[1], "x") + tenths(sections[1], "width") == 12000)
        // ticks at the cue frames: cue k at (4 + 4k) s → x = 30 × (4 + 4k)
        let ticks = try #require(root.group("cues")).children
        #expect(ticks.map { $0.attributes["d"] } == sheet.cues.indices.map { "M\(30 * (4 + 4 * $0)) 0v12" })
    }

    @Test("coordinates are integers or have one decimal")
    func compactNumbers() throws {
        let odd = testSheet(id: "odd", title: "Odd", category: nil, rate: 44100)
        var sheet = odd
        sheet.audio.frames += 7  // not a whole number of units a phase
        let svg = WaveformPicture.svg(peaks: (0..<613).map { Float($0) / 613 }, sheet: sheet)
        let root = try parseXML(svg)
        let numbers =
            root.all("rect").flatMap { [$0.attributes["x"], $0.attributes["width"]] }.compactMap { $0 }
            + root.all("path").flatMap { ($0.attributes["d"] ?? "").split(whereSeparator: { "MLZvV ".contains($0) }).map(String.init) }
        #expect(numbers.count > 1000)
        let pattern = /^-?\d+(\.\d)?$/
        for n in numbers { #expect(n.wholeMatch(of: pattern) != nil, "\(n)") }
        #expect(svg.utf8.count < 40_000)
    }

    @Test("the waveform is mirrored around the centre line on a square-root scale")
    func waveform() throws {
        func points(_ peaks: [Float]) throws -> [(Double, Double)] {
            let root = try parseXML(WaveformPicture.svg(peaks: peaks, sheet: sheet))
            let wave = try #require(root.group("wave"))
            let path = try #require(wave.all("path").first?.attributes["d"])
            #expect(path.hasPrefix("M0 57L") && path.hasSuffix("Z"))
            let numbers = path.dropLast().dropFirst().split(whereSeparator: { $0 == "L" || $0 == " " }).compactMap { Double($0) }
            return stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
        }
        let loud = try points([1, 1, 1, 1])
        #expect(loud.count == 2 * 4 + 2)
        #expect(loud[1] == (150, 5) && loud[4] == (1050, 5))
        #expect(loud[5] == (1200, 57))
        #expect(loud[6] == (1050, 109) && loud[9] == (150, 109))
        // a square-root scale: -12 dBFS (0.25) is half the height, -24 dBFS a quarter; 0, NaN and negatives
        // are silence; above 1 clips
        let mixed = try points([0.25, 0, .nan, -1, 4, 0.0625])
        #expect(mixed[1...6].map(\.1) == [31, 57, 57, 57, 5, 44])
        #expect(mixed[8...13].map(\.1) == [70, 109, 57, 57, 57, 83])  // the bottom edge, right to left
        // no peaks: no waveform path, still a picture
        let empty = try parseXML(WaveformPicture.svg(peaks: [], sheet: sheet))
        #expect(try #require(empty.group("wave")).all("path").isEmpty)
    }

    @Test("the title is escaped and the picture stays well-formed XML whatever the text holds")
    func hostileTitle() throws {
        let title = "A <b>&\"x\"</b> 'y' \u{1}\u{7F}]]> <!-- --> \u{2028}"
        let sheet = testSheet(id: "h", title: title, category: nil)
        let svg = WaveformPicture.svg(peaks: peaks, sheet: sheet)
        #expect(!svg.contains("<b>"))
        let root = try parseXML(svg)
        let text = try #require(root.all("title").first?.text)
        #expect(text.hasPrefix("A <b>&\"x\"</b> 'y' \u{FFFD}\u{FFFD}]]> <!-- --> \u{2028}: waveform, 8 phases, 8 cues"))
    }

    @Test("the same input gives the same bytes")
    func deterministic() {
        #expect(WaveformPicture.svg(peaks: peaks, sheet: sheet) == WaveformPicture.svg(peaks: peaks, sheet: sheet))
    }

    @Test("a sheet without frames or phases still gives a picture")
    func degenerate() throws {
        var sheet = testSheet(id: "z", title: "", category: nil, cycles: 0, intro: 0, outro: 0)
        sheet.audio.frames = 0
        let root = try parseXML(WaveformPicture.svg(peaks: [0.5], sheet: sheet))
        #expect(try #require(root.group("phases")).children.isEmpty)
        #expect(try #require(root.all("title").first).text.hasPrefix("z: waveform"))
    }
}
