#!/usr/bin/env bash
# Usage: state_crash_test.sh PATH_TO_KEEL VECTORS_DIR [KILLS]. kill -9 at random moments of an
# executing import (mainnet from genesis through its first era1 archive, every block's state in
# the same atomic write as the block): after each kill the store opens, storage verify passes
# (the state root recomputed from the flat state equals the head header's, the tries complete),
# the state head is the chain head (never a head without its state, never state ahead of it),
# and the next run continues from there. KILLS (default 50) kills must land mid-import; the
# datadir starts again from keel init whenever an import finishes before its kill.
set -uo pipefail
keel=${1:?usage: state_crash_test.sh PATH_TO_KEEL VECTORS_DIR [KILLS]}
vectors=${2:?usage: state_crash_test.sh PATH_TO_KEEL VECTORS_DIR [KILLS]}
# KEEL_STATE_CRASH_KILLS overrides the count (make stress runs fewer beside its CPU burners).
kills=${KEEL_STATE_CRASH_KILLS:-${3:-50}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

era1=$(ls "$vectors"/era1/mainnet/mainnet-00000-*.era1)
dd="$tmp/dd"
fresh() {
    rm -rf "$dd"
    "$keel" init --datadir "$dd" --network mainnet >/dev/null 2>&1 || fail "init"
}
fresh
landed=0 rounds=0 bad=0
while ((landed < kills && rounds < kills * 4)); do
    rounds=$((rounds + 1))
    "$keel" import --quiet --datadir "$dd" "$era1" >/dev/null 2>"$tmp/import.err" &
    pid=$!
    # 0-0.4 s: from before the first block to deep into the file.
    sleep "0.$(printf '%03d' $((RANDOM % 400)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    rc=$?
    if ((rc != 137)); then
        # Finished (or failed) before the kill: a failure is a defect, a finish starts over.
        ((rc == 0)) || { fail "import exited $rc: $(cat "$tmp/import.err")"; bad=1; break; }
        fresh
        continue
    fi
    landed=$((landed + 1))
    out=$("$keel" storage verify --quiet --datadir "$dd" 2>&1)
    if [[ $? != 0 ]]; then
        fail "verify after kill $landed: $out"
        bad=1
        break
    fi
    head=$(sed -nE 's/^blocks: [0-9]+ \([0-9]+\.\.([0-9]+)\)$/\1/p' <<<"$out")
    state=$(sed -nE 's/^state: block ([0-9]+), .*/\1/p' <<<"$out")
    if [[ -z "$head" || "$head" != "$state" ]]; then
        fail "after kill $landed: chain head '$head', state head '$state'"
        bad=1
        break
    fi
done
((bad == 0)) && pass
((landed >= kills))
check kills-landed $? "only $landed of $kills kills landed mid-import in $rounds rounds"
expect_in resume 0 "state: block 8191, root 0x5e184cd804670d251e30fdb3260b92031edc70077b4d1e8d7694bc660895ee7d" "" \
    -- import --quiet --datadir "$dd" "$era1"
expect_in verify-at-end 0 "state: block 8191" "" -- storage verify --quiet --datadir "$dd"
echo "state_crash_test: $landed kills landed mid-import in $rounds rounds"
finish state_crash_test
