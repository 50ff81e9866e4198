#!/usr/bin/env bash
# Usage: lodestar.sh PATH_TO_KEEL [SLOTS] (KEEL_LODESTAR_SLOTS overrides SLOTS). A real consensus client drives keel node: Lodestar
# 1.5.1 (the newest the npm registry here installs; Capella rules, Engine API V1/V2) in dev mode
# with 8 interop validators and 2-second slots, on a devnet whose execution genesis is at
# Shanghai, keel its only execution engine (JWT). While it proposes, ethers sends transfers to
# keel's JSON-RPC and awaits their receipts; after SLOTS slots (64) lodestar.mjs checks that the
# blocks were produced, the transfers included, and keel's head is Lodestar's head. Lodestar's
# packages (test/interop/lodestar, pinned to its release's lock) are installed on first use,
# native modules built against the Node.js headers beside `node`. Sockets and subprocesses: part
# of `make stress`.
set -uo pipefail
keel=${1:?usage: lodestar.sh PATH_TO_KEEL [SLOTS]}
slots=${KEEL_LODESTAR_SLOTS:-${2:-64}}  # scripts/stress.sh asks for fewer
here=$(cd "$(dirname "$0")" && pwd)
source "$here/npm_ready.sh"
source "$here/keel_node.sh"
npm_ready lodestar || exit 1

lode="$here/lodestar"
# Native modules (snappy, bcrypto, leveldb) compile with node-gyp, which would fetch Node's
# headers from nodejs.org; the headers of the installed Node.js (NodeSource's nodejs, Debian's
# libnode-dev) are used instead.
nodedir=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
if [[ ! -f "$nodedir/include/node/node_api.h" ]]; then
    echo "lodestar: no Node.js headers under $nodedir/include/node (scripts/deps.sh --peers installs them)"
    exit 1
fi
(
    flock 9
    [[ -x "$lode/node_modules/.bin/lodestar" ]] && exit 0
    (cd "$lode" && npm_config_nodedir="$nodedir" npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
        { echo "lodestar: npm ci failed in test/interop/lodestar"; exit 1; }
) 9>"$lode/.npm.lock" || exit 1

tmp=$(mktemp -d)
node_pid= lode_pid=
cleanup() {
    [[ -n "$lode_pid" ]] && kill "$lode_pid" 2>/dev/null
    [[ -n "$node_pid" ]] && kill "$node_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# Every fork to Shanghai at genesis, merged from the start; the key 0x...01 holds 1,000 ether.
cat >"$tmp/genesis.json" <<'JSON'
{"config":{"chainId":1337,"homesteadBlock":0,"eip150Block":0,"eip155Block":0,"eip158Block":0,
 "byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"berlinBlock":0,
 "londonBlock":0,"mergeNetsplitBlock":0,"terminalTotalDifficulty":0,
 "terminalTotalDifficultyPassed":true,"shanghaiTime":0},
 "alloc":{"7E5F4552091A69125d5DfCb7b8C2659029395Bdf":{"balance":"0x3635c9adc5dea00000"}},
 "gasLimit":"0x1c9c380","difficulty":"0x0","baseFeePerGas":"0x3b9aca00","timestamp":"0x0",
 "extraData":"0x"}
JSON
genesis_hash=$("$keel" init --datadir "$tmp/dd" --genesis "$tmp/genesis.json" |
    sed -n 's/^init: genesis \(0x[0-9a-f]*\) .*/\1/p')
[[ -n "$genesis_hash" ]] || { echo "lodestar: keel init failed"; exit 1; }
echo "$hive_jwt_secret" >"$tmp/jwt.hex"
start_keel_node "$tmp/node.out" "$keel" --datadir "$tmp/dd" --http.port 0 --authrpc.port 0 \
    --authrpc.jwtsecret "$tmp/jwt.hex"
[[ -n "$port" && -n "$auth" ]] || { echo "lodestar: keel node did not start: $(cat "$tmp/node.out")"; exit 1; }

# Two free ports for Lodestar (its REST API and libp2p), asked of the OS.
read -r rest p2p < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
# Promise.withResolvers (Node 22) for the few dependencies newer than Lodestar's lock allows.
cat >"$tmp/polyfill.cjs" <<'JS'
if (typeof Promise.withResolvers !== 'function') {
  Promise.withResolvers = () => {
    let resolve, reject;
    const promise = new Promise((a, b) => { resolve = a; reject = b; });
    return { promise, resolve, reject };
  };
}
JS
# From the scratch folder: Lodestar's dev mode writes genesis.ssz into its working directory.
cd "$tmp" || exit 1
NODE_OPTIONS="--require $tmp/polyfill.cjs" "$lode/node_modules/.bin/lodestar" dev \
    --dataDir "$tmp/lodestar" --reset --genesisValidators 8 --startValidators 0..7 \
    --genesisTime $(($(date +%s) + 15)) --genesisEth1Hash "$genesis_hash" \
    --params.SECONDS_PER_SLOT 2 --params.ALTAIR_FORK_EPOCH 0 --params.BELLATRIX_FORK_EPOCH 0 \
    --params.CAPELLA_FORK_EPOCH 0 --params.TERMINAL_TOTAL_DIFFICULTY 0 \
    --execution.urls "http://127.0.0.1:$auth" --jwt-secret "$tmp/jwt.hex" --eth1 false \
    --discv5 false --listenAddress 127.0.0.1 --port "$p2p" --rest.port "$rest" \
    --server "http://127.0.0.1:$rest" \
    --suggestedFeeRecipient 0x00000000000000000000000000000000000000fe >"$tmp/lodestar.out" 2>&1 &
lode_pid=$!

node "$here/lodestar.mjs" "http://127.0.0.1:$port" "http://127.0.0.1:$rest" "$slots"
rc=$?
if ((rc != 0)); then
    echo "--- lodestar (last lines)"
    tail -15 "$tmp/lodestar.out" | cut -c1-300
    echo "--- keel node (last lines)"
    tail -15 "$tmp/node.out"
fi
kill -TERM "$lode_pid" 2>/dev/null
wait "$lode_pid" 2>/dev/null
lode_pid=
kill -TERM "$node_pid"
wait "$node_pid"
node_rc=$?
node_pid=
if ((node_rc != 0)); then
    echo "lodestar: keel node exited $node_rc: $(tail -5 "$tmp/node.out")"
    exit 1
fi
exit $rc
