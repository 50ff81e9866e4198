#!/usr/bin/env bash
# Usage: rpc_compat.sh PATH_TO_KEEL VECTORS_DIR [MIN_PASSED]. hive's rpc-compat suite against
# keel node over HTTP, as hive runs it: `keel init` with the suite's genesis, `keel import` of
# chain.rlp, `keel node` started (JSON-RPC and Engine API on free ports, hive's JWT secret,
# testing_buildBlockV1 on), then rpc_compat.mjs (headfcu.json with a JWT, every .io file in
# lexical order, compared as hive compares, speconly results against the OpenRPC schemas). The
# node is stopped at the end whatever happens. Sockets and a subprocess: part of `make stress`.
set -uo pipefail
keel=${1:?usage: rpc_compat.sh PATH_TO_KEEL VECTORS_DIR [MIN_PASSED]}
vectors=${2:?usage: rpc_compat.sh PATH_TO_KEEL VECTORS_DIR [MIN_PASSED]}
min=${3:-214}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/npm_ready.sh"
source "$here/keel_node.sh"
npm_ready rpc_compat || exit 1
suite="$vectors/rpc/tests"
tmp=$(mktemp -d)
node_pid=
cleanup() {
    [[ -n "$node_pid" ]] && kill "$node_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

"$keel" init --datadir "$tmp/dd" --genesis "$suite/genesis.json" >/dev/null || exit 1
"$keel" import --quiet --datadir "$tmp/dd" "$suite/chain.rlp" >/dev/null || exit 1
# hive's secret: the 32 ASCII bytes "secretsecretsecretsecretsecretse".
secret=$hive_jwt_secret
echo "$secret" >"$tmp/jwt.hex"
start_keel_node "$tmp/node.out" "$keel" --datadir "$tmp/dd" --http.port 0 --authrpc.port 0 --authrpc.jwtsecret "$tmp/jwt.hex" --testing
if [[ -z "$port" || -z "$auth" ]]; then
    echo "rpc_compat: keel node did not start: $(cat "$tmp/node.out")"
    exit 1
fi
node "$here/rpc_compat.mjs" "http://127.0.0.1:$port" "http://127.0.0.1:$auth" "$secret" "$suite" "$min"
rc=$?
kill -TERM "$node_pid"
wait "$node_pid"
node_rc=$?
node_pid=
if ((node_rc != 0)); then
    echo "rpc_compat: keel node exited $node_rc: $(tail -5 "$tmp/node.out")"
    exit 1
fi
exit $rc
