#!/usr/bin/env bash
# `make run`: keel's main job, in three parts.
#
# 1. The executing import of a contract-heavy chain: keel devnet gen --contracts makes a
#    deterministic chain of ERC-20 transfers, AMM swaps, NFT mints, storage loops, CREATE/CREATE2,
#    SELFDESTRUCT, blobs and EIP-7702 delegations with a growing state (about 265 new accounts a
#    block: CONTRACT_BLOCKS=4000 gives more than a million), every block built by executing it.
#    keel init takes its genesis, keel import executes every block again and checks every root,
#    keeping the last STATE_HISTORY blocks of state history (older history pruned as it goes);
#    keel storage verify recomputes the state root from the flat state, walks the tries and
#    prints the state's bytes per account and slot.
# 2. History and EIP-4444: a generated 10,000-block chain of signed transactions of every type
#    (merge at 7,500) imported history-only, verified, its pre-merge history pruned, verified
#    again, a block and a transaction read back.
# 3. Mainnet from its genesis through the first era1 archive of the shared vectors (blocks
#    0-8191), every block executed and its state root checked, a balance read at a past block.
#
# Work files live in build/run/ (kept afterwards, so `keel get ... --datadir build/run/state`
# works); generated chain files are reused when they are already there (generation is
# deterministic). Sizes can be changed: CONTRACT_BLOCKS=500 BLOCKS=20000 TXS=100 make run.
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

contract_blocks=${CONTRACT_BLOCKS:-4000}
state_history=${STATE_HISTORY:-1000}
contract_chain="$work/contracts-$contract_blocks.rlp"
contract_genesis="$work/contracts-$contract_blocks.genesis.json"
state_dir="$work/state"

step "generate a contract-heavy chain: $contract_blocks blocks"
if [[ -s "$contract_chain" && -s "$contract_genesis" ]]; then
    echo "reusing $contract_chain ($(stat -c %s "$contract_chain") bytes; delete it to generate again)"
else
    run devnet gen --contracts --blocks "$contract_blocks" --out "$contract_chain" \
        --genesis-out "$contract_genesis"
fi

step "execute it: init, import (every block executed, state history $state_history blocks)"
rm -rf "$state_dir"
run init --datadir "$state_dir" --genesis "$contract_genesis"
run import --datadir "$state_dir" --history.state "$state_history" "$contract_chain"
contract_executed=$(grep '^executed:' "$log" | tail -1 | sed 's/^executed: //')

step "verify the state"
"$keel" storage verify --datadir "$state_dir" | tee "$work/verify-state.txt" | grep -E '^(verify|state)'

step "generate: $blocks blocks x $txs transactions, merge at $merge_at"
if [[ -s "$chain" ]]; then
    echo "reusing $chain ($(stat -c %s "$chain") bytes; delete it to generate again)"
else
    run devnet gen --blocks "$blocks" --txs-per-block "$txs" --merge-at "$merge_at" --out "$chain"
fi

step "import into $datadir"
rm -rf "$datadir"
run import --no-execute --datadir "$datadir" "$chain"
# Its summary line (the log's last so far: the contract chain's import printed one before it).
history_import=$(grep '^import: [0-9]* blocks,' "$log" | tail -1)

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
echo "contract chain: $contract_blocks blocks ($(stat -c %s "$contract_chain") bytes), $(grep -m1 'new accounts' "$log" | sed -E 's/.*Ggas, ([0-9]+ new accounts).*/\1/' || echo "cached")"
echo "  executed: $contract_executed"
echo "  $(grep -m1 '^pace:' "$log")"
echo "  $(grep -m1 '^state: block' "$work/verify-state.txt")"
echo "  $(grep -m1 '^state on disk' "$work/verify-state.txt")"
echo "  datadir: $state_dir ($(du -sh "$state_dir" | cut -f1); try: $keel get balance --datadir $state_dir ADDRESS)"
echo "chain:     $blocks blocks, $((txs * (blocks - 1))) transactions, merge at $merge_at ($(stat -c %s "$chain") bytes)"
echo "import:    ${history_import#import: }"
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
