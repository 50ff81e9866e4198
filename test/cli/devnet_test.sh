#!/usr/bin/env bash
# Usage: devnet_test.sh PATH_TO_KEEL. End-to-end checks of `keel devnet gen`: the summary line,
# the file (size, determinism, blocks that `keel block decode` accepts with matching roots), and
# usage errors (exit 2, one line on stderr starting with "keel:", no file written).
set -uo pipefail
keel=${1:?usage: devnet_test.sh PATH_TO_KEEL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

# usage_error NAME WANT_STDERR_SUBSTRING -- ARGS...: exit 2, one stderr line, nothing on stdout.
usage_error() {
    local name=$1 want=$2
    shift 3
    run_keel "$@"
    expect_result "$name" 2 exact "" "$want"
}

# Total size of the RLP list that starts at byte OFFSET of FILE (a long list: 0xf8-0xff).
rlp_list_size() {
    local file=$1 offset=$2 first len=0
    first=$(od -An -tu1 -j "$offset" -N1 "$file" | tr -d ' ')
    local ll=$((first - 0xf7))
    for byte in $(od -An -tu1 -j $((offset + 1)) -N "$ll" "$file"); do len=$((len * 256 + byte)); done
    echo $((1 + ll + len))
}

# Writes block NUMBER of chain FILE to OUT.
extract_block() {
    local file=$1 number=$2 out=$3 offset=0 size
    for ((i = 0; i < number; i++)); do offset=$((offset + $(rlp_list_size "$file" $offset))); done
    size=$(rlp_list_size "$file" $offset)
    tail -c +$((offset + 1)) "$file" | head -c "$size" >"$out"
}

# A small chain: 30 blocks of 10 transactions, the merge at block 20.
args=(devnet gen --blocks 30 --txs-per-block 10 --merge-at 20)
out=$("$keel" "${args[@]}" --out "$tmp/a.rlp" 2>"$tmp/err"); rc=$?
check gen-exit $((rc != 0)) "exit $rc: $(cat "$tmp/err")"
size=$(stat -c %s "$tmp/a.rlp" 2>/dev/null || echo 0)
want="devnet: 30 blocks (0-29), 290 transactions, $size bytes -> $tmp/a.rlp (merge at 20, chain id 1337)"
[[ "$out" == "$want" ]]; check gen-summary $? "got '$out', want '$want'"
[[ $size -gt 50000 ]]; check gen-size $? "$size bytes"
[[ ! -e "$tmp/a.rlp.tmp" ]]; check gen-no-tmp-left $?

# Deterministic: the same arguments give the same bytes; another seed or chain id does not.
"$keel" "${args[@]}" --out "$tmp/b.rlp" >/dev/null 2>&1
cmp -s "$tmp/a.rlp" "$tmp/b.rlp"; check gen-deterministic $?
"$keel" "${args[@]}" --seed 2 --out "$tmp/c.rlp" >/dev/null 2>&1
! cmp -s "$tmp/a.rlp" "$tmp/c.rlp"; check gen-seed-matters $?
out=$("$keel" "${args[@]}" --chain-id 5 --out "$tmp/d.rlp" 2>/dev/null)
[[ "$out" == *"(merge at 20, chain id 5)" ]]; check gen-chain-id $? "$out"

# The blocks are what `keel block decode` accepts, roots matching: the genesis, a block with an
# ommer (8), the last proof-of-work block (19), the first proof-of-stake one (20), the last.
for n in 0 8 19 20 29; do
    extract_block "$tmp/a.rlp" $n "$tmp/block$n.rlp"
    "$keel" block decode "@$tmp/block$n.rlp" >"$tmp/block$n.json" 2>"$tmp/err"
    check "block-decode-$n" $? "$(cat "$tmp/err")"
done
grep -q '"number": "0x14"' "$tmp/block20.json"; check block-20-number $?
grep -q '"withdrawalCount": 4' "$tmp/block20.json"; check block-20-withdrawals $?
grep -q '"difficulty": "0x0"' "$tmp/block20.json"; check block-20-difficulty $?
! grep -q '"withdrawalCount"' "$tmp/block19.json"; check block-19-no-withdrawals $?
grep -A1 '"uncles"' "$tmp/block8.json" | grep -q '0x'; check block-8-ommer $?

# Usage errors: exit 2, one line, and no file under the final name.
usage_error no-blocks "--blocks 0" -- devnet gen --blocks 0 --txs-per-block 1 --merge-at 0 --out "$tmp/e.rlp"
usage_error too-many-blocks "--blocks 100000001" -- devnet gen --blocks 100000001 --txs-per-block 1 --merge-at 1 --out "$tmp/e.rlp"
usage_error merge-after-end "--merge-at 31" -- devnet gen --blocks 30 --txs-per-block 1 --merge-at 31 --out "$tmp/e.rlp"
usage_error too-many-txs "--txs-per-block 5001" -- devnet gen --blocks 3 --txs-per-block 5001 --merge-at 1 --out "$tmp/e.rlp"
usage_error chain-id-zero "--chain-id 0" -- devnet gen --blocks 3 --txs-per-block 1 --merge-at 1 --chain-id 0 --out "$tmp/e.rlp"
usage_error negative-blocks "--blocks" -- devnet gen --blocks -3 --txs-per-block 1 --merge-at 1 --out "$tmp/e.rlp"
usage_error negative-seed "--seed" -- devnet gen --blocks 3 --txs-per-block 1 --merge-at 1 --seed -1 --out "$tmp/e.rlp"
usage_error no-out "--out" -- devnet gen --blocks 3 --txs-per-block 1 --merge-at 1
usage_error unwritable "cannot write $tmp/missing/x.rlp.tmp" -- devnet gen --blocks 3 --txs-per-block 1 --merge-at 1 --out "$tmp/missing/x.rlp"
[[ ! -e "$tmp/e.rlp" && ! -e "$tmp/e.rlp.tmp" ]]; check errors-write-nothing $?

finish cli_devnet
