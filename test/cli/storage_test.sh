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

finish storage_test
