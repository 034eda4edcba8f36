import AudioIO
import Catalog
import CatalogManifest
import Foundation
import TestKit
import Testing

/// The draft voice end to end (issue 30, items 1 and 16): a text espeak-ng cannot speak is a
/// located recipe error (65) in `render`, `render --check` and a catalog, with nothing written;
/// its worker keeps no descriptor of render's; and each draft prompt is a located warning.
@Suite("Draft voice end to end")
struct DraftVoiceEndToEndTests {
    /// `"a."` 85 times: libespeak-ng 1.51 smashes its stack on it (SIGABRT).
    static let stackSmash = String(repeating: "a.", count: 85)

    /// A recipe whose second prompt is a draft of `text` in `language`.
    static func recipe(id: String, text: String, language: String = "en-us") -> String {
        """
        id: \(id)
        duration: 20s
        pattern: box
        voice:
          draft_voice: \(language)
          prompts:
            - { at: 1s, file: voice/tone.wav }
            - { at: 8s, text: "\(text)" }
        output: { sample_rate: 22050, channels: 1 }
        """
    }

    static func folder(_ label: String) throws -> TempFolder {
        let folder = try TempFolder(label)
        try Fixture.writeSound(
            folder.file("assets/voice/tone.wav"), Fixture.sine(frequency: 1000, amplitudes: [0.3], sampleRate: 22050, frames: 22050),
            sampleRate: 22050, channels: 1)
        try folder.folder("out")
        return folder
    }

    /// The line and column of the second prompt's text value (its opening quote), as `file:line:col`.
    static func textLocation(_ file: String, in recipe: String) -> String {
        let at = position(of: "text: \"", in: recipe)!
        return "\(file):\(at.line):\(at.column + 6)"
    }

    /// No crash report of the Swift runtime (or of anything else) reached the terminal.
    static func expectNoCrashReport(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        for word in ["Crash", "Backtrace", "Press space", "Fatal error", "stack smashing", "Thread 0"] {
            #expect(!result.stderr.contains(word), "\(word): \(result)", sourceLocation: sourceLocation)
        }
    }

    static let crashing: [(text: String, language: String, signal: String)] = [
        (stackSmash, "en-us", "SIGABRT"),
        (")-J", "vi", "SIGSEGV"),
    ]

    @Test(
        "a text libespeak-ng 1.51 crashes on: render and --check exit 65 at the prompt's text, write nothing, print no crash report",
        .enabled(if: DraftVoice.version.hasPrefix("1.51"), "the crashing texts are espeak-ng 1.51's"), arguments: crashing.indices)
    func crashingText(_ i: Int) throws {
        let (text, language, signal) = Self.crashing[i]
        let folder = try Self.folder("draft-crash")
        let text_ = Self.recipe(id: "crash", text: text, language: language)
        let recipe = try folder.write(text_, to: "crash.yml")
        let located = Self.textLocation("crash.yml", in: text_) + ": error: voice.prompts.1.text: the draft voice (espeak-ng, '\(language)') "
        let rendered = try runRender([recipe, "-o", folder.file("out/crash.flac")])
        #expect(rendered.status == 65, "\(rendered)")
        #expect(rendered.stderr.contains(located + "cannot speak this text: espeak-ng crashed on it (\(signal))"), "\(rendered.stderr)")
        #expect(rendered.stderr.split(separator: "\n").count == 1, "one line, the error: \(rendered.stderr)")
        Self.expectNoCrashReport(rendered)
        #expect(try folder.listing("out") == [])
        let checked = try runRender(["--check", recipe])
        #expect(checked.status == 65 && checked.stderr.contains(located), "\(checked)")
        Self.expectNoCrashReport(checked)
    }

    /// What each test fault makes the render say.
    static let faults: [(fault: String, says: String)] = [
        ("crash", "espeak-ng crashed on it (SIGSEGV)"),
        ("hang", "espeak-ng did not finish speaking it within 300 ms and was stopped"),
        ("garbage", "espeak-ng's worker answered with something that is not speech"),
        ("flood", "espeak-ng's worker answered with something that is not speech"),
    ]

    @Test(
        "a worker that crashes, never answers or writes garbage (debug hooks): render and --check exit 65 at the text, nothing written",
        .enabled(if: siblingRender != nil, "needs the debug render, the only one with the test hooks"), arguments: faults.indices)
    func faultyWorker(_ i: Int) throws {
        let (fault, says) = Self.faults[i]
        let folder = try Self.folder("draft-fault")
        let text = Self.recipe(id: "fault", text: "Breathe in.")
        let recipe = try folder.write(text, to: "fault.yml")
        let environment = ["CADENCE_TEST_SPEECH_FAULT": fault, "CADENCE_TEST_SPEECH_TIME_LIMIT_MS": "300"]
        let located = Self.textLocation("fault.yml", in: text) + ": error: voice.prompts.1.text: "
        let rendered = try run(siblingRender!, [recipe, "-o", folder.file("out/fault.flac")], environment: environment)
        #expect(rendered.status == 65 && rendered.stderr.contains(located) && rendered.stderr.contains(says), "\(rendered)")
        #expect(try folder.listing("out") == [])
        let checked = try run(siblingRender!, ["--check", recipe], environment: environment)
        #expect(checked.status == 65 && checked.stderr.contains(located) && checked.stderr.contains(says), "\(checked)")
        // the hook is for this text only: the same recipe speaks when it names another
        let other = try run(
            siblingRender!, [recipe, "-o", folder.file("out/fault.flac"), "-q"],
            environment: ["CADENCE_TEST_SPEECH_FAULT": fault + ":Breathe out.", "CADENCE_TEST_SPEECH_TIME_LIMIT_MS": "300"])
        #expect(other.status == 0, "\(other)")
    }

    @Test(
        "a release render has no test hooks: CADENCE_TEST_SPEECH_FAULT changes nothing",
        .enabled(if: freshReleaseRender != nil, "needs the fresh release render"))
    func releaseHasNoHooks() throws {
        let folder = try Self.folder("draft-release")
        let recipe = try folder.write(Self.recipe(id: "release", text: "Breathe in."), to: "release.yml")
        let rendered = try run(
            freshReleaseRender!, [recipe, "-o", folder.file("out/release.flac"), "-q"],
            environment: ["CADENCE_TEST_SPEECH_FAULT": "crash", "CADENCE_TEST_SPEECH_TIME_LIMIT_MS": "1"])
        #expect(rendered.status == 0, "\(rendered)")
        #expect(try folder.listing("out") == ["release.cues.json", "release.flac"])
    }

    @Test(
        "while the worker hangs, /proc shows it holding only its pipe and /dev/null, none of render's descriptors",
        .enabled(if: siblingRender != nil, "needs the debug render, the only one with the test hooks"))
    func workerDescriptors() throws {
        let folder = try Self.folder("draft-fds")
        let recipe = try folder.write(Self.recipe(id: "fds", text: "Breathe in."), to: "fds.yml")
        let render = try Running(
            siblingRender!, [recipe, "-o", folder.file("out/fds.flac")],
            environment: ["CADENCE_TEST_SPEECH_FAULT": "hang", "CADENCE_TEST_SPEECH_TIME_LIMIT_MS": "30000"])
        defer { kill(render.pid, SIGKILL) }
        // the worker: a child of render's that has been alive for 1 s, long after it isolated itself
        // (the short-lived worker that lists espeak-ng's voices comes first, and opens the voice
        // folders itself: under ASan it lives for tens of milliseconds)
        var seen: [String: Date] = [:]
        var targets: [String: String] = [:]
        var parentFDs: [String] = []
        for _ in 0..<3000 where targets.isEmpty && render.isRunning {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(render.pid)/task")) ?? []
            let children = tasks.flatMap { task in
                ((try? String(contentsOfFile: "/proc/\(render.pid)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ")
                    .map(String.init)
            }
            for pid in children where (seen[pid].map { Date().timeIntervalSince($0) >= 1 } ?? false) && targets.isEmpty {
                parentFDs = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(render.pid)/fd")) ?? []
                for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? [] {
                    targets[fd] = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? "?"
                }
            }
            for pid in children where seen[pid] == nil { seen[pid] = Date() }
            if targets.isEmpty { usleep(10_000) }
        }
        try #require(!targets.isEmpty, "no worker seen")
        #expect(parentFDs.count > 4, "render holds its own descriptors: \(parentFDs)")
        #expect(targets.count == 4, "\(targets)")
        for (fd, target) in targets {
            #expect(target.hasPrefix("pipe:") || (target == "/dev/null" && Int(fd)! < 3), "fd \(fd) → \(target)")
        }
        kill(render.pid, SIGKILL)
        _ = try render.wait()
    }

    @Test("a catalog with one unspeakable draft: that track fails located (65), the others render, and --check finds it first")
    func catalog() throws {
        let folder = try Self.folder("draft-catalog")
        let bad = Self.recipe(id: "bad", text: Self.stackSmash)
        _ = try folder.write(bad, to: "recipes/bad.yml")
        _ = try folder.write(Self.recipe(id: "good", text: "Breathe out."), to: "recipes/good.yml")
        _ = try folder.write("id: plain\nduration: 20s\npattern: box\noutput: { sample_rate: 22050, channels: 1 }\n", to: "recipes/plain.yml")
        let located = Self.textLocation("bad.yml", in: bad) + ": error: voice.prompts.1.text: "
        let checked = try runRender(["--check", folder.file("recipes")])
        #expect(checked.status == 65 && checked.stderr.contains(located), "\(checked)")
        #expect(checked.stdout.contains("checked 3 recipes: 2 good (1 with warnings), 1 with errors"), "\(checked.stdout)")
        let rendered = try runRender([folder.file("recipes"), "-o", folder.file("dist"), "-j", "2"])
        #expect(rendered.status == 65 && rendered.stderr.contains(located), "\(rendered)")
        Self.expectNoCrashReport(rendered)
        #expect(rendered.stdout.contains("rendered     2\n") && rendered.stdout.contains("failed       1\n"), "\(rendered.stdout)")
        let manifest = try #require(try Manifest.read(folder: folder.file("dist")))
        #expect(manifest.tracks.map(\.id).sorted() == ["good", "plain"])
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist/bad.flac")))
    }
}

/// A draft prompt is printed as a located warning on every render (issue 30, item 16): once per
/// prompt, however many variants or tracks share it, the exit status unchanged; a catalog's
/// summary counts the tracks that still speak drafts.
@Suite("Draft prompt warnings")
struct DraftWarningTests {
    /// Two drafts (prompts 0 and 2) and a recorded prompt, in two lengths.
    static let variants = """
        id: drafty
        variants: { duration: [20s, 30s] }
        pattern: box
        voice:
          prompts:
            - { at: 1s, text: "Hello" }
            - { at: 5s, file: voice/tone.wav, text: "A tone" }
            - { at: 9s, text: "Goodbye" }
        output: { sample_rate: 22050, channels: 1 }
        """

    /// The warning for prompt `number` of `file`, at the prompt's item (its `{`), as the rendition `variant` reports it.
    static func warning(_ file: String, _ recipe: String, prompt number: Int, text: String, variant: String? = nil) -> String {
        let at = position(of: "- {", in: recipe, occurrence: number + 1)!
        return
            "\(file):\(at.line):\(at.column + 2): warning: \(variant.map { "variant '\($0)': " } ?? "")voice.prompts.\(number): a draft: espeak-ng ('en-us') speaks '\(text)' "
            + "in place of a recording; record it and give the prompt its 'file:' (render --no-drafts refuses drafts)"
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test(
        "render, --check and a catalog print each draft prompt of every rendition once, named, as a located warning and still exit 0; --no-drafts prints errors instead"
    )
    func warnedOnce() throws {
        let folder = try DraftVoiceEndToEndTests.folder("draft-warnings")
        let recipe = try folder.write(Self.variants, to: "recipes/drafty.yml")
        // recipe-v1.2 § Drafts made visible: a warning per draft prompt of every rendition
        let hello = ["drafty-20s", "drafty-30s"].map { Self.warning("drafty.yml", Self.variants, prompt: 0, text: "Hello", variant: $0) }
        let goodbye = ["drafty-20s", "drafty-30s"].map { Self.warning("drafty.yml", Self.variants, prompt: 2, text: "Goodbye", variant: $0) }
        let single = try runRender([recipe, "-o", folder.file("out/drafty.flac"), "-q"])
        let checked = try runRender(["--check", recipe])
        let catalog = try runRender([folder.file("recipes"), "-o", folder.file("dist")])
        for (name, result) in [("render", single), ("--check", checked), ("catalog", catalog)] {
            #expect(result.status == 0, "\(name): \(result)")
            for warning in hello + goodbye { #expect(Self.count(warning, in: result.stderr) == 1, "\(name): \(warning) in \(result.stderr)") }
            #expect(Self.count(": warning: ", in: result.stderr) == 4, "\(name): \(result.stderr)")
            #expect(!result.stderr.contains("voice.prompts.1"), "\(name): the recorded prompt is no draft: \(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: folder.file("out/drafty-20s.flac")))
        // both lengths speak drafts: the summary counts the tracks
        #expect(
            catalog.stdout.contains("drafts       2 tracks with draft prompts, spoken by espeak-ng (render --no-drafts refuses them)\n"),
            "\(catalog.stdout)")
        // catalog.json counts each track's drafts (two prompts each), in one session, shortest first
        let manifest = try CatalogManifest.read(folder.file("dist/catalog.json"))
        #expect(manifest.tracks.map(\.id) == ["drafty-20s", "drafty-30s"])
        #expect(manifest.tracks.map(\.drafts) == [2, 2] && manifest.tracks.allSatisfy { $0.session == "drafty" && $0.locale == nil })
        #expect(manifest.sessions.map(\.id) == ["drafty"] && manifest.sessions.first?.tracks == ["drafty-20s", "drafty-30s"])
        let raw = try String(contentsOfFile: folder.file("dist/catalog.json"), encoding: .utf8)
        #expect(raw.contains("\"variant\": {\"duration\": 20.0},") && raw.contains("\"variant\": {\"duration\": 30.0},"), "\(raw)")
        let refused = try runRender([folder.file("recipes"), "-o", folder.file("dist"), "--no-drafts"])
        #expect(refused.status == 65 && !refused.stderr.contains("warning:"), "\(refused)")
        #expect(Self.count("drafty.yml:6:7: error: voice.prompts.0", in: refused.stderr) == 1, "\(refused.stderr)")
    }

    @Test("a catalog without drafts has no drafts line; a recipe without drafts no warning")
    func noDrafts() throws {
        let folder = try DraftVoiceEndToEndTests.folder("draft-none")
        _ = try folder.write(
            "id: recorded\nduration: 20s\npattern: box\nvoice:\n  prompts:\n    - { at: 1s, file: voice/tone.wav, text: \"A tone\" }\n"
                + "output: { sample_rate: 22050, channels: 1 }\n", to: "recipes/recorded.yml")
        let catalog = try runRender([folder.file("recipes"), "-o", folder.file("dist")])
        #expect(catalog.status == 0 && !catalog.stdout.contains("drafts") && !catalog.stderr.contains("warning"), "\(catalog)")
        #expect(try CatalogManifest.read(folder.file("dist/catalog.json")).tracks.map(\.drafts) == [0])
    }

    @Test(
        "the README's first command renders evening-check-in.yml with its draft: exit 0, one warning at the draft prompt",
        .enabled(if: freshReleaseRender != nil, "renders 3 minutes of audio: needs the fresh release render"))
    func readmeRecipe() throws {
        let folder = try TempFolder("draft-readme")
        let path = repositoryRoot + "/recipes/breathing/evening-check-in.yml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let rendered = try runRender([path, "-o", folder.file("evening-check-in.flac"), "-q"])
        #expect(rendered.status == 0, "\(rendered)")
        let at = position(of: "- { at: practice + 30s", in: text)!
        #expect(
            rendered.stderr == "\(path):\(at.line):\(at.column + 2): warning: voice.prompts.1: a draft: espeak-ng ('en-us') speaks "
                + "'Notice three sounds you can hear right now.' in place of a recording; record it and give the prompt its 'file:' "
                + "(render --no-drafts refuses drafts)\n", "\(rendered.stderr)")
    }
}
