#!/usr/bin/env bash
# Usage: rpc_abuse.sh PATH_TO_KEEL VECTORS_DIR. keel node on the hive chain under hostile load
# (rpc_abuse.mjs: 1,000 idle connections, slow clients, 10,000 malformed requests) while a
# well-behaved client is answered within 2 s every time; the node still answers at the end and
# stops cleanly on SIGTERM. Sockets and a subprocess: part of `make stress`.
set -uo pipefail
keel=${1:?usage: rpc_abuse.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: rpc_abuse.sh PATH_TO_KEEL VECTORS_DIR}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/npm_ready.sh"
source "$here/keel_node.sh"
npm_ready rpc_abuse || exit 1
# 1,000 connections on both sides: the file-descriptor limit up to the hard one.
ulimit -n "$(ulimit -Hn)" 2>/dev/null
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
start_keel_node "$tmp/node.out" "$keel" --datadir "$tmp/dd" --http.port 0 --authrpc.port 0
[[ -n "$port" ]] || { echo "rpc_abuse: keel node did not start: $(cat "$tmp/node.out")"; exit 1; }
node "$here/rpc_abuse.mjs" "http://127.0.0.1:$port"
rc=$?
kill -TERM "$node_pid"
wait "$node_pid"
node_rc=$?
node_pid=
if ((node_rc != 0)); then
    echo "rpc_abuse: keel node exited $node_rc: $(tail -5 "$tmp/node.out")"
    exit 1
fi
exit $rc
