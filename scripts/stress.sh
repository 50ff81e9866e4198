#!/usr/bin/env bash
# make stress: the tests that touch threads, sockets, timeouts or subprocesses, run while the
# machine is busier than a newcomer's laptop: twice as many CPU burners as cores, plus one
# compiler loop per core (a build beside the tests: processes starting, caches and memory
# churned). A test that only passes when it has the machine to itself is a defect (DESIGN.md §5).
#   scripts/stress.sh BUILD_DIR [REPEATS] [CASE_REPEATS]
# Two parts, both beside the load:
#  1. test cases, each repeated CASE_REPEATS times inside its executable (--gtest_repeat, stops
#     at the first failure), so that a one-in-a-few-hundred race shows up in one run;
#  2. the CTest entries that are whole processes talking to each other (the keel command, Node
#     peers, anvil), repeated until they fail, REPEATS times at most (ctest --repeat).
# Defaults: REPEATS 50, CASE_REPEATS 50. CI runs a short form (.ci/run).
# STRESS_CASES / STRESS_TESTS override the lists below (STRESS_TESTS is a CTest regex);
# STRESS_JOBS entries of part 2 run at once (default: one per core, as `make test` runs them).
set -euo pipefail

build=${1:?usage: stress.sh BUILD_DIR [REPEATS] [CASE_REPEATS]}
repeats=${2:-50}
case_repeats=${3:-50}
for n in "$repeats" "$case_repeats"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "stress.sh: repeats must be positive integers, not '$n'" >&2; exit 2; }
done

# Part 1, "executable|gtest filter|divisor": the cases matching the filter, repeated
# CASE_REPEATS / divisor times (at least once; slow cases get a divisor). What each touches:
#   rlpx     sockets over loopback, deadlines, read-ahead, sessions read by one thread and
#            written by others, the listener's poll thread and its timeouts
#   store    kill -9 of a child mid-prune and mid-rewind (at steps and after delays), then the
#            rerun; parallel import and verify (oneTBB); views of recent blocks read by
#            threads while branches are written and unwound (the recent state in memory)
#   eth      batch sender recovery on the pool, two threads recovering the same transactions,
#            threads publishing one transaction's EIP-7702 authorities at once
#   crypto   batch address recovery on every thread count
#   common   the parallel helpers, the progress reporter counted from many threads, the LRU
#            cache from many threads
#   bls      batch verification split over the pool
#   trace    a trace's time limit read from the clock while it runs (TxSelector)
#   rpc      subscriptions: the notifier thread beside the connections subscribing and going;
#            WebSocket sessions over loopback: streamed answers, requests queued behind writes,
#            keep-alive pings and the close of a client that answers none (1 s timers)
default_cases=(
    "keel/rlpx/keel_rlpx_test|*|1"
    "keel/store/keel_store_test|*Crash*|10"
    "keel/store/keel_store_test|VerifyStore*:Era1Import*|10"
    "keel/store/keel_store_test|RecentState*|1"
    "keel/eth/keel_eth_test|RecoverSenders*:DecodeTransactions*:Authorities*|1"
    "keel/crypto/keel_crypto_test|RecoverAddresses*|1"
    "keel/common/keel_common_test|Parallel*:Progress*:LruCache*|1"
    "keel/bls/keel_bls_test|BlsBatchVerify*|1"
    "keel/trace/keel_trace_test|TxSelector*|1"
    "keel/rpc/keel_rpc_test|Filters.Subscriptions*|1"
    "keel/rpc/keel_rpc_test|WebSocket*|5"
)
if [[ -n ${STRESS_CASES:-} ]]; then
    read -r -a cases <<<"$STRESS_CASES"
else
    cases=("${default_cases[@]}")
fi
# Part 2, CTest entries:
#   cli_p2p, rlpx_interop              keel processes (and @ethereumjs/devp2p) over loopback
#   cli_store_concurrency, cli_import, several keel processes on one datadir, kill -9 mid-write
#   cli_storage
#   evm_anvil_diff                     anvil and keel as subprocesses, JSON-RPC over loopback
#                                      (KEEL_EVM_DIFF_PROGRAMS of them under stress)
#   cli_state_crash                    kill -9 at random moments of an executing import
#                                      (KEEL_STATE_CRASH_KILLS of them under stress)
#   cli_state                          trace export's worker threads, one run killed by -9
#   cli_node                           keel node's HTTP and Engine API ports over loopback, SIGTERM
#   rpc_compat_http                    keel node as a subprocess, hive's suite over loopback
#   rpc_abuse                          keel node under 1,000 connections and malformed floods
#   rpc_clients                        ethers, viem and cast against keel node, blocks made meanwhile
#   node_crash                         keel node killed with -9 while an engine client drives it
#                                      (KEEL_NODE_CRASH_KILLS of them under stress)
#   lodestar                           Lodestar's beacon node and validators drive keel node
#                                      (KEEL_LODESTAR_SLOTS of them under stress)
regex=${STRESS_TESTS:-'^(cli_p2p|rlpx_interop|cli_store_concurrency|cli_import|cli_storage|evm_anvil_diff|cli_state_crash|cli_state|cli_node|rpc_compat_http|rpc_abuse|node_crash|rpc_clients|lodestar)$'}
export KEEL_EVM_DIFF_PROGRAMS=${KEEL_EVM_DIFF_PROGRAMS:-100}
export KEEL_STATE_CRASH_KILLS=${KEEL_STATE_CRASH_KILLS:-15}
export KEEL_NODE_CRASH_KILLS=${KEEL_NODE_CRASH_KILLS:-12}
export KEEL_LODESTAR_SLOTS=${KEEL_LODESTAR_SLOTS:-32}

cores=$(nproc)
jobs=${STRESS_JOBS:-$cores}
scratch=$(mktemp -d)
load=()
stop_load() {
    ((${#load[@]})) && kill "${load[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$scratch"
}
trap stop_load EXIT
for ((i = 0; i < 2 * cores; ++i)); do
    # A pure CPU loop at normal priority: the tests share every core with it.
    bash -c 'while :; do :; done' &
    load+=($!)
done
# The compiler loop: a small translation unit with heavy standard headers, over and over.
printf '#include <map>\n#include <regex>\n#include <string>\n#include <vector>\n%s\n' \
    'int f(const std::string& s) { std::map<std::string, std::vector<int>> m; m[s].push_back(1); return std::regex_match(s, std::regex("a+b")) + int(m.size()); }' \
    >"$scratch/load.cpp"
for ((i = 0; i < cores; ++i)); do
    bash -c "while :; do c++ -O2 -c '$scratch/load.cpp' -o '$scratch/load$i.o' 2>/dev/null || sleep 1; done" &
    load+=($!)
done

echo "stress: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), ${cores} cores" \
     "busy with $((2 * cores)) CPU burners and ${cores} compiler loops"
start=$SECONDS

echo "stress: part 1: each test case ${case_repeats} times in a row (slow ones fewer)"
for c in "${cases[@]}"; do
    IFS='|' read -r rel filter divisor <<<"$c"
    exe=$build/$rel
    n=$((case_repeats / ${divisor:-1}))
    ((n > 0)) || n=1
    [[ -x $exe ]] || { echo "stress: no test executable $exe (build first)" >&2; exit 1; }
    t0=$SECONDS
    if ! "$exe" --gtest_brief=1 --gtest_filter="$filter" --gtest_repeat="$n" \
        --gtest_fail_fast=1 >"$scratch/out" 2>&1; then
        tail -n 60 "$scratch/out"
        echo "stress: FAILED ${exe##*/} --gtest_filter='$filter' within $n repeats"
        exit 1
    fi
    echo "stress: ${exe##*/} '$filter' x$n: passed in $((SECONDS - t0)) s"
done

echo "stress: part 2: CTest entries '$regex', each until it fails, at most ${repeats} times," \
     "${jobs} at once"
ctest --test-dir "$build" -R "$regex" --repeat "until-fail:${repeats}" --output-on-failure \
      --timeout 1800 -j "$jobs"
echo "stress: passed in $((SECONDS - start)) s"
