#!/usr/bin/env bash
# Usage: p2p_test.sh PATH_TO_KEEL. `keel p2p` end to end over loopback: listen and dial between
# two keel processes (Hello, Pong, Status mirrored, a stream echoed and checked, Disconnect),
# a fixed node key giving a fixed enode id; the listener serving peers concurrently (silent
# sockets do not shut a good peer out, --timeout drops them, --max-peers); and bad input: malformed enode URLs,
# unreadable or malformed node keys, an unreachable peer, a peer that is not RLPx, a wrong node
# id — one line on stderr and exit 1 (2 for usage).
set -uo pipefail
keel=${1:?usage: p2p_test.sh PATH_TO_KEEL}
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
source "$(dirname "$0")/lib.sh"

printf '%064x\n' 7 >"$tmp/key7"
printf '%064x\n' 8 >"$tmp/key8"
# The public key of secret 7 (secp256k1: 7·G), as geth prints node ids.
id7=5cbdf0646e5db4eaa398f365f2ea7a0e3d419b7e0330e39ce92bddedcac4f9bc6aebca40ba255960a3178d6d861a54dba813d0b813fde7b5a5082628087264da

# listen LOG ARGS...: starts `keel p2p listen --port 0 ARGS` in the background; sets enode.
listen() {
    local log=$1
    shift
    "$keel" p2p listen --port 0 "$@" >"$log" 2>"$log.err" &
    pids+=($!)
    listener=$!
    enode=""
    for _ in $(seq 100); do
        enode=$(head -1 "$log" 2>/dev/null)
        [[ $enode == enode://* ]] && break
        sleep 0.05
    done
}

listen "$tmp/l1" --once --echo --nodekey "$tmp/key7" --timeout 10
[[ $enode == "enode://$id7@127.0.0.1:"* ]]
check "listen prints the enode of its node key" $? "$enode"
run_keel p2p dial "$enode" --nodekey "$tmp/key8" --stream 4 --size 300000
expect_result "dial: stream echoed" 0 within '"echoed":4' ""
[[ $out == *'"client":"keel/'* && $out == *'"event":"hello"'* && $out == *'"event":"pong"'* ]]
check "dial prints the peer's Hello and a Pong" $? "$out"
[[ $out == *'"reason_name":"requested"'* ]]
check "dial ends with Disconnect(requested)" $? "$out"
wait "$listener"
check "listen --once exits 0 after a clean Disconnect" $?
grep -q '"event":"disconnect".*"reason":0' "$tmp/l1"
check "listen reports the Disconnect" $?
[[ $(grep -c '"code":22,"event":"message"' "$tmp/l1") == 4 ]]
check "listen saw the 4 messages" $?

# Status: the dialler mirrors the listener's; keel's listener sends none, so dial --status
# times out waiting for it and says so in one line.
listen "$tmp/l2" --once --nodekey "$tmp/key7" --timeout 10
run_keel p2p dial "$enode" --status --timeout 1
expect_result "dial --status without a Status from the peer" 1 within '"event":"pong"' "waiting for Status"
wait "$listener"

# --flood: messages back to back; listen --quiet prints only the totals at the Disconnect.
listen "$tmp/l4" --once --quiet --nodekey "$tmp/key7" --timeout 10
run_keel p2p dial "$enode" --flood 100 --size 5000
expect_result "dial --flood" 0 within '"event":"flood"' ""
wait "$listener"
grep -q '"bytes":500000,"event":"disconnect","messages":100' "$tmp/l4" && ! grep -q '"event":"message"' "$tmp/l4"
check "listen --quiet reports 100 messages of 5000 bytes in its Disconnect line" $? "$(cat "$tmp/l4")"

# Bad input.
run_keel p2p dial "enode://abc@127.0.0.1:1"
expect_result "malformed enode id" 1 exact "" "enode node id must be 128 hex digits"
run_keel p2p dial "http://127.0.0.1:1"
expect_result "not an enode URL" 1 exact "" "enode URL must start with enode://"
run_keel p2p dial "enode://$id7@127.0.0.1:0"
expect_result "port 0" 1 exact "" "enode port must be a number from 1 to 65535"
run_keel p2p dial "enode://$id7@127.0.0.1:1" --nodekey "$tmp/missing"
expect_result "unreadable node key" 2 exact "" "node key"
printf 'zz\n' >"$tmp/badkey"
run_keel p2p dial "enode://$id7@127.0.0.1:1" --nodekey "$tmp/badkey"
expect_result "malformed node key" 1 exact "" "want 64 hex digits"
printf '%064x\n' 0 >"$tmp/zerokey"
run_keel p2p dial "enode://$id7@127.0.0.1:1" --nodekey "$tmp/zerokey"
expect_result "zero node key" 1 exact "" "not a valid secp256k1 key"
# A closed port: connection refused.
run_keel p2p dial "enode://$id7@127.0.0.1:1" --timeout 2
expect_result "unreachable peer" 1 exact "" "connection refused"
# A wrong node id: the listener cannot open the auth packet and hangs up.
listen "$tmp/l3" --once --nodekey "$tmp/key8" --timeout 5
wrong="enode://$id7@${enode#*@}"
run_keel p2p dial "$wrong" --timeout 3
expect_result "wrong node id" 1 exact "" "p2p dial:"
wait "$listener"
grep -q "auth:" "$tmp/l3.err"
check "the listener names the refused auth packet" $? "$(cat "$tmp/l3.err")"
# A peer that is not RLPx.
python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True)
c, _ = s.accept(); c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n"); c.recv(4096); c.close()
' >"$tmp/port" &
pids+=($!)
for _ in $(seq 50); do [[ -s $tmp/port ]] && break; sleep 0.05; done
run_keel p2p dial "enode://$id7@127.0.0.1:$(cat "$tmp/port")" --timeout 3
expect_result "a peer that is not RLPx" 1 exact "" "p2p dial:"

# --protocols: malformed lists are usage errors; peers with nothing in common part at Hello.
run_keel p2p dial "enode://$id7@127.0.0.1:1" --protocols eth
expect_result "--protocols without a version" 2 exact "" 'p2p: --protocols: "eth": want name/version'
run_keel p2p dial "enode://$id7@127.0.0.1:1" --protocols eth/68,les/4
expect_result "--protocols with an unknown protocol" 2 exact "" '"les/4": unknown protocol: give its message count'
run_keel p2p listen --port 0 --protocols foo/1:0
expect_result "--protocols with no messages" 2 exact "" '"foo/1:0": a protocol needs at least one message'
listen "$tmp/l5" --once --protocols snap/1,foo/2:3 --timeout 5
run_keel p2p dial "$enode" --timeout 3
expect_result "no capability in common" 1 exact "" "p2p dial: no capability in common"
wait "$listener"
grep -q "no capability in common" "$tmp/l5.err"
check "the listener refuses the peer too" $? "$(cat "$tmp/l5.err")"
listen "$tmp/l6" --once --echo --protocols foo/2:3,eth/68 --timeout 5
run_keel p2p dial "$enode" --protocols eth/67,eth/68,snap/1 --stream 1 --size 100
expect_result "shared: eth/68 only" 0 within '"shared":[{"capability":"eth/68","length":17,"offset":16}]' ""
wait "$listener"

# The listener serves peers concurrently (rlpx::Listener). Three silent sockets used to hold
# the one-at-a-time listener for three handshake timeouts; now a good peer gets through at once.
# hold PORT N: opens N TCP connections that send nothing; prints "ready", then waits for stdin
# to close (or for the listener to hang up on all of them: then prints "dropped").
hold() {
    python3 -c '
import socket, sys, select
port, n = int(sys.argv[1]), int(sys.argv[2])
socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
print("ready", flush=True)
open_ = list(socks)
while open_:
    r, _, _ = select.select(open_ + [sys.stdin], [], [], 60)
    if not r or sys.stdin in r: sys.exit(0)
    for s in r:
        if not s.recv(16): open_.remove(s)
print("dropped", flush=True)
' "$1" "$2"
}
listen "$tmp/l7" --echo --nodekey "$tmp/key7" --timeout 30
port=${enode##*:}
# hold_start N: hold N silent sockets on $port (stdin a FIFO kept open on fd 7).
hold_start() {
    rm -f "$tmp/hold_in" "$tmp/hold_out"
    mkfifo "$tmp/hold_in"
    hold "$port" "$1" <"$tmp/hold_in" >"$tmp/hold_out" &
    holder=$!
    pids+=($holder)
    exec 7>"$tmp/hold_in"
    for _ in $(seq 200); do grep -q ready "$tmp/hold_out" && break; sleep 0.05; done
}
hold_start 3
run_keel p2p dial "$enode" --nodekey "$tmp/key8" --stream 2 --size 1000 --timeout 5
expect_result "a good peer gets through while three silent sockets wait" 0 within '"echoed":2' ""
# A second good peer at the same time as a third: both served.
"$keel" p2p dial "$enode" --stream 3 --size 100 --timeout 5 >"$tmp/d1" 2>&1 &
d1=$!
"$keel" p2p dial "$enode" --stream 3 --size 100 --timeout 5 >"$tmp/d2" 2>&1
d2rc=$?
wait "$d1"
[[ $? == 0 && $d2rc == 0 ]] && grep -q '"echoed":3' "$tmp/d1" && grep -q '"echoed":3' "$tmp/d2"
check "two peers at once, both echoed" $? "$(cat "$tmp/d1" "$tmp/d2")"
kill "$listener" 2>/dev/null
exec 7>&-
wait "$holder" 2>/dev/null

# --timeout bounds the handshake: silent sockets are dropped, and each refusal is one JSON line.
listen "$tmp/l8" --nodekey "$tmp/key7" --timeout 0.3
port=${enode##*:}
hold_start 2
for _ in $(seq 400); do grep -q dropped "$tmp/hold_out" && break; sleep 0.05; done
grep -q dropped "$tmp/hold_out"
check "silent peers are dropped at --timeout" $?
for _ in $(seq 100); do [[ $(grep -c 'no auth packet within the handshake timeout' "$tmp/l8") == 2 ]] && break; sleep 0.05; done
[[ $(grep -c '"event":"error"' "$tmp/l8") == 2 ]] && grep -q '"address":"127.0.0.1:' "$tmp/l8"
check "each dropped peer is one error line with its address" $? "$(cat "$tmp/l8")"
kill "$listener" 2>/dev/null
exec 7>&-
wait "$holder" 2>/dev/null

# --max-peers: a peer beyond it is told "too many peers".
listen "$tmp/l9" --echo --max-peers 1 --nodekey "$tmp/key7" --timeout 30
# The first peer holds the one slot: it waits for a Status that keel's listener never sends.
"$keel" p2p dial "$enode" --status --timeout 20 >/dev/null 2>&1 &
first=$!
pids+=($first)
for _ in $(seq 200); do grep -q '"event":"hello"' "$tmp/l9" && break; sleep 0.05; done
run_keel p2p dial "$enode" --stream 1 --size 10 --timeout 5
expect_result "a peer beyond --max-peers" 1 within '"event":"hello"' "too many peers"
kill "$first" "$listener" 2>/dev/null

run_keel p2p listen --port 0 --max-peers 0
expect_result "--max-peers 0 is bad usage" 2 exact "" "--max-peers"
run_keel p2p listen --port 0 --timeout 0
expect_result "--timeout 0 is bad usage" 2 exact "" "--timeout"
run_keel p2p bench
expect_result "p2p bench moved to keel-bench" 2 exact "" ""

finish p2p
