#!/usr/bin/env bash
# Usage: rpc_clients.sh PATH_TO_KEEL. ethers, viem and Foundry's cast against keel node on a
# fresh Cancun devnet (one funded key), with rpc_clients.mjs playing the consensus client through
# the Engine API so that what they send is mined. Sockets and subprocesses: part of `make stress`.
set -uo pipefail
keel=${1:?usage: rpc_clients.sh PATH_TO_KEEL}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/npm_ready.sh"
source "$here/keel_node.sh"
npm_ready rpc_clients || exit 1
tmp=$(mktemp -d)
node_pid=
cleanup() {
    [[ -n "$node_pid" ]] && kill "$node_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
# Every fork to Cancun at genesis; the key 0x...01 (address 0x7E5F...5Bdf) holds 1,000 ether.
cat >"$tmp/genesis.json" <<'JSON'
{"config":{"chainId":1337,"homesteadBlock":0,"eip150Block":0,"eip155Block":0,"eip158Block":0,
 "byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"berlinBlock":0,
 "londonBlock":0,"mergeNetsplitBlock":0,"terminalTotalDifficulty":0,"shanghaiTime":0,"cancunTime":0},
 "alloc":{"7E5F4552091A69125d5DfCb7b8C2659029395Bdf":{"balance":"0x3635c9adc5dea00000"}},
 "gasLimit":"0x1c9c380","difficulty":"0x0","baseFeePerGas":"0x3b9aca00","timestamp":"0x0",
 "extraData":"0x"}
JSON
"$keel" init --datadir "$tmp/dd" --genesis "$tmp/genesis.json" >/dev/null || exit 1
secret=$hive_jwt_secret
echo "$secret" >"$tmp/jwt.hex"
start_keel_node "$tmp/node.out" "$keel" --datadir "$tmp/dd" --http.port 0 --authrpc.port 0 \
    --authrpc.jwtsecret "$tmp/jwt.hex" --ws --ws.port 0
[[ -n "$port" && -n "$auth" ]] || { echo "rpc_clients: keel node did not start: $(cat "$tmp/node.out")"; exit 1; }
ws=$(sed -n 's|^node: JSON-RPC over WebSocket on ws://127.0.0.1:\([0-9]*\) .*|\1|p' "$tmp/node.out")
[[ -n "$ws" ]] || { echo "rpc_clients: no WebSocket port: $(cat "$tmp/node.out")"; exit 1; }
node "$here/rpc_clients.mjs" "http://127.0.0.1:$port" "http://127.0.0.1:$auth" "$secret" \
    "$here/node_modules/@foundry-rs/cast-linux-amd64/bin/cast" "ws://127.0.0.1:$ws"
rc=$?
((rc == 0)) || tail -20 "$tmp/node.out"
exit $rc
