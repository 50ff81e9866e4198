#!/usr/bin/env bash
# make stress: every CTest entry that touches threads, sockets, timeouts or subprocesses, repeated
# until it fails (at most REPEATS times each) while this script keeps every core busy with CPU
# burners. A newcomer's first `make test` runs on a loaded laptop, not on a quiet CI machine: a
# test that only passes when it has the machine to itself is a defect (DESIGN.md §5).
#   scripts/stress.sh BUILD_DIR [REPEATS]     (default 50; CI runs a short form)
# STRESS_TESTS overrides the CTest regex (e.g. STRESS_TESTS='^rlpx$' make stress).
set -euo pipefail

build=${1:?usage: stress.sh BUILD_DIR [REPEATS]}
repeats=${2:-50}

# The entries, and what in each can race or time out:
#   rlpx, cli_p2p, rlpx_interop   sockets, deadlines, a session read and written by several threads
#   store, cli_import, cli_storage  subprocesses killed mid-write (kill -9), concurrent imports,
#                                 readers during an import, oneTBB batches in import
#   eth                           oneTBB batch sender recovery
#   bls                           oneTBB batch verification
#   ssz, beacon                   oneTBB splits of large merkleizations
#   cli, cli_devnet, cli_ssz, cli_bls   the keel command as a subprocess (exit codes, stdin, files)
default='^(rlpx|cli_p2p|rlpx_interop|store|cli_import|cli_storage|eth|bls|ssz|beacon|cli|cli_devnet|cli_ssz|cli_bls)$'
regex=${STRESS_TESTS:-$default}

cores=$(nproc)
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
     "busy with ${cores} burners; each test repeated until it fails, at most ${repeats} times"
start=$SECONDS
ctest --test-dir "$build" -R "$regex" --repeat "until-fail:${repeats}" --output-on-failure \
      --timeout 1800 -j 1
echo "stress: passed in $((SECONDS - start)) s"
