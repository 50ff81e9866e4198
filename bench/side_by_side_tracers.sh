#!/usr/bin/env bash
# Tracers on stored blocks side by side, in one run (issue 27): the blocks of a contract-heavy
# chain (keel devnet gen --contracts --no-blobs, BLOCKS of them, default 30, ~23 M gas each)
# traced by keel and by anvil 1.7.1 (Foundry's node on revm), per mode (MODES, default the two
# that anvil answers with the same output: the byte counts printed are equal):
#   callTracer, prestateTracer                   debug_traceBlockByNumber with that tracer
#   structLog                                    keel: the block's struct logs; anvil:
#                                                debug_traceTransaction of each of its
#                                                transactions (its debug_traceBlockByNumber
#                                                answers structLog with empty logs); the outputs
#                                                differ a little (keel writes refund on every
#                                                step), the byte counts are close
# Modes that can be asked for but do not compare: flatCallTracer (anvil's
# debug_traceBlockByNumber answers it with {}), trace_block (anvil answers from the traces it
# recorded while mining, without gas figures; keel replays). anvil serves no trace_replay*
# (vmTrace, stateDiff). Peak resident memory is printed for both: keel's export (one process per
# mode) and anvil's over its whole run (mining and every mode).
# keel: `keel trace export --threads 1` of blocks FROM..BLOCKS (default the last ten) from a
# store the chain was imported into, pinned to CPU 0, the files written to $WORK (process start,
# store open and writing included); anvil: the same blocks mined into it (its own execution of
# the same transactions, checked block by block: bench/peers/peers-anvil-execute.mjs), then
# traced one request at a time through its RPC, anvil pinned to CPU 0 and its client to CPU 1,
# every response read to its last byte. Wall time on both sides; keel best of ROUNDS (default 3).
#   bench/side_by_side_tracers.sh [PATH_TO_KEEL_BUILD]   (BLOCKS, FROM, MODES, ROUNDS, WORK)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
keel=$build/apps/keel/keel
blocks=${BLOCKS:-30}
from=${FROM:-$((blocks > 10 ? blocks - 9 : 1))}
modes=${MODES:-callTracer,prestateTracer}
rounds=${ROUNDS:-3}
work=${WORK:-$root/build/bench-trace}
[[ -x "$keel" ]] || { echo "side_by_side_tracers: build first (make build)" >&2; exit 2; }
[[ $blocks =~ ^[1-9][0-9]*$ && $from =~ ^[1-9][0-9]*$ && $from -le $blocks ]] ||
    { echo "side_by_side_tracers: BLOCKS and FROM must be block numbers, FROM <= BLOCKS" >&2; exit 2; }
anvil=$root/bench/peers/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
keel_peers_installed "$anvil"
mkdir -p "$work"
keel_machine_line
echo "keel: $("$keel" --version | head -1)"

chain=$work/contracts-no-blobs-$((blocks + 1)).rlp
genesis=$work/contracts-no-blobs-$((blocks + 1)).genesis.json
[[ -s "$chain" && -s "$genesis" ]] ||
    "$keel" devnet gen --contracts --no-blobs --blocks $((blocks + 1)) --out "$chain" \
        --genesis-out "$genesis" 2>/dev/null | tail -1
rm -rf "$work/datadir"
"$keel" init --datadir "$work/datadir" --genesis "$genesis" >/dev/null
"$keel" import --quiet --datadir "$work/datadir" "$chain" | grep '^executed:'
now() { date +%s.%N; }

declare -A keel_s keel_bytes keel_rss
IFS=, read -r -a mode_list <<<"$modes"
for mode in "${mode_list[@]}"; do
    tracer=$mode
    [[ $mode == trace_block ]] && tracer=parity
    best=
    for ((r = 0; r < rounds; ++r)); do
        rm -rf "$work/export"
        t0=$(now)
        summary=$(taskset -c 0 "$keel" trace export --quiet --threads 1 --datadir "$work/datadir" \
            --from "$from" --to "$blocks" --tracer "$tracer" --out "$work/export")
        t1=$(now)
        keel_rss[$mode]=$(sed -E 's/.*peak RSS ([0-9.]+) MB.*/\1/' <<<"$summary")
        s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        if [[ -z $best ]] || awk -v s="$s" -v b="$best" 'BEGIN { exit !(s < b) }'; then best=$s; fi
    done
    keel_s[$mode]=$best
    keel_bytes[$mode]=$(cat "$work"/export/*.jsonl | wc -c)
done

out=$(ANVIL_TRACE_MODES=$modes ANVIL_TRACE_FROM=$from taskset -c 1 node \
    "$root/bench/peers/peers-anvil-execute.mjs" "$anvil" "$genesis" "$chain" "$blocks" \
    "${ANVIL_PORT:-18547}" 0)
echo "$(head -1 <<<"$out")"
echo "blocks $from-$blocks, one core each:"
for mode in "${mode_list[@]}"; do
    line=$(grep "^anvil trace $mode:" <<<"$out")
    a_s=$(sed -E 's/.*blocks, ([0-9.]+) s.*/\1/' <<<"$line")
    a_bytes=$(sed -E 's/.* s, ([0-9]+) bytes.*/\1/' <<<"$line")
    awk -v m="$mode" -v k="${keel_s[$mode]}" -v kb="${keel_bytes[$mode]}" -v a="$a_s" -v ab="$a_bytes" \
        -v rss="${keel_rss[$mode]}" 'BEGIN {
        printf "  %-15s keel %7.3f s (%9.1f MB out, peak RSS %6.1f MB)  anvil %8.3f s (%9.1f MB out)  anvil / keel %6.1fx\n",
               m, k, kb / 1e6, rss, a, ab / 1e6, a / k }'
done
grep '^anvil: ' <<<"$out" | sed 's/^/  /'
grep '^anvil peak RSS:' <<<"$out" | awk '{ printf "  anvil peak RSS (mining and tracing): %.1f MB\n", $4 / 1024 }'
keel_load_line
