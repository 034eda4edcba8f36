/// The catalog preview page.
public enum PreviewPage {}
