#!/usr/bin/env bash
# The test suite under the sanitizers: `scripts/sanitizers.sh [address] [undefined] [thread]`
# (address and thread when none is named; address includes UBSan on our C). Each gets its own build folder, .build/sanitize-<name>,
# so the normal build is untouched; the `render` binary that the end-to-end tests
# spawn is the sanitized build's own.
#
#   address    `swift test --sanitize=address`, the whole suite but the suites that only
#              drive the release binary (golden files, the loudness matrix: nothing of
#              theirs is sanitized) and those whose time goes to processes rather than
#              code (SIGKILL during single and catalog renders: 36 sanitized renders, the
#              longest suite under ASan, and it runs serialized; AtomicOutputTests and the
#              catalog suites cover that code in-process), killing catalog renders, the preview checker's timeouts, the folder
#              scan and the bad-input corpus through the binary, the starter catalog, the
#              bundle budget's catalog runs, the AAC probe's and AAC parts' release renders, the bit-rate
#              cases' 17 renders of 6–15 s, docs/recipes.md's 37 blocks through the binary, merge's 114 refusals of
#              tampered manifests (Swift checks of JSON; 57 s of sanitized renders), two renders racing for
#              one output (a race between processes, which ASan cannot see; 67 s), --check and --plan of 8-hour
#              recipes at the haptics limit (61 s) and the true-peak ceiling against FFmpeg's 16x meter (29 s):
#              the code they reach runs in-process in other suites), and the targets whose code holds no unsafe
#              pointer (AudioCore, Timeline, Sidecars, Schema, Preview, the package checks: 78 s; Swift checks
#              their memory itself), with LeakSanitizer; our C (Sources/CPosix, Sources/CDSPKernels) is also
#              built with -fsanitize=undefined in the same build (the ASan runtime holds
#              UBSan's handlers), so one build checks both.
#              The suppressions in .ci/lsan-suppressions.txt are leaks inside the
#              toolchain's XCTest and Foundation only.
#   undefined  The Swift 6.3.1 toolchain refuses `--sanitize=undefined` on Linux
#              ("unsupported option '-sanitize=undefined' for target
#              'x86_64-unknown-linux-gnu'"). Swift code is checked by the language
#              itself (overflow, bounds, unwrap traps, on in every build), so this
#              builds our C (Sources/CPosix, Sources/CDSPKernels) with clang's -fsanitize=undefined and
#              runs the suites that call it (atomic output files, bed scratch files, the AVX2 true-peak loop);
#              any report aborts.
#   thread     `swift test --sanitize=thread` on the suites that run threads: the
#              split analysis, the two-piece bed resampling, the encoder thread and FLAC lanes, AAC parts side by side
#              and the catalog's parallel workers (the whole suite takes too long).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
kinds=("$@")
((${#kinds[@]})) || kinds=(address thread)

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:strict_string_checks=1"
export LSAN_OPTIONS="suppressions=$root/.ci/lsan-suppressions.txt:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# exitcode: TSan's default, 66, is also sysexits' "no input", which the tests check for.
export TSAN_OPTIONS="halt_on_error=1:exitcode=86"
export SWIFT_BACKTRACE="enable=no"

address_skip='^(AudioCoreTests|TimelineTests|SidecarTests|SchemaTests|PreviewTests|PackageTests)\.|BreathGuideRenderTests.checkAppliesHapticsLimit|TruePeakCeilingTests|DocsRecipesTests.check|DocsRecipesTests.render|FaultTests.killSingle|FaultTests.killCatalog|GoldenTests|HostileInputTests.loudnessTarget|InterruptTests|PreviewCheckTimeoutTests|ScanEndToEndTests|BadInputCommandLineTests|StarterCatalogTests|BundleBudgetTests|CodecProbeTests|BitrateTests.rate|BitrateTests.ordered|AACPartsTests|MergeRefusalTests|ConcurrentOutputTests'

ubsan_runtime() {
  local lib
  lib=$(ls "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"/lib/clang/*/lib/linux/libclang_rt.ubsan_standalone-x86_64.a 2>/dev/null | head -1)
  [ -n "$lib" ] || { echo "sanitizers.sh: the toolchain has no libclang_rt.ubsan_standalone" >&2; exit 69; }
  echo "$lib"
}

for kind in "${kinds[@]}"; do
  scratch=".build/sanitize-$kind"
  filter=()
  case "$kind" in
    address) flags=(--sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined) ;;
    thread) flags=(--sanitize=thread) ;;
    undefined) flags=(-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined -Xlinker "$(ubsan_runtime)") ;;
    *) echo "usage: $0 [address] [undefined] [thread]" >&2; exit 64 ;;
  esac
  case "$kind" in
    address) filter=(--skip "$address_skip") ;;
    undefined) filter=(--filter 'TruePeakKernelTests|AtomicOutputTests|ConcurrentOutputTests|FaultTests|InterruptTests|BedSplitTests|BedResamplingTests|LoopSeamTests') ;;
    thread) filter=(--filter 'ThreadingTests|BedSplitTests|CatalogRenderTests|ShardTests|AACTrackTests.scheduling|FLACLaneWriterTests') ;;
  esac
  start=$SECONDS
  echo "== $kind: building in $scratch"
  # The linker prints one harmless warning per ASan/TSan check symbol; keep the log readable.
  swift build --build-tests "${flags[@]}" --scratch-path "$scratch" 2>&1 | { grep -v "ld.gold: warning: Cannot export local symbol" || true; }
  echo "== $kind: testing"
  swift test --skip-build "${flags[@]}" --scratch-path "$scratch" "${filter[@]}"
  echo "== $kind: passed in $((SECONDS - start)) s"
done
