#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for a bounded time (see Fuzz/README.md).
#
#   scripts/fuzz.sh [--seconds N] [--build DIR] [--no-build] [--keep-corpus] [--merge] [TARGET…] [-libfuzzer_flag=value…]
#   scripts/fuzz.sh --replay [TARGET…]
#
# TARGET: recipe, cues, units, manifest (default: all four, in that order). For each target:
#   - builds fuzz-TARGET (release, -sanitize=fuzzer,address, -DFUZZING) in DIR (default .build/fuzz);
#   - runs it for N seconds (default 60) on a fresh working corpus, DIR/work/TARGET/corpus, seeded
#     read-only from Fuzz/Corpus/TARGET (plus, for recipes, recipes/ and the bad-input corpus
#     Tests/RecipeTests/BadInput when present), so a run never writes into the repository;
#   - writes crash, leak, timeout and out-of-memory inputs to DIR/work/TARGET/artifacts/;
#   - prints its figures: executions, executions per second, coverage (edges), features,
#     corpus size, and the result.
# Exits 1 if any target crashed, leaked, timed out or ran out of memory (and prints how to
# reproduce it), 2 on a bad command line or a failed build.
#
# --replay       run every seed of each target once under the sanitizers (no fuzzing), then stop.
# --keep-corpus  start from the working corpus of the last run instead of a fresh one (a long run in parts).
# --merge        afterwards, add the working corpus's inputs that reach new coverage to Fuzz/Corpus/TARGET.
# Flags of the form -name=value are passed to libFuzzer (e.g. -use_value_profile=1, -jobs=2).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=60
build=${FUZZ_BUILD:-$root/.build/fuzz}
do_build=1
replay=0
keep=0
merge=0
targets=()
extra=()

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
}

while (($#)); do
    case $1 in
        --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
        --seconds=*) seconds=${1#*=}; shift ;;
        --build) build=${2:?--build needs a folder}; shift 2 ;;
        --build=*) build=${1#*=}; shift ;;
        --no-build) do_build=0; shift ;;
        --replay) replay=1; shift ;;
        --keep-corpus) keep=1; shift ;;
        --merge) merge=1; shift ;;
        -h | --help) usage ;;
        recipe | cues | units | manifest) targets+=("$1"); shift ;;
        fuzz-recipe | fuzz-cues | fuzz-units | fuzz-manifest) targets+=("${1#fuzz-}"); shift ;;
        -[a-z]*=*) extra+=("$1"); shift ;;
        *) echo "fuzz.sh: unknown argument '$1'" >&2; usage ;;
    esac
done
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --seconds expects a whole number, found '$seconds'" >&2; exit 2; }
((${#targets[@]})) || targets=(recipe cues units manifest)
mkdir -p "$build"
build=$(cd "$build" && pwd)

# Swift's backtracer would spend ~30 s symbolicating every crash libFuzzer provokes on purpose.
export SWIFT_BACKTRACE=enable=no
# Leaks are errors (LeakSanitizer, part of ASan on Linux); libFuzzer checks after every input that allocates more than it frees.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:allocator_may_return_null=1
command -v llvm-symbolizer > /dev/null || export ASAN_SYMBOLIZER_PATH=$(dirname "$(command -v swift)")/llvm-symbolizer

max_len() {
    case $1 in
        recipe | cues | manifest) echo 65536 ;;
        units) echo 256 ;;
    esac
}

# The read-only seed folders of a target (those that exist).
seeds() {
    local dirs=("$root/Fuzz/Corpus/$1")
    if [[ $1 == recipe ]]; then dirs+=("$root/recipes" "$root/Tests/RecipeTests/BadInput"); fi
    for d in "${dirs[@]}"; do [[ -d $d ]] && echo "$d"; done
    return 0
}

# MARK: - Build

if ((do_build)); then
    for t in "${targets[@]}"; do
        echo "== building fuzz-$t (release, -sanitize=fuzzer,address) in $build"
        start=$SECONDS
        # ld.gold warns "Cannot export local symbol '__asan_…'" for every instrumented object: harmless, filtered.
        # `--sanitize fuzzer` tells SwiftPM to leave `main` alone (libFuzzer brings its own); the one
        # -sanitize=fuzzer,address after it is what swiftc uses: given `--sanitize fuzzer --sanitize address`,
        # SwiftPM passes two -sanitize flags, swiftc keeps the last, and the code gets no coverage instrumentation.
        if ! swift build -c release --scratch-path "$build" --product "fuzz-$t" \
            --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 |
            { grep -v -e "Cannot export local symbol" -e '^\[[0-9]*/[0-9]*\]' || true; }; then
            echo "fuzz.sh: building fuzz-$t failed" >&2
            exit 2
        fi
        echo "   built in $((SECONDS - start)) s"
    done
fi

# MARK: - Run

failed=()
summary=()
for t in "${targets[@]}"; do
    bin=$build/release/fuzz-$t
    [[ -x $bin ]] || { echo "fuzz.sh: $bin is missing (run without --no-build)" >&2; exit 2; }
    work=$build/work/$t
    mapfile -t seed_dirs < <(seeds "$t")
    mkdir -p "$work/artifacts"
    rm -f "$work/artifacts/"*

    if ((replay)); then
        # An empty first folder, so that libFuzzer writes nothing into the seed folders.
        rm -rf "$work/replay" && mkdir -p "$work/replay"
        echo "== replaying the seeds of fuzz-$t: ${seed_dirs[*]}"
        if "$bin" -runs=0 -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=1024 -artifact_prefix="$work/artifacts/" \
            "$work/replay" "${seed_dirs[@]}" > "$work/replay.log" 2>&1; then
            echo "   $(grep -m1 -E '^#[0-9]+ +INITED' "$work/replay.log" || tail -1 "$work/replay.log")"
        else
            tail -40 "$work/replay.log"
            failed+=("$t")
        fi
        continue
    fi

    if ((!keep)) || [[ ! -d $work/corpus ]]; then rm -rf "$work/corpus"; fi
    mkdir -p "$work/corpus"
    echo "== fuzzing fuzz-$t for $seconds s (seeds: ${seed_dirs[*]#$root/})"
    status=0
    "$bin" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 -max_len="$(max_len "$t")" \
        -dict="$root/Fuzz/$t.dict" -artifact_prefix="$work/artifacts/" -print_final_stats=1 -detect_leaks=1 \
        ${extra[@]+"${extra[@]}"} "$work/corpus" "${seed_dirs[@]}" > "$work/log" 2>&1 || status=$?

    # Figures from libFuzzer's log: its last status line, and the final stats.
    last=$(grep -E '^#[0-9]+[[:space:]].*cov: ' "$work/log" | tail -1 || true)
    field() { sed -n "s/.* $1: \([0-9A-Za-z/]*\).*/\1/p" <<< "$last"; }
    final_stat() { sed -n "s/^stat::$1: *//p" "$work/log" | tail -1; }
    execs=$(final_stat number_of_executed_units)
    speed=$(final_stat average_exec_per_sec)
    rss=$(final_stat peak_rss_mb)
    ran=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$work/log" | tail -1)
    files=$(find "$work/corpus" -type f | wc -l)
    artifacts=$(find "$work/artifacts" -type f | wc -l)
    result=ok
    if ((status != 0 || artifacts > 0)); then
        result="FAILED (exit $status, $artifacts artifact(s))"
        failed+=("$t")
    fi
    line=$(printf '%-12s %5ss %11s execs %6s exec/s  cov %5s  ft %6s  corpus %12s (%s new files)  rss %4s MB  %s' \
        "fuzz-$t" "${ran:-$seconds}" "${execs:-?}" "${speed:-?}" "$(field cov)" "$(field ft)" "$(field corp)" "$files" "${rss:-?}" "$result")
    summary+=("$line")
    echo "   $line"
    if [[ $result != ok ]]; then
        echo "---- last lines of $work/log"
        grep -v -e '^#[0-9]* *\(NEW\|REDUCE\|pulse\)' "$work/log" | tail -60
        echo "----"
        for a in "$work/artifacts/"*; do
            [[ -f $a ]] || continue
            echo "   artifact: $a"
            echo "   reproduce: SWIFT_BACKTRACE=enable=no $bin $a"
            echo "          or: swift build --product fuzz-$t && .build/debug/fuzz-$t $a"
        done
    fi

    if ((merge)); then
        before=$(find "$root/Fuzz/Corpus/$t" -type f | wc -l)
        "$bin" -merge=1 -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=1024 -artifact_prefix="$work/artifacts/" \
            "$root/Fuzz/Corpus/$t" "$work/corpus" > "$work/merge.log" 2>&1 || { tail -20 "$work/merge.log"; failed+=("$t merge"); }
        echo "   merged into Fuzz/Corpus/$t: $before → $(find "$root/Fuzz/Corpus/$t" -type f | wc -l) files"
    fi
done

if ((!replay)); then
    echo "== summary (logs in $build/work/TARGET/log)"
    printf '   %s\n' "${summary[@]}"
fi
if ((${#failed[@]})); then
    echo "fuzz.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz.sh: no crash, leak, timeout or out-of-memory"
