import CadenceCues

extension BreathEnvelope {
    /// The envelope of `timeline` with `guide`'s kinds and shape.
    public init(timeline: Timeline, guide: BreathGuideSettings) {
        self.init(
            phases: timeline.phases.map { PhaseGuide(startFrame: $0.startFrame, endFrame: $0.endFrame, guide: guide.guide(for: $0.kind)) },
            outroStart: timeline.section(.outro)?.startFrame, totalFrames: timeline.totalFrames, sampleRate: timeline.sampleRate,
            shape: guide.shape)
    }
}
