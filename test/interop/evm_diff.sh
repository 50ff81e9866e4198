#!/usr/bin/env bash
# Usage: evm_diff.sh PATH_TO_KEEL [COUNT] [SEED]. keel's EVM against anvil's revm
# (@foundry-rs/anvil-linux-amd64 1.7.1, installed here with `scripts/deps.sh --peers` and
# `npm ci` when missing, never skipped): COUNT generated programs (default 1000, seed SEED,
# default 1; KEEL_EVM_DIFF_SEED overrides it; KEEL_EVM_DIFF_PROGRAMS overrides COUNT, as
# scripts/stress.sh does to repeat the run often) run as transactions on both and compared on
# status, gas used, output, logs and state changes (test/interop/evm_diff.mjs). anvil is stopped
# at the end whatever happens.
set -uo pipefail
keel=${1:?usage: evm_diff.sh PATH_TO_KEEL [COUNT] [SEED]}
count=${KEEL_EVM_DIFF_PROGRAMS:-${2:-1000}}
seed=${KEEL_EVM_DIFF_SEED:-${3:-1}}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
anvil=$here/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil
source "$here/npm_ready.sh"
npm_ready evm_diff || exit 1
tmp=$(mktemp -d)
anvil_pid=
cleanup() {
    [[ -n "$anvil_pid" ]] && kill "$anvil_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
# A free port: anvil binds it or exits, and then the next one is tried.
for attempt in $(seq 10); do
    port=$((20000 + RANDOM % 30000))
    "$anvil" --port "$port" --silent --steps-tracing --hardfork prague --base-fee 0 --gas-price 0 --chain-id 1 \
        >"$tmp/anvil.log" 2>&1 &
    anvil_pid=$!
    up=0
    for _ in $(seq 100); do
        if ! kill -0 "$anvil_pid" 2>/dev/null; then break; fi
        if curl -sf -X POST -H 'content-type: application/json' \
            --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' \
            "http://127.0.0.1:$port" >/dev/null 2>&1; then up=1; break; fi
        sleep 0.1
    done
    [[ $up == 1 ]] && break
    kill "$anvil_pid" 2>/dev/null
    wait "$anvil_pid" 2>/dev/null
    anvil_pid=
done
[[ -n "$anvil_pid" ]] || { echo "evm_diff: anvil did not start: $(tail -3 "$tmp/anvil.log")"; exit 1; }
node "$here/evm_diff.mjs" "$keel" "$port" "$count" "$seed"
