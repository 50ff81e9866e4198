#!/usr/bin/env bash
# Runs every libFuzzer target in DIR for RUNS inputs, starting from fuzz/corpus/<name>/.
# New inputs found are kept in a scratch corpus under build/, not in the tree.
set -euo pipefail
dir=${1:?usage: fuzz.sh BUILD_FUZZ_DIR RUNS}
runs=${2:-20000}
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
    n=$runs
    # The importer writes each input to a file and imports it into RocksDB (about 700 inputs/s,
    # against tens of thousands for the pure decoders); bls_fp and bls_point run exponentiation
    # chains, subgroup checks and pairings under the sanitizers (hundreds of inputs/s), as do
    # precompile (pairings, MSMs), evm (three runs of up to 200,000 gas each) and chain (a block
    # executed twice, senders recovered): a tenth
    # of the runs keeps CI's time.
    [[ $name == import || $name == bls_fp || $name == bls_point || $name == precompile ||
       $name == evm || $name == chain ]] && n=$((runs / 10))
    if "$t" -runs="$n" -seed=1 -max_len=4096 -artifact_prefix="$root/build/fuzz-corpus/$name-" \
        "$scratch" "$seeds" >"$log" 2>&1; then
        echo "fuzz $name: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second\(s\)' "$log" || echo ok)"
    else
        echo "fuzz $name: FAILED (log: $log)"
        tail -n 30 "$log"
        failed=1
    fi
done
exit $failed
