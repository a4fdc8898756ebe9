#!/usr/bin/env bash
# Peak memory and wall time of the streaming commands on long recordings (issue #18: memory must
# not grow with the recording's length). Writes the 100 Hz acc + gyro files with make-long.py
# (1 h, 24 h, 7 days: 49 MB, 1.2 GB, 8.5 GB in benchmarks/.data, gitignored), then runs
# `motus track`, `classify` and `convert` on each under /usr/bin/time, and prints one table.
#
#   benchmarks/memory/run.sh [--old OLD_MOTUS] [--hours "1 24 168"] [--old-max-hours 24]
#
# --old runs a second binary on the same files, side by side (only up to --old-max-hours: a
# build that holds the whole recording needs about 10 GB for the week).
set -euo pipefail
cd "$(dirname "$0")/../.."
new=.build/release/motus
old=""
hours="1 24 168"
old_max=24
while [ $# -gt 0 ]; do
  case $1 in
    --old) old=$2; shift 2 ;;
    --hours) hours=$2; shift 2 ;;
    --old-max-hours) old_max=$2; shift 2 ;;
    -h|--help) sed -n 2,11p "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 64 ;;
  esac
done
[ -x "$new" ] || { echo "run.sh: build first: swift build -c release" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

measure() {  # measure BINARY ARGS...: prints "wall_s peak_MB"
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" > "$tmp/out" 2> "$tmp/err" || { echo "failed: $* ($(tail -1 "$tmp/err"))" >&2; echo "- -"; return; }
  awk '{ printf "%.1f %.0f\n", $1, $2 / 1024 }' "$tmp/time"
}

printf "| recording | command | %s |\n" "$( [ -n "$old" ] && echo "old: wall s, peak MB | new: wall s, peak MB" || echo "wall s, peak MB")"
printf "|---|---|%s\n" "$( [ -n "$old" ] && echo "---|---|" || echo "---|")"
for h in $hours; do
  file=$(python3 benchmarks/memory/make-long.py $((h * 3600)))
  size=$(du -h "$file" | cut -f1)
  for cmd in "track --format json" "classify --segments" "convert --out $tmp/converted.motus"; do
    n=$(measure "$new" ${cmd%% *} "$file" ${cmd#* })
    rm -f "$tmp/converted.motus"
    if [ -n "$old" ]; then
      if [ "$h" -le "$old_max" ]; then o=$(measure "$old" ${cmd%% *} "$file" ${cmd#* }); else o="not run"; fi
      rm -f "$tmp/converted.motus"
      printf "| %s h (%s) | %s | %s | %s |\n" "$h" "$size" "${cmd%% *}" "$o" "$n"
    else
      printf "| %s h (%s) | %s | %s |\n" "$h" "$size" "${cmd%% *}" "$n"
    fi
  done
done
