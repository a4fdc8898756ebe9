#!/bin/sh
# Times Motus's AttitudeFilter and x-io Fusion's C AHRS on the same MotionSense samples, in
# the same run, alternating three rounds. Usage:
#   benchmarks/fusion/time_vs_fusion.sh /path/to/a/local/Fusion/checkout [datasets folder]
# The Fusion sources are compiled with gcc -O2 in a temporary folder; nothing of theirs is
# copied into this repository. Needs `swift build -c release` to have run in this folder.
set -eu
FUSION=${1:?usage: time_vs_fusion.sh FUSION_CHECKOUT [DATASETS]}
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=${2:-$HERE/../../../shared/datasets}
TMP=$(mktemp -d)
(cd "$HERE" && swift build -c release >/dev/null)
EVAL="$HERE/.build/release/FusionEval"
"$EVAL" --data "$DATA" --dump "$TMP/samples.bin" --repeats 1 >/dev/null
gcc -O2 -std=gnu99 -I"$FUSION/Fusion" "$HERE/c_driver.c" "$FUSION"/Fusion/*.c -lm -o "$TMP/fusion_c"
for round in 1 2 3; do
    m=$("$EVAL" --data "$DATA" --repeats 5 | grep ns_per_sample | tr -dc '0-9')
    c=$("$TMP/fusion_c" "$TMP/samples.bin" 5)
    echo "round $round: motus $m ns/sample; fusion C (gcc -O2, float) $c"
done
rm -rf "$TMP"
