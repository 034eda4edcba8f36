/// The number of frames every stage of the renderer moves at once.
public enum Block {
    public static let frames = 4096
}
