#!/usr/bin/env bash
# Executing import side by side (issue 26): the same blocks of a contract-heavy chain
# (keel devnet gen --contracts --no-blobs: ERC-20, AMM swaps, NFT mints, storage loops,
# CREATE/CREATE2, SELFDESTRUCT, EIP-7702; docs/devnet.md; no blob transactions, which anvil
# could only take with KZG sidecars these do not have) executed by
#   keel        keel init + keel import: every block executed on the stored state, the header
#               checked against its parent, state root (incremental trie in RocksDB), receipts
#               root, bloom and gas used checked, block, receipts and state written per block;
#   ethereumjs  @ethereumjs/vm runBlock on an in-memory Merkle state (bench/peers/
#               peers-execute.mjs): state root, receipts root, bloom and gas used checked,
#               nothing written to disk;
#   anvil       Foundry's node on revm (bench/peers/peers-anvil-execute.mjs), started from the
#               same genesis, mining off: each block's transactions sent with
#               eth_sendRawTransaction in the file's order, the block's beneficiary and timestamp
#               set, then evm_mine; each mined block must match the file's transaction count and
#               gas used. Its state is in memory. Two figures: evm_mine alone (execution, state
#               root, block), and with the submissions (anvil recovers and checks each sender
#               there, and each is an HTTP round trip: most of that time).
# Both on one core (taskset -c 0: every thread of each process shares it), both wall time of
# executing the blocks (keel's importer and the peer time themselves; the whole processes'
# wall times are printed beside); anvil pinned to CPU 0, its RPC client on CPU 1. keel on every
# core is reported on its own line.
#
#   bench/side_by_side_execute.sh [PATH_TO_KEEL]    BLOCKS=30 (blocks after the genesis)
# Work files go to build/bench-execute/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
keel=${1:-$root/build/release/apps/keel/keel}
work=$root/build/bench-execute
blocks=${BLOCKS:-30}
mkdir -p "$work"
[[ -x "$keel" ]] || { echo "side_by_side_execute: build keel first (make build)" >&2; exit 2; }
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
anvil=$root/bench/peers/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil
keel_peers_installed "$root/bench/peers/node_modules/@ethereumjs/vm"
keel_peers_installed "$anvil"
command -v taskset >/dev/null || { echo "side_by_side_execute: taskset (util-linux) is needed" >&2; exit 2; }
keel_machine_line
echo "keel: $("$keel" --version)"

chain=$work/contracts-no-blobs-$((blocks + 1)).rlp
genesis=$work/contracts-no-blobs-$((blocks + 1)).genesis.json
[[ -s "$chain" && -s "$genesis" ]] ||
    "$keel" devnet gen --contracts --no-blobs --blocks $((blocks + 1)) --out "$chain" \
        --genesis-out "$genesis" 2>/dev/null | tail -1
now() { date +%s.%N; }

# keel_execute CPUS: init + executing import into a fresh datadir ("" = every core); sets
# keel_mgas (the importer's gas over its wall time) and keel_wall (the import process).
keel_execute() {
    rm -rf "$work/datadir"
    local pin=() t0 t1
    [[ -n "$1" ]] && pin=(taskset -c "$1")
    "$keel" init --datadir "$work/datadir" --genesis "$genesis" >/dev/null
    t0=$(now)
    "${pin[@]}" "$keel" import --quiet --datadir "$work/datadir" "$chain" >"$work/import.txt"
    t1=$(now)
    keel_mgas=$(sed -nE 's/^executed: .* ([0-9.]+) Mgas\/s overall.*/\1/p' "$work/import.txt")
    keel_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    keel_gas=$(sed -nE 's/^executed: [0-9]+ blocks, ([0-9.]+) Mgas.*/\1/p' "$work/import.txt")
}

keel_execute 0
echo "keel, 1 core:        $keel_mgas Mgas/s ($keel_gas Mgas in $blocks blocks; process $keel_wall s)"
grep '^executed:' "$work/import.txt" | sed 's/^/  /'
one_core=$keel_mgas
keel_execute ""
echo "keel, $(nproc) cores:       $keel_mgas Mgas/s (process $keel_wall s)"

t0=$(now)
line=$(taskset -c 0 node "$root/bench/peers/peers-execute.mjs" "$genesis" "$chain" "$blocks")
t1=$(now)
ejs_gas=$(sed -E 's/.* ([0-9]+) gas.*/\1/' <<<"$line")
ejs_s=$(sed -E 's/.*gas, ([0-9.]+) s.*/\1/' <<<"$line")
ejs_mgas=$(awk -v g="$ejs_gas" -v s="$ejs_s" 'BEGIN { printf "%.2f", g / s / 1e6 }')
echo "ethereumjs, 1 core:  $ejs_mgas Mgas/s ($line; process $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s)"
awk -v k="$one_core" -v e="$ejs_mgas" 'BEGIN { printf "ratio keel / ethereumjs, one core each: %.0fx (goal >= 100x)\n", k / e }'

line=$(taskset -c 1 node "$root/bench/peers/peers-anvil-execute.mjs" "$anvil" "$genesis" "$chain" \
    "$blocks" "${ANVIL_PORT:-18546}" 0)
anvil_gas=$(sed -E 's/.* ([0-9]+) gas.*/\1/' <<<"$line")
mine_s=$(sed -E 's/.*gas, ([0-9.]+) s mining.*/\1/' <<<"$line")
all_s=$(sed -E 's/.*, ([0-9.]+) s with the submissions.*/\1/' <<<"$line")
awk -v g="$anvil_gas" -v m="$mine_s" -v a="$all_s" -v k="$one_core" -v l="$line" 'BEGIN {
    printf "anvil, 1 core:       %.1f Mgas/s evm_mine alone, %.1f Mgas/s with the submissions (%s)\n", g / m / 1e6, g / a / 1e6, l
    printf "ratio keel / anvil, one core each: %.2fx against evm_mine alone, %.1fx against submissions + evm_mine (goal >= 3x)\n", k / (g / m / 1e6), k / (g / a / 1e6)
}'
keel_load_line
