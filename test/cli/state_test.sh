#!/usr/bin/env bash
# Usage: state_test.sh PATH_TO_KEEL VECTORS_DIR. The executing import end to end through the keel
# command: keel init from a genesis file and from a network name, keel import executing every
# block (the hive rpc-compat chain: PoW with ommers, the Merge, blobs, Prague requests; mainnet's
# first era1 archive: Frontier rewards and ommers; Sepolia's), state read back with keel get at
# the head and at past blocks, and the refusals: no init, a history-only store, bad usage.
set -uo pipefail
keel=${1:?usage: state_test.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: state_test.sh PATH_TO_KEEL VECTORS_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

hive="$vectors/rpc/tests"
dd="$tmp/hive"
contract=0x7dcd17433742f4c0ca53122ab541d0ba67fc27df

# ---- init ----------------------------------------------------------------------------------------
expect_in init 0 "init: genesis 0x44fd89d504659cd58f48f4796b77a7e7012cf296a2409afa2f6c3cb99b5b3d99 (block 0), state root 0xdc43f460" "" \
    -- init --datadir "$dd" --genesis "$hive/genesis.json"
expect_in init-again 0 "already holds genesis 0x44fd89d5" "" -- init --datadir "$dd" --genesis "$hive/genesis.json"
expect_in init-other-chain 1 "" "init: the store holds another chain" -- init --datadir "$dd" --network sepolia
expect init-both 2 "" "give one of --genesis FILE and --network NAME" -- init --datadir "$tmp/x" --genesis "$hive/genesis.json" --network mainnet
expect init-neither 2 "" "give one of --genesis FILE and --network NAME" -- init --datadir "$tmp/x"
expect init-bad-network 2 "" "--network goerli: not a network keel knows" -- init --datadir "$tmp/x" --network goerli
printf '{"config":{"chainId":1},"alloc":{"0x01":{"balance":"x"}}}' >"$tmp/bad-genesis.json"
expect_in init-bad-file 1 "" "genesis: alloc" -- init --datadir "$tmp/x" --genesis "$tmp/bad-genesis.json"

# ---- import executing, every root checked -----------------------------------------------------
expect_in import 0 "state: block 54, root 0x6da8f636cdc85dbe8c1b5299e5db22f462c041febaf3b78cac1040152ee30b3b" "" \
    -- import --quiet --datadir "$dd" "$hive/chain.rlp"
[[ "$out" == *"executed: 54 blocks, 103.419 Mgas"* ]]
check import-executed-line $? "$out"
expect_in reimport 0 "already imported, skipped" "" -- import --quiet --datadir "$dd" "$hive/chain.rlp"

# ---- reads at the head and in the past (the suite's answers, eth_getBalance/get-balance*.io) --
expect get-balance 0 '"0x76"' "" -- get balance --datadir "$dd" "$contract"
expect get-balance-at-hash 0 '"0x56"' "" -- get balance --datadir "$dd" "$contract" \
    --block 0xa38f2a6f7d276298d8e7a9bfa28625e4dc8948021f5a7369d0a04571879e98d2
expect get-storage 0 '"0x0000000000000000000000000000000000000000000000000000000000000038"' "" \
    -- get storage --datadir "$dd" "$contract" 0
expect get-code 0 '"0x3680600080376000206000548082558060010160005560005263656d697460206000a2"' "" \
    -- get code --datadir "$dd" "$contract"
expect get-nonce-unknown 0 '"0x0"' "" -- get nonce --datadir "$dd" 0x0000000000000000000000000000000000000bad
expect get-balance-genesis 0 '"0x0"' "" -- get balance --datadir "$dd" "$contract" --block earliest
expect_in get-account 0 '"storageRoot": "0x' "" -- get account --datadir "$dd" "$contract"
expect get-above-head 1 "" "block 55 is above the state head, block 54" -- get balance --datadir "$dd" "$contract" --block 55
expect get-bad-address 2 "" "get balance: '0x12' is not a 20-byte address" -- get balance --datadir "$dd" 0x12
expect get-bad-slot 2 "" "get storage: slot 'zz' is not a 256-bit number" -- get storage --datadir "$dd" "$contract" zz

# ---- receipts and logs (the suite's eth_getBlockReceipts/eth_getLogs answers, keel/blockchain
# reads_test.cpp compares them all; here the command's shapes and errors) --------------------------
expect_in get-receipts 0 '"contractAddress": "0x9344b07175800259691961298ca11c824e65032d"' "" \
    -- get receipts --datadir "$dd" 1
expect_in get-receipt 0 '"blobGasUsed": "0x20000"' "" \
    -- get receipt --datadir "$dd" 0x4bb6fa064c302d27ea9ac821e061bcc336b8fa40de77f01e116c6461d47e7ac1
expect_in get-receipt-unknown 1 "" "transaction not found" \
    -- get receipt --datadir "$dd" 0x00000000000000000000000000000000000000000000000000000000deadbeef
expect_in get-receipts-future 1 "" "block 99 is not stored" -- get receipts --datadir "$dd" 99
expect_in get-logs 0 '"logIndex": "0xa"' "" \
    -- get logs --datadir "$dd" --from 1 --to 4 --address "$contract"
expect_in get-logs-topics 0 '"transactionHash": "0xd48ebacfb769b856' "" \
    -- get logs --datadir "$dd" --from 3 --to 6 --topics ",0x95b7276947f6331672b0c63eca28c1d39f25286d5e2793d6a487837ff1475ba0"
expect get-logs-reversed 2 "" "get logs: --from 6 is above --to 3" -- get logs --datadir "$dd" --from 6 --to 3
expect get-logs-bad-topic 2 "" "get logs: --topics '0x12'" -- get logs --datadir "$dd" --topics 0x12

expect_in get-proof 0 '"storageHash": "0x7917ac1f1d6cd87c54aea239c6efbe5c8865659f0761c74e67f1c1eb837923bb"' "" \
    -- get proof --datadir "$dd" "$contract" 0
expect_in get-proof-past 1 "" "proofs are of the state head (block 54), not block 3" \
    -- get proof --datadir "$dd" "$contract" --block 3

# ---- verify, rewind (state unwound from its history), re-import ------------------------------
expect_in verify 0 "state: block 54, root 0x6da8f636cdc85dbe8c1b5299e5db22f462c041febaf3b78cac1040152ee30b3b recomputed from 114 accounts and 183 slots" "" \
    -- storage verify --quiet --datadir "$dd"
expect_in rewind 0 "state unwound: 24 blocks" "" -- storage rewind --quiet --datadir "$dd" --to 30
expect_in rewind-state-line 0 "state: block 30, root 0x" "" -- storage verify --quiet --datadir "$dd"
expect get-balance-after-rewind 0 '"0x30"' "" -- get balance --datadir "$dd" "$contract"
expect_in reimport-after-rewind 0 "state: block 54, root 0x6da8f636" "" \
    -- import --quiet --datadir "$dd" "$hive/chain.rlp"
expect_in prune-keeps-state 0 "" "" -- storage prune-pre-merge-blocks --quiet --datadir "$dd"
expect get-balance-after-prune 0 '"0x56"' "" -- get balance --datadir "$dd" "$contract" \
    --block 0xa38f2a6f7d276298d8e7a9bfa28625e4dc8948021f5a7369d0a04571879e98d2
expect_in verify-after-prune 0 "state: block 54" "" -- storage verify --quiet --datadir "$dd"

# ---- mainnet and Sepolia from their genesis through their first era1 archive ------------------
expect_in init-mainnet 0 "0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3 (block 0), state root 0xd7f8974f" "" \
    -- init --datadir "$tmp/main" --network mainnet
expect_in import-mainnet 0 "state: block 8191, root 0x5e184cd804670d251e30fdb3260b92031edc70077b4d1e8d7694bc660895ee7d" "" \
    -- import --quiet --history.state 1000 --datadir "$tmp/main" "$vectors"/era1/mainnet/mainnet-00000-*.era1
# --history.state 1000: the state after block 7191 and later stays readable, older is pruned.
miner=0x05a56e2d52c817161883f50c441c3228cfe54d9f
expect_in history-kept 0 '"0x' "" -- get balance --datadir "$tmp/main" "$miner" --block 7191
expect_in history-pruned 1 "" "state at block 7190 is not kept: state history starts at block 7191" \
    -- get balance --datadir "$tmp/main" "$miner" --block 7190
expect_in rewind-below-state-history 2 "" "below the state history floor 7191" \
    -- storage rewind --quiet --datadir "$tmp/main" --to 7000
expect_in rewind-within-state-history 0 "state unwound: 691 blocks" "" \
    -- storage rewind --quiet --datadir "$tmp/main" --to 7500
expect_in reimport-after-history-rewind 0 "state: block 8191, root 0x5e184cd8" "" \
    -- import --quiet --history.state 1000 --datadir "$tmp/main" "$vectors"/era1/mainnet/mainnet-00000-*.era1
expect_in init-sepolia 0 "(block 0), state root 0x5eb6e371" "" -- init --datadir "$tmp/sep" --network sepolia
expect_in import-sepolia 0 "state: block 8191" "" \
    -- import --quiet --datadir "$tmp/sep" "$vectors/era1/sepolia-00000-643a00f7.era1"

# ---- refusals -------------------------------------------------------------------------------------
expect_in import-no-init 1 "" "run keel init first, or import with --no-execute" \
    -- import --quiet --datadir "$tmp/noinit" "$hive/chain.rlp"
[[ ! -e "$tmp/noinit" ]]
check import-no-init-leaves-nothing $?
run_keel import --quiet --no-execute --datadir "$tmp/history" "$vectors/era1/sepolia-00000-643a00f7.era1"
check history-only-import $rc "$err"
expect_in get-no-state 1 "" "the store holds no state" -- get balance --datadir "$tmp/history" "$contract"
# A history-only import past the state head: executing from there is refused.
expect_in init-sep-partial 0 "" "" -- init --datadir "$tmp/sep2" --network sepolia
run_keel import --quiet --no-execute --datadir "$tmp/sep2" "$vectors/era1/sepolia-00000-643a00f7.era1"
check sep2-history $rc "$err"
expect_in import-after-history 1 "" "the state is at block 0 but the chain head is block 8191" \
    -- import --quiet --datadir "$tmp/sep2" "$vectors/era1/sepolia-00000-643a00f7.era1"

# ---- traces of stored blocks (keel/blockchain/replay_test.cpp compares the suite's debug_trace*
# answers; here the command's shapes and errors) -------------------------------------------------
# (Blocks 1-35 are pre-merge: their history was pruned above; block 40 is after the Merge.)
transfer=0x6604a1d981ac97a2df34b07ea546c3920d03c99ac071541f23e97b3ea05dab83
expect trace-tx 0 '{"structLogs":[],"gas":21000,"failed":false,"returnValue":"0x"}' "" \
    -- trace tx "$transfer" --datadir "$dd"
expect_in trace-tx-call 0 '"from":"0x7435ed30a8b4aeb0877cef0c6e8cffe834eb865f","gas":"0x5208","gasUsed":"0x5208","to":"0x16c57edf7fa9d9525378b0b81bf8a3ced0620c1c"' "" \
    -- trace tx "$transfer" --datadir "$dd" --tracer callTracer
expect_in trace-tx-prestate-diff 0 '"post":{"0x0000000000000000000000000000000000000000":{"balance":"0x7b6fb90bf03bec216"}' "" \
    -- trace tx "$transfer" --datadir "$dd" --tracer prestateTracer --config '{"diffMode":true}'
expect_in trace-block 0 '[{"txHash":"0xeb7a692fd015cf5323661232bf8fe7521b0358cf49adf59632153a3e0f928036","result":{' "" \
    -- trace block 40 --datadir "$dd" --tracer callTracer
expect_in trace-block-flat 0 '"blockNumber":40,' "" -- trace block 40 --datadir "$dd" --tracer flatCallTracer
expect trace-pruned 1 "" "block 3: history pruned" -- trace block 3 --datadir "$dd"
expect trace-genesis 1 "" "genesis is not traceable" -- trace block 0 --datadir "$dd"
expect trace-future 1 "" "block 99 is not stored" -- trace block 99 --datadir "$dd"
expect trace-tx-unknown 1 "" "transaction not found" \
    -- trace tx 0x00000000000000000000000000000000000000000000000000000000deadbeef --datadir "$dd"
expect trace-bad-tracer 2 "" "trace block 1: unknown tracer fooTracer" -- trace block 1 --datadir "$dd" --tracer fooTracer
expect trace-bad-config 2 "" "trace block 1: callTracer: withLogs is not an option" \
    -- trace block 1 --datadir "$dd" --tracer callTracer --config '{"withLogs":true}'
expect trace-diff-empty 2 "" "diffMode cannot be used with includeEmpty" \
    -- trace block 1 --datadir "$dd" --tracer prestateTracer --config '{"diffMode":true,"includeEmpty":true}'
expect_in trace-parity-block 0 '"gas":"0x11ba0","input":"0x036464a71961a53a656d6974"' "" \
    -- trace block 40 --datadir "$dd" --tracer parity
expect_in trace-parity-replay 0 '"stateDiff":{"0x0000000000000000000000000000000000000000":{"balance":{"*":' "" \
    -- trace tx "$transfer" --datadir "$dd" --tracer parity --trace-types trace,stateDiff
expect_in trace-filter 0 '"blockNumber":36,' "" \
    -- trace filter --datadir "$dd" --from 36 --to 54 --to-address 0x7dcd17433742f4c0ca53122ab541d0ba67fc27df --count 2
expect trace-bad-types 2 "" "--trace-types: bla is none of trace, vmTrace, stateDiff" \
    -- trace block 40 --datadir "$dd" --tracer parity --trace-types bla
expect trace-types-alone 2 "" "--trace-types needs --tracer parity" \
    -- trace block 40 --datadir "$dd" --trace-types vmTrace
expect trace-filter-backwards 2 "" "--from is after --to" -- trace filter --datadir "$dd" --from 50 --to 40
# A time limit of zero runs out at each transaction's first frame: geth's error in the result's
# place (the block's other transactions would still be traced), or the command's error for one.
expect trace-timeout-block 0 '[{"txHash":"0xeb7a692fd015cf5323661232bf8fe7521b0358cf49adf59632153a3e0f928036","error":"execution timeout"},{"txHash":"0x6604a1d981ac97a2df34b07ea546c3920d03c99ac071541f23e97b3ea05dab83","error":"execution timeout"},{"txHash":"0xd64b884f4327c8f632d0c4448260dadc654ce1432659bd6beffd588c0b1a88f0","error":"execution timeout"}]' "" \
    -- trace block 40 --datadir "$dd" --tracer callTracer --timeout 0s
expect trace-timeout-tx 1 "" "trace tx $transfer: execution timeout" \
    -- trace tx "$transfer" --datadir "$dd" --timeout 0
expect_in trace-timeout-ample 0 '"structLogs":[]' "" -- trace tx "$transfer" --datadir "$dd" --timeout 1h
expect trace-timeout-bad 2 "" 'trace block 40: --timeout: invalid duration "5x"' \
    -- trace block 40 --datadir "$dd" --timeout 5x
expect trace-timeout-parity 2 "" "--timeout is for geth's tracers (debug_trace*), not parity's" \
    -- trace block 40 --datadir "$dd" --tracer parity --timeout 1s

# trace call: a message nobody signed on the state after a block (debug_traceCall, trace_call).
expect trace-call 0 '{"from":"0x0000000000000000000000000000000000000000","gas":"0x1000000","gasUsed":"0xc1e8","to":"0x7dcd17433742f4c0ca53122ab541d0ba67fc27df","input":"0x036464a7","value":"0x0","type":"CALL"}' "" \
    -- trace call --datadir "$dd" --to "$contract" --data 0x036464a7 --tracer callTracer
expect_in trace-call-parity 0 '"storage":{"0x0000000000000000000000000000000000000000000000000000000000000000":{"*":{"from":"0x0000000000000000000000000000000000000000000000000000000000000038"' "" \
    -- trace call --datadir "$dd" --to "$contract" --data 0x036464a7 --tracer parity --trace-types stateDiff
expect_in trace-call-create 0 '"output":"0x0000000000000000000000000000000000000000000000000000000000000001","value":"0x0","type":"CREATE"}' "" \
    -- trace call --datadir "$dd" --data 0x600160005260206000f3 --tracer callTracer
expect trace-call-poor 1 "" "trace call: the call: insufficient funds for gas * price + value" \
    -- trace call --datadir "$dd" --to "$contract" --value 1000000000000000000000000000000
expect trace-call-bad-to 2 "" "trace call: --to: '0x12' is not a 20-byte address" \
    -- trace call --datadir "$dd" --to 0x12

# trace export: chunked files, a finished chunk never redone, a killed run picking up.
expect_in trace-export 0 "trace export: 4 chunks of blocks 36-54 in $tmp/exp: 4 written (19 blocks" "" \
    -- trace export --quiet --datadir "$dd" --from 36 --to 54 --chunk-blocks 5 --out "$tmp/exp"
cat "$tmp"/exp/*.jsonl >"$tmp/exp-all"
[[ $(wc -l <"$tmp/exp-all") == 19 && $(head -c 12 "$tmp/exp-all") == '{"block":36,' ]]
check trace-export-lines $? "$(head -c 200 "$tmp/exp-all")"
rm "$tmp/exp/traces-000000000041-000000000045.jsonl"
echo 'a killed run' >"$tmp/exp/traces-000000000041-000000000045.jsonl.part"
expect_in trace-export-resume 0 "1 written (5 blocks" "" \
    -- trace export --quiet --datadir "$dd" --from 36 --to 54 --chunk-blocks 5 --out "$tmp/exp"
cat "$tmp"/exp/*.jsonl | cmp -s - "$tmp/exp-all"
check trace-export-resumed-same $? "the resumed export differs"
[[ ! -e "$tmp/exp/traces-000000000041-000000000045.jsonl.part" ]]
check trace-export-no-part $? "a .part file was left"
expect_in trace-export-done 0 "0 written (0 blocks, 0 bytes), 4 already complete" "" \
    -- trace export --quiet --datadir "$dd" --from 36 --to 54 --chunk-blocks 5 --out "$tmp/exp"
# A run killed at any moment: the next one completes it, the same bytes.
timeout -s KILL 0.2 "$keel" trace export --quiet --datadir "$dd" --from 36 --to 54 --chunk-blocks 2 \
    --tracer parity --out "$tmp/exp-kill" >/dev/null 2>&1
expect_in trace-export-after-kill 0 "10 chunks of blocks 36-54" "" \
    -- trace export --quiet --datadir "$dd" --from 36 --to 54 --chunk-blocks 2 --tracer parity --out "$tmp/exp-kill"
expect_in trace-export-reference 0 "10 written" "" \
    -- trace export --quiet --datadir "$dd" --from 36 --to 54 --chunk-blocks 2 --tracer parity --out "$tmp/exp-ref"
cat "$tmp"/exp-kill/*.jsonl | cmp -s - <(cat "$tmp"/exp-ref/*.jsonl)
check trace-export-kill-same $? "the export completed after kill -9 differs"
expect trace-export-pruned 1 "" "trace export: block 1: history pruned" \
    -- trace export --quiet --datadir "$dd" --from 1 --to 5 --out "$tmp/exp-pruned"

finish state_test
