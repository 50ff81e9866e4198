#!/usr/bin/env bash
# Usage: node_test.sh PATH_TO_KEEL VECTORS_DIR. keel node end to end over loopback: the hive
# rpc-compat chain imported, the node started on free ports, JSON-RPC asked with curl (one
# request, a batch, keep-alive, errors, a call, a trace), the HTTP refusals (405, 415, 413), the
# Engine API refusing requests without a valid JWT and following a consensus client's calls with
# one (hive's headfcu, then a block built, imported and made the head), a second node on the same
# datadir or port refused, and SIGTERM ending it cleanly (exit 0). Touches sockets and signals:
# part of `make stress`.
set -uo pipefail
keel=${1:?usage: node_test.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: node_test.sh PATH_TO_KEEL VECTORS_DIR}
tmp=$(mktemp -d)
node_pid=
cleanup() {
    [[ -n "$node_pid" ]] && kill "$node_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
source "$(dirname "$0")/lib.sh"

hive="$vectors/rpc/tests"
dd="$tmp/hive"
"$keel" init --datadir "$dd" --genesis "$hive/genesis.json" >/dev/null
"$keel" import --quiet --datadir "$dd" "$hive/chain.rlp" >/dev/null

source "$(dirname "$0")/../interop/keel_node.sh"
echo "$hive_jwt_secret" >"$tmp/jwt.hex"
# Port 0: the OS picks a free one and the start lines tell which.
start_keel_node "$tmp/node.out" "$keel" --datadir "$dd" --http.port 0 --http.threads 2 \
    --http.vhosts localhost,node.example --http.corsdomain https://app.example \
    --authrpc.port 0 --authrpc.jwtsecret "$tmp/jwt.hex"
[[ -n "$port" && -n "$auth" ]]
check node-started $? "$(cat "$tmp/node.out")"
grep -q "(chain id 3503995874084926, head 54)" "$tmp/node.out"
check node-start-line $? "$(cat "$tmp/node.out")"
url="http://127.0.0.1:$port"

# post NAME BODY WANT: the answer's body must equal WANT.
post() {
    local got
    got=$(curl -s -H 'content-type: application/json' --data "$2" "$url")
    [[ "$got" == "$3" ]]
    check "$1" $? "got $got, want $3"
}
post block-number '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' \
    '{"jsonrpc":"2.0","id":1,"result":"0x36"}'
post chain-id '{"jsonrpc":"2.0","id":"a","method":"eth_chainId","params":[]}' \
    '{"jsonrpc":"2.0","id":"a","result":"0xc72dd9d5e883e"}'
post batch '[{"jsonrpc":"2.0","id":1,"method":"net_version"},{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"web3_sha3","params":["0x"]}]' \
    '[{"jsonrpc":"2.0","id":1,"result":"3503995874084926"},{"jsonrpc":"2.0","id":2,"result":"0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"}]'
post balance '{"jsonrpc":"2.0","id":4,"method":"eth_getBalance","params":["0x7dcd17433742f4c0ca53122ab541d0ba67fc27df","latest"]}' \
    '{"jsonrpc":"2.0","id":4,"result":"0x76"}'
got=$(curl -s -H 'content-type: application/json' \
    --data '{"jsonrpc":"2.0","id":5,"method":"eth_getBlockByNumber","params":["latest",false]}' "$url")
[[ "$got" == '{"jsonrpc":"2.0","id":5,"result":{'*'"number":"0x36"'* ]]
check block-latest $? "$got"
post block-unknown '{"jsonrpc":"2.0","id":6,"method":"eth_getBlockByNumber","params":["0x1000",false]}' \
    '{"jsonrpc":"2.0","id":6,"result":null}'
post parse-error '{"jsonrpc":' '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}'
post unknown-method '{"jsonrpc":"2.0","id":3,"method":"eth_nope"}' \
    '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"the method eth_nope does not exist/is not available"}}'
post notification '{"jsonrpc":"2.0","method":"eth_blockNumber"}' ''

# Keep-alive: three requests over one connection (curl reuses it and says so on stderr).
curl -sv -H 'content-type: application/json' --data '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' \
    "$url" "$url" "$url" >"$tmp/ka.out" 2>"$tmp/ka.err"
[[ $(grep -c '"result":"0x36"' <<<"$(sed 's/}{/}\n{/g' "$tmp/ka.out")") == 3 ]] &&
    grep -q "Re-using existing connection" "$tmp/ka.err"
check keep-alive $? "$(cat "$tmp/ka.out")"

# status NAME WANT CURL_ARGS...: the HTTP status must be WANT.
status() {
    local name=$1 want=$2 got
    shift 2
    got=$(curl -s -o /dev/null -w '%{http_code}' "$@" "$url")
    [[ "$got" == "$want" ]]
    check "$name" $? "status $got, want $want"
}
status get-refused 405
status text-refused 415 -H 'content-type: text/plain' --data '{}'
head -c $((6 * 1024 * 1024)) /dev/zero | tr '\0' 'a' >"$tmp/big"
status too-large 413 -H 'content-type: application/json' --data-binary @"$tmp/big"
post after-refusals '{"jsonrpc":"2.0","id":9,"method":"eth_blockNumber"}' \
    '{"jsonrpc":"2.0","id":9,"result":"0x36"}'

# Virtual hosts (geth's --http.vhosts, here "localhost,node.example"): a name not listed is
# refused (DNS rebinding), an IP address or a listed name is served.
json=(-H 'content-type: application/json' --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')
status vhost-refused 403 -H 'Host: evil.example' "${json[@]}"
status vhost-listed 200 -H 'Host: NODE.example:8545' "${json[@]}"
status vhost-localhost 200 -H 'Host: localhost' "${json[@]}"
status vhost-ip 200 -H 'Host: [::1]:8545' "${json[@]}"
# CORS (--http.corsdomain https://app.example): a listed origin gets the header, on a preflight
# too; another origin is served without it (its browser will not show the answer).
headers() { curl -s -o /dev/null -D - "$@" "$url" | tr -d '\r' | tr 'A-Z' 'a-z'; }
grep -q '^access-control-allow-origin: https://app.example$' \
    <<<"$(headers -H 'Origin: https://app.example' "${json[@]}")"
check cors-allowed $? "no access-control-allow-origin for a listed origin"
! grep -q '^access-control-allow-origin' <<<"$(headers -H 'Origin: https://other.example' "${json[@]}")"
check cors-other $? "access-control-allow-origin for an origin not listed"
pre=$(headers -X OPTIONS -H 'Origin: https://app.example' -H 'Access-Control-Request-Method: POST')
grep -q '^http/1.1 204' <<<"$pre" && grep -q '^access-control-allow-methods: post, get$' <<<"$pre"
check cors-preflight $? "$pre"

# A call and a trace over HTTP: hive's callenv contract echoes its environment (a free call sees
# BASEFEE 0, as geth's eth_call); the first transaction's struct log.
got=$(curl -s -H 'content-type: application/json' \
    --data '{"jsonrpc":"2.0","id":7,"method":"eth_call","params":[{"to":"0x9344b07175800259691961298ca11c824e65032d"},"latest"]}' "$url")
[[ "$got" == '{"jsonrpc":"2.0","id":7,"result":"0x0000000000000000000000000000000000000000000000000000000000000036'* ]]
check eth-call $? "$got"
got=$(curl -s -H 'content-type: application/json' \
    --data '{"jsonrpc":"2.0","id":8,"method":"debug_traceTransaction","params":["0x3fbac8b19b59077cd29bbacc3815d73577b45a4d976cae80b04c98c793684c07"]}' "$url")
[[ "$got" == '{"jsonrpc":"2.0","id":8,"result":{"structLogs":[],"gas":21000,"failed":false,"returnValue":"0x"}}' ]]
check debug-trace $? "$got"

# A long answer streams (chunked, about a megabyte at a time): the struct log of a call that loops
# until its 300,000 gas run out is several megabytes; it arrives whole and valid. In a batch the
# same answer is sent whole (content-length).
loop='{"jsonrpc":"2.0","id":5,"method":"debug_traceCall","params":[{"to":"0x00000000000000000000000000000000000000aa","gas":"0x493e0"},"latest",{"stateOverrides":{"0x00000000000000000000000000000000000000aa":{"code":"0x5b600056"}}}]}'
curl -s -D "$tmp/stream.head" -o "$tmp/stream.body" -H 'content-type: application/json' --data "$loop" "$url"
grep -qi '^transfer-encoding: chunked' "$tmp/stream.head" &&
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["result"]; assert r["failed"] and len(r["structLogs"]) > 50000 and r["structLogs"][-1]["error"] == "out of gas"' "$tmp/stream.body"
check trace-streams $? "$(cat "$tmp/stream.head"; head -c 300 "$tmp/stream.body")"
curl -s -D "$tmp/batch.head" -o "$tmp/batch.body" -H 'content-type: application/json' --data "[$loop]" "$url"
grep -qi '^content-length:' "$tmp/batch.head" && ! grep -qi '^transfer-encoding' "$tmp/batch.head" &&
    python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))[0]["result"]; b=json.load(open(sys.argv[2]))["result"]; assert a == b' "$tmp/batch.body" "$tmp/stream.body"
check trace-batch-whole $? "$(cat "$tmp/batch.head")"

# The Engine API: no token, a stale one, one signed with another secret: 401, nothing done.
auth="http://127.0.0.1:$auth"
fcu="$vectors/rpc/tests/headfcu.json"
engine_status() {
    curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' "$@" --data @"$fcu" "$auth"
}
[[ $(engine_status) == 401 ]]
check engine-no-token $?
[[ $(engine_status -H "Authorization: Bearer $("$keel" jwt "$tmp/jwt.hex" --iat 1000)") == 401 ]]
check engine-stale-token $?
echo 11111111111111111111111111111111111111111111111111111111111111111 | cut -c1-64 >"$tmp/other.hex"
[[ $(engine_status -H "Authorization: Bearer $("$keel" jwt "$tmp/other.hex")") == 401 ]]
check engine-wrong-secret $?
# engine POST BODY: the answer, with a fresh token.
engine() {
    curl -s -H "Authorization: Bearer $("$keel" jwt "$tmp/jwt.hex")" \
        -H 'content-type: application/json' --data "$1" "$auth"
}
got=$(engine "$(cat "$fcu")")
[[ "$got" == *'"status":"VALID","latestValidHash":"0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7"'* ]]
check engine-headfcu $? "$got"
# As a consensus client: attributes start a build, getPayload hands it over, newPayload imports
# it, forkchoiceUpdated makes it the head.
zero=0x0000000000000000000000000000000000000000000000000000000000000000
head=0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7
state='{"headBlockHash":"'$head'","safeBlockHash":"'$head'","finalizedBlockHash":"'$head'"}'
got=$(engine '{"jsonrpc":"2.0","id":1,"method":"engine_forkchoiceUpdatedV3","params":['"$state"',{"timestamp":"0x230","prevRandao":"'$zero'","suggestedFeeRecipient":"0x0000000000000000000000000000000000000001","withdrawals":[],"parentBeaconBlockRoot":"'$zero'"}]}')
id=$(sed -n 's/.*"payloadId":"\(0x[0-9a-f]*\)".*/\1/p' <<<"$got")
[[ -n "$id" ]]
check engine-build $? "$got"
payload=$(engine '{"jsonrpc":"2.0","id":2,"method":"engine_getPayloadV5","params":["'$id'"]}')
exec_payload=$(sed -n 's/.*"executionPayload":\({[^}]*}\).*/\1/p' <<<"$payload")
block=$(sed -n 's/.*"blockHash":"\(0x[0-9a-f]*\)".*/\1/p' <<<"$exec_payload")
[[ -n "$block" ]]
check engine-get-payload $? "$payload"
got=$(engine '{"jsonrpc":"2.0","id":3,"method":"engine_newPayloadV4","params":['"$exec_payload"',[],"'$zero'",[]]}')
[[ "$got" == *'"status":"VALID","latestValidHash":"'$block'"'* ]]
check engine-new-payload $? "$got"
got=$(engine '{"jsonrpc":"2.0","id":4,"method":"engine_forkchoiceUpdatedV3","params":[{"headBlockHash":"'$block'","safeBlockHash":"'$head'","finalizedBlockHash":"'$head'"},null]}')
[[ "$got" == *'"status":"VALID"'* ]]
check engine-new-head $? "$got"
post head-moved '{"jsonrpc":"2.0","id":10,"method":"eth_blockNumber"}' \
    '{"jsonrpc":"2.0","id":10,"result":"0x37"}'
grep -q "^node: engine: imported block 55 $block" "$tmp/node.out"
check engine-log-line $? "$(cat "$tmp/node.out")"

# A blob transaction (hive's send-blob-tx: the zero blob, its version-1 sidecar of 128 cell
# proofs) enters the pool; engine_getBlobsV2 serves its blob and proofs, V1 (version-0 sidecars
# only) a null; the next payload carries it in its blobs bundle.
sed -n 's/^>> //p' "$hive/eth_sendRawTransaction/send-blob-tx.io" >"$tmp/blob_tx.json"
got=$(curl -s -H 'content-type: application/json' --data @"$tmp/blob_tx.json" "$url")
[[ "$got" == *'"result":"0x05d85f6a761cac82cfdf06dd168952838ac452b10641aabccdfdad46e03d2f0b"'* ]]
check blob-tx-accepted $? "$got"
vhash=0x010657f37554c781402a22917dee2f75def7ab966d7b770905398eba3c444014
engine '{"jsonrpc":"2.0","id":5,"method":"engine_getBlobsV2","params":[["'$vhash'"]]}' >"$tmp/blobs.json"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["result"]
assert len(r) == 1 and len(r[0]["proofs"]) == 128, r
assert r[0]["blob"] == "0x" + "00" * 131072
assert all(p == "0xc0" + "00" * 47 for p in r[0]["proofs"])
' "$tmp/blobs.json"
check engine-get-blobs-v2 $? "$(head -c 300 "$tmp/blobs.json")"
got=$(engine '{"jsonrpc":"2.0","id":6,"method":"engine_getBlobsV1","params":[["'$vhash'","'$zero'"]]}')
[[ "$got" == '{"jsonrpc":"2.0","id":6,"result":[null,null]}' ]]
check engine-get-blobs-v1 $? "$got"
got=$(engine '{"jsonrpc":"2.0","id":7,"method":"engine_getBlobsV2","params":[["'$vhash'","'$zero'"]]}')
[[ "$got" == '{"jsonrpc":"2.0","id":7,"result":null}' ]]
check engine-get-blobs-v2-missing $? "$got"
got=$(engine '{"jsonrpc":"2.0","id":8,"method":"engine_forkchoiceUpdatedV3","params":[{"headBlockHash":"'$block'","safeBlockHash":"'$head'","finalizedBlockHash":"'$head'"},{"timestamp":"0x240","prevRandao":"'$zero'","suggestedFeeRecipient":"0x0000000000000000000000000000000000000001","withdrawals":[],"parentBeaconBlockRoot":"'$zero'"}]}')
id=$(sed -n 's/.*"payloadId":"\(0x[0-9a-f]*\)".*/\1/p' <<<"$got")
engine '{"jsonrpc":"2.0","id":9,"method":"engine_getPayloadV5","params":["'$id'"]}' >"$tmp/payload.json"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["result"]
b = r["blobsBundle"]
assert b["commitments"] == ["0xc0" + "00" * 47], b["commitments"]
assert len(b["proofs"]) == 128 and len(b["blobs"]) == 1
assert any(t.startswith("0x03") for t in r["executionPayload"]["transactions"])
' "$tmp/payload.json"
check engine-blobs-bundle $? "$(head -c 600 "$tmp/payload.json")"

# A second node on the same datadir: the store has its writer; one on the same port: taken.
run_keel node --datadir "$dd" --http.port 0 --authrpc.port 0
[[ $rc != 0 && "$err" == *"in use by another process"* ]]
check datadir-taken $? "exit $rc: $err"
dd2="$tmp/second"
"$keel" init --datadir "$dd2" --genesis "$hive/genesis.json" >/dev/null
run_keel node --datadir "$dd2" --http.port "$port" --authrpc.port 0
[[ $rc == 1 && "$err" == *"http: cannot listen on 127.0.0.1:$port"* ]]
check port-taken $? "exit $rc: $err"

# SIGTERM: the node stops serving and exits 0.
kill -TERM "$node_pid"
wait "$node_pid"
rc=$?
node_pid=
[[ $rc == 0 ]] && grep -q "^node: stopped$" "$tmp/node.out"
check sigterm $? "exit $rc: $(cat "$tmp/node.out")"

finish node_test
