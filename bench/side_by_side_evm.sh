#!/usr/bin/env bash
# The EVM side by side, in one run: keel (keel-bench BM_Evm/<case>) and anvil's revm (Foundry's
# anvil 1.7.1 from npm, bench/peers/peers-evm.mjs: eth_call of the contract placed with a state
# override, the round trip of the same call to a contract that stops at once subtracted) on the
# evm-benchmarks inputs
# (../shared/vectors/evm/benchmarks). Prints per case the gas, keel's time and G gas/s, anvil's
# time, anvil's time as a multiple of keel's, and evmone's baseline figure measured on this
# project's machine (the folder's SOURCES.md), with the geometric means.
#
# Honest figures:
#  - wall time on both sides (keel-bench's real_time; the peer reads the clock around each call);
#  - one thread on both sides: keel-bench and anvil each pinned to PIN_CPU (default 0), the node
#    client to the other CPU;
#  - best of ROUNDS (default 3) alternating rounds, anvil's best of REPS calls per round.
# The issue's goals: keel >= 2x anvil on every case that takes >= 5 ms there, and keel's geometric
# mean over the 27 cases >= evmone's 1.33 G gas/s.
#   bench/side_by_side_evm.sh [PATH_TO_KEEL_BUILD]    (default build/release; ROUNDS, REPS, PIN_CPU)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
bench=$build/bench/keel-bench
rounds=${ROUNDS:-3}
reps=${REPS:-5}
pin=${PIN_CPU:-0}
other=$(( (pin + 1) % $(nproc) ))
vectors=${KEEL_VECTORS_DIR:-$root/../shared/vectors}/evm/benchmarks
[[ -x "$bench" ]] || { echo "side_by_side_evm: build first (make build)" >&2; exit 2; }
command -v taskset >/dev/null || { echo "side_by_side_evm: needs taskset (util-linux)" >&2; exit 2; }
anvil=$root/bench/peers/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
keel_peers_installed "$anvil"

port=$((20000 + RANDOM % 20000))
taskset -c "$pin" "$anvil" --port "$port" --silent --disable-block-gas-limit \
    --disable-code-size-limit >/dev/null 2>&1 &
anvil_pid=$!
trap 'kill $anvil_pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    curl -sf -X POST -H 'content-type: application/json' \
        --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' \
        "http://127.0.0.1:$port" >/dev/null 2>&1 && break
    sleep 0.2
done

keel_machine_line
echo "keel-bench and anvil pinned to CPU $pin, the RPC client to CPU $other; best of $rounds rounds"
ours=() peers=()
for ((i = 0; i < rounds; ++i)); do
    ours+=("$(taskset -c "$pin" "$bench" --benchmark_filter='BM_Evm/' --benchmark_format=json \
        --benchmark_min_time=0.3 2>/dev/null)")
    peers+=("$(cd "$root/bench/peers" && taskset -c "$other" node peers-evm.mjs "$vectors" "$port" "$reps")")
done
node - "$rounds" "$vectors/SOURCES.md" "${ours[@]}" "${peers[@]}" <<'JS'
const fs = require('node:fs');
const [roundsArg, sources, ...runs] = process.argv.slice(2);
const rounds = Number(roundsArg);
const ours = runs.slice(0, rounds).map((j) => JSON.parse(j).benchmarks);
const peers = runs.slice(rounds).map((t) => t.trim().split('\n').map((l) => JSON.parse(l)));
const keel = new Map();  // name -> {ms, gas}
for (const run of ours) {
  for (const b of run) {
    const name = b.name.replace(/^BM_Evm\//, '').replace(/\/real_time$/, '');
    const ms = b.real_time * { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 }[b.time_unit];
    const prev = keel.get(name);
    if (!prev || ms < prev.ms) keel.set(name, { ms, gas: b.gas });
  }
}
const anvil = new Map();
for (const run of peers) {
  for (const p of run) {
    if (!p.ok) { console.error(`anvil failed on ${p.name}: ${p.error}`); process.exit(1); }
    if (!anvil.has(p.name) || p.ms < anvil.get(p.name)) anvil.set(p.name, p.ms);
  }
}
console.log(`\n${'case'.padEnd(30)} ${'M gas'.padStart(8)} ${'keel ms'.padStart(9)} ${'G gas/s'.padStart(8)} ${'anvil ms'.padStart(9)} ${'anvil/keel'.padStart(10)}`);
let logSum = 0, n = 0, worst = Infinity;
for (const [name, k] of [...keel].sort()) {
  const a = anvil.get(name);
  const rate = k.gas / (k.ms / 1e3) / 1e9;
  logSum += Math.log(rate); ++n;
  const ratio = a / k.ms;
  const counted = a >= 5;
  if (counted) worst = Math.min(worst, ratio);
  console.log(`${name.padEnd(30)} ${(k.gas / 1e6).toFixed(2).padStart(8)} ${k.ms.toFixed(3).padStart(9)} ` +
              `${rate.toFixed(2).padStart(8)} ${a.toFixed(3).padStart(9)} ${(ratio.toFixed(2) + 'x').padStart(10)}${counted ? '' : '  (< 5 ms on anvil)'}`);
}
console.log(`\nsummary: keel geometric mean ${Math.exp(logSum / n).toFixed(2)} G gas/s over ${n} cases ` +
            `(evmone baseline on this project's machine: 1.33, ${sources}); ` +
            `slowest anvil/keel ratio among cases >= 5 ms on anvil: ${worst.toFixed(2)}x (goal >= 2x)`);
JS
keel_load_line
