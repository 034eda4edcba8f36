/// The renderer's version: part of every track's fingerprint, so a new renderer re-renders the catalog.
public enum CadenceVersion {
    public static let string = "0.3.0"
}
