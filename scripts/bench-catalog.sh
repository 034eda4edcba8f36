#!/usr/bin/env bash
# Catalog scaling benchmark: renders the same catalog with -j 1 and -j N (default: cores)
# into fresh folders and prints wall time, CPU time and the speed-up. Not a test: the
# figures depend on the machine and its load.
#   scripts/bench-catalog.sh [RECIPES_DIR] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
recipes=${1:-recipes/breathing}
jobs=${2:-$(nproc)}
swift build -c release >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {
  local j=$1
  /usr/bin/time -f "%e %U %S" -o "$work/time-$j" .build/release/render "$recipes" -o "$work/dist-$j" -j "$j" -q
  read -r wall user sys < "$work/time-$j"
  echo "$wall $(echo "$user + $sys" | bc)"
}
read -r w1 c1 < <(run 1)
read -r wn cn < <(run "$jobs")
cmp -s "$work/dist-1/catalog.json" "$work/dist-$jobs/catalog.json" || { echo "bundles differ between -j 1 and -j $jobs" >&2; exit 1; }
printf '%-8s %10s %10s\n' jobs "wall s" "cpu s"
printf '%-8s %10s %10s\n' "-j 1" "$w1" "$c1"
printf '%-8s %10s %10s\n' "-j $jobs" "$wn" "$cn"
printf 'speed-up %.2fx\n' "$(echo "$w1 / $wn" | bc -l)"
