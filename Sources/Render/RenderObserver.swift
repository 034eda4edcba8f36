/// What a render tells a caller that watches it, as it goes: injected by the caller
/// (`TrackRenderer(observer:)`), never read from the environment inside Render.
///
/// The command line's observer, with `CADENCE_STAGES=1` (the benchmark's runs), writes each
/// line to stderr as `cadence-lossy: …`.
public protocol RenderObserver: Sendable {
    /// A line about a lossy encoding: what it measured as decoded, AAC's probe, parts and repairs.
    func lossy(_ line: String)
}
