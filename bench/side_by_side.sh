#!/usr/bin/env bash
# Side by side, in one run: keel-bench and the npm peers (bench/peers, pinned by its lockfile)
# measure the same operations on the same inputs; prints each figure and keel's ratio.
#   bench/side_by_side.sh [BUILD_DIR]   (default build/release; run `make build` first)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
bench="$build/bench/keel-bench"
[[ -x "$bench" ]] || { echo "side_by_side: $bench not built (run make build)" >&2; exit 2; }
bash "$root/scripts/deps.sh" --peers

if [[ ! -d "$root/bench/peers/node_modules" ]]; then
    (cd "$root/bench/peers" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
filter='BM_Keccak256/|BM_KeccakF1600|BM_OpenSslSha3_256|BM_Sha256_64/|BM_HexEncode/1048576'
filter+='|BM_RlpBodyMemcpy|BM_RlpValidateBody|BM_RlpValidateWalkBody'
KEEL_BENCH_DUMP_RLP_BODY="$work/body.rlp" "$bench" --benchmark_filter="$filter" \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_format=json --benchmark_out="$work/keel.json" >/dev/null
node "$root/bench/peers/peers.mjs" "$work/body.rlp" >"$work/peers.json"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores;" \
     "keel $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), node $(node --version)"
node "$root/bench/peers/report.mjs" "$work/keel.json" "$work/peers.json"
