#!/usr/bin/env bash
# Bulk trace export side by side, in one run (issue 27): the 10,000 blocks of a contract-heavy
# chain (keel devnet gen --contracts --no-blobs --gas-limit 10000000: ~3.6 M gas and ~45
# transactions a block, 36 G gas) exported
#   keel:  `keel trace export --tracer parity` (trace_block's traces of each block, JSON lines,
#          chunks of 1,000 blocks written to disk) on 2 cores, from a store the chain was
#          imported into; its peak RSS as it reports it;
#   anvil: cryo-style: the same blocks mined into anvil 1.7.1 (bench/peers/peers-anvil-execute.mjs
#          checks each against keel's header), then trace_block of every block through its RPC
#          with 4 requests in flight, every response read to its last byte (not written), anvil
#          and its client on the same 2 cores.
# anvil answers trace_block from the traces it recorded while mining (its mining time, printed,
# includes that capture); keel replays every block on its parent's historical state.
# Wall time on both sides; keel best of ROUNDS (default 2). BLOCKS (default 10000), WORK.
#   bench/side_by_side_trace_export.sh [PATH_TO_KEEL_BUILD]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
keel=$build/apps/keel/keel
blocks=${BLOCKS:-10000}
rounds=${ROUNDS:-2}
work=${WORK:-$root/build/bench-export}
[[ -x "$keel" ]] || { echo "side_by_side_trace_export: build first (make build)" >&2; exit 2; }
[[ $blocks =~ ^[1-9][0-9]*$ ]] || { echo "side_by_side_trace_export: BLOCKS must be a count" >&2; exit 2; }
anvil=$root/bench/peers/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
keel_peers_installed "$anvil"
mkdir -p "$work"
keel_machine_line
echo "keel: $("$keel" --version | head -1)"

chain=$work/contracts-10m-$((blocks + 1)).rlp
genesis=$work/contracts-10m-$((blocks + 1)).genesis.json
[[ -s "$chain" && -s "$genesis" ]] ||
    "$keel" devnet gen --contracts --no-blobs --gas-limit 10000000 --blocks $((blocks + 1)) \
        --out "$chain" --genesis-out "$genesis" 2>/dev/null | tail -1
if [[ ! -f "$work/datadir-$blocks/.imported" ]]; then
    rm -rf "$work/datadir-$blocks"
    "$keel" init --datadir "$work/datadir-$blocks" --genesis "$genesis" >/dev/null
    "$keel" import --quiet --datadir "$work/datadir-$blocks" "$chain" | grep '^executed:'
    touch "$work/datadir-$blocks/.imported"
fi
now() { date +%s.%N; }

best=
for ((r = 0; r < rounds; ++r)); do
    rm -rf "$work/export"
    t0=$(now)
    summary=$("$keel" trace export --quiet --threads 2 --datadir "$work/datadir-$blocks" \
        --from 1 --to "$blocks" --tracer parity --out "$work/export")
    t1=$(now)
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    if [[ -z $best ]] || awk -v s="$s" -v b="$best" 'BEGIN { exit !(s < b) }'; then best=$s; fi
    rss=$(sed -E 's/.*peak RSS ([0-9.]+) MB.*/\1/' <<<"$summary")
done
bytes=$(cat "$work"/export/*.jsonl | wc -c)
rm -rf "$work/export"

out=$(ANVIL_TRACE_MODES=trace_block ANVIL_TRACE_FROM=1 ANVIL_TRACE_INFLIGHT=4 ANVIL_PRUNE_HISTORY=1 node \
    "$root/bench/peers/peers-anvil-execute.mjs" "$anvil" "$genesis" "$chain" "$blocks" \
    "${ANVIL_PORT:-18548}" 0,1)
line=$(grep '^anvil trace trace_block:' <<<"$out")
a_s=$(sed -E 's/.*blocks, ([0-9.]+) s.*/\1/' <<<"$line")
a_bytes=$(sed -E 's/.* s, ([0-9]+) bytes.*/\1/' <<<"$line")
grep '^anvil: ' <<<"$out"
echo "blocks 1-$blocks, 2 cores each:"
awk -v n="$blocks" -v k="$best" -v kb="$bytes" -v rss="$rss" -v a="$a_s" -v ab="$a_bytes" 'BEGIN {
    printf "  keel trace export (parity)    %8.3f s  %8.1f blocks/s  %8.1f MB out, peak RSS %.1f MB\n",
           k, n / k, kb / 1e6, rss
    printf "  anvil trace_block, 4 in flight %7.3f s  %8.1f blocks/s  %8.1f MB out\n",
           a, n / a, ab / 1e6
    printf "  keel / anvil blocks/s: %.2fx\n", a / k }'
grep '^anvil peak RSS:' <<<"$out" | awk '{ printf "  anvil peak RSS (mining and tracing): %.1f MB\n", $4 / 1024 }'
keel_load_line
