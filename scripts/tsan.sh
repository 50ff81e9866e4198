#!/usr/bin/env bash
# make tsan: the concurrent paths under ThreadSanitizer (clang 19, build/tsan).
#   rlpx   sessions read by one thread and written by others, disconnect() from any thread
#   store  parallel import and verify (oneTBB), readers beside a writer
#   eth    batch sender recovery (oneTBB), two threads recovering the same transactions
#   rpc    subscriptions: the notifier thread beside connections that subscribe, unsubscribe and
#          go, and the pool's listener; WebSocket sessions (answers, pings, notifications' queue)
#   common the LRU cache shared by threads
# A report fails the run (halt_on_error); Debian's oneTBB is not instrumented, so its pool's own
# synchronisation is invisible to TSan: scripts/tsan.supp says what is suppressed and why.
#   scripts/tsan.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: tsan.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
# Suppressions match function names, so reports must be symbolized: Debian's llvm-symbolizer
# (llvm-14, when installed) cannot serve clang 19's runtime, which then prints bare addresses
# and matches nothing; binutils' addr2line (always beside g++) can.
symbolizer=$(command -v llvm-symbolizer-19 || command -v addr2line)
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=${here}/tsan.supp external_symbolizer_path=${symbolizer}"

run() {
    local exe=$1
    shift
    echo "tsan: ${exe##*/} $*"
    "$exe" --gtest_brief=1 "$@"
}

run "$build/keel/rlpx/keel_rlpx_test"
# The crash tests (kill -9 of a forked child mid-prune or mid-rewind) test crash safety, not
# threads; a fork of a multithreaded process is outside what TSan supports.
run "$build/keel/store/keel_store_test" --gtest_filter='-*PruneCrash*:*RewindCrash*'
run "$build/keel/eth/keel_eth_test"
run "$build/keel/rpc/keel_rpc_test" --gtest_filter='Filters.Subscriptions*:WebSocket*'
run "$build/keel/common/keel_common_test" --gtest_filter='LruCache*'
echo "tsan: clean"
