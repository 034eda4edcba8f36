import AudioCore

/// `program:` (recipe-v1.1 § Programs) and `ramp:` (§ Ramps).
extension DecodeContext {
    /// The keys of one program segment, in the order messages list them.
    static let segmentKeys = RecipeKeys.children(of: "program[]")
    /// The keys of `ramp:`.
    static let rampKeys = RecipeKeys.children(of: "ramp")

    /// Reads `program`: 1 to `RecipeLimits.maxSegments` segments. `endOn` is the top-level `end_on`,
    /// each segment's default. Nil after a problem.
    mutating func program(_ node: NodeID, endOn: EndOn) -> [Segment]? {
        remember("program", node)
        guard
            let items = boundedList(
                node, path: "program", what: "a list of segments like '- { pattern: box, cycles: 4 }'",
                whenEmpty: "give at least one segment, or write 'pattern:' instead", limit: RecipeLimits.maxSegments,
                noun: "segments", counting: "segments")
        else { return nil }
        var segments: [Segment] = []
        for (index, item) in items.enumerated() {
            if isFull { return nil }
            if let segment = segment(item, path: "program.\(index)", endOn: endOn) { segments.append(segment) }
        }
        return segments.count == items.count ? segments : nil
    }

    /// One segment: `{ pattern: …, cycles: N | duration: D, end_on, ramp, label }`.
    private mutating func segment(_ node: NodeID, path: String, endOn defaultEndOn: EndOn) -> Segment? {
        remember(path, node)
        let what = "a segment like '{ pattern: box, cycles: 4 }' or '{ pattern: coherent, duration: 3m }'"
        let before = problemCount
        guard let fields = fields(of: node, path: path, allowed: Self.segmentKeys, what: what) else { return nil }
        var pattern: Pattern?
        if let patternNode = fields["pattern"] {
            pattern = self.pattern(patternNode, path: path + ".pattern")
        } else {
            missing(["pattern"], in: node, "\(path): expected 'pattern:' (a built-in like box, or a mapping with 'phases'), found none")
        }
        var length: Length?
        switch (fields["cycles"], fields["duration"]) {
        case (let cycles?, nil):
            length = integer(cycles, path: path + ".cycles", range: RecipeLimits.cycles, what: "a number of cycles from 1 to 100000")
                .map(Length.cycles)
        case (nil, let duration?):
            length = self.duration(duration, path: path + ".duration", positive: true, max: RecipeLimits.maxDuration).map(Length.duration)
        case (let cycles?, let duration?):
            remember(path + ".duration", duration)
            remember(path + ".cycles", cycles)
            error(
                "\(path).cycles: expected either 'cycles:' or 'duration:' in a segment, found both (duration at line \(document[duration].mark.line))",
                at: cycles)
        case (nil, nil):
            missing(
                ["cycles", "duration"], in: node,
                "\(path): expected 'cycles:' (like 'cycles: 4') or 'duration:' (like 'duration: 3m') in the segment, found neither")
        }
        let endOn =
            fields["end_on"].flatMap { choice($0, path: path + ".end_on", options: EndOn.allCases.map(\.rawValue)) }
            .flatMap(EndOn.init(rawValue:)) ?? defaultEndOn
        if case .cycles = length, let node = fields["end_on"] {
            warn("\(path).end_on: a segment of 'cycles:' always ends on a whole cycle; 'end_on' only shapes a segment of 'duration:'", at: node)
        }
        let label = fields["label"].flatMap { localized($0, path: path + ".label") { $0.string($1, path: $2) } }
        let ramp = fields["ramp"].flatMap { self.ramp($0, path: path + ".ramp", length: length) }
        guard let pattern, let length, problemCount == before else { return nil }
        var segment = Segment(pattern: pattern, length: length, endOn: endOn, ramp: ramp, name: label?.text)
        segment.localizedName = label?.byLocale ?? [:]
        return segment
    }

    /// Reads `ramp: { to: 4.5 bpm, over: 10 cycles }` at `path`. `length` is its segment's (or the
    /// recipe's): `over` is required with a duration, at most the cycles, and defaults to cycles − 1.
    mutating func ramp(_ node: NodeID, path: String, length: Length?) -> Ramp? {
        remember(path, node)
        let what = "a ramp like '{ to: 4.5 bpm, over: 10 cycles }'"
        let before = problemCount
        guard let fields = fields(of: node, path: path, allowed: Self.rampKeys, what: what) else { return nil }
        var rate: Int64?
        if let to = fields["to"] {
            rate = unit(to, path: path + ".to", what: "a breath rate from 1 to 60 bpm like 4.5 bpm", Units.breathRate)
        } else {
            missing(["to"], in: node, "\(path): expected 'to:' (the rate to reach, like 'to: 4.5 bpm'), found none")
        }
        var over: Int?
        if let overNode = fields["over"] {
            over = unit(overNode, path: path + ".over", what: "a number of cycles like '10 cycles'", Units.cycleCount)
            if let value = over, case .cycles(let count) = length, value > count {
                error(
                    "\(path).over: expected at most the segment's \(count) cycle\(count == 1 ? "" : "s"), found \(value) cycles "
                        + "(the rate is reached at cycle \(value), counted from 0; write 'over: \(max(count - 1, 1)) cycles' to reach it in the last cycle)",
                    at: overNode)
            }
        } else {
            switch length {
            case .cycles(1):
                error(
                    "\(path): a ramp over a segment of 1 cycle has no cycle to reach the rate in; give the segment at least 2 cycles, or write 'over: 1 cycle'",
                    at: node)
            case .duration, .program:
                missing(
                    ["over"], in: node,
                    "\(path): expected 'over:' (the cycles the rate changes over, like 'over: 10 cycles') with 'duration:', found none")
            case .cycles, nil:
                break
            }
        }
        guard let rate, problemCount == before else { return nil }
        return Ramp(toMicroBPM: rate, over: over)
    }
}
