#!/usr/bin/env bash
# Usage: import_test.sh PATH_TO_KEEL VECTORS_DIR. End to end through the keel command: a
# generated chain (keel devnet gen) is imported, read back with keel get, re-imported (skipped),
# imported again after kill -9 at several moments (resumes), pruned and verified; damaged files
# (truncated, flipped byte, gap) stop with one line naming file and block; the real Sepolia era1
# archives import with the hashes expected.json names.
set -uo pipefail
keel=${1:?usage: import_test.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: import_test.sh PATH_TO_KEEL VECTORS_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

gen() {  # gen BLOCKS TXS MERGE OUT
    "$keel" devnet gen --blocks "$1" --txs-per-block "$2" --merge-at "$3" --out "$4" >/dev/null 2>&1
}

gen 60 20 40 "$tmp/chain.rlp" || fail "devnet gen"
dd="$tmp/dd"

# ---- import and read back ----------------------------------------------------------------------
expect_in import 0 "import: 60 blocks, 1180 transactions" "" -- import --no-execute --quiet --datadir "$dd" "$tmp/chain.rlp"
[[ "$out" == *"chain.rlp: rlp, blocks 0-59: imported 60 blocks (1180 transactions)"* ]]
check import-file-line $? "$out"
expect_in verify 0 "verify: ok" "" -- storage verify --datadir "$dd"
expect_in get-latest 0 '"number": "0x3b"' "" -- get block latest --datadir "$dd"
latest=$out
tx=$(grep -A1 '"transactions"' <<<"$latest" | tail -1 | tr -d ' ",')
hash=$(grep -m1 '"hash"' <<<"$latest" | tr -d ' ",' | cut -d: -f2)
expect_in get-by-hash 0 '"number": "0x3b"' "" -- get block "$hash" --datadir "$dd"
expect_in get-by-number 0 "\"hash\": \"$hash\"" "" -- get block 59 --datadir "$dd"
expect_in get-full 0 '"transactionIndex": "0x13"' "" -- get block 0x3b --full --datadir "$dd"
expect_in get-genesis 0 '"totalDifficulty"' "" -- get block earliest --datadir "$dd"
expect_in get-tx 0 '"transactionIndex": "0x0"' "" -- get tx "$tx" --datadir "$dd"
[[ "$out" == *'"blockNumber": "0x3b"'* && "$out" == *"\"blockHash\": \"$hash\""* && "$out" == *'"from": "0x'* ]]
check get-tx-fields $? "$out"
expect get-missing-block 1 "" "get block 60: not in the store (head 59)" -- get block 60 --datadir "$dd"
expect get-missing-tx 1 "" "not found" -- get tx 0x$(printf '%064d' 7) --datadir "$dd"
expect get-bad-block 2 "" "is not a block number" -- get block twelve --datadir "$dd"
expect get-bad-hash 2 "" "is not a 32-byte hash" -- get tx 0x1234 --datadir "$dd"
expect get-no-datadir 1 "" "no such directory" -- get block 1 --datadir "$tmp/none"

# ---- resuming ------------------------------------------------------------------------------------
expect_in reimport 0 "already imported, skipped" "" -- import --no-execute --quiet --datadir "$dd" "$tmp/chain.rlp"
[[ "$out" == *"import: 0 blocks, 0 transactions"* ]]
check reimport-writes-nothing $? "$out"

# kill -9 while importing, at several moments; each re-run continues where the store ends.
gen 3000 20 2000 "$tmp/big.rlp" || fail "devnet gen big"
killed_mid=0
for delay in 0.05 0.2 0.4 0.6; do
    "$keel" import --no-execute --quiet --batch 32 --datadir "$tmp/kill" "$tmp/big.rlp" >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    h=$(head_of "$tmp/kill")
    ((h < 2999)) && killed_mid=$((killed_mid + 1))
    # The store opens and is consistent after the kill.
    if [[ -d "$tmp/kill" ]] && "$keel" get block latest --datadir "$tmp/kill" >/dev/null 2>&1; then
        "$keel" storage verify --datadir "$tmp/kill" >/dev/null 2>&1
        check "verify-after-kill-$delay" $? "store inconsistent after kill -9 at ${delay}s"
    fi
done
((killed_mid > 0))
check kill-landed-mid-import $? "no kill -9 landed before the import finished"
expect_in resume 0 "big.rlp: rlp, blocks 0-2999" "" -- import --no-execute --quiet --datadir "$tmp/kill" "$tmp/big.rlp"
[[ $(head_of "$tmp/kill") == 2999 ]]
check resumed-to-head $? "head $(head_of "$tmp/kill")"
expect_in verify-resumed 0 "transactions: 59980" "" -- storage verify --datadir "$tmp/kill"

# ---- damaged input ---------------------------------------------------------------------------------
size=$(stat -c %s "$tmp/chain.rlp")
head -c $((size - 100)) "$tmp/chain.rlp" >"$tmp/cut.rlp"
expect cut 1 "*" "cut.rlp: block 59: truncated or damaged" -- import --no-execute --quiet --datadir "$tmp/cut-dd" "$tmp/cut.rlp"
[[ $(head_of "$tmp/cut-dd") == 58 ]]
check cut-keeps-good-blocks $? "head $(head_of "$tmp/cut-dd")"
# A flipped byte in the middle of the file: import stops at the block that holds it.
cp "$tmp/chain.rlp" "$tmp/flip.rlp"
printf '\x55' | dd of="$tmp/flip.rlp" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
run_keel import --no-execute --quiet --datadir "$tmp/flip-dd" "$tmp/flip.rlp"
expect_result flip 1 exact "*" "flip.rlp: block "
bad=$(sed -E 's/.*flip.rlp: block ([0-9]+):.*/\1/' <<<"$err")
[[ $(head_of "$tmp/flip-dd") == $((bad - 1)) ]]
check flip-stops-before-bad-block $? "bad block $bad, head $(head_of "$tmp/flip-dd"): $err"
# Another chain's blocks at heights the store holds: refused, not skipped.
"$keel" import --no-execute --quiet --datadir "$tmp/other-dd" "$vectors/era1/sepolia-00000-643a00f7.era1" >/dev/null 2>&1
expect other-chain 1 "*" "(another chain)" -- import --no-execute --quiet --datadir "$tmp/other-dd" "$tmp/chain.rlp"
# And the other way round: a Sepolia archive into a store of chain 1337.
expect other-network 1 "*" "a sepolia file, but the store holds chain id 1337" -- import --no-execute --quiet --datadir "$dd" "$vectors/era1/sepolia-00000-643a00f7.era1"
expect usage-no-files 2 "" "files" -- import --no-execute --datadir "$tmp/x"
expect usage-missing-file 2 "" "nope.rlp: No such file or directory" -- import --no-execute --datadir "$tmp/x" "$tmp/nope.rlp"
mkdir -p "$tmp/adir"
expect usage-file-is-dir 2 "" "$tmp/adir: is a directory, not a chain file" -- import --no-execute --datadir "$tmp/x" "$tmp/adir"
echo "not a datadir" >"$tmp/afile"
expect usage-datadir-is-file 2 "" "--datadir $tmp/afile: not a directory" -- import --no-execute --datadir "$tmp/afile" "$tmp/chain.rlp"
[[ ! -e "$tmp/x" && $(cat "$tmp/afile") == "not a datadir" ]]
check usage-errors-create-nothing $? "$(ls "$tmp")"
expect usage-bad-batch 2 "" "--batch: 0 is not a batch size (a whole number from 1 to 100000)" -- import --no-execute --batch 0 --datadir "$tmp/x" "$tmp/chain.rlp"

# ---- a failed import into a new datadir removes what it created, and only that ------------------
# Blocks 1.. of the chain: well formed, but an empty store needs block 0 first, which the import
# finds after the store is created.
tail -c +$(($(block_at "$tmp/chain.rlp" 1) + 1)) "$tmp/chain.rlp" >"$tmp/notablock.rlp"
expect_in fail-new-datadir 1 "" "notablock.rlp" -- import --no-execute --quiet --datadir "$tmp/new/dd" "$tmp/notablock.rlp"
[[ ! -e "$tmp/new" ]]
check fail-removes-new-datadir $? "$(ls -a "$tmp/new" 2>&1)"
mkdir "$tmp/emptydir"
expect_in fail-empty-datadir 1 "" "notablock.rlp" -- import --no-execute --quiet --datadir "$tmp/emptydir" "$tmp/notablock.rlp"
[[ -d "$tmp/emptydir" && -z $(ls -A "$tmp/emptydir") ]]
check fail-empties-existing-dir $? "$(ls -A "$tmp/emptydir")"
# An existing store stays, however the import fails.
expect_in fail-existing-store 1 "" "cut.rlp: block 59: truncated" -- import --no-execute --quiet --datadir "$dd" "$tmp/cut.rlp"
expect_in fail-existing-store-verify 0 "verify: ok" "" -- storage verify --quiet --datadir "$dd"

# ---- pruning end to end ---------------------------------------------------------------------------
early_tx=$("$keel" get block 10 --datadir "$dd" 2>/dev/null | grep -A1 '"transactions"' | tail -1 | tr -d ' ",')
expect_in prune 0 "pruned: history below block 40" "" -- storage prune-pre-merge-blocks --quiet --datadir "$dd"
expect_in verify-pruned 0 "verify: ok" "" -- storage verify --datadir "$dd"
expect_in prune-again 0 "" "" -- storage prune-pre-merge-blocks --quiet --datadir "$dd"
run_keel get block 10 --datadir "$dd"
expect_result pruned-block-header 0 within '"number": "0xa"' "the body is pruned (history below block 40 is pruned)"
expect get-tx-after-prune 0 "*" "" -- get tx "$tx" --datadir "$dd"
expect get-pruned-tx 1 "" "history below block 40 is pruned" -- get tx "$early_tx" --datadir "$dd"

# ---- the real Sepolia era1 archives ----------------------------------------------------------------
expect_in era1 0 "sepolia-00021-b8814b14.era1: era1, blocks 172032-180223: imported 8192 blocks (93 transactions)" "" \
    -- import --no-execute --quiet --datadir "$tmp/sep" "$vectors/era1/sepolia-00021-b8814b14.era1"
expect_in era1-block 0 '"hash": "0xc12a12c367b7230936f39428983c8e47d7d4296a544c2220709ed44ca5425030"' "" \
    -- get block 174010 --datadir "$tmp/sep"
expect_in era1-tx 0 '"from": "0xea1b261fb7ec1c4f2beea2476f17017537b4b507"' "" \
    -- get tx 0x1e7dbef1d524d7fc09b2cffe011ef7b7196b9308e2c392c0bc97d8d3edc16cc6 --datadir "$tmp/sep"
expect era1-before 1 "*" "blocks 0-8191 lie before the stored chain, which starts at block 172032" \
    -- import --no-execute --quiet --datadir "$tmp/sep" "$vectors/era1/sepolia-00000-643a00f7.era1"
expect era1-gap 1 "*" "block 172032: gap: the store ends at block 8191" \
    -- import --no-execute --quiet --datadir "$tmp/sep2" "$vectors/era1/sepolia-00021-b8814b14.era1" "$vectors/era1/sepolia-00000-643a00f7.era1"
# Sepolia's merge block (1450409, from the file name) lies above what this store holds.
expect era1-prune-default 2 "" "block 1450409 is above the head 180223" -- storage prune-pre-merge-blocks --quiet --datadir "$tmp/sep"
expect_in era1-prune 0 "pruned" "" -- storage prune-pre-merge-blocks --quiet --until 180000 --datadir "$tmp/sep"
expect_in era1-verify 0 "verify: ok" "" -- storage verify --datadir "$tmp/sep"

finish import_test
