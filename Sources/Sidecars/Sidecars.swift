/// Sidecar formats derived from a cue sheet.
public enum Sidecars {}
