#!/usr/bin/env bash
# Usage: rlpx_interop.sh PATH_TO_KEEL. keel's RLPx against an independent implementation:
# @ethereumjs/devp2p 10.0.0 (test/interop/peer.mjs; npm packages installed here with
# `scripts/deps.sh --peers` and `npm ci` when missing, never skipped). Both directions, on
# 127.0.0.1 with fixed keys:
#   1. the ethereumjs peer listens, keel dials: handshake, Hello, Ping/Pong, eth/68 Status (each
#      side accepts the other's), 8 messages of 1 MiB echoed back intact, a clean Disconnect
#      ("requested") that the peer reports;
#   2. keel listens (--once --echo), the ethereumjs peer dials: Hello, Status both ways, 8
#      messages of 1 MiB from the peer echoed intact by keel, a Ping that keel answers, and the
#      peer's Disconnect ("requested") that keel reports.
# The peers are stopped at the end whatever happens.
set -uo pipefail
keel=${1:?usage: rlpx_interop.sh PATH_TO_KEEL}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
check() {  # check NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        failures=$((failures + 1))
    fi
}

source "$here/npm_ready.sh"
npm_ready rlpx_interop || exit 1

peer_key=$(printf 'a1%.0s' {1..32})
printf '%s\n' "$(printf 'b2%.0s' {1..32})" >"$tmp/keel.key"

# 1. keel dials the ethereumjs peer.
port=$((30400 + RANDOM % 2000))
(cd "$here" && exec node peer.mjs listen "$port" "$peer_key") >"$tmp/peer1.log" 2>&1 &
pids+=($!)
peer1=$!
for _ in $(seq 100); do grep -q '"enode"' "$tmp/peer1.log" && break; sleep 0.1; done
enode=$(grep -o 'enode://[^"]*' "$tmp/peer1.log" | head -1)
check "ethereumjs peer listens" test -n "$enode"
"$keel" p2p dial "$enode" --nodekey "$tmp/keel.key" --protocols eth/68,snap/1 --status \
    --stream 8 --size 1048576 >"$tmp/dial.out" 2>"$tmp/dial.err"
rc=$?
check "keel dial exits 0 ($(head -c 300 "$tmp/dial.err"))" test "$rc" -eq 0
check "keel sees the peer's Hello (ethereumjs, eth/68)" \
    grep -q '"client":"ethereumjs-devp2p/interop".*' "$tmp/dial.out"
check "keel shares eth/68 at 0x10..0x20 and snap/1 at 0x21..0x28 with the peer" \
    grep -q '"shared":\[{"capability":"eth/68","length":17,"offset":16},{"capability":"snap/1","length":8,"offset":33}\]' "$tmp/dial.out"
check "keel gets a Pong" grep -q '"event":"pong"' "$tmp/dial.out"
check "keel gets the peer's mainnet Status" grep -q '"network_id":1' "$tmp/dial.out"
check "8 messages of 1 MiB come back intact" grep -q '"echoed":8' "$tmp/dial.out"
wait "$peer1"
prc=$?
check "the peer saw keel's Hello" grep -q '"client":"keel/' "$tmp/peer1.log"
check "the peer shares eth and snap with keel" grep -q '"capabilities":\["eth","snap"\]' "$tmp/peer1.log"
check "the peer accepted keel's Status" grep -q '"event":"status"' "$tmp/peer1.log"
check "the peer echoed 8 messages" grep -q '"count":8' "$tmp/peer1.log"
check "the peer saw a clean Disconnect (requested) and exited 0" test "$prc" -eq 0

# 2. The ethereumjs peer dials keel.
"$keel" p2p listen --port 0 --once --echo --protocols eth/68,snap/1 --nodekey "$tmp/keel.key" --timeout 30 \
    >"$tmp/listen.out" 2>"$tmp/listen.err" &
pids+=($!)
listener=$!
for _ in $(seq 100); do grep -q '^enode://' "$tmp/listen.out" && break; sleep 0.1; done
kenode=$(head -1 "$tmp/listen.out")
check "keel listens and prints its enode" grep -q '^enode://' "$tmp/listen.out"
(cd "$here" && exec timeout 60 node peer.mjs dial "$kenode" "$peer_key" 8) >"$tmp/peer2.log" 2>&1 &
pids+=($!)
peer2=$!
wait "$peer2"
p2rc=$?
wait "$listener"
lrc=$?
check "the peer completes Hello and Status with keel" grep -q '"event":"status"' "$tmp/peer2.log"
check "8 messages of 1 MiB from the peer come back intact" grep -q '"event":"done","echoed":8' "$tmp/peer2.log"
check "the peer's snap GetAccountRange comes back intact on snap" grep -q '"event":"snap echoed","code":0,"intact":true' "$tmp/peer2.log"
check "the peer exits 0" test "$p2rc" -eq 0
check "keel saw the peer's Hello" grep -q '"client":"ethereumjs-devp2p/interop"' "$tmp/listen.out"
check "keel shares eth/68 (0x10..0x20) and snap/1 (0x21..0x28) with the peer" grep -q '"shared":\[{"capability":"eth/68","length":17,"offset":16},{"capability":"snap/1","length":8,"offset":33}\]' "$tmp/listen.out"
check "keel received the peer's GetAccountRange (wire code 33: snap/1 message 0)" grep -q '"capability":"snap/1","code":33,"event":"message","message":0' "$tmp/listen.out"
check "keel received the peer's Status (wire code 16: eth/68 Status)" grep -q '"capability":"eth/68","code":16,"event":"message","message":0' "$tmp/listen.out"
check "keel echoed 8 messages of 1 MiB (wire code 22: eth/68 BlockBodies)" test "$(grep -c '"capability":"eth/68","code":22,"event":"message","message":6,"size":10485' "$tmp/listen.out")" -eq 8
check "keel saw the peer's Disconnect (requested)" grep -q '"event":"disconnect".*"reason":0' "$tmp/listen.out"
check "keel listen --once exits 0" test "$lrc" -eq 0

if ((failures > 0)); then
    echo "--- keel dial"; cat "$tmp/dial.out" "$tmp/dial.err"
    echo "--- peer 1"; cat "$tmp/peer1.log"
    echo "--- keel listen"; cat "$tmp/listen.out" "$tmp/listen.err"
    echo "--- peer 2"; cat "$tmp/peer2.log"
    echo "rlpx_interop: $failures failed"
    exit 1
fi
echo "rlpx_interop: all passed"
