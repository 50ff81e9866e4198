#!/usr/bin/env bash
# Usage: node_crash.sh PATH_TO_KEEL VECTORS_DIR [KILLS]. keel node killed with SIGKILL while a
# consensus client drives it (engine_driver.mjs: payloads built, imported with newPayload, made
# the head, side blocks and reorgs every third block), KILLS times (default 8) at random moments;
# after each kill the store must open consistent: `keel storage verify` (chain rows and the state
# recomputed from the flat state against the head's root) passes, the state head is the chain's
# head, and the node starts again on it. Sockets, subprocesses, kill -9: part of `make stress`.
set -uo pipefail
keel=${1:?usage: node_crash.sh PATH_TO_KEEL VECTORS_DIR [KILLS]}
vectors=${2:?usage: node_crash.sh PATH_TO_KEEL VECTORS_DIR [KILLS]}
kills=${KEEL_NODE_CRASH_KILLS:-${3:-8}}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/npm_ready.sh"
source "$here/keel_node.sh"
npm_ready node_crash || exit 1
suite="$vectors/rpc/tests"
tmp=$(mktemp -d)
node_pid= driver_pid=
cleanup() {
    [[ -n "$driver_pid" ]] && kill "$driver_pid" 2>/dev/null
    [[ -n "$node_pid" ]] && kill -9 "$node_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
"$keel" init --datadir "$tmp/dd" --genesis "$suite/genesis.json" >/dev/null || exit 1
"$keel" import --quiet --datadir "$tmp/dd" "$suite/chain.rlp" >/dev/null || exit 1
secret=$hive_jwt_secret
echo "$secret" >"$tmp/jwt.hex"
failures=0 made=0
for ((k = 1; k <= kills; ++k)); do
    start_keel_node "$tmp/node.out" "$keel" --datadir "$tmp/dd" --http.port 0 --authrpc.port 0 \
        --authrpc.jwtsecret "$tmp/jwt.hex"
    if [[ -z "$port" || -z "$auth" ]]; then
        echo "FAIL restart $k: $(cat "$tmp/node.out")"
        exit 1
    fi
    node "$here/engine_driver.mjs" "http://127.0.0.1:$port" "http://127.0.0.1:$auth" "$secret" \
        >"$tmp/driver.out" 2>&1 &
    driver_pid=$!
    # A random moment 0.3-2.3 s in: blocks are being executed, stored and reorganised.
    sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.3 + (r % 200) / 100 }')"
    kill -9 "$node_pid"
    wait "$node_pid" 2>/dev/null
    node_pid=
    kill "$driver_pid" 2>/dev/null
    wait "$driver_pid" 2>/dev/null
    driver_pid=
    made=$((made + $(grep -c '^head ' "$tmp/driver.out")))
    verify=$("$keel" storage verify --quiet --datadir "$tmp/dd" 2>&1)
    head=$("$keel" get block latest --datadir "$tmp/dd" 2>&1 | sed -n 's/.*"number": *"\(0x[0-9a-f]*\)".*/\1/p' | head -1)
    state=$(sed -n 's/^state: block \([0-9]*\),.*/\1/p' <<<"$verify")
    if [[ "$verify" != *"verify: ok"* || -z "$head" || "$state" != "$((head))" ]]; then
        echo "FAIL kill $k: head $head, state block $state: $verify"
        failures=$((failures + 1))
    fi
done
echo "node_crash: $kills kills, $made blocks made the head between them, $failures inconsistent stores"
((failures == 0 && made > 0))
