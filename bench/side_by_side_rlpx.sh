#!/usr/bin/env bash
# RLPx side by side, in one run: two keel sessions over loopback TCP (`keel p2p bench`) and two
# @ethereumjs/devp2p 10.0.0 nodes in two Node.js processes (bench/peers/peers-rlpx.mjs), each
# moving BlockBodies-shaped messages of 1 KiB, 64 KiB and 1 MiB of incompressible bytes for
# SECONDS per size (handshake, Hello, snappy as p2p v5 requires). Prints MB/s and messages/s at
# the receiver, keel's send/recv calls per frame, and keel's throughput over ethereumjs's. Then
# keel's frame codec in memory (keel-bench BM_Rlpx_*: encrypt + MAC, verify + decrypt) next to
# Keccak-256 and AES-256-CTR alone (the issue's goal: >= 350 MB/s for 64 KiB without snappy).
#
#   bench/side_by_side_rlpx.sh [SECONDS] [PATH_TO_KEEL_BUILD]   (default 2, build/release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-2}
build=${2:-$root/build/release}
keel=$build/apps/keel/keel
bench=$build/bench/keel-bench
[[ -x "$keel" && -x "$bench" ]] || { echo "side_by_side_rlpx: build first (make build)" >&2; exit 2; }
if [[ ! -d "$root/bench/peers/node_modules/@ethereumjs/devp2p" ]]; then
    bash "$root/scripts/deps.sh" --peers
    (cd "$root/bench/peers" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
ours=$("$keel" p2p bench --seconds "$seconds")
theirs=$(cd "$root/bench/peers" && node peers-rlpx.mjs "$seconds")
codec=$("$bench" --benchmark_filter='BM_Rlpx' --benchmark_format=json 2>/dev/null)
node - "$ours" "$theirs" "$codec" <<'JS'
const [oursText, theirsText, codecJson] = process.argv.slice(2);
const lines = (t) => t.trim().split('\n').map((l) => JSON.parse(l));
const ours = lines(oursText), theirs = lines(theirsText);
const kib = (n) => (n >= 1 << 20 ? `${n >> 20} MiB` : `${n >> 10} KiB`);
console.log('\nover loopback TCP (receiver side)');
console.log(`${'message'.padEnd(8)} ${'keel MB/s'.padStart(10)} ${'msgs/s'.padStart(9)} ${'send/fr'.padStart(8)} ${'recv/fr'.padStart(8)} ${'ethjs MB/s'.padStart(11)} ${'msgs/s'.padStart(8)}  keel/ethjs`);
for (const o of ours) {
  const t = theirs.find((x) => x.size === o.size);
  console.log(`${kib(o.size).padEnd(8)} ${o.MB_per_s.toFixed(1).padStart(10)} ${o.messages_per_s.toFixed(0).padStart(9)} ${o.sends_per_frame.toFixed(2).padStart(8)} ${o.recvs_per_frame.toFixed(2).padStart(8)} ${t.MB_per_s.toFixed(1).padStart(11)} ${t.messages_per_s.toFixed(0).padStart(8)}  ${(o.MB_per_s / t.MB_per_s).toFixed(1)}x`);
}
console.log('\nframe codec in memory, keel-bench (MB/s of payload)');
for (const b of JSON.parse(codecJson).benchmarks) {
  if (b.bytes_per_second === undefined) continue;
  console.log(`${b.name.padEnd(48)} ${(b.bytes_per_second / 1e6).toFixed(0).padStart(8)}`);
}
JS
