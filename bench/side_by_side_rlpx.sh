#!/usr/bin/env bash
# RLPx side by side, in one run: two keel processes over loopback TCP (`keel p2p listen --quiet`
# receiving, `keel p2p dial --flood` sending) and two @ethereumjs/devp2p 10.0.0 nodes in two
# Node.js processes (bench/peers/peers-rlpx.mjs), each moving BlockBodies-shaped messages of
# 1 KiB, 64 KiB and 1 MiB of incompressible bytes (about SECONDS per size for ethereumjs; keel
# sends a fixed count: 200000 / 20000 / 1000 messages) after the handshake, Hello and (snappy
# as p2p v5 requires). Prints MB/s and messages/s at the receiver, keel's send calls per frame
# (sender) and recv calls per frame (receiver), and keel's throughput over ethereumjs's. Then
# keel's frame codec in memory (keel-bench BM_Rlpx_*: encrypt + MAC, verify + decrypt) next to
# Keccak-256 and AES-256-CTR alone (the issue's goal: >= 350 MB/s for 64 KiB without snappy),
# and BM_RlpxLoopback (two keel sessions in one process, a sending and a receiving thread).
#
# Honest by construction (issue 14, section 6):
#  - wall time everywhere: both sides over TCP time the receiver's first to last message by the
#    wall clock; keel-bench's rates, which Google Benchmark divides by CPU time, are rescaled
#    here to wall time (bytes / real_time), and BM_RlpxLoopback runs with UseRealTime;
#  - the same threads on both sides of the ratio: one process sends on one thread, one process
#    receives on one thread (keel's listener also has its poll thread, idle once the peer is
#    past Hello; Node.js runs the JavaScript of each node on one thread);
#  - the CPU model (lscpu "Model name") and the core count are printed first.
#
#   bench/side_by_side_rlpx.sh [SECONDS] [PATH_TO_KEEL_BUILD]   (default 2, build/release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-2}
build=${2:-$root/build/release}
keel=$build/apps/keel/keel
bench=$build/bench/keel-bench
[[ -x "$keel" && -x "$bench" ]] || { echo "side_by_side_rlpx: build first (make build)" >&2; exit 2; }
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
keel_peers_installed "$root/bench/peers/node_modules/@ethereumjs/devp2p"

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
echo "machine: ${cpu:-unknown CPU} (lscpu), $(nproc) cores"
echo "threads: keel 1 sending + 1 receiving (two processes), ethereumjs 1 + 1 (two processes); rates by wall time"
ours=""
for spec in "1024 200000" "65536 20000" "1048576 1000"; do
    read -r size count <<<"$spec"
    log=$(mktemp)
    "$keel" p2p listen --port 0 --once --quiet --timeout 60 >"$log" &
    listener=$!
    for _ in $(seq 100); do [[ $(head -1 "$log") == enode://* ]] && break; sleep 0.05; done
    sent=$("$keel" p2p dial "$(head -1 "$log")" --flood "$count" --size "$size" | grep '"event":"flood"')
    wait "$listener"
    got=$(grep '"event":"disconnect"' "$log")
    rm -f "$log"
    ours+=$(node -e 'const [s, g] = process.argv.slice(1).map(JSON.parse);
        console.log(JSON.stringify({size: s.size, MB_per_s: g.MB_per_s, messages_per_s: g.messages_per_s,
                                    sends_per_frame: s.sends_per_frame, recvs_per_frame: g.recvs_per_frame}))' "$sent" "$got")$'\n'
done
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
console.log('\nkeel-bench, MB/s of payload by wall time (frame codec in memory, one thread; BM_RlpxLoopback: two threads)');
for (const b of JSON.parse(codecJson).benchmarks) {
  if (b.bytes_per_second === undefined) continue;
  // Google Benchmark's rate is bytes / CPU time unless UseRealTime: rescale to wall time.
  const wall = b.bytes_per_second * b.cpu_time / b.real_time;
  console.log(`${b.name.padEnd(48)} ${(wall / 1e6).toFixed(0).padStart(8)}`);
}
JS
