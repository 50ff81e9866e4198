#!/usr/bin/env bash
# Usage: store_concurrency_test.sh PATH_TO_KEEL. The datadir under several keel processes at once:
# two imports creating the same new datadir (one creates it, the other gets one clear line, and
# the store is whole afterwards), `keel get` and `keel storage verify` while an import writes the
# store (read-only opens: no LOCK error), and read-only commands leave no file behind. Meant to
# pass 50 repeats in a row on a loaded machine (DESIGN.md §5).
set -uo pipefail
keel=${1:?usage: store_concurrency_test.sh PATH_TO_KEEL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

# The generated chains are deterministic and take seconds to sign: made once, beside the binary,
# and reused by the repeats (written under a temporary name, then renamed).
cache=$(dirname "$keel")/test-chains
mkdir -p "$cache"
chain() {  # chain BLOCKS TXS MERGE: the path of that generated chain
    local f="$cache/chain-$1-$2-$3.rlp"
    if [[ ! -s "$f" ]]; then
        "$keel" devnet gen --blocks "$1" --txs-per-block "$2" --merge-at "$3" --out "$f.$$" >/dev/null 2>&1 &&
            mv "$f.$$" "$f"
    fi
    echo "$f"
}
cp "$(chain 300 20 200)" "$tmp/chain.rlp"
check gen $?

# ---- two imports create the same datadir ---------------------------------------------------------
for i in 1 2; do
    dd="$tmp/both-$i"
    "$keel" import --no-execute --quiet --datadir "$dd" "$tmp/chain.rlp" >"$tmp/a.out" 2>"$tmp/a.err" &
    a=$!
    "$keel" import --no-execute --quiet --datadir "$dd" "$tmp/chain.rlp" >"$tmp/b.out" 2>"$tmp/b.err" &
    b=$!
    wait "$a"; ra=$?
    wait "$b"; rb=$?
    ((ra == 0 || rb == 0))
    check "both-$i-one-succeeds" $? "exits $ra $rb: $(cat "$tmp/a.err" "$tmp/b.err")"
    for side in a b; do
        r=$([[ $side == a ]] && echo "$ra" || echo "$rb")
        ((r == 0)) && continue
        e=$(cat "$tmp/$side.err")
        # The loser: one line, saying another process has the store.
        [[ $(printf '%s\n' "$e" | wc -l) == 1 && "$e" == keel:* &&
            ("$e" == *"another process is creating this store"* || "$e" == *"in use by another process"*) ]]
        check "both-$i-loser-$side-one-line" $? "exit $r: $e"
    done
    expect_in "both-$i-verify" 0 "blocks: 300 (0..299)" "" -- storage verify --quiet --datadir "$dd"
    [[ ! -e "$dd.creating" && ! -e "$dd.lock" ]]
    check "both-$i-no-leftovers" $? "$(ls -a "$tmp")"
done

# ---- read-only commands leave nothing behind ------------------------------------------------------
dd="$tmp/both-1"
before=$(ls -A "$dd" | sort)
for i in $(seq 20); do
    "$keel" get block latest --datadir "$dd" >/dev/null 2>&1 || fail "get $i"
done
"$keel" storage verify --quiet --datadir "$dd" >/dev/null 2>&1 || fail "verify"
after=$(ls -A "$dd" | sort)
[[ "$before" == "$after" ]]
check read-only-leaves-no-files $? "before: $before; after: $after"

# ---- reads while an import writes -------------------------------------------------------------------
cp "$(chain 3000 20 2000)" "$tmp/big.rlp"
check gen-big $?
dd="$tmp/busy"
# A store with the genesis block, so that readers find a store from the start.
head -c "$(block_at "$tmp/big.rlp" 1)" "$tmp/big.rlp" >"$tmp/one.rlp"
"$keel" import --no-execute --quiet --datadir "$dd" "$tmp/one.rlp" >/dev/null 2>&1
check genesis-import $?
"$keel" import --no-execute --quiet --batch 16 --datadir "$dd" "$tmp/big.rlp" >/dev/null 2>"$tmp/import.err" &
pid=$!
reads=0 during=0
while kill -0 "$pid" 2>/dev/null || ((reads == 0)); do
    run_keel get block latest --datadir "$dd"
    expect_result "get-during-import-$reads" 0 within '"number"' ""
    ((rc == 0)) || echo "  $err"
    if ((reads % 4 == 0)); then  # a verify reads the whole store: every 4th round
        run_keel storage verify --quiet --datadir "$dd"
        expect_result "verify-during-import-$reads" 0 within "verify: ok" ""
        ((rc == 0)) || echo "  $err"
    fi
    kill -0 "$pid" 2>/dev/null && during=$((during + 1))
    reads=$((reads + 1))
    ((reads < 500)) || break
done
wait "$pid"
check import-beside-readers $? "$(cat "$tmp/import.err")"
echo "store_concurrency_test: $reads read rounds, $during of them while the import ran"
expect_in after-import 0 "blocks: 3000 (0..2999)" "" -- storage verify --quiet --datadir "$dd"

finish store_concurrency_test
