// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Cadence",
    // Linux is where the renderer runs; the platforms below are for the CadenceCues library in player apps.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "render", targets: ["render"]),
        .library(name: "CadenceCues", targets: ["CadenceCues"]),
    ],
    targets: [
        // MARK: - C libraries (Debian packages, found with pkg-config)

        /// libsndfile: decode and encode sound files.
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        /// libsamplerate: sinc sample-rate conversion.
        .systemLibrary(name: "CSamplerate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
        /// libebur128: integrated loudness and true peak (EBU R128 / BS.1770).
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        /// libyaml: the YAML event parser behind recipes.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        /// libvorbis + libogg: Ogg Vorbis encoding with a stream serial we choose.
        .systemLibrary(name: "CVorbis", pkgConfig: "vorbisenc", providers: [.apt(["libvorbis-dev", "libogg-dev"])]),
        /// libFLAC: FLAC encoding with our own metadata (Vorbis comments with chapters, a seek table).
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        // libavformat + libavcodec + libavutil: AAC and ALAC in M4A (the ipod muxer)
        .systemLibrary(name: "CAV", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        /// libespeak-ng: the draft voice, which speaks a prompt's text before it is recorded.
        .systemLibrary(name: "CEspeak", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        /// One espeak-ng utterance per forked child, in C: libespeak-ng keeps state between utterances.
        .target(name: "CSpeech", dependencies: ["CEspeak"]),
        /// libcrypto (OpenSSL): SHA-256 of files and recipes.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        /// O_TMPFILE and linkat, which Swift's Glibc module does not import.
        .target(name: "CPosix"),
        /// The true-peak interpolator's inner loop in AVX2, taken at run time where the processor has it
        /// (the same bits as the portable Swift loop; optimized in debug builds too, as DSP is).
        .target(name: "CDSPKernels", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),

        // MARK: - Description: recipe → frames

        /// Frame types, diagnostics and errors shared by every layer; no C imports.
        .target(name: "AudioCore"),
        /// YAML → recipe model, validation, diagnostics with line:col.
        .target(name: "Recipe", dependencies: ["AudioCore", "CYAML", "CadenceCues"]),
        /// Recipe → frame-exact phases, sections and cue events; pure, no I/O.
        .target(name: "Timeline", dependencies: ["AudioCore", "Recipe", "CadenceCues"]),

        // MARK: - Samples

        /// Tone and noise generators, envelopes, fades, mixing, the true-peak limiter.
        .target(
            name: "DSP", dependencies: ["AudioCore", "CDSPKernels"],
            // the sample loops are optimized in debug builds too: the in-process tests render minutes of audio
            // through the 8x true-peak interpolator, about 20x slower unoptimized
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        /// Owners of C handles: sound file reader/writers, resampler, loudness meter, hashing.
        .target(
            name: "AudioIO",
            dependencies: ["AudioCore", "CSndfile", "CSamplerate", "CEBUR128", "CVorbis", "CFLAC", "CAV", "CSpeech", "CCrypto", "CPosix"]),
        /// The render core: Sources (bed, cues, mix) → Stages (gain, limiter) → Sinks (encoder, meters), driven by Pipeline; Loudness; the Track story.
        .target(name: "Render", dependencies: ["AudioCore", "Recipe", "Timeline", "DSP", "AudioIO", "CadenceCues", "Sidecars"]),

        // MARK: - Catalogs

        /// A catalog's manifest (`catalog.json`): the model, its reader with located diagnostics, its limits and its bytes;
        /// no audio, so `fuzz-manifest` builds without the render core.
        .target(name: "CatalogManifest", dependencies: ["AudioCore", "Recipe", "CadenceCues", "Sidecars"]),
        /// Many recipes: fingerprints, parallel incremental renders, shards and merge.
        .target(
            name: "Catalog",
            dependencies: ["AudioCore", "Recipe", "Timeline", "Render", "AudioIO", "CadenceCues", "CatalogManifest", "Preview", "Sidecars"]),
        /// The catalog's `index.html`: players, breathing rings driven by the audio's clock, waveform pictures.
        .target(name: "Preview", dependencies: ["CadenceCues", "Sidecars"]),

        // MARK: - Players

        /// The cue sheet model, JSON in and out, phase lookup; no C, builds for iOS too.
        .target(name: "CadenceCues"),
        /// The JSON Schemas of recipes and cue sheets (`schema/*.schema.json`), built from the parser's grammar, limits and keys.
        .target(name: "Schema", dependencies: ["AudioCore", "Recipe", "CadenceCues"]),
        /// Cue sheet → WebVTT, Podcasting 2.0 chapters, the waveform picture (SVG), chapter and marker lists for tags inside the audio;
        /// the haptic steps (Timeline) → Core Haptics AHAP and the Android waveform.
        .target(name: "Sidecars", dependencies: ["CadenceCues", "Timeline"]),

        // MARK: - Command line

        /// Argument parsing, usage, exit codes, the diagnostic printer.
        .target(
            name: "RenderCommand", dependencies: ["AudioCore", "Recipe", "Timeline", "Render", "AudioIO", "Catalog", "CatalogManifest", "Sidecars"]),
        /// The `render` executable: a few lines calling RenderCommand.
        .executableTarget(name: "render", dependencies: ["RenderCommand"]),

        // MARK: - Benchmark

        /// `cadence-bench`: times the release `render` (reference hour, catalog, --check) against flac, ffmpeg and sox.
        .executableTarget(name: "cadence-bench", dependencies: ["AudioIO", "AudioCore", "DSP"]),

        // MARK: - Fuzzing

        /// What the fuzz targets share: checks, and their `main` when built without libFuzzer (a replay of input files).
        .target(name: "FuzzDriver", path: "Fuzz/Driver"),
        /// `fuzz-recipe`: YAML text → recipe → timeline → cue sheet (Fuzz/README.md).
        .executableTarget(
            name: "fuzz-recipe", dependencies: ["FuzzDriver", "Recipe", "Timeline", "AudioCore", "CadenceCues"], path: "Fuzz/Recipe"),
        /// `fuzz-cues`: JSON → cue sheet → lookups → JSON.
        .executableTarget(name: "fuzz-cues", dependencies: ["FuzzDriver", "CadenceCues", "AudioCore"], path: "Fuzz/Cues"),
        /// `fuzz-units`: the duration, gain, frequency, loudness and true-peak parsers.
        .executableTarget(name: "fuzz-units", dependencies: ["FuzzDriver", "Recipe", "AudioCore"], path: "Fuzz/Units"),
        /// `fuzz-manifest`: bytes → `Manifest.decode` (what `render merge` reads) → paths, ids, numbers → `jsonText()` → `decode`.
        .executableTarget(name: "fuzz-manifest", dependencies: ["FuzzDriver", "CatalogManifest", "AudioCore"], path: "Fuzz/Manifest"),

        // MARK: - Tests

        /// The tests' shared helpers: temporary folders, processes, tool lookup, the repository root, SplitMix64,
        /// sound fixtures (written through AudioIO), exact decimal time and cue sheets read back (CadenceCues).
        .target(name: "TestKit", dependencies: ["AudioIO", "CadenceCues", "CSndfile"], path: "Tests/TestKit"),
        .testTarget(name: "AudioCoreTests", dependencies: ["AudioCore"]),
        .testTarget(name: "RecipeTests", dependencies: ["TestKit", "Recipe", "Schema", "AudioCore", "CadenceCues"], exclude: ["BadInput"]),
        .testTarget(name: "TimelineTests", dependencies: ["TestKit", "Timeline", "Recipe", "AudioCore", "CadenceCues"]),
        .testTarget(name: "DSPTests", dependencies: ["DSP", "AudioIO", "AudioCore", "CEBUR128", "TestKit"]),
        .testTarget(name: "AudioIOTests", dependencies: ["AudioIO", "AudioCore", "TestKit"]),
        /// In process: the render core (sources, passes, loudness, formats) called as a library.
        .testTarget(
            name: "RenderTests",
            dependencies: ["TestKit", "Render", "AudioIO", "CadenceCues", "AudioCore", "Recipe", "Timeline", "Sidecars", "CSndfile", "DSP"]),
        /// The command line: options in process, and the `render` binary's statuses, messages and files.
        .testTarget(
            name: "RenderCommandTests",
            dependencies: ["TestKit", "RenderCommand", "Render", "AudioIO", "CadenceCues", "AudioCore", "Recipe", "CSndfile"]),
        .testTarget(name: "CadenceCuesTests", dependencies: ["TestKit", "CadenceCues"]),
        .testTarget(name: "SidecarTests", dependencies: ["Sidecars", "CadenceCues", "Timeline", "Recipe"]),
        .testTarget(name: "PreviewTests", dependencies: ["TestKit", "Preview", "Sidecars", "CadenceCues", "AudioIO", "AudioCore"]),
        .testTarget(name: "SchemaTests", dependencies: ["TestKit", "Schema", "Render", "Recipe", "CadenceCues", "AudioCore"]),
        .testTarget(
            name: "CatalogTests",
            dependencies: [
                "TestKit", "Catalog", "CatalogManifest", "Render", "AudioIO", "CadenceCues", "RenderCommand", "AudioCore", "Recipe", "CSndfile",
            ]),
        /// End to end: the golden files, the docs' recipe blocks and the starter catalog.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["TestKit", "Render", "AudioIO", "CadenceCues", "AudioCore", "Recipe", "Sidecars", "Timeline", "CSndfile"]),
        /// Package.swift against the code: every file's imports are declared dependencies of its target.
        .testTarget(name: "PackageTests", dependencies: ["TestKit"]),
    ]
)
