#!/usr/bin/env bash
# Runs every libFuzzer target in DIR for SECONDS seconds each (libFuzzer's -max_total_time),
# starting from fuzz/corpus/<name>/: a budget in time, not in inputs, so that a slow target (the
# importer writes RocksDB files, the BLS and precompile targets run pairings) and a fast decoder
# cost CI the same. A libFuzzer process uses one core: FUZZ_JOBS targets (default: one per core)
# run at once. New inputs found are kept in a scratch corpus under build/, not in the tree.
#   scripts/fuzz.sh BUILD_FUZZ_DIR [SECONDS]     (default 60)
set -euo pipefail
dir=${1:?usage: fuzz.sh BUILD_FUZZ_DIR [SECONDS]}
seconds=${2:-60}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS must be a positive integer, not '$seconds'" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
targets=("$dir"/*_fuzz)
if ((${#targets[@]} == 0)); then
    echo "fuzz.sh: no fuzz targets in $dir" >&2
    exit 1
fi
jobs=${FUZZ_JOBS:-$(nproc)}
status=$root/build/fuzz-corpus/status
rm -rf "$status"
mkdir -p "$status"

# fuzz_one TARGET: runs it and leaves its one-line result (and, on failure, its log's tail) in
# $status/NAME.ok or NAME.failed.
fuzz_one() {
    local t=$1 name seeds scratch log
    name=$(basename "$t" _fuzz)
    seeds="$root/fuzz/corpus/$name"
    scratch="$root/build/fuzz-corpus/$name"
    log="$root/build/fuzz-corpus/$name.log"
    mkdir -p "$scratch"
    if "$t" -max_total_time="$seconds" -seed=1 -max_len=4096 \
        -artifact_prefix="$root/build/fuzz-corpus/$name-" "$scratch" "$seeds" >"$log" 2>&1; then
        echo "fuzz $name: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second\(s\)' "$log" || echo ok)" \
            >"$status/$name.ok"
    else
        { echo "fuzz $name: FAILED (log: $log)"; tail -n 30 "$log"; } >"$status/$name.failed"
    fi
}

for t in "${targets[@]}"; do
    name=$(basename "$t" _fuzz)
    [[ -d "$root/fuzz/corpus/$name" ]] || { echo "fuzz.sh: no seed corpus fuzz/corpus/$name" >&2; exit 1; }
done
for t in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
    fuzz_one "$t" &
done
wait
failed=0
for t in "${targets[@]}"; do
    name=$(basename "$t" _fuzz)
    if [[ -f $status/$name.ok ]]; then
        cat "$status/$name.ok"
    else
        cat "$status/$name.failed" 2>/dev/null || echo "fuzz $name: no result"
        failed=1
    fi
done
exit $failed
