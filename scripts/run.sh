#!/usr/bin/env bash
# `make run`: keel's main job. Generates a deterministic chain (keel devnet gen: 10,000 blocks of
# 50 signed transactions of every type, merge at block 7,500), imports it into an embedded
# datadir (keel import), verifies the store, prunes the pre-merge history (EIP-4444), verifies
# again, reads a block and a transaction back, and prints a summary. Then the executing import:
# mainnet from its genesis (keel init --network mainnet) through the first era1 archive of the
# shared vectors, every block executed and its state root checked, and a balance read back at
# a past block. (The generated chain is imported history-only until keel devnet gen makes
# contract-heavy chains with real state, issue 26.)
#
# Work files live in build/run/ (kept afterwards, so `keel get ... --datadir build/run/datadir`
# works); the chain file is reused when it is already there (generation is deterministic).
# Sizes can be changed: BLOCKS=20000 TXS=100 MERGE_AT=15000 make run.
set -euo pipefail
keel=${1:?usage: run.sh PATH_TO_KEEL [WORK_DIR]}
work=${2:-build/run}
blocks=${BLOCKS:-10000}
txs=${TXS:-50}
merge_at=${MERGE_AT:-7500}
mkdir -p "$work"
chain="$work/chain-$blocks-$txs-$merge_at.rlp"
datadir="$work/datadir"
log="$work/log.txt"
: >"$log"

step() { printf '\n== %s\n' "$*"; }
# Runs keel, showing its output and keeping a copy in the log for the summary.
run() { "$keel" "$@" | tee -a "$log"; }
field() { grep -m1 "$1" "$log" | sed -E "s/.*$1 *//"; }
now() { date +%s.%N; }

step "generate: $blocks blocks x $txs transactions, merge at $merge_at"
if [[ -s "$chain" ]]; then
    echo "reusing $chain ($(stat -c %s "$chain") bytes; delete it to generate again)"
else
    run devnet gen --blocks "$blocks" --txs-per-block "$txs" --merge-at "$merge_at" --out "$chain"
fi

step "import into $datadir"
rm -rf "$datadir"
run import --no-execute --datadir "$datadir" "$chain"

step "verify"
run storage verify --datadir "$datadir" >/dev/null
echo "verify: ok"

step "prune pre-merge history"
t0=$(now)
run storage prune-pre-merge-blocks --datadir "$datadir"
t1=$(now)

step "verify after pruning"
"$keel" storage verify --datadir "$datadir" | tee "$work/verify-after.txt" >/dev/null
echo "verify: ok"

step "read back"
latest=$("$keel" get block latest --datadir "$datadir")
tx_hash=$(grep -A1 '"transactions"' <<<"$latest" | tail -1 | tr -d ' ",')
number=$(grep -m1 '"number"' <<<"$latest" | sed -E 's/.*"(0x[0-9a-f]+)".*/\1/')
echo "latest block: $((number)) with $(grep -c '^    "0x' <<<"$latest") transactions"
"$keel" get tx "$tx_hash" --datadir "$datadir" | grep -E '"(hash|from|type|blockNumber)"'
if "$keel" get block 1 --datadir "$datadir" 2>"$work/pruned.txt" >/dev/null; then
    echo "block 1: $(cat "$work/pruned.txt")"
fi

era1_mainnet=$(ls "${VECTORS:-../shared/vectors}"/era1/mainnet/mainnet-00000-*.era1 2>/dev/null | head -1 || true)
if [[ -n "$era1_mainnet" ]]; then
    step "execute mainnet blocks 0-8191 from genesis"
    rm -rf "$work/mainnet"
    run init --datadir "$work/mainnet" --network mainnet
    run import --datadir "$work/mainnet" "$era1_mainnet"
    # The first miner paid on mainnet (block 1's coinbase): its balance at block 1 and at 8191.
    miner=0x05a56e2d52c817161883f50c441c3228cfe54d9f
    echo "balance of $miner at block 1: $("$keel" get balance --datadir "$work/mainnet" "$miner" --block 1)," \
         "at 8191: $("$keel" get balance --datadir "$work/mainnet" "$miner")"
fi

step "summary"
import_line=$(grep -m1 '^import:' "$log")
echo "chain:     $blocks blocks, $((txs * (blocks - 1))) transactions, merge at $merge_at ($(stat -c %s "$chain") bytes)"
echo "import:    ${import_line#import: }"
echo "prune:     $(field 'prune time:')"
echo "reclaim:   $(field 'reclaim time:')"
echo "removed:   $(field 'entries removed:')"
echo "size:      before $(field 'size before:'), after $(field 'size after:')"
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "prune command wall time: %.2f s\n", b - a }'
echo "datadir:   $datadir (try: $keel get block latest --datadir $datadir)"
if [[ -n "$era1_mainnet" ]]; then
    echo "executed:  $(grep '^executed:' "$log" | tail -1 | sed 's/^executed: //')"
    echo "state:     $(grep '^state: block' "$log" | tail -1 | sed 's/^state: //')"
fi
