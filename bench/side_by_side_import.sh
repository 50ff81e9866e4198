#!/usr/bin/env bash
# Import and pruning figures for the chain store (issue 4), with a side-by-side peer.
#
# 1. Side by side, same file: a generated chain (keel devnet gen, 2,000 blocks x 50 signed
#    transactions, merge at 1,500) is imported by `keel import` into a fresh datadir (decode,
#    every root checked, RocksDB writes), and validated by @ethereumjs/block from npm
#    (bench/peers/peers-block.mjs: decode, hashes, transactions/ommers/withdrawals roots; no
#    database). The ratio compares equal resources: both processes pinned to one core
#    (taskset -c 0: every thread of each, RocksDB's and node's included, shares that core), and
#    both rates are wall-clock (keel's importer and the peer time themselves with a monotonic
#    wall clock, not CPU time); the whole process's wall time (start, reading the file, and for
#    keel creating the store) is printed beside them. keel on every core of the machine is
#    reported on its own line, never in the ratio.
# 2. Scale: a chain of PRUNE_BLOCKS blocks x 50 transactions (default 100,000 blocks: 5 million
#    transactions, merge at 75%) is imported (blocks/s, tx/s), then
#    `keel storage prune-pre-merge-blocks` runs on it: prune time (marker, floor, range deletes),
#    reclamation time (compactions), entries removed per second, bytes before and after, and the
#    extrapolation to mainnet's pre-merge history (15,537,394 blocks, about 1.9 billion
#    transactions).
#
#   bench/side_by_side_import.sh [PATH_TO_KEEL]     (default build/release/apps/keel/keel)
# Work files go to build/bench-import/ (the big chain file is reused when present).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
keel=${1:-$root/build/release/apps/keel/keel}
work=$root/build/bench-import
prune_blocks=${PRUNE_BLOCKS:-100000}
mkdir -p "$work"
[[ -x "$keel" ]] || { echo "side_by_side_import: build keel first (make build)" >&2; exit 2; }
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
keel_peers_installed "$root/bench/peers/node_modules/@ethereumjs/block"

val() { sed -nE "s/^$1 *([0-9.]+).*/\1/p" "$2" | head -1; }

cpu_model=$(lscpu 2>/dev/null | sed -nE 's/^Model name: *//p' | head -1)
[[ -n "$cpu_model" ]] || cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "machine: $(nproc) cores, CPU: $cpu_model"
command -v taskset >/dev/null || { echo "side_by_side_import: taskset (util-linux) is needed" >&2; exit 2; }
echo "keel: $("$keel" --version)"

# ---- 1. side by side ------------------------------------------------------------------------
small=$work/chain-2000-50-1500.rlp
[[ -s "$small" ]] || "$keel" devnet gen --blocks 2000 --txs-per-block 50 --merge-at 1500 \
    --out "$small" >/dev/null 2>&1
now() { date +%s.%N; }
# keel_import CPUS: imports the small file into a fresh datadir, on the given cores ("" = all);
# sets keel_blocks, keel_tx (the importer's wall-clock rates) and keel_wall (whole process).
keel_import() {
    rm -rf "$work/small-datadir"
    local pin=() t0 t1 line
    [[ -n "$1" ]] && pin=(taskset -c "$1")
    t0=$(now)
    "${pin[@]}" "$keel" import --no-execute --quiet --datadir "$work/small-datadir" "$small" >"$work/small-import.txt"
    t1=$(now)
    line=$(grep '^import:' "$work/small-import.txt")
    keel_tx=$(sed -E 's/.*, ([0-9]+) tx\/s.*/\1/' <<<"$line")
    keel_blocks=$(sed -E 's/.*\(([0-9]+) blocks\/s.*/\1/' <<<"$line")
    keel_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}
t0=$(now)
peer=$(taskset -c 0 node "$root/bench/peers/peers-block.mjs" "$small" 1500 1337)
t1=$(now)
peer_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
peer_tx=$(node -e "console.log(Math.round(JSON.parse(process.argv[1]).tx_per_s))" "$peer")
peer_blocks=$(node -e "console.log(Math.round(JSON.parse(process.argv[1]).blocks_per_s))" "$peer")
keel_import 0
k1_blocks=$keel_blocks k1_tx=$keel_tx k1_wall=$keel_wall
keel_import ""
echo
echo "import of the same 2,000-block file (99,950 transactions), wall clock:"
printf '  %-50s %9s blocks/s %9s tx/s  process %6s s\n' "keel import, 1 core (checks + RocksDB writes)" "$k1_blocks" "$k1_tx" "$k1_wall"
printf '  %-50s %9s blocks/s %9s tx/s  process %6s s\n' "@ethereumjs/block 10.1.3, 1 core (checks only)" "$peer_blocks" "$peer_tx" "$peer_wall"
awk -v k="$k1_tx" -v p="$peer_tx" 'BEGIN { printf "  ratio keel/peer, both on 1 core: %.1fx\n", k / p }'
printf '  %-50s %9s blocks/s %9s tx/s  process %6s s\n' "keel import, all $(nproc) cores (not in the ratio)" "$keel_blocks" "$keel_tx" "$keel_wall"

# ---- 2. scale: import and prune ---------------------------------------------------------------
merge=$((prune_blocks * 3 / 4))
big=$work/chain-$prune_blocks-50-$merge.rlp
if [[ ! -s "$big" ]]; then
    echo
    echo "generating $prune_blocks blocks x 50 transactions (once; reused afterwards)..."
    "$keel" devnet gen --blocks "$prune_blocks" --txs-per-block 50 --merge-at "$merge" \
        --out "$big" 2>/dev/null
fi
rm -rf "$work/big-datadir"
"$keel" import --no-execute --quiet --datadir "$work/big-datadir" "$big" >"$work/big-import.txt"
echo
echo "import of $prune_blocks blocks: $(grep '^import:' "$work/big-import.txt" | sed 's/^import: //')"
"$keel" storage prune-pre-merge-blocks --quiet --datadir "$work/big-datadir" >"$work/prune.txt"
cat "$work/prune.txt" | sed 's/^/  /'
"$keel" storage verify --datadir "$work/big-datadir" >/dev/null 2>&1 && echo "  verify after prune: ok"

prune_s=$(val 'prune time:' "$work/prune.txt")
reclaim_s=$(val 'reclaim time:' "$work/prune.txt")
dropped=$(val 'tx lookups dropped:' "$work/prune.txt")
echo
lookup_mib=$(sed -nE 's/^ *tx_lookup: ([0-9.]+) MiB.*/\1/p' "$work/prune.txt" | head -1)
awk -v p="$prune_s" -v r="$reclaim_s" -v d="$dropped" -v mib="${lookup_mib:-0}" 'BEGIN {
    mainnet_tx = 1.9e9; mainnet_blocks = 15537394
    printf "mainnet extrapolation (pre-merge: %d blocks, ~1.9e9 transactions):\n", mainnet_blocks
    # The prune itself: marker and floor in one batch, whole table files below N unlinked, two
    # range tombstones. No transaction is read; the file deletions scale with bytes, not keys.
    printf "  prune (marker, floor, table files dropped, range tombstones): %.3f s here\n", p
    # Reclamation: one compaction pass over the lookup index (the filter drops the pruned
    # entries as it streams them), plus the bodies/receipts compaction over the range edges.
    rate = d / r
    printf "  reclamation: %.2f M lookup entries dropped per second (%.0f MiB/s of index read) -> ~%.0f s (%.1f min) for 1.9e9\n", rate / 1e6, mib / r, mainnet_tx / rate, mainnet_tx / rate / 60
    printf "  (one sequential pass that reads the index and writes what is kept; no per-transaction reads or deletes)\n"
}'
