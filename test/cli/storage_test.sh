#!/usr/bin/env bash
# Usage: storage_test.sh PATH_TO_KEEL. Checks `keel storage prune-pre-merge-blocks` and
# `keel storage verify` from the outside: usage errors, datadirs that hold no store, exit codes
# and one-line error messages. The end-to-end check on an imported chain (import, verify, prune,
# verify again, re-run the prune) lives with the import command's tests, which can build a
# store; the prune and verify logic, kill -9 included, is tested in keel/store/*_test.cpp.
set -uo pipefail
keel=${1:?usage: storage_test.sh PATH_TO_KEEL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# expect NAME WANT_RC WANT_STDOUT_SUBSTRING WANT_STDERR_SUBSTRING -- ARGS...
# A non-empty WANT_STDERR_SUBSTRING also requires stderr to be one line starting with "keel:".
expect() {
    local name=$1 want_rc=$2 want_out=$3 want_err=$4
    shift 5
    local out err rc why=""
    out=$("$keel" "$@" 2>"$tmp/err" </dev/null); rc=$?
    err=$(cat "$tmp/err")
    [[ $rc == "$want_rc" ]] || why+=" exit $rc (want $want_rc)"
    [[ "$out" == *"$want_out"* ]] || why+=" stdout '$out' lacks '$want_out'"
    if [[ -n "$want_err" ]]; then
        [[ "$err" == *"$want_err"* ]] || why+=" stderr '$err' lacks '$want_err'"
        [[ $(printf '%s\n' "$err" | wc -l) == 1 ]] || why+=" stderr is not one line: '$err'"
        [[ "$err" == keel:* ]] || why+=" stderr does not start with 'keel:'"
    fi
    if [[ -z "$why" ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $name:$why"
    fi
}

expect help 0 "prune-pre-merge-blocks" "" -- storage --help
expect help-prune 0 "--until" "" -- storage prune-pre-merge-blocks --help
expect help-verify 0 "--datadir" "" -- storage verify --help
expect no-subcommand 2 "" "subcommand" -- storage
expect unknown-subcommand 2 "" "keel:" -- storage frobnicate
expect prune-no-datadir 2 "" "--datadir" -- storage prune-pre-merge-blocks
expect verify-no-datadir 2 "" "--datadir" -- storage verify
expect prune-bad-until 2 "" "--until" -- storage prune-pre-merge-blocks --datadir "$tmp/db" --until ten
expect prune-negative-until 2 "" "--until" -- storage prune-pre-merge-blocks --datadir "$tmp/db" --until -5

# Datadirs without a store: nothing is created, and the message names the directory.
expect verify-missing-datadir 1 "" "datadir $tmp/missing: no such directory" -- storage verify --datadir "$tmp/missing"
expect prune-missing-datadir 1 "" "datadir $tmp/missing: no such directory" -- storage prune-pre-merge-blocks --datadir "$tmp/missing"
[[ ! -e "$tmp/missing" ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL missing datadir was created"; }
mkdir "$tmp/empty"
expect verify-empty-dir 1 "" "$tmp/empty" -- storage verify --datadir "$tmp/empty"
expect prune-empty-dir 1 "" "$tmp/empty" -- storage prune-pre-merge-blocks --datadir "$tmp/empty" --until 1
[[ -z $(ls -A "$tmp/empty") ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL a store was created in an empty datadir"; }
echo "not a store" >"$tmp/file"
expect verify-file 1 "" "$tmp/file" -- storage verify --datadir "$tmp/file"
expect prune-file 1 "" "$tmp/file" -- storage prune-pre-merge-blocks --datadir "$tmp/file"

echo "storage_test: $passed passed, $failed failed"
((failed == 0))
