#!/usr/bin/env bash
# BLS12-381 side by side, in one run: keel (keel-bench BM_Bls_*) and native blst through
# @chainsafe/blst 2.2.0 (bench/peers/peers-bls.mjs) on the same keys (KeyGen of IKM_i = 32 bytes
# of i + 1), messages and signatures. Checks first that both derive the same secret and public key
# from the same IKM. Prints each figure and keel's time as a multiple of blst's (the issue's goals:
# Verify <= 1.0x, FastAggregateVerify of 128 keys <= 1.0x, batch verification of 128 sets <= 0.8x
# per signature, Sign <= 1.0x).
#
# Honest figures:
#  - wall time on both sides (keel-bench's real_time; the peer reads the clock);
#  - the same number of threads on both sides of every ratio. blst's batch verification spreads
#    over every CPU the process may use, so each round runs both sides twice, under taskset: on
#    one CPU (PIN_CPU, default 0: every one-thread figure) and on two (PIN_CPUS, default 0,1: the
#    two-thread batch figure, keel's BM_Bls_BatchVerify/128/2). The peer reports the CPU time its
#    batch used per second of wall time, printed as a check that pinning held;
#  - this machine's timings swing with its neighbours' load, so the sides run in alternation
#    ROUNDS times (default 3), and each figure is the best (lowest) of its rounds on either side.
#
#   bench/side_by_side_bls.sh [PATH_TO_KEEL_BUILD]
#       (default build/release; ROUNDS=N, PIN_CPU=N, PIN_CPUS=N,M)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
keel=$build/apps/keel/keel
bench=$build/bench/keel-bench
rounds=${ROUNDS:-3}
pin=${PIN_CPU:-0}
pair=${PIN_CPUS:-0,1}
threads=2
[[ -x "$keel" && -x "$bench" ]] || { echo "side_by_side_bls: build first (make build)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "side_by_side_bls: ROUNDS must be a positive integer" >&2; exit 2; }
[[ $pin =~ ^[0-9]+$ ]] || { echo "side_by_side_bls: PIN_CPU must be a CPU number" >&2; exit 2; }
[[ $pair =~ ^[0-9]+,[0-9]+$ ]] || { echo "side_by_side_bls: PIN_CPUS must be two CPU numbers, N,M" >&2; exit 2; }
command -v taskset >/dev/null || { echo "side_by_side_bls: needs taskset (util-linux)" >&2; exit 2; }
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
keel_peers_installed "$root/bench/peers/node_modules/@chainsafe/blst"

keel_machine_line
echo "one-thread figures pinned to CPU $pin on both sides; two-thread batch pinned to CPUs $pair on both sides"
ikm=0x$(printf '01%.0s' {1..32})
keel_keys=$("$keel" bls keygen "$ikm")
one='BM_Bls_(Sign|Verify|PubkeyDecompress|SignatureDecompress|FastAggregateVerify)|BM_Bls_BatchVerify/128/1/'
peers1=() peersn=() ours1=() oursn=()
for ((i = 0; i < rounds; ++i)); do
    peers1+=("$(cd "$root/bench/peers" && taskset -c "$pin" node peers-bls.mjs)")
    ours1+=("$(taskset -c "$pin" "$bench" --benchmark_filter="$one" --benchmark_format=json 2>/dev/null)")
    peersn+=("$(cd "$root/bench/peers" && taskset -c "$pair" node peers-bls.mjs)")
    oursn+=("$(taskset -c "$pair" "$bench" --benchmark_filter="BM_Bls_BatchVerify/128/$threads/" \
        --benchmark_format=json 2>/dev/null)")
done
node - "$keel_keys" "$rounds" "$threads" "${peers1[@]}" "${peersn[@]}" "${ours1[@]}" "${oursn[@]}" <<'JS'
const [keelKeys, roundsArg, threadsArg, ...runs] = process.argv.slice(2);
const rounds = Number(roundsArg), threads = Number(threadsArg);
const part = (i) => runs.slice(i * rounds, (i + 1) * rounds).map((j) => JSON.parse(j));
const peer1Runs = part(0), peerNRuns = part(1);
const ours1 = part(2).map((j) => j.benchmarks), oursN = part(3).map((j) => j.benchmarks);
const keys = JSON.parse(keelKeys);
if (keys.secret_key !== '0x' + peer1Runs[0].secret_key0 || keys.public_key !== '0x' + peer1Runs[0].pubkey0) {
  console.error(`keys differ: keel ${keys.secret_key} ${keys.public_key}, blst 0x${peer1Runs[0].secret_key0} 0x${peer1Runs[0].pubkey0}`);
  process.exit(1);
}
console.log('KeyGen(IKM) gives the same secret and public key on both sides.');
const best = (values) => Math.min(...values);
// keel's best wall time in µs of the benchmark whose name starts with `prefix`.
const us = (benchRuns, prefix) => best(benchRuns.map((benches) => {
  const b = benches.find((x) => x.name.startsWith(prefix));
  if (!b) throw new Error(`keel-bench did not report ${prefix}`);
  const scale = { ns: 1e-3, us: 1, ms: 1e3, s: 1e6 }[b.time_unit];
  return b.real_time * scale;
}));
const p1 = (key) => best(peer1Runs.map((r) => r[key]));
const pN = (key) => best(peerNRuns.map((r) => r[key]));
const rows = [
  ['Sign', 1, us(ours1, 'BM_Bls_Sign'), p1('sign_us')],
  ['Verify', 1, us(ours1, 'BM_Bls_Verify'), p1('verify_us')],
  ['public key decompress + subgroup check', 1, us(ours1, 'BM_Bls_PubkeyDecompress'), p1('pubkey_decompress_us')],
  ['signature decompress + subgroup check', 1, us(ours1, 'BM_Bls_SignatureDecompress'), p1('signature_decompress_us')],
  ['FastAggregateVerify, 128 keys', 1, us(ours1, 'BM_Bls_FastAggregateVerify/128'), p1('fast_aggregate_verify_128_us')],
  ['batch verify 128 sets, per signature', 1, us(ours1, 'BM_Bls_BatchVerify/128/1/') / 128, p1('batch_verify_128_us') / 128],
  ['batch verify 128 sets, per signature', threads, us(oursN, `BM_Bls_BatchVerify/128/${threads}/`) / 128,
    pN('batch_verify_128_us') / 128],
];
console.log(`\n${'operation'.padEnd(42)} ${'threads'.padStart(7)} ${'keel µs'.padStart(10)} ${'blst µs'.padStart(10)}  keel/blst`);
for (const [name, t, k, b] of rows) {
  console.log(`${name.padEnd(42)} ${String(t).padStart(7)} ${k.toFixed(1).padStart(10)} ${b.toFixed(1).padStart(10)}  ${(k / b).toFixed(2)}x`);
}
const cpw = (runsOf) => Math.max(...runsOf.map((r) => r.batch_verify_128_cpu_per_wall)).toFixed(2);
console.log(`\nblst batch CPU time per wall second: on one CPU ${cpw(peer1Runs)} (at most 1 when pinning holds), ` +
  `on ${threads} CPUs ${cpw(peerNRuns)} (at most ${threads}).`);
console.log(`keel: keel-bench real time; blst: @chainsafe/blst 2.2.0, averaged over >= 1 s; best of ${rounds} alternating rounds each.`);
for (const [name, t, k, b] of rows) {
  if (name === 'Sign' || name === 'Verify') console.log(`summary: ${name} ${(k / b).toFixed(2)}x blst's time (${t} thread)`);
}
JS
keel_load_line
