#!/usr/bin/env bash
# Usage: cli_test.sh PATH_TO_KEEL. Each check runs keel and compares stdout, exit code and, for
# failures, that stderr is exactly one line naming the problem.
set -uo pipefail
keel=${1:?usage: cli_test.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: cli_test.sh PATH_TO_KEEL VECTORS_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

expect help 0 "*" "" -- --help
expect version 0 "*" "" -- version
[[ $("$keel" version | head -1) == "keel "* ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL version line"; }
# The allocator the build links (cmake/KeelAllocator.cmake): jemalloc with its version, or glibc's
# in the sanitizer builds.
"$keel" version | grep -qE '^allocator: (jemalloc [0-9]+\.[0-9]+\.[0-9]+|glibc malloc)$' && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL version allocator line"; }
expect no-command 2 "" "subcommand" --
expect unknown-command 2 "" "keel:" -- frobnicate

# Keccak-256 known answers (Ethereum's Keccak, not SHA3-256).
empty=0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470
abc=0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45
expect keccak-empty 0 "$empty" "" -- keccak 0x
expect keccak-abc 0 "$abc" "" -- keccak 0x616263
STDIN=abc expect keccak-stdin 0 "$abc" "" -- keccak -
printf 'abc' >"$tmp/abc.bin"
expect keccak-file 0 "$abc" "" -- keccak "@$tmp/abc.bin"
expect keccak-bad-hex 2 "" "invalid hex digit at offset 3" -- keccak 0x6z
expect keccak-odd-hex 2 "" "odd number of hex digits" -- keccak 0x616
expect keccak-missing-file 2 "" "cannot read $tmp/nope" -- keccak "@$tmp/nope"
expect keccak-no-arg 2 "" "input" -- keccak
# An @file that is a directory is bad usage, and the message names it.
mkdir "$tmp/dir"
expect at-directory 2 "" "cannot read $tmp/dir: is a directory" -- keccak "@$tmp/dir"
expect at-directory-text 2 "" "rlp encode input: cannot read $tmp/dir: is a directory" -- rlp encode "@$tmp/dir"

# RLP decode: item tree as JSON.
expect rlp-decode-list 0 '["0x636174","0x646f67"]' "" -- rlp decode 0xc88363617483646f67
expect rlp-decode-nested 0 '[[],[[]],[[],[[]]]]' "" -- rlp decode 0xc7c0c1c0c3c0c1c0
expect rlp-decode-byte 0 '"0x7f"' "" -- rlp decode 0x7f
expect rlp-decode-empty-string 0 '"0x"' "" -- rlp decode 0x80
expect rlp-decode-truncated 1 "" "offset" -- rlp decode 0xc5010203
expect rlp-decode-noncanonical 1 "" "offset" -- rlp decode 0x8101
expect rlp-decode-trailing 1 "" "offset" -- rlp decode 0x0102
expect rlp-decode-empty-input 1 "" "rlp decode" -- rlp decode 0x
expect rlp-decode-bad-hex 2 "" "invalid hex digit" -- rlp decode 0xc0q0

# RLP encode: JSON tree to RLP.
expect rlp-encode 0 0xc98363617483646f67c0 "" -- rlp encode '["0x636174","dog",[]]'
expect rlp-encode-ints 0 0xc480820400 "" -- rlp encode '[0,1024]'
expect rlp-encode-negative 1 "" "want a 0x-hex string" -- rlp encode '[1,-1]'
expect rlp-encode-bad-json 1 "" "rlp encode: input: not valid JSON at line 1, column 4 (offset 3)" -- rlp encode '[1,'
expect rlp-encode-bad-json-line 1 "" "not valid JSON at line 3, column 2 (offset 9)" -- rlp encode $'[\n "a",\n x]'
expect rlp-encode-bad-hex 1 "" "invalid hex digit at offset 2 at \$[1]" -- rlp encode '["0x00","0xzz"]'
deep=$(printf '[%.0s' $(seq 200))$(printf ']%.0s' $(seq 200))
expect rlp-encode-too-deep 1 "" "nesting deeper" -- rlp encode "$deep"
"$keel" rlp encode '["0x636174",[1,2,3]]' -o "$tmp/x.rlp" && \
    expect rlp-roundtrip-file 0 '["0x636174",["0x01","0x02","0x03"]]' "" -- rlp decode "@$tmp/x.rlp"

# Transactions: eth_getTransactionByHash-style JSON with hash and sender (EIP-155 example tx).
eip155=0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83
contains tx-hash '"hash": "0x33469b22e9f636356c4160a87eb19df52b7412e8eac32a4a55ffe88ea8350788"' -- tx decode $eip155
contains tx-from '"from": "0x9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f"' -- tx decode $eip155
contains tx-chain '"chainId": "0x1"' -- tx decode $eip155
expect tx-truncated 1 "" "at offset" -- tx decode 0x02f86f01
expect tx-unknown-type 1 "" "tx decode:" -- tx decode 0x7f00
expect tx-bad-algorithm 2 "" "signature-algorithm" -- --signature-algorithm ed25519 tx decode $eip155
# Under secp256r1 the secp256k1 signature recovers no sender (or a different one): not 0x9d8a...
out=$("$keel" --signature-algorithm secp256r1 tx decode $eip155 2>/dev/null)
[[ "$out" != *9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f* && "$out" == *'"hash": "0x33469b22'* ]] \
    && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL tx-r1: $out"; }

# Blocks: the first block of an EEST Cancun fixture (hash and roots from the fixture's header).
fixture="$vectors/evm/blockchain_tests/eest_prague/cancun/eip4788_beacon_root/beacon_root_contract/beacon_root_contract_deploy.json"
block=$(grep -o '"rlp": *"0x[0-9a-f]*"' "$fixture" | head -1 | grep -o '0x[0-9a-f]*')
contains block-hash '"hash": "0x742687cf22eb1d831de5ab314ae05365a71a64ac09d871f8145f306a56d7d86d"' -- block decode "$block"
contains block-tx-root '"computed": "0xd87da2b23fc7bbfa7e2994ee830e73325af892d036e2e5d90d9f17ff2dd41d9d"' -- block decode "$block"
contains block-tx-hash '"0xdf52c2d3bbe38820fff7b5eaab3db1b91f8e1412b56497d88388fb5d4ea1fde0"' -- block decode "$block"
expect block-root-mismatch 1 "*" "transactionsRoot does not match" -- block decode "${block/d87da2b2/d87da2b3}"
expect block-truncated 1 "" "block decode:" -- block decode "${block:0:200}"

# The EVM: a small program run, and the statetest runner's results, usage errors and a bad
# fixture (one line naming the file, the test and the field).
contains evm-run-output "output: 0x0000000000000000000000000000000000000000000000000000000000000005" \
    -- evm run --code 0x600260030160005260206000f3 --gas 100000
contains evm-run-gas "gas used: 24" -- evm run --code 0x600260030160005260206000f3 --gas 100000
contains evm-run-halt "status: stack underflow" -- evm run --code 0x01
expect evm-run-bad-fork 2 "" "unknown fork Nope" -- evm run --code 0x00 --fork Nope
# --trace: EIP-3155 lines on stderr, stdout unchanged (PUSH1 2 PUSH1 3 ADD, the implicit STOP).
run_keel evm run --code 0x6002600301 --gas 100000 --trace
[[ $rc == 0 && "$out" == *"gas used: 9"* && $(printf '%s\n' "$err" | wc -l) == 5 &&
   "$err" == '{"pc":0,"op":96,"gas":"0x186a0","gasCost":"0x3","memSize":0,"stack":[],"depth":1,"refund":0,"opName":"PUSH1"}'* &&
   "$err" == *'{"output":"","gasUsed":"0x9"}' ]]
check evm-run-trace $? "exit $rc, stderr: $err"
expect evm-run-trace-memory-alone 2 "" "--trace-memory requires --trace" -- evm run --code 0x00 --trace-memory
# --tx --json: the same code as a transaction (intrinsic 21000 + SSTORE of a cold zero slot 22100
# + 24 for the rest = 43124 = 0xa874), with the storage change and the caller's new nonce.
run_keel evm run --tx --json --fork Prague --gas 100000 --code 0x6002600155600160005260206000f3
[[ $rc == 0 && "$out" == *'"gasUsed":"0xa874"'* && "$out" == *'"storage":{"0x1":"0x2"}'* &&
   "$out" == *'"0x000000000000000000000000000000000000ca11":{"balance":'*'"nonce":1'* &&
   "$out" == *'"status":"success"'* ]]
check evm-run-tx-json $? "exit $rc, stdout: $out"
# --struct-log: debug_traceCall's result on stdout (PUSH1 2 PUSH1 3 ADD, the implicit STOP; the
# 9 gas of the call); --disable-stack drops the stacks; its options need it.
run_keel evm run --code 0x6002600301 --gas 100000 --struct-log
[[ $rc == 0 && "$out" == '{"structLogs":[{"pc":0,"op":"PUSH1","gas":100000,"gasCost":3,"depth":1,"refund":0,"stack":[]},'*'{"pc":4,"op":"ADD","gas":99994,"gasCost":3,"depth":1,"refund":0,"stack":["0x2","0x3"]},'*'],"gas":9,"failed":false,"returnValue":"0x"}' ]]
check evm-run-struct-log $? "exit $rc, stdout: $out"
contains evm-run-struct-log-no-stack '{"pc":4,"op":"ADD","gas":99994,"gasCost":3,"depth":1,"refund":0}' \
    -- evm run --code 0x6002600301 --gas 100000 --struct-log --disable-stack
# The full call depth (a contract calling itself until depth 1,024) whatever stack the process
# was given: with `ulimit -s 256` the frames that do not fit continue on fresh stacks
# (keel/common/native_stack.hpp); keel once died of SIGSEGV there below 2 MB. Same trace.
deep=(evm run --code 0x5f5f5f5f5f305af100 --gas 1000000000000 --struct-log)
run_keel "${deep[@]}"
deep_out=$out deep_rc=$rc
[[ $deep_rc == 0 && "$deep_out" == *'"depth":1025,'* && "$deep_out" != *'"depth":1026,'* ]]
check evm-run-full-depth $? "exit $deep_rc"
small_out=$(ulimit -s 256 && "$keel" "${deep[@]}" 2>"$tmp/err"); small_rc=$?
[[ $small_rc == 0 && "$small_out" == "$deep_out" ]]
check evm-run-full-depth-small-stack $? "exit $small_rc: $(head -c 300 "$tmp/err")"
expect evm-run-struct-log-alone 2 "" "--disable-stack requires --struct-log" -- evm run --code 0x00 --disable-stack
expect evm-run-struct-log-json 2 "" "--json excludes --struct-log" -- evm run --code 0x00 --struct-log --json
expect evm-run-bad-address 2 "" "--address: not a 20-byte hex address: 0x12" -- evm run --code 0x00 --address 0x12
expect evm-run-same-address 2 "" "--sender: the same address as --address" -- evm run --code 0x00 --sender 0x000000000000000000000000000000000000c0de
osaka="$vectors/evm/state_tests/eest_osaka"
st_file=$(ls "$osaka"/*.json 2>/dev/null | head -1)
[[ -n "$st_file" ]] || st_file=$(find "$osaka" -name '*.json' | sort | head -1)
contains evm-statetest-pass "pass " -- evm statetest "$st_file"
# --trace on a filled case (goevmlab's): step lines, then geth's {"stateRoot": ...} line with the
# root keel printed (test/spec's evm_trace compares whole traces with geth's and evmone's).
run_keel evm statetest --trace "$vectors/evm/traces/eip3155_goevmlab/cases/statetest_filled.json"
root=$(printf '%s\n' "$out" | grep -m1 -oE 'root=0x[0-9a-f]{64}' | cut -d= -f2)
[[ $rc == 0 && -n "$root" && "$err" == '{"pc":0,"op":91,'* && "$err" == *"{\"stateRoot\": \"$root\"}"* ]]
check evm-statetest-trace $? "exit $rc, root '$root', stderr: ${err:0:300}"
expect evm-statetest-missing 2 "" "$tmp/nope.json: no such file or directory" -- evm statetest "$tmp/nope.json"
expect evm-statetest-bad-fork 2 "" "--fork: unknown fork Nope" -- evm statetest --fork Nope "$st_file"
printf '{"t": {"env": {}, "pre": {}, "transaction": {}, "post": {}}}' > "$tmp/bad_fixture.json"
expect evm-statetest-bad-fixture 1 "" "bad_fixture.json t: missing field 'currentCoinbase'" -- evm statetest "$tmp/bad_fixture.json"
printf 'not json' > "$tmp/not_json.json"
expect evm-statetest-not-json 1 "" "not valid JSON at line 1" -- evm statetest "$tmp/not_json.json"

# reported NAME WANT_RC MESSAGE -- ARGS...: exit WANT_RC, and MESSAGE within one line of stdout or
# of stderr (a blockchain test with bad fields is a failed case on stdout; a bad state test
# fixture ends the run with one line on stderr).
reported() {
    local name=$1 want_rc=$2 msg=$3
    shift 4
    run_keel "$@"
    if [[ $rc == "$want_rc" ]] && { printf '%s\n' "$out" | grep -qF -- "$msg" ||
                                     printf '%s\n' "$err" | grep -qF -- "$msg"; }; then
        pass
    else
        fail "$name: exit $rc (want $want_rc), '$msg' on no line of stdout '${out:0:300}' or stderr '${err:0:300}'"
    fi
}

# keel evm blocktest: a fixture that passes, the mainnet rules refusing a devnet-era block for a
# reason other than the expected one, a tampered head, usage errors and bad fixtures.
bt_dir="$vectors/evm/blockchain_tests/eest_prague"
bt_file="$bt_dir/cancun/eip4788_beacon_root/beacon_root_contract/tx_to_beacon_root_contract.json"
contains evm-blocktest-pass "pass " -- evm blocktest --system-contracts devnet "$bt_file"
run_keel evm blocktest "$bt_dir/prague/eip7685_general_purpose_el_requests/request_types/invalid_request_type.json"
[[ $rc == 1 && "$out" == *"refused as BlockException.SYSTEM_CONTRACT_EMPTY"*"want BlockException.INVALID_REQUESTS"* &&
   "$err" == *"blockchain tests failed"* ]]
check evm-blocktest-wrong-reason $? "exit $rc, stdout: ${out:0:300}"
sed 's/"lastblockhash": "0x[0-9a-f]*"/"lastblockhash": "0x0000000000000000000000000000000000000000000000000000000000000001"/' \
    "$bt_file" > "$tmp/wrong_head.json"
run_keel evm blocktest --system-contracts devnet "$tmp/wrong_head.json"
[[ $rc == 1 && "$out" == FAIL*"head 0x"*", want 0x"*"0001"* ]]
check evm-blocktest-wrong-head $? "exit $rc, stdout: ${out:0:300}"
expect evm-blocktest-missing 2 "" "$tmp/nope.json: no such file or directory" -- evm blocktest "$tmp/nope.json"
expect_in evm-blocktest-bad-rules 2 "" "--system-contracts" -- evm blocktest --system-contracts nope "$bt_file"
printf '{"t": {"network": "Prague"}}' > "$tmp/bad_block_fixture.json"
reported evm-blocktest-bad-fixture 1 "bad_block_fixture.json t: missing field 'genesis" -- evm blocktest "$tmp/bad_block_fixture.json"
printf '{"t": {"network": "Pectra"}}' > "$tmp/bad_network.json"
reported evm-blocktest-bad-network 1 "network Pectra is not a fork" -- evm blocktest "$tmp/bad_network.json"
printf '{"t": {"network": "Prague", "genesisRLP": "0xc0", "pre": {}, "blocks": []}}' > "$tmp/bad_genesis.json"
reported evm-blocktest-bad-genesis 1 "bad_genesis.json t: genesisRLP:" -- evm blocktest "$tmp/bad_genesis.json"

# Issue 25: keel evm under hostile input. The reproducers are in ../shared/repro/evm-cli (read
# only: nothing is written there); each case below crashed, hung or printed raw library text.
repro="$vectors/../repro/evm-cli"
[[ -f "$repro/README.md" ]] || fail "evm-repro: no reproducers at $repro"
# Memory beyond 4 GiB with gas above the internal "impossible" cost (~2^61): out of gas, not a
# write outside frame memory (SIGSEGV) or a std::vector length error.
contains evm-run-huge-gas-mstore "status: out of gas" \
    -- evm run --gas 2305843009213693960 --code 600164010000000052
contains evm-run-huge-gas-return "status: out of gas" \
    -- evm run --gas 4611686018427387904 --code 7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff5ff3
contains evm-run-max-gas-keccak "status: out of gas" \
    -- evm run --gas 9223372036854775807 --code 67ffffffffffffffff600020
run_keel evm statetest "$repro/st_mstore_wild_write.json"
[[ $rc == 1 && "$out" == "FAIL mstore_2_32_huge_gas Cancun d=0 g=0 v=0 root=0x"* ]]
check evm-statetest-huge-gas $? "exit $rc, stdout: ${out:0:300}, stderr: ${err:0:300}"
# An excess blob gas of 2^64 - 1 (a header field from the network): the fee saturates at once.
out=$(timeout 60 "$keel" evm statetest "$repro/st_excess_blob_gas_hang.json" 2>"$tmp/err"); rc=$?
[[ ($rc == 0 || $rc == 1) && "$out" == *" Prague d=0 g=0 v=0 root=0x"* ]]
check evm-statetest-excess-blob-gas $? "exit $rc, stdout: ${out:0:300}"
out=$(timeout 60 "$keel" evm blocktest "$repro/bt_genesis_excess_blob_gas_hang.json" 2>"$tmp/err"); rc=$?
[[ ($rc == 0 || $rc == 1) && ("$out" == pass* || "$out" == FAIL*) ]]
check evm-blocktest-excess-blob-gas $? "exit $rc, stdout: ${out:0:300}"
# A chain config from a file is input: a fraction of 0 is named, not an assertion's abort.
reported evm-blocktest-fraction-0 1 "config.blobSchedule.Cancun: baseFeeUpdateFraction is 0" \
    -- evm blocktest "$repro/bt_blob_fraction0_abort.json"
# --run on a 30,000-character name: a linear-time matcher, no recursion per character.
run_keel evm statetest --run '.*' "$repro/st_longname_30k.json"
[[ ($rc == 0 || $rc == 1) && "$out" == *"aaaa... (30000 bytes) "* ]]
check evm-statetest-run-long-name $? "exit $rc, stdout: ${out:0:300}, stderr: ${err:0:300}"
run_keel evm statetest --run '^a{2,}$' "$repro/st_longname_30k.json"
[[ ($rc == 0 || $rc == 1) && "$out" == *"(30000 bytes)"* ]]
check evm-statetest-run-count $? "exit $rc, stdout: ${out:0:200}"
run_keel evm statetest --run 'b|^a{3}$' "$repro/st_longname_30k.json"
[[ $rc == 0 && -z "$out" && "$err" == "0 passed, 0 failed in 1 files" ]]
check evm-statetest-run-no-match $? "exit $rc, stdout: ${out:0:200}, stderr: $err"
expect evm-statetest-run-bad 2 "" "--run: ')' expected at offset 2 of the pattern (a" \
    -- evm statetest --run '(a' "$st_file"
expect evm-statetest-run-backref 2 "" "--run: unsupported escape \\1" \
    -- evm statetest --run '(a)\1' "$st_file"
# Fixture errors: one line naming the file, the test and the field, values escaped.
expect evm-statetest-number-overflow 1 "" "number_overflow.json: not valid JSON: number overflow" \
    -- evm statetest "$repro/number_overflow.json"
expect_in evm-statetest-index-type 1 "" "post Osaka[0] indexes.data: not a whole number but a string \"x\"" \
    -- evm statetest "$repro/st_index_not_number.json"
expect_in evm-statetest-index-range 1 "" "post Osaka[0] data: index 7 out of range (1 entries)" \
    -- evm statetest "$repro/st_index_out_of_range.json"
reported evm-blocktest-network-type 1 "network: not a string but a number" \
    -- evm blocktest "$repro/bt_network_not_string.json"
[[ "$out" == *"bt_network_not_string.json tests/prague/"* || "$err" == *"bt_network_not_string.json tests/prague/"* ]]
check evm-blocktest-network-type-names $? "stdout: ${out:0:300}, stderr: ${err:0:300}"
expect evm-statetest-newline-name 1 "" 'newline_test_name.json evil\nsecond line: missing field' \
    -- evm statetest "$repro/newline_test_name.json"
expect_in evm-statetest-newline-value 1 "" 'currentNumber: not a 256-bit number: "0x1\nforged line"' \
    -- evm statetest "$repro/st_newline_in_value.json"
# Lost output is a failure: every command that writes exits non-zero when stdout is full.
for cmd in "evm run --code 00" "evm statetest $st_file" "evm blocktest --system-contracts devnet $bt_file" "keccak 0x"; do
    # shellcheck disable=SC2086
    "$keel" $cmd >/dev/full 2>"$tmp/err"; rc=$?
    [[ $rc != 0 && $(cat "$tmp/err") == *"keel: cannot write to standard output: No space left on device" ]]
    check "full-stdout ${cmd%% [@/0]*}" $? "exit $rc, stderr: $(head -c 300 "$tmp/err")"
done
# A directory whose entries cannot be read: each path named, the rest still run, exit 2.
mkdir -p "$tmp/walk/sub"
cp "$st_file" "$tmp/walk/a.json"
ln -s x.json "$tmp/walk/y.json"
ln -s y.json "$tmp/walk/x.json"
run_keel evm statetest "$tmp/walk"
[[ $rc == 2 && "$out" == "pass "* && "$err" == *"keel: $tmp/walk/x.json: cannot read: "* &&
   "$err" == *"keel: 2 paths could not be read" ]]
check evm-statetest-unreadable-entries $? "exit $rc, stdout: ${out:0:200}, stderr: ${err:0:400}"
if [[ $(id -u) != 0 ]]; then
    chmod 000 "$tmp/walk/sub"
    run_keel evm statetest "$tmp/walk"
    chmod 755 "$tmp/walk/sub"
    [[ $rc == 2 && "$out" == "pass "* && "$err" == *"keel: $tmp/walk/sub: cannot read: Permission denied"* ]]
    check evm-statetest-unreadable-dir $? "exit $rc, stderr: ${err:0:400}"
fi
# keel evm run --tx with its defaults runs on the default fork (Osaka caps a transaction's gas at
# 2^24, EIP-7825); a gas limit above the cap names the option, not an offset into an encoding.
contains evm-run-tx-defaults "status: success" -- evm run --tx --code 00
expect evm-run-tx-over-cap 1 "" "--tx: transaction invalid: gas limit above the per-transaction maximum (--gas 30000000 on Osaka; at most 16777216, EIP-7825)" \
    -- evm run --tx --gas 30000000 --code 00
# Reads are bounded: a device with no end is refused after the option's most.
expect evm-run-code-dev-zero 2 "" "--code: /dev/zero holds more than 16777216 bytes" \
    -- evm run --code @/dev/zero

finish cli
