import AudioCore

/// The one loop of the renderer: blocks from a source, through the stages, into the sinks.
///
/// Every pass is this loop; passes differ only in their source, stages and sinks
/// (libavfilter has one scheduler and many filters, SoX one effects chain and many
/// effects). The block is allocated once per pass; nothing is allocated per block.
enum Driver {
    /// Runs `source` to its end (or until a sink says stop); returns the frames the sinks took.
    @discardableResult
    static func run(
        _ source: inout some BlockSource, channels: Int, through stages: [any Stage] = [], into sinks: [any Sink]
    ) throws(AudioError) -> Int64 {
        var storage = [Float](repeating: 0, count: Block.frames * channels)
        return try storage.withUnsafeMutableBufferPointer { (block) throws(AudioError) -> Int64 in
            var delivered: Int64 = 0
            /// Stages from `first` on, then every sink; false when a sink stops the pass.
            func pass(_ frames: Int, from first: Int) throws(AudioError) -> Bool {
                var n = frames
                for stage in stages[first...] where n > 0 { n = stage.flow(block, frames: n) }
                guard n > 0 else { return true }
                delivered += Int64(n)
                // a sink that stops the pass keeps the block from the sinks after it (a clip is not encoded)
                for sink in sinks where try sink.consume(UnsafeBufferPointer(block), frames: n) == .stop { return false }
                return true
            }
            while true {
                let n = try source.render(into: block)
                if n == 0 { break }
                guard try pass(n, from: 0) else { return delivered }
            }
            // what each stage still holds flows through the stages after it
            for (index, stage) in stages.enumerated() {
                let n = stage.drain(into: block)
                if n > 0, try !pass(n, from: index + 1) { return delivered }
            }
            return delivered
        }
    }
}
