#!/usr/bin/env bash
# Usage: devnet_test.sh PATH_TO_KEEL. End-to-end checks of `keel devnet gen`: the summary line,
# the file (size, determinism, blocks that `keel block decode` accepts with matching roots), and
# usage errors (exit 2, one line on stderr starting with "keel:", no file written); and of
# `keel devnet gen-beacon-block` / `gen-beacon-state`: outputs that `keel ssz block-root` and
# `keel ssz root` accept with the root the summary printed, determinism, usage errors.
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
usage_error negative-blocks "-3 is not a block count (a whole number, 0 or more)" -- devnet gen --blocks -3 --txs-per-block 1 --merge-at 1 --out "$tmp/e.rlp"
usage_error negative-seed "-1 is not a seed (a whole number, 0 or more)" -- devnet gen --blocks 3 --txs-per-block 1 --merge-at 1 --seed -1 --out "$tmp/e.rlp"
usage_error no-out "--out" -- devnet gen --blocks 3 --txs-per-block 1 --merge-at 1
usage_error unwritable "cannot write $tmp/missing/x.rlp.tmp" -- devnet gen --blocks 3 --txs-per-block 1 --merge-at 1 --out "$tmp/missing/x.rlp"
# --out naming a directory: refused before generating anything (one line, exit 2, no .tmp left).
mkdir -p "$tmp/outdir"
usage_error out-is-directory "keel: devnet gen: --out $tmp/outdir: is a directory" -- devnet gen --blocks 2000 --txs-per-block 50 --merge-at 1 --out "$tmp/outdir"
[[ ! -e "$tmp/outdir.tmp" && -z "$(ls -A "$tmp/outdir")" ]]; check out-is-directory-nothing-written $?
[[ ! -e "$tmp/e.rlp" && ! -e "$tmp/e.rlp.tmp" ]]; check errors-write-nothing $?

# Beacon blocks: the deneb default, accepted by `keel ssz block-root` (fork from the slot) with
# the root the summary printed; deterministic; the seed matters.
out=$("$keel" devnet gen-beacon-block --out "$tmp/b.ssz" 2>"$tmp/err"); rc=$?
check beacon-block-exit $((rc != 0)) "exit $rc: $(cat "$tmp/err")"
size=$(stat -c %s "$tmp/b.ssz" 2>/dev/null || echo 0)
want="devnet: deneb SignedBeaconBlock, slot *, $size bytes, 128 attestations, 200 transactions, block root 0x* -> $tmp/b.ssz (* ms)"
[[ "$out" == $want ]]; check beacon-block-summary $? "got '$out'"
[[ $size -gt 120000 && $size -lt 170000 ]]; check beacon-block-size $? "$size bytes"
[[ ! -e "$tmp/b.ssz.tmp" ]]; check beacon-block-no-tmp-left $?
root=$(sed -n 's/.*block root \(0x[0-9a-f]\{64\}\) .*/\1/p' <<<"$out")
got=$("$keel" ssz block-root "$tmp/b.ssz" 2>"$tmp/err"); rc=$?
check beacon-block-root-exit $rc "$(cat "$tmp/err")"
[[ -n "$root" && "$got" == "$root" ]]; check beacon-block-root $? "got '$got', want '$root'"
grep -q "deneb.BeaconBlock" "$tmp/err"; check beacon-block-fork-from-slot $? "$(cat "$tmp/err")"
"$keel" ssz root --type deneb.SignedBeaconBlock "$tmp/b.ssz" >/dev/null 2>"$tmp/err"
check beacon-block-signed-type $? "$(cat "$tmp/err")"
"$keel" devnet gen-beacon-block --out "$tmp/b2.ssz" >/dev/null 2>&1
cmp -s "$tmp/b.ssz" "$tmp/b2.ssz"; check beacon-block-deterministic $?
"$keel" devnet gen-beacon-block --seed 2 --out "$tmp/b3.ssz" >/dev/null 2>&1
! cmp -s "$tmp/b.ssz" "$tmp/b3.ssz"; check beacon-block-seed-matters $?

# An electra block with fewer attestations and transactions.
out=$("$keel" devnet gen-beacon-block --fork electra --attestations 4 --txs 20 --out "$tmp/be.ssz" 2>"$tmp/err")
check beacon-electra-block-exit $? "$(cat "$tmp/err")"
[[ "$out" == "devnet: electra SignedBeaconBlock, slot "*", 4 attestations, 20 transactions, "* ]]
check beacon-electra-block-summary $? "got '$out'"
root=$(sed -n 's/.*block root \(0x[0-9a-f]\{64\}\) .*/\1/p' <<<"$out")
got=$("$keel" ssz block-root "$tmp/be.ssz" 2>"$tmp/err")
[[ -n "$root" && "$got" == "$root" ]]; check beacon-electra-block-root $? "got '$got', want '$root'"
grep -q "electra.BeaconBlock" "$tmp/err"; check beacon-electra-fork-from-slot $? "$(cat "$tmp/err")"

# A fulu block (mainnet since epoch 411392): block-root picks fulu from the slot.
out=$("$keel" devnet gen-beacon-block --fork fulu --txs 20 --out "$tmp/bf.ssz" 2>"$tmp/err")
check beacon-fulu-block-exit $? "$(cat "$tmp/err")"
[[ "$out" == "devnet: fulu SignedBeaconBlock, slot "*", 8 attestations, 20 transactions, "* ]]
check beacon-fulu-block-summary $? "got '$out'"
root=$(sed -n 's/.*block root \(0x[0-9a-f]\{64\}\) .*/\1/p' <<<"$out")
slot=$(sed -n 's/.*slot \([0-9]*\),.*/\1/p' <<<"$out")
(( slot >= 411392 * 32 )); check beacon-fulu-block-slot $? "slot '$slot'"
got=$("$keel" ssz block-root "$tmp/bf.ssz" 2>"$tmp/err")
[[ -n "$root" && "$got" == "$root" ]]; check beacon-fulu-block-root $? "got '$got', want '$root'"
grep -q "fulu.BeaconBlock" "$tmp/err"; check beacon-fulu-fork-from-slot $? "$(cat "$tmp/err")"

# Beacon states: `keel ssz root --type <fork>.BeaconState` gives the root the summary printed.
for fork in deneb electra fulu; do
    out=$("$keel" devnet gen-beacon-state --validators 5000 --fork $fork --out "$tmp/s-$fork.ssz" 2>"$tmp/err")
    check "beacon-state-$fork-exit" $? "$(cat "$tmp/err")"
    size=$(stat -c %s "$tmp/s-$fork.ssz" 2>/dev/null || echo 0)
    [[ "$out" == "devnet: $fork BeaconState, slot "*", 5000 validators, $size bytes, root 0x"*" -> $tmp/s-$fork.ssz ("* ]]
    check "beacon-state-$fork-summary" $? "got '$out'"
    root=$(sed -n 's/.*, root \(0x[0-9a-f]\{64\}\) .*/\1/p' <<<"$out")
    got=$("$keel" ssz root --type $fork.BeaconState "$tmp/s-$fork.ssz" 2>"$tmp/err")
    [[ -n "$root" && "$got" == "$root" ]]; check "beacon-state-$fork-root" $? "got '$got', want '$root' $(cat "$tmp/err")"
done
"$keel" devnet gen-beacon-state --validators 5000 --out "$tmp/s2.ssz" >/dev/null 2>&1
cmp -s "$tmp/s-deneb.ssz" "$tmp/s2.ssz"; check beacon-state-deterministic $?
"$keel" devnet gen-beacon-state --validators 5000 --seed 3 --out "$tmp/s3.ssz" >/dev/null 2>&1
! cmp -s "$tmp/s-deneb.ssz" "$tmp/s3.ssz"; check beacon-state-seed-matters $?

# Beacon usage errors: exit 2, one line, nothing written.
usage_error beacon-fork-unsupported "--fork capella" -- devnet gen-beacon-block --fork capella --out "$tmp/e.ssz"
usage_error beacon-fork-unknown "--fork foo" -- devnet gen-beacon-block --fork foo --out "$tmp/e.ssz"
usage_error beacon-too-many-attestations "--attestations 129" -- devnet gen-beacon-block --attestations 129 --out "$tmp/e.ssz"
usage_error beacon-electra-attestations "--attestations 9" -- devnet gen-beacon-block --fork electra --attestations 9 --out "$tmp/e.ssz"
usage_error beacon-too-many-txs "--txs 5001" -- devnet gen-beacon-block --txs 5001 --out "$tmp/e.ssz"
usage_error beacon-negative-seed "--seed" -- devnet gen-beacon-block --seed -1 --out "$tmp/e.ssz"
usage_error beacon-block-no-out "--out" -- devnet gen-beacon-block
usage_error beacon-state-no-validators "--validators" -- devnet gen-beacon-state --out "$tmp/e.ssz"
usage_error beacon-state-zero "--validators 0" -- devnet gen-beacon-state --validators 0 --out "$tmp/e.ssz"
usage_error beacon-state-too-many "--validators 2000001" -- devnet gen-beacon-state --validators 2000001 --out "$tmp/e.ssz"
usage_error beacon-state-fork "--fork phase0" -- devnet gen-beacon-state --validators 10 --fork phase0 --out "$tmp/e.ssz"
usage_error beacon-unwritable "cannot write $tmp/missing/x.ssz.tmp" -- devnet gen-beacon-state --validators 10 --out "$tmp/missing/x.ssz"
usage_error beacon-block-out-dir "keel: devnet gen-beacon-block: --out $tmp/outdir: is a directory" -- devnet gen-beacon-block --out "$tmp/outdir"
usage_error beacon-state-out-dir "keel: devnet gen-beacon-state: --out $tmp/outdir: is a directory" -- devnet gen-beacon-state --validators 10 --out "$tmp/outdir"
usage_error beacon-fulu-attestations "--attestations 9" -- devnet gen-beacon-block --fork fulu --attestations 9 --out "$tmp/e.ssz"
usage_error beacon-fork-gloas "--fork gloas: unknown fork (want deneb, electra or fulu)" -- devnet gen-beacon-block --fork gloas --out "$tmp/e.ssz"
[[ ! -e "$tmp/e.ssz" && ! -e "$tmp/e.ssz.tmp" ]]; check beacon-errors-write-nothing $?

# --contracts: a chain with real state. Six blocks (the genesis, the deployments and setup, then
# steady blocks of every kind), its genesis beside it; keel init and an executing import accept
# every block's roots; storage verify recomputes the state root; the same bytes every time.
out=$("$keel" devnet gen --contracts --blocks 6 --out "$tmp/c.rlp" 2>"$tmp/err"); rc=$?
check contracts-exit $((rc != 0)) "exit $rc: $(cat "$tmp/err")"
[[ "$out" == "devnet: 6 blocks (0-5), "*" -> $tmp/c.rlp, genesis $tmp/c.genesis.json (chain id 1337, "* ]]
check contracts-summary $? "$out"
[[ "$out" == *"transactions by kind: setup 1032, new_account "* ]]; check contracts-kinds $? "$out"
[[ -s "$tmp/c.genesis.json" && ! -e "$tmp/c.rlp.tmp" && ! -e "$tmp/c.rlp.work" ]]
check contracts-files $? "$(ls "$tmp")"
"$keel" init --datadir "$tmp/cd" --genesis "$tmp/c.genesis.json" >/dev/null 2>"$tmp/err"
check contracts-init $? "$(cat "$tmp/err")"
out=$("$keel" import --datadir "$tmp/cd" "$tmp/c.rlp" 2>"$tmp/err"); rc=$?
check contracts-import $rc "$(cat "$tmp/err")"
[[ "$out" == *"head 5"* && "$out" == *"executed: 5 blocks"* ]]; check contracts-import-head $? "$out"
out=$("$keel" storage verify --quiet --datadir "$tmp/cd" 2>"$tmp/err"); rc=$?
check contracts-verify $rc "$(cat "$tmp/err")"
[[ "$out" == *"state on disk: accounts "* ]]; check contracts-verify-sizes $? "$out"
"$keel" devnet gen --contracts --blocks 6 --out "$tmp/c2.rlp" >/dev/null 2>&1
cmp -s "$tmp/c.rlp" "$tmp/c2.rlp" && cmp -s "$tmp/c.genesis.json" "$tmp/c2.genesis.json"
check contracts-deterministic $?
out=$("$keel" devnet gen --contracts --no-blobs --blocks 4 --out "$tmp/nb.rlp" 2>"$tmp/err"); rc=$?
check contracts-no-blobs $rc "$(cat "$tmp/err")"
[[ "$out" == *" 0 blobs,"* && "$out" == *", blob 0, "* ]]; check contracts-no-blobs-kinds $? "$out"
usage_error no-blobs-needs-contracts "--no-blobs" -- devnet gen --blocks 3 --txs-per-block 1 --merge-at 1 --no-blobs --out "$tmp/e.rlp"
usage_error contracts-one-block "--blocks 1: want 2..100000000" -- devnet gen --contracts --blocks 1 --out "$tmp/e.rlp"
usage_error contracts-gas-limit "--gas-limit 100: want 10000000..2000000000" -- devnet gen --contracts --blocks 3 --gas-limit 100 --out "$tmp/e.rlp"
usage_error contracts-with-txs "excludes" -- devnet gen --contracts --blocks 3 --txs-per-block 5 --out "$tmp/e.rlp"
usage_error gas-limit-needs-contracts "--gas-limit" -- devnet gen --blocks 3 --txs-per-block 1 --merge-at 1 --gas-limit 30000000 --out "$tmp/e.rlp"
usage_error no-txs-without-contracts "--txs-per-block and --merge-at are required" -- devnet gen --blocks 3 --out "$tmp/e.rlp"
[[ ! -e "$tmp/e.rlp" && ! -e "$tmp/e.rlp.tmp" && ! -e "$tmp/e.genesis.json" && ! -e "$tmp/e.rlp.work" ]]
check contracts-errors-write-nothing $? "$(ls "$tmp")"

finish cli_devnet
