#!/usr/bin/env bash
# Runs every libFuzzer target in DIR for SECONDS seconds each (libFuzzer's -max_total_time),
# starting from fuzz/corpus/<name>/: a budget in time, not in inputs, so that a slow target (the
# importer writes RocksDB files, the BLS and precompile targets run pairings) and a fast decoder
# cost CI the same. New inputs found are kept in a scratch corpus under build/, not in the tree.
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
failed=0
for t in "${targets[@]}"; do
    name=$(basename "$t" _fuzz)
    seeds="$root/fuzz/corpus/$name"
    scratch="$root/build/fuzz-corpus/$name"
    mkdir -p "$scratch"
    [[ -d "$seeds" ]] || { echo "fuzz.sh: no seed corpus fuzz/corpus/$name" >&2; exit 1; }
    log="$root/build/fuzz-corpus/$name.log"
    if "$t" -max_total_time="$seconds" -seed=1 -max_len=4096 \
        -artifact_prefix="$root/build/fuzz-corpus/$name-" "$scratch" "$seeds" >"$log" 2>&1; then
        echo "fuzz $name: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second\(s\)' "$log" || echo ok)"
    else
        echo "fuzz $name: FAILED (log: $log)"
        tail -n 30 "$log"
        failed=1
    fi
done
exit $failed
