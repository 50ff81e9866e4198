#!/usr/bin/env bash
# make stress: every CTest entry that touches threads, sockets, timeouts or subprocesses, repeated
# until it fails (at most REPEATS times each) while this script keeps every core busy with CPU
# burners. A newcomer's first `make test` runs on a loaded laptop, not on a quiet CI machine: a
# test that only passes when it has the machine to itself is a defect (DESIGN.md §5).
#   scripts/stress.sh BUILD_DIR [REPEATS]     (default 50; CI runs a short form)
# STRESS_TESTS / STRESS_EXCLUDE override the CTest regexes (e.g. STRESS_TESTS='^rlpx$' make stress).
# STRESS_JOBS entries run at once (default: one per core, as `make test` runs them): beside the
# burners that is twice as many runnable processes as cores, and a round takes half the time.
set -euo pipefail

build=${1:?usage: stress.sh BUILD_DIR [REPEATS]}
repeats=${2:-50}

# Every entry but rlp and evm_state_*: each of the others touches at least one of them.
#   rlpx, cli_p2p, rlpx_interop        sockets, deadlines, sessions read and written by many threads
#   evm_anvil_diff                     anvil and keel as subprocesses, JSON-RPC over loopback
#   chain, evm_blockchain_*            block execution recovers senders on the oneTBB pool
#   store, cli_import, cli_storage,    subprocesses killed mid-write (kill -9), concurrent imports
#   cli_store_concurrency              and readers beside a running import
#   common, crypto, eth, bls, ssz,     the oneTBB pool (parallel helpers, batch sender recovery,
#   beacon, devnet, trie, spec         batch verification, merkleization splits, chain generation)
#   cli*, build_rule_*, bls_constant_time   the keel command, cmake or valgrind as subprocesses
# rlp is single-threaded, pure decoding of in-memory bytes; the evm_state_* entries are one keel
# process each, single-threaded, computing over fixture files (no sockets, no timeouts).
regex=${STRESS_TESTS:-.}
exclude=${STRESS_EXCLUDE:-'^(rlp|evm_state_.*)$'}

cores=$(nproc)
jobs=${STRESS_JOBS:-$cores}
burners=()
stop_burners() {
    ((${#burners[@]})) && kill "${burners[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap stop_burners EXIT
for ((i = 0; i < cores; ++i)); do
    # A pure CPU loop at normal priority: the tests share every core with it.
    bash -c 'while :; do :; done' &
    burners+=($!)
done

echo "stress: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), ${cores} cores" \
     "busy with ${cores} burners, ${jobs} tests at once; each repeated until it fails, at most" \
     "${repeats} times"
start=$SECONDS
ctest --test-dir "$build" -R "$regex" -E "$exclude" --repeat "until-fail:${repeats}" --output-on-failure \
      --timeout 1800 -j "$jobs"
echo "stress: passed in $((SECONDS - start)) s"
