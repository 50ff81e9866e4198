#!/usr/bin/env bash
# Transactions side by side, in one run: keel-bench and @ethereumjs/tx (bench/peers) decode, hash
# and recover the senders of the same signed transactions; prints each rate and keel's ratio.
#
# Honest figures: wall time on both sides (keel-bench's BM_TxFile* use UseRealTime(); the peer
# reads the clock), the same number of threads on both sides of every ratio (keel's 2-thread
# batch recovery against two @ethereumjs workers at once), and the two sides in alternation ROUNDS
# times (default 3), each figure the best of its rounds. The first line names the CPU and its load.
#   bench/side_by_side_tx.sh [BUILD_DIR] [N]   (default build/release, 10000 transactions; ROUNDS=N)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
n=${2:-10000}
rounds=${ROUNDS:-3}
bench="$build/bench/keel-bench"
[[ -x "$bench" ]] || { echo "side_by_side_tx: $bench not built (run make build)" >&2; exit 2; }
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "side_by_side_tx: N must be a positive integer" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "side_by_side_tx: ROUNDS must be a positive integer" >&2; exit 2; }
bash "$root/scripts/deps.sh" --peers
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
if [[ ! -d "$root/bench/peers/node_modules/@ethereumjs/tx" ]]; then
    (cd "$root/bench/peers" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
keel_machine_line
echo "keel $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), node $(node --version)"
node "$root/bench/peers/gen-txs.mjs" "$n" "$work/txs.hex" 2>/dev/null
files=()
for ((i = 1; i <= rounds; ++i)); do
    KEEL_BENCH_TX_FILE="$work/txs.hex" "$bench" --benchmark_filter='BM_TxFile' \
        --benchmark_format=json --benchmark_out="$work/keel$i.json" >/dev/null
    node "$root/bench/peers/peers-tx.mjs" "$work/txs.hex" 2 >"$work/peer$i.json"
    files+=("$work/keel$i.json" "$work/peer$i.json")
done
node - "${files[@]}" <<'JS'
const fs = require('node:fs');
const files = process.argv.slice(2);
const keelRuns = [], peerRuns = [];
for (let i = 0; i < files.length; i += 2) {
  keelRuns.push(JSON.parse(fs.readFileSync(files[i], 'utf8')).benchmarks);
  peerRuns.push(JSON.parse(fs.readFileSync(files[i + 1], 'utf8')));
}
// Best (highest) wall-time rate of the rounds; every BM_TxFile* benchmark reports real time.
const k = (name) => Math.max(...keelRuns.map((benches) => {
  const b = benches.find((x) => x.name.startsWith(`${name}/`) && x.name.endsWith('/real_time'));
  if (!b) throw new Error(`keel-bench did not report ${name} in real time`);
  return b.items_per_second;
}));
const p = (key) => Math.max(...peerRuns.map((r) => r[key]));
const peer = peerRuns[0];
const f = (x) => `${(x / 1e3).toFixed(1)}k tx/s`;
const rows = [
  ['decode + hash', 1, k('BM_TxFileDecodeHash'), p('decode_hash')],
  ['batch decode + hash (8-way Keccak where AVX-512F)', 1, k('BM_TxFileBatchDecodeHash'), p('decode_hash')],
  ['decode + hash + sender', 1, k('BM_TxFileDecodeHashSender'), p('decode_hash_sender')],
  ['decode + hash + batch senders', 1, k('BM_TxFileDecodeHashBatchSenders/1'), p('decode_hash_sender')],
  ['decode + hash + batch senders', peer.threads, k(`BM_TxFileDecodeHashBatchSenders/${peer.threads}`),
    p('decode_hash_sender_threads')],
];
console.log(`${peer.count} transactions, ${peer.bytes} bytes (mix: 40% legacy, 40% EIP-1559, 10% EIP-2930, 5% blob, 5% EIP-7702)`);
console.log('| what | threads (each side) | keel | @ethereumjs/tx | keel/peer |');
console.log('|---|---|---|---|---|');
for (const [what, threads, a, b] of rows) {
  console.log(`| ${what} | ${threads} | ${f(a)} | ${f(b)} | ${(a / b).toFixed(1)}x |`);
}
const one = k('BM_TxFileDecodeHashBatchSenders/1');
const two = k(`BM_TxFileDecodeHashBatchSenders/${peer.threads}`);
console.log(`\nAll figures: wall time, best of ${keelRuns.length} alternating rounds; the peer's ` +
  `${peer.threads}-thread figure is ${peer.threads} worker threads at once, summed.`);
console.log(`summary: batch senders ${peer.threads} threads / 1 thread: keel ${(two / one).toFixed(2)}x, ` +
  `@ethereumjs ${(p('decode_hash_sender_threads') / p('decode_hash_sender')).toFixed(2)}x`);
console.log(`summary: decode + hash, 1 thread: keel ${f(k('BM_TxFileDecodeHash'))}, ` +
  `${(k('BM_TxFileDecodeHash') / p('decode_hash')).toFixed(1)}x @ethereumjs/tx`);
JS
keel_load_line
