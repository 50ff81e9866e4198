#!/usr/bin/env bash
# KZG cells side by side, in one run: keel (keel-bench BM_Kzg*, keel/kzg/kzg_bench.cpp) and
# rust-eth-kzg 0.10.0 (native, through npm @crate-crypto/node-eth-kzg, installed into
# build/peers-kzg; bench/peers/peers-kzg.mjs) on
# the same full-width blob: compute_cells, compute_cells_and_kzg_proofs (FK20 on both sides),
# recover_cells_and_kzg_proofs from the upper half of the cells, blob_to_kzg_commitment.
#
# Checks first: the peer reproduces the consensus-spec reference case (cells and proofs), and
# both sides give the same proofs 0 and 127 for the timed blob (their first bytes compared).
#
# Honest figures: wall time on both sides (keel-bench's real_time; the peer reads the clock),
# both pinned to one CPU (PIN_CPU, default 0: the peer's thread pool then has one core too),
# each figure the best of ROUNDS (default 3) alternating runs on either side; the one-time setup
# (keel: FK20's table on first use; the peer: its context) is outside every timed call.
#
#   bench/side_by_side_kzg.sh [PATH_TO_KEEL_BUILD]   (default build/release; ROUNDS=N, PIN_CPU=N)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
bench=$build/bench/keel-bench
rounds=${ROUNDS:-3}
pin=${PIN_CPU:-0}
[[ -x "$bench" ]] || { echo "side_by_side_kzg: build first (make build)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "side_by_side_kzg: ROUNDS must be a positive integer" >&2; exit 2; }
[[ $pin =~ ^[0-9]+$ ]] || { echo "side_by_side_kzg: PIN_CPU must be a CPU number" >&2; exit 2; }
command -v taskset >/dev/null || { echo "side_by_side_kzg: needs taskset (util-linux)" >&2; exit 2; }
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
keel_peers_installed "$root/bench/peers/node_modules"  # Node.js itself (scripts/deps.sh --peers)
# The peer lives outside bench/peers' lock file: npm records only this platform's prebuilt
# binary in a lock, and `npm ci` then refuses the lock for the other platforms' entries, which
# this registry does not carry. Installed here, pinned, when missing.
peer_dir=$root/build/peers-kzg
if [[ ! -e "$peer_dir/node_modules/@crate-crypto/node-eth-kzg" ]]; then
    mkdir -p "$peer_dir"
    npm install --prefix "$peer_dir" --no-save --no-package-lock --no-audit --no-fund \
        --loglevel=error @crate-crypto/node-eth-kzg@0.10.0 >/dev/null
fi
case_file=$root/../shared/vectors/kzg/compute_cells_and_kzg_proofs/kzg-mainnet/compute_cells_and_kzg_proofs_case_valid_2/data.yaml
[[ -f "$case_file" ]] || { echo "side_by_side_kzg: reference case not found: $case_file" >&2; exit 2; }

keel_machine_line
echo "both sides pinned to CPU $pin (one thread each); best of $rounds rounds"
filter='BM_KzgComputeCells$|BM_KzgComputeCellsAndProofs|BM_KzgRecoverCellsAndProofs|BM_KzgBlobToCommitment/1'
peers=() ours=()
for ((i = 0; i < rounds; ++i)); do
    peers+=("$(cd "$root/bench/peers" && taskset -c "$pin" node peers-kzg.mjs "$peer_dir" "$case_file" 2)")
    ours+=("$(taskset -c "$pin" "$bench" --benchmark_filter="$filter" --benchmark_format=json 2>/dev/null)")
done
node - "$rounds" "${peers[@]}" "${ours[@]}" <<'JS'
const [roundsArg, ...runs] = process.argv.slice(2);
const rounds = Number(roundsArg);
const peerRuns = runs.slice(0, rounds).map((j) => JSON.parse(j));
const ourRuns = runs.slice(rounds).map((j) => JSON.parse(j).benchmarks);
const ms = (b) => b.real_time * { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 }[b.time_unit];
const ours = (name) => Math.min(...ourRuns.map((bs) => ms(bs.find((b) => b.name === name))));
const peer = (key) => Math.min(...peerRuns.map((p) => p[key]));
const label = ourRuns[0].find((b) => b.name === 'BM_KzgComputeCellsAndProofs').label;
if (label !== peerRuns[0].fingerprint) {
  console.error(`the sides' proofs differ: keel ${label}, rust-eth-kzg ${peerRuns[0].fingerprint}`);
  process.exit(1);
}
console.log('checks: rust-eth-kzg reproduces the reference case; proofs 0 and 127 agree (' + label + ')');
const rows = [
  ['compute_cells', 'BM_KzgComputeCells', 'compute_cells_ms'],
  ['compute_cells_and_kzg_proofs', 'BM_KzgComputeCellsAndProofs', 'compute_cells_and_proofs_ms'],
  ['recover_cells_and_kzg_proofs (64 of 128 cells)', 'BM_KzgRecoverCellsAndProofs', 'recover_ms'],
  ['blob_to_kzg_commitment', 'BM_KzgBlobToCommitment/1', 'commitment_ms'],
];
console.log('| function (one full-width blob, one thread) | keel ms | rust-eth-kzg ms | keel / peer time |');
console.log('|---|---|---|---|');
for (const [what, name, key] of rows) {
  const k = ours(name), p = peer(key);
  console.log(`| ${what} | ${k.toFixed(2)} | ${p.toFixed(2)} | ${(k / p).toFixed(2)}x |`);
}
console.log(`(rust-eth-kzg's context setup: ${peer('setup_ms').toFixed(0)} ms, once per process)`);
JS
keel_load_line
