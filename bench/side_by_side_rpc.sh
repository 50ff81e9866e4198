#!/usr/bin/env bash
# keel node against anvil serving the same chain, in one run (issue 28): the first BLOCKS blocks
# (default 1000) of a contract-heavy chain (keel devnet gen --contracts --no-blobs --gas-limit
# 10000000: ~45 transactions and ~3.6 M gas a block: tokens, a pair, NFTs), imported into a keel
# datadir served by `keel node` (2 HTTP threads) and mined into anvil 1.7.1 (its blocks checked
# against the file's: bench/peers/peers-anvil-execute.mjs, ANVIL_SERVE), both on the same 2 cores.
# wrk (2 threads, CONNS connections, default 64) sends one method for SECONDS (default 10) to
# each side in turn, the request bodies the same; every body is first checked to answer a result
# on both sides. Prints requests per second, p50 and p99 latency per side, the ratio, and keel
# node's peak RSS after a flood of trace requests, and the setup's ceiling for a cheap method
# (wrk against bench/http_ceiling, a server that answers without doing any work).
#   [METHODS="eth_blockNumber eth_getLogs"] bench/side_by_side_rpc.sh [PATH_TO_KEEL_BUILD]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
keel=$build/apps/keel/keel
blocks=${BLOCKS:-1000}
conns=${CONNS:-64}
seconds=${SECONDS_EACH:-10}
work=${WORK:-$root/build/bench-rpc}
[[ -x "$keel" ]] || { echo "side_by_side_rpc: build first (make build)" >&2; exit 2; }
anvil=$root/bench/peers/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil
source "$root/bench/peers/machine.sh"
keel_peers_installed "$anvil"
command -v wrk >/dev/null || bash "$root/scripts/deps.sh" --peers
mkdir -p "$work"
keel_machine_line
echo "keel: $("$keel" --version | head -1); wrk $(wrk -v 2>&1 | head -1 | awk '{print $2}'), 2 threads, $conns connections, ${seconds} s a method"

chain=$work/contracts-10m-$((blocks + 1)).rlp
genesis=$work/contracts-10m-$((blocks + 1)).genesis.json
[[ -s "$chain" && -s "$genesis" ]] ||
    "$keel" devnet gen --contracts --no-blobs --gas-limit 10000000 --blocks $((blocks + 1)) \
        --out "$chain" --genesis-out "$genesis" 2>/dev/null | tail -1
dd=$work/datadir-$blocks
if [[ ! -f "$dd/.imported" ]]; then
    rm -rf "$dd"
    "$keel" init --datadir "$dd" --genesis "$genesis" >/dev/null
    "$keel" import --quiet --datadir "$dd" "$chain" | grep "^executed:" || true
    touch "$dd/.imported"
fi

tmp=$(mktemp -d)
node_pid= anvil_pid=
cleanup() {
    [[ -n "$node_pid" ]] && kill "$node_pid" 2>/dev/null
    [[ -n "$anvil_pid" ]] && kill "$anvil_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

taskset -c 0,1 "$keel" node --datadir "$dd" --http.port 0 --http.threads 2 --authrpc.port 0 \
    >"$tmp/node.out" 2>&1 &
node_pid=$!
kport=
for _ in $(seq 200); do
    kport=$(sed -n 's|^node: JSON-RPC over HTTP on http://127.0.0.1:\([0-9]*\) .*|\1|p' "$tmp/node.out")
    [[ -n "$kport" ]] && break
    sleep 0.05
done
[[ -n "$kport" ]] || { echo "keel node did not start: $(cat "$tmp/node.out")"; exit 1; }
aport=${ANVIL_PORT:-18549}
ANVIL_SERVE=1 node "$root/bench/peers/peers-anvil-execute.mjs" "$anvil" "$genesis" "$chain" \
    "$blocks" "$aport" 0,1 >"$tmp/anvil.out" 2>&1 &
anvil_pid=$!
for _ in $(seq 6000); do
    grep -q '^anvil serving' "$tmp/anvil.out" && break
    kill -0 "$anvil_pid" 2>/dev/null || { cat "$tmp/anvil.out"; exit 1; }
    sleep 0.1
done
grep '^anvil: ' "$tmp/anvil.out"
keel_url=http://127.0.0.1:$kport
anvil_url=http://127.0.0.1:$aport

ask() {  # URL BODY: the answer
    curl -s -H 'content-type: application/json' --data "$2" "$1"
}
field() {  # JSON KEY-PATH (a JavaScript expression on r): the value
    node -e "const r = JSON.parse(require('fs').readFileSync(0, 'utf8')); console.log($2)" <<<"$1"
}
# What the bodies name: the first token (block 1's first creation), a sender and a transaction of
# block BLOCKS.
mid=$(printf '0x%x' "$blocks")
receipts=$(ask "$keel_url" '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockReceipts","params":["0x1"]}')
token=$(field "$receipts" 'r.result.find((x) => x.contractAddress).contractAddress')
block=$(ask "$keel_url" '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["'"$mid"'",true]}')
sender=$(field "$block" 'r.result.transactions[0].from')
tx=$(field "$block" 'r.result.transactions[0].hash')
transfer=0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef
balance_of=0x70a08231000000000000000000000000${sender#0x}

read -r -a methods <<<"${METHODS:-eth_blockNumber eth_getBlockByNumber eth_getBalance eth_call eth_getLogs debug_traceTransaction trace_block}"
body_of() {
    case $1 in
        eth_blockNumber) echo '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' ;;
        eth_getBlockByNumber) echo '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["'"$mid"'",true]}' ;;
        eth_getBalance) echo '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["'"$sender"'","latest"]}' ;;
        eth_call) echo '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"'"$token"'","input":"'"$balance_of"'"},"latest"]}' ;;
        eth_getLogs) echo '{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{"fromBlock":"0x1","toBlock":"'"$mid"'","address":"'"$token"'","topics":["'"$transfer"'"]}]}' ;;
        debug_traceTransaction) echo '{"jsonrpc":"2.0","id":1,"method":"debug_traceTransaction","params":["'"$tx"'",{"tracer":"callTracer"}]}' ;;
        trace_block) echo '{"jsonrpc":"2.0","id":1,"method":"trace_block","params":["'"$mid"'"]}' ;;
    esac
}
load() {  # URL BODY: "REQS_PER_S P50_MS P99_MS BYTES_PER_S"
    local out
    out=$(BODY="$2" taskset -c 0,1 wrk -t2 -c"$conns" -d"${seconds}s" --latency -s "$root/bench/peers/post.lua" "$1")
    awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /Requests\/sec:/ { rps = $2 }
        /^ +50%/ { p50 = ms($2) }
        /^ +99%/ { p99 = ms($2) }
        END { printf "%s %.2f %.2f\n", rps, p50, p99 }' <<<"$out"
}
printf '%-24s %12s %9s %9s %12s %9s %9s %8s\n' method "keel req/s" "p50 ms" "p99 ms" "anvil req/s" "p50 ms" "p99 ms" ratio
for m in "${methods[@]}"; do
    body=$(body_of "$m")
    for side in "$keel_url" "$anvil_url"; do
        answer=$(ask "$side" "$body")
        if [[ "$answer" != *'"result"'* ]]; then
            echo "side_by_side_rpc: $m on $side answered no result: ${answer:0:300}" >&2
            exit 1
        fi
    done
    read -r k_rps k_p50 k_p99 <<<"$(load "$keel_url" "$body")"
    read -r a_rps a_p50 a_p99 <<<"$(load "$anvil_url" "$body")"
    awk -v m="$m" -v kr="$k_rps" -v k5="$k_p50" -v k9="$k_p99" -v ar="$a_rps" -v a5="$a_p50" -v a9="$a_p99" \
        'BEGIN { printf "%-24s %12.0f %9.2f %9.2f %12.0f %9.2f %9.2f %7.1fx\n", m, kr, k5, k9, ar, a5, a9, kr / ar }'
done
# The setup's ceiling for a cheap method: wrk against a server that answers without any work
# (bench/http_ceiling.cpp, 2 threads, pinned as the others), the same body as eth_blockNumber's.
ceiling=$build/bench/http_ceiling
if [[ -x "$ceiling" ]]; then
    cport=$((aport + 1))
    taskset -c 0,1 "$ceiling" "$cport" 2 >"$tmp/ceiling.out" 2>&1 &
    ceiling_pid=$!
    for _ in $(seq 100); do grep -q '^listening' "$tmp/ceiling.out" && break; sleep 0.05; done
    read -r c_rps c_p50 c_p99 <<<"$(load "http://127.0.0.1:$cport" "$(body_of eth_blockNumber)")"
    kill "$ceiling_pid" 2>/dev/null
    awk -v cr="$c_rps" -v c5="$c_p50" -v c9="$c_p99" \
        'BEGIN { printf "%-24s %12.0f %9.2f %9.2f   (a server that answers without any work: this setup'"'"'s ceiling)\n", "ceiling", cr, c5, c9 }'
else
    echo "ceiling: not built (make build builds bench/http_ceiling)"
fi
hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$node_pid/status")
echo "keel node peak RSS after the run (trace floods included): $((hwm / 1024)) MB"
keel_load_line
