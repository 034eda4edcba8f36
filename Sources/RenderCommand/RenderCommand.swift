public enum RenderCommand { public static func main() -> Int32 { 0 } }
