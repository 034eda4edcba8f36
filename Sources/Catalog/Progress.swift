import Foundation

/// Reports a catalog render: a live line on a terminal, one plain line per track otherwise (CI logs).
public final class Progress: @unchecked Sendable {
    private let live: Bool
    private let quiet: Bool
    private let lock = NSLock()
    private var total = 0
    private var done = 0
    private var audioTotal = 0.0
    private var audioDone = 0.0
    private var started = Date()

    public init(quiet: Bool) {
        self.quiet = quiet
        self.live = isatty(STDOUT_FILENO) != 0
    }

    /// The render phase begins: `total` tracks, `audioSeconds` of audio to make.
    func start(total: Int, audioSeconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        self.total = total
        self.audioTotal = audioSeconds
        self.started = Date()
        draw()
    }

    /// A track is finished (rendered, up to date or failed).
    func finished(_ file: String, status: String, seconds: Double = 0) {
        lock.lock()
        defer { lock.unlock() }
        if status != "up to date" {
            done += 1
            audioDone += seconds
        }
        guard !quiet else { return }
        if live { print("\r\u{1B}[K", terminator: "") }
        print("\(status): \(file)")
        draw()
        // a CI log shows each track as it finishes, and keeps it if the run is killed
        fflush(nil)
    }

    /// Ends the live line.
    public func end() {
        lock.lock()
        defer { lock.unlock() }
        if live && !quiet { print("\r\u{1B}[K", terminator: "") }
        fflush(nil)
    }

    private func draw() {
        guard live, !quiet, total > 0 else { return }
        let elapsed = Date().timeIntervalSince(started)
        var line = String(format: "[%d/%d] %.2f h of audio", done, total, audioDone / 3600)
        if audioDone > 0, elapsed > 1 {
            let eta = (audioTotal - audioDone) / (audioDone / elapsed)
            line += String(format: ", ETA %d:%02d", Int(eta) / 60, Int(eta) % 60)
        }
        print(line, terminator: "")
        fflush(nil)
    }
}
