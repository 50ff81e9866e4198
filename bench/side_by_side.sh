#!/usr/bin/env bash
# Side by side, in one run: keel-bench and the npm peers (bench/peers, pinned by its lockfile)
# measure the same operations on the same inputs; prints each figure and keel's ratio.
#
# Honest figures: both sides are timed by the clock (keel-bench's CPU-time rates are rescaled to
# wall time in report.mjs), each on one thread, and the two sides run in alternation ROUNDS times
# (default 3), each figure the best of its rounds. The first line names the CPU and its load.
#   bench/side_by_side.sh [BUILD_DIR]   (default build/release; run `make build` first; ROUNDS=N)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
bench="$build/bench/keel-bench"
rounds=${ROUNDS:-3}
[[ -x "$bench" ]] || { echo "side_by_side: $bench not built (run make build)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "side_by_side: ROUNDS must be a positive integer" >&2; exit 2; }
bash "$root/scripts/deps.sh" --peers
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"

if [[ ! -d "$root/bench/peers/node_modules/@chainsafe/hashtree" ]]; then
    (cd "$root/bench/peers" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
filter='BM_Keccak256/|BM_KeccakF1600|BM_OpenSslSha3_256|BM_Sha256_64/|BM_Sha256_64ManyDefault$'
filter+='|BM_HexEncode/1048576|BM_RlpBodyMemcpy|BM_RlpValidateBody|BM_RlpValidateWalkBody'
keel_machine_line
echo "keel $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), node $(node --version)"
keel_files=() peer_files=()
for ((i = 1; i <= rounds; ++i)); do
    KEEL_BENCH_DUMP_RLP_BODY="$work/body.rlp" "$bench" --benchmark_filter="$filter" \
        --benchmark_format=json --benchmark_out="$work/keel$i.json" >/dev/null
    node "$root/bench/peers/peers.mjs" "$work/body.rlp" >"$work/peers$i.json"
    keel_files+=("$work/keel$i.json")
    peer_files+=("$work/peers$i.json")
done
node "$root/bench/peers/report.mjs" "$rounds" "${keel_files[@]}" "${peer_files[@]}"
keel_load_line
