#!/usr/bin/env bash
# Usage: storage_test.sh PATH_TO_KEEL. Checks `keel storage prune-pre-merge-blocks` and
# `keel storage verify` from the outside: usage errors, datadirs that hold no store, exit codes
# and one-line error messages. The end-to-end check on an imported chain (import, verify, prune,
# verify again, re-run the prune, read pruned data) is in import_test.sh; the prune and verify logic, kill -9 included, is tested in keel/store/*_test.cpp.
set -uo pipefail
keel=${1:?usage: storage_test.sh PATH_TO_KEEL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

expect_in help 0 "prune-pre-merge-blocks" "" -- storage --help
expect_in help-prune 0 "--until" "" -- storage prune-pre-merge-blocks --help
expect_in help-verify 0 "--datadir" "" -- storage verify --help
expect_in no-subcommand 2 "" "subcommand" -- storage
expect_in unknown-subcommand 2 "" "keel:" -- storage frobnicate
expect_in prune-no-datadir 2 "" "--datadir" -- storage prune-pre-merge-blocks
expect_in verify-no-datadir 2 "" "--datadir" -- storage verify
expect_in prune-bad-until 2 "" "--until" -- storage prune-pre-merge-blocks --datadir "$tmp/db" --until ten
expect_in prune-negative-until 2 "" "--until" -- storage prune-pre-merge-blocks --datadir "$tmp/db" --until -5

# Datadirs without a store: nothing is created, and the message names the directory.
expect_in verify-missing-datadir 1 "" "datadir $tmp/missing: no such directory" -- storage verify --datadir "$tmp/missing"
expect_in prune-missing-datadir 1 "" "datadir $tmp/missing: no such directory" -- storage prune-pre-merge-blocks --datadir "$tmp/missing"
[[ ! -e "$tmp/missing" ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL missing datadir was created"; }
mkdir "$tmp/empty"
expect_in verify-empty-dir 1 "" "$tmp/empty" -- storage verify --datadir "$tmp/empty"
expect_in prune-empty-dir 1 "" "$tmp/empty" -- storage prune-pre-merge-blocks --datadir "$tmp/empty" --until 1
[[ -z $(ls -A "$tmp/empty") ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL a store was created in an empty datadir"; }
echo "not a store" >"$tmp/file"
expect_in verify-file 1 "" "$tmp/file" -- storage verify --datadir "$tmp/file"
expect_in prune-file 1 "" "$tmp/file" -- storage prune-pre-merge-blocks --datadir "$tmp/file"

# ---- rewind: a block whose header is damaged is stored; the way back ----------------------------
gen() {  # gen BLOCKS TXS MERGE OUT
    "$keel" devnet gen --blocks "$1" --txs-per-block "$2" --merge-at "$3" --out "$4" >/dev/null 2>&1
}
gen 40 5 20 "$tmp/chain.rlp" || fail "devnet gen"
# Block 25's state root (header fields: parent 33 bytes, ommers 33, coinbase 21, then the root):
# the header still decodes and its body still matches it, so the importer stores the block, and
# block 26, whose parent hash names the real block 25, stops the import.
cp "$tmp/chain.rlp" "$tmp/bad.rlp"
b25=$(block_at "$tmp/chain.rlp" 25)
read -r hb _ < <(rlp_len "$tmp/chain.rlp" "$b25")
read -r hh _ < <(rlp_len "$tmp/chain.rlp" $((b25 + hb)))
at=$((b25 + hb + hh + 33 + 33 + 21 + 1 + 5))
printf "\\x$(printf %02x $(( $(od -An -tu1 -j "$at" -N1 "$tmp/bad.rlp") ^ 1 )))" |
    dd of="$tmp/bad.rlp" bs=1 seek="$at" conv=notrunc 2>/dev/null
dd="$tmp/rw"
expect_in rewind-bad-import 1 "" "bad.rlp: block 26: parent hash" -- import --no-execute --quiet --datadir "$dd" "$tmp/bad.rlp"
[[ "$err" == *"keel storage rewind --datadir $dd --to 24"* ]]
check rewind-bad-import-names-rewind $? "$err"
[[ $(head_of "$dd") == 25 ]]
check rewind-bad-block-is-head $? "head $(head_of "$dd")"
# The good file meets another block 25: refused, with the block where the two agree.
expect_in rewind-good-refused 1 "" "block 25: hash 0x" -- import --no-execute --quiet --datadir "$dd" "$tmp/chain.rlp"
[[ "$err" == *"(another chain; the file and the store agree up to block 24); to replace the stored blocks above 24: keel storage rewind --datadir $dd --to 24"* ]]
check rewind-good-refused-names-rewind $? "$err"
expect rewind-above-head 2 "" "block 30 is above the head 25" -- storage rewind --quiet --datadir "$dd" --to 30
expect rewind-negative 2 "" "-1 is not a block number (a whole number, 0 or more)" -- storage rewind --datadir "$dd" --to -1
(( ${#err} < 200 ))
check rewind-negative-message-is-short $? "$err"
expect rewind-no-to 2 "" "--to" -- storage rewind --datadir "$dd"
expect rewind-missing-datadir 1 "" "datadir $tmp/missing: no such directory" -- storage rewind --datadir "$tmp/missing" --to 1
expect_in rewind 0 "rewound: head 25 -> 24" "" -- storage rewind --quiet --datadir "$dd" --to 24
[[ "$out" == *"blocks removed: 1"* && "$out" == *"tx lookups removed: 5"* ]]
check rewind-report $? "$out"
expect_in rewind-again 0 "nothing to do: the head is block 24" "" -- storage rewind --quiet --datadir "$dd" --to 24
expect_in rewind-verify 0 "verify: ok" "" -- storage verify --datadir "$dd"
expect_in rewind-reimport 0 "imported 15 blocks" "" -- import --no-execute --quiet --datadir "$dd" "$tmp/chain.rlp"
[[ $(head_of "$dd") == 39 ]]
check rewind-reimported-to-head $? "head $(head_of "$dd")"
expect_in rewind-reimport-verify 0 "transactions: 195" "" -- storage verify --datadir "$dd"
# Rewinding below the merge block forgets it (the re-import finds it again).
expect_in rewind-below-merge 0 "merge block: forgotten" "" -- storage rewind --quiet --datadir "$dd" --to 10
expect_in rewind-below-merge-reimport 0 "imported 29 blocks" "" -- import --no-execute --quiet --datadir "$dd" "$tmp/chain.rlp"
expect_in rewind-below-merge-prune 0 "pruned: history below block 20" "" -- storage prune-pre-merge-blocks --quiet --datadir "$dd"
expect rewind-below-floor 2 "" "block 5 is below the history floor 20" -- storage rewind --quiet --datadir "$dd" --to 5

# kill -9 during a rewind, wherever it lands: the re-run finishes it (verify and import refuse
# the store until then, naming the command).
gen 3000 20 2000 "$tmp/big.rlp" || fail "devnet gen big"
"$keel" import --no-execute --quiet --datadir "$tmp/big-dd" "$tmp/big.rlp" >/dev/null 2>&1
check big-import $?
landed_mid=0
for delay in 0.01 0.05 0.1 0.2 0.4; do
    rm -rf "$tmp/kill-dd"
    cp -r "$tmp/big-dd" "$tmp/kill-dd"
    "$keel" storage rewind --quiet --datadir "$tmp/kill-dd" --to 1000 >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    run_keel storage verify --quiet --datadir "$tmp/kill-dd"
    if [[ "$err" == *"a rewind to block 1000 was interrupted; run the rewind again"* ]]; then
        landed_mid=$((landed_mid + 1))
        expect "rewind-kill-$delay-import-refused" 1 "*" "keel storage rewind --datadir $tmp/kill-dd --to 1000" \
            -- import --no-execute --quiet --datadir "$tmp/kill-dd" "$tmp/big.rlp"
    fi
    run_keel storage rewind --quiet --datadir "$tmp/kill-dd" --to 1000
    [[ $rc == 0 && $(head_of "$tmp/kill-dd") == 1000 ]]
    check "rewind-kill-$delay-rerun" $? "exit $rc, head $(head_of "$tmp/kill-dd"): $out $err"
    expect_in "rewind-kill-$delay-verify" 0 "blocks: 1001 (0..1000)" "" -- storage verify --quiet --datadir "$tmp/kill-dd"
done
echo "storage_test: kill -9 landed inside the rewind $landed_mid of 5 times"
expect_in rewind-kill-reimport 0 "imported 1999 blocks" "" -- import --no-execute --quiet --datadir "$tmp/kill-dd" "$tmp/big.rlp"

# A table file gone from the store: one line naming the store, with RocksDB's "Corruption:" once
# (it used to print "Corruption: Corruption: ...").
cp -r "$tmp/big-dd" "$tmp/nosst"
sst=$(ls "$tmp/nosst"/*.sst | head -1)
rm -f "$sst"
for cmd in "storage verify --quiet" "get block 1"; do
    run_keel $cmd --datadir "$tmp/nosst"
    expect_result "missing-sst-${cmd%% *}" 1 exact "" "$tmp/nosst"
    [[ "$err" == *"$(basename "$sst" .sst)"* && "$err" != *"Corruption: Corruption:"* ]]
    check "missing-sst-${cmd%% *}-once" $? "$err"
done

finish storage_test
