#!/usr/bin/env bash
# Transactions side by side, in one run: keel-bench and @ethereumjs/tx (bench/peers) decode, hash
# and recover the senders of the same signed transactions; prints each rate and keel's ratio.
#   bench/side_by_side_tx.sh [BUILD_DIR] [N]   (default build/release, 10000 transactions)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
n=${2:-10000}
bench="$build/bench/keel-bench"
[[ -x "$bench" ]] || { echo "side_by_side_tx: $bench not built (run make build)" >&2; exit 2; }
bash "$root/scripts/deps.sh" --peers
if [[ ! -d "$root/bench/peers/node_modules/@ethereumjs/tx" ]]; then
    (cd "$root/bench/peers" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node "$root/bench/peers/gen-txs.mjs" "$n" "$work/txs.hex" 2>/dev/null
KEEL_BENCH_TX_FILE="$work/txs.hex" "$bench" --benchmark_filter='BM_TxFile' \
    --benchmark_format=json --benchmark_out="$work/keel.json" >/dev/null
node "$root/bench/peers/peers-tx.mjs" "$work/txs.hex" >"$work/peer.json"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores;" \
     "keel $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), node $(node --version)"
node - "$work/keel.json" "$work/peer.json" <<'JS'
const fs = require('node:fs');
const keel = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')).benchmarks;
const peer = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const k = (name) => {
  const b = keel.find((x) => x.name === name || x.name.startsWith(`${name}/`));
  if (!b) throw new Error(`keel-bench did not report ${name}`);
  return b.items_per_second;
};
const f = (x) => `${(x / 1e3).toFixed(1)}k tx/s`;
const rows = [
  ['decode + hash, 1 core', k('BM_TxFileDecodeHash'), peer.decode_hash],
  ['batch decode + hash (8-way Keccak), 1 core', k('BM_TxFileBatchDecodeHash'), peer.decode_hash],
  ['decode + hash + sender, 1 core', k('BM_TxFileDecodeHashSender'), peer.decode_hash_sender],
  ['decode + hash + batch senders, 1 thread', k('BM_TxFileDecodeHashBatchSenders/1'), peer.decode_hash_sender],
  ['decode + hash + batch senders, 2 threads', k('BM_TxFileDecodeHashBatchSenders/2'), peer.decode_hash_sender],
];
console.log(`${peer.count} transactions, ${peer.bytes} bytes (mix: 40% legacy, 40% EIP-1559, 10% EIP-2930, 5% blob, 5% EIP-7702)`);
console.log('| what | keel | @ethereumjs/tx (1 thread) | keel/peer |');
console.log('|---|---|---|---|');
for (const [what, a, b] of rows) console.log(`| ${what} | ${f(a)} | ${f(b)} | ${(a / b).toFixed(1)}x |`);
const one = k('BM_TxFileDecodeHashBatchSenders/1');
const two = k('BM_TxFileDecodeHashBatchSenders/2');
console.log(`batch senders: 2 threads / 1 thread = ${(two / one).toFixed(2)}x`);
JS
