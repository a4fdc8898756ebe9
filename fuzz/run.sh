#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer + AddressSanitizer, library code instrumented too) and runs
# each for a fixed time on its seed corpus. Prints one line per target and the stack of any
# finding; exits 1 when there was one.
#
#   fuzz/run.sh [SECONDS] [TARGET...]        default 60 s each, every target
#   fuzz/run.sh --repro TARGET FILE...       run saved inputs once and print what happens
#
# Environment: JOBS (targets run at once, default 1), MOTUS_FUZZ_CONFIG (debug or release,
# default debug: its bounds checks on unsafe buffers catch reads past a line that release
# builds do not; release runs about twice as fast), MOTUS_FUZZ_STRICT=1 (also trap on values a reader should have refused:
# non-finite samples, times beyond 1e10 s, positions off the globe; see FuzzSupport).
# A finding is a trap, a sanitizer report, a single input over 10 s, or more than 2 GB.
# New corpus entries go to fuzz/.work/corpus/<target>, findings to fuzz/.work/artifacts/<target>.
set -uo pipefail
# A relative MOTUS_DATASETS is relative to where the script was called from.
if [ -n "${MOTUS_DATASETS:-}" ] && [[ "$MOTUS_DATASETS" != /* ]]; then export MOTUS_DATASETS="$PWD/$MOTUS_DATASETS"; fi
cd "$(dirname "$0")"
export SWIFT_BACKTRACE=enable=no
CONFIG=${MOTUS_FUZZ_CONFIG:-debug}
ALL=(fuzz-native fuzz-delimited fuzz-motionsense fuzz-oxford fuzz-ipol fuzz-mpower fuzz-weallwalk fuzz-spswhar
     fuzz-motiondatacollector fuzz-sensorlogger-json fuzz-sensorlogger-csv fuzz-json fuzz-gpx fuzz-tcx fuzz-fit
     fuzz-polyline fuzz-model fuzz-mat fuzz-matmobile fuzz-broad fuzz-inflate fuzz-wisdm fuzz-ucihar)
# Leaks are not counted: the ones seen are inside FoundationXML (libxml2 error objects), not Motus.
FLAGS=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -detect_leaks=0 -print_final_stats=1)

build() {
  echo "== fuzz build ($CONFIG, -sanitize=fuzzer,address)"
  if ! swift build -c "$CONFIG" -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld >.build-fuzz.log 2>&1; then
    grep -E "error:" .build-fuzz.log | head -20; echo "fuzz build failed (log: fuzz/.build-fuzz.log)"; exit 2
  fi
  BIN=$(swift build -c "$CONFIG" -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld --show-bin-path)
}

maxlen() { case $1 in fuzz-model) echo 65536 ;; fuzz-ucihar) echo 32768 ;; *) echo 16384 ;; esac; }

# The finding in a libFuzzer log: the error line and the first frames of its stack.
summary() {
  grep -m1 -E "Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer|==ERROR|SUMMARY|deadly signal|Test unit written" "$1" | sed 's/^/   /'
  grep -E "^ +#[0-9]+ " "$1" | grep -vE "libFuzzer|fuzzer::|__sanitizer|__asan|libc\.so|_start|swift_|LLVMFuzzer|FuzzSupport" | head -12 | sed 's/^/   /'
  grep -m1 -E "Test unit written to" "$1" | sed 's/^/   /'
}

if [ "${1:-}" = "--repro" ]; then
  shift; target=$1; shift
  build
  for f in "$@"; do
    echo "== $target $f"
    "$BIN/$target" "${FLAGS[@]}" -runs=1 "$f" 2>&1 | tee .repro.log | grep -vE "^INFO|^#|^Running|^Executed|^\*\*\*|^$|stat::" | head -60
  done
  exit 0
fi

SECONDS_EACH=60
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then SECONDS_EACH=$1; shift; fi
TARGETS=("$@"); [ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL[@]}")
for t in "${TARGETS[@]}"; do
  [[ " ${ALL[*]} " == *" $t "* ]] || { echo "unknown target $t (one of: ${ALL[*]})"; exit 2; }
done

build
[ -d corpus ] || python3 make_corpus.py >/dev/null
if [ -d "${MOTUS_DATASETS:-../../shared/datasets}" ] && ! ls corpus/*/shared-* >/dev/null 2>&1; then
  python3 make_corpus.py >/dev/null
fi

run_one() {  # run_one TARGET: fuzzes it for SECONDS_EACH; exit status 0 when nothing was found
  local t=$1 work=.work/corpus/$1 art=.work/artifacts/$1/ log=.work/logs/$1.log
  mkdir -p "$work" "$art" .work/logs
  timeout $((SECONDS_EACH + 120)) "$BIN/$t" "${FLAGS[@]}" -max_len="$(maxlen "$t")" -max_total_time="$SECONDS_EACH" \
    -artifact_prefix="$art" "$work" "corpus/$t" >"$log" 2>&1
}

echo "== fuzzing ${#TARGETS[@]} targets, ${SECONDS_EACH} s each, ${JOBS:-1} at a time"
failed=0
i=0
pids=()
for t in "${TARGETS[@]}"; do
  run_one "$t" & pids+=($!)
  i=$((i + 1))
  if [ $((i % ${JOBS:-1})) -eq 0 ]; then wait "${pids[@]}" 2>/dev/null; pids=(); fi
done
wait
for t in "${TARGETS[@]}"; do
  log=.work/logs/$t.log
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$")
  speed=$(grep -oE "stat::average_exec_per_sec: *[0-9]+" "$log" | grep -oE "[0-9]+$")
  cov=$(grep -oE "cov: [0-9]+" "$log" | tail -1)
  if grep -qE "Test unit written to|ERROR: libFuzzer|ERROR: AddressSanitizer|Fatal error|deadly signal" "$log" || [ -z "$runs" ]; then
    failed=$((failed + 1))
    echo "FINDING $t (log: fuzz/$log)"; summary "$log"
  else
    printf "ok      %-26s %8s runs %6s/s  %s\n" "$t" "$runs" "$speed" "$cov"
  fi
done
echo "== fuzz: $(( ${#TARGETS[@]} - failed )) of ${#TARGETS[@]} targets without findings"
[ "$failed" = 0 ]
