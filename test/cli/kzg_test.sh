#!/usr/bin/env bash
# Usage: kzg_test.sh PATH_TO_KEEL VECTORS_DIR. `keel kzg ...` on the consensus-spec KZG reference
# cases (../shared/vectors/kzg: blob_to_kzg_commitment, verify_blob_kzg_proof,
# compute_cells_and_kzg_proofs, recover_cells_and_kzg_proofs, verify_cell_kzg_proof_batch), each
# case's input written as the command takes it (blobs as raw files, lists as JSON), and the
# bad-input paths with their one-line messages and exit codes. The cases' YAML is read with
# python3-yaml (scripts/deps.sh).
set -uo pipefail
keel=${1:?usage: kzg_test.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: kzg_test.sh PATH_TO_KEEL VECTORS_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"
v="$vectors/kzg"

# case_files DIR: writes DIR's case as the command's inputs into $tmp/case/ (blob, commitment,
# proof: raw bytes; cells.json for the cell commands; want: the expected stdout or "null").
case_files() {
    rm -rf "$tmp/case" && mkdir -p "$tmp/case"
    python3 - "$1/data.yaml" "$tmp/case" <<'PY'
import json, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
out, inp = sys.argv[2], doc["input"]
def raw(name, value):
    open(f"{out}/{name}", "wb").write(bytes.fromhex(value[2:]) if value.startswith("0x") else b"bad")
for key in ("blob", "commitment", "proof"):
    if key in inp:
        raw(key, inp[key])
if "cells" in inp:
    json.dump({k: inp[k] for k in ("commitments", "cell_indices", "cells", "proofs") if k in inp},
              open(f"{out}/cells.json", "w"))
want = doc["output"]
if want is None:
    text = "null"
elif isinstance(want, bool):
    text = "valid" if want else "invalid"
elif isinstance(want, str):
    text = want
else:  # [cells, proofs]
    text = json.dumps({"cells": want[0], "proofs": want[1]}, separators=(",", ":"))
open(f"{out}/want", "w").write(text)
PY
}

# judge NAME: the last run_keel against $tmp/case/want: a "null" case must fail with exit 1 and
# one line; any other must print what the case says (valid / invalid, exit 0 / 1).
judge() {
    local name=$1 want
    want=$(cat "$tmp/case/want")
    if [[ $want == null ]]; then
        expect_result "$name" 1 exact "*" "keel: kzg"
    elif [[ $want == invalid ]]; then
        expect_result "$name" 1 exact invalid "keel: kzg"
    else
        expect_result "$name" 0 exact "$want" ""
    fi
}

# compact: keel's JSON as Python writes it compactly (the same lists, the same order).
compact() { python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), separators=(",", ":")))'; }

n=0
for d in "$v"/blob_to_kzg_commitment/kzg-mainnet/*/; do
    case_files "$d"
    run_keel kzg commit "@$tmp/case/blob"
    judge "commit-$(basename "$d")"
    n=$((n + 1))
done
for d in "$v"/verify_blob_kzg_proof/kzg-mainnet/*/; do
    case_files "$d"
    run_keel kzg verify-blob "@$tmp/case/blob" "@$tmp/case/commitment" "@$tmp/case/proof"
    judge "verify-blob-$(basename "$d")"
    n=$((n + 1))
done
for d in "$v"/compute_cells_and_kzg_proofs/kzg-mainnet/*/; do
    case_files "$d"
    run_keel kzg cells --proofs "@$tmp/case/blob"
    [[ $rc == 0 ]] && out=$(printf '%s' "$out" | compact)
    judge "cells-$(basename "$d")"
    n=$((n + 1))
done
for d in "$v"/recover_cells_and_kzg_proofs/kzg-mainnet/*/; do
    case_files "$d"
    run_keel kzg recover "$tmp/case/cells.json"
    [[ $rc == 0 ]] && out=$(printf '%s' "$out" | compact)
    judge "recover-$(basename "$d")"
    n=$((n + 1))
done
for d in "$v"/verify_cell_kzg_proof_batch/kzg-mainnet/*/; do
    case_files "$d"
    run_keel kzg verify-cells "$tmp/case/cells.json"
    judge "verify-cells-$(basename "$d")"
    n=$((n + 1))
done
((n >= 60)); check "reference cases found ($n)" $?

# The commitment's versioned hash and the blob proof round trip on the first valid case.
case_files "$v/verify_blob_kzg_proof/kzg-mainnet/verify_blob_kzg_proof_case_correct_proof_0"
run_keel kzg commit "@$tmp/case/blob"
commitment=$out
expect_result commit-matches-case 0 exact "0x$(xxd -p -c 48 "$tmp/case/commitment")" ""
run_keel kzg proof "@$tmp/case/blob"
expect_result proof-matches-case 0 exact "0x$(xxd -p -c 48 "$tmp/case/proof")" ""
run_keel kzg proof "@$tmp/case/blob" "$commitment"
expect_result proof-with-commitment 0 exact "0x$(xxd -p -c 48 "$tmp/case/proof")" ""
want_vh=0x01$(printf '%s' "${commitment#0x}" | xxd -r -p | sha256sum | cut -c3-64)
run_keel kzg versioned-hash "$commitment"
expect_result versioned-hash 0 exact "$want_vh" ""
out=$("$keel" kzg commit - <"$tmp/case/blob" 2>"$tmp/err"); rc=$?; err=$(cat "$tmp/err")
expect_result commit-from-stdin 0 exact "$commitment" ""

# Bad input: one line naming the argument and the rule.
run_keel kzg commit 0x1234
expect_result short-blob 1 exact "" "keel: kzg commit: blob: 2 bytes, want 131072"
head -c 131072 /dev/zero | tr '\0' '\377' >"$tmp/ff"
run_keel kzg commit "@$tmp/ff"
expect_result blob-not-field 1 exact "" \
    "keel: kzg commit: blob is not 131072 bytes of field elements (< r) (field element 0)"
run_keel kzg versioned-hash 0x00
expect_result short-commitment 1 exact "" "keel: kzg versioned-hash: commitment: 1 bytes, want 48"
head -c 131072 /dev/zero >"$tmp/zero"
run_keel kzg verify-blob "@$tmp/zero" "0x$(printf '11%.0s' {1..48})" "0x$(printf '11%.0s' {1..48})"
expect_result bad-point 1 exact "" "keel: kzg verify-blob: commitment is not a valid G1 point"
echo '{"cell_indices": [1], "cells": "x"}' >"$tmp/bad.json"
run_keel kzg recover "$tmp/bad.json"
expect_result recover-cells-not-list 1 exact "" "keel: kzg recover: cells: want a list of hex strings"
echo '{"cell_indices": [-1], "cells": []}' >"$tmp/bad.json"
run_keel kzg recover "$tmp/bad.json"
expect_result recover-negative-index 1 exact "" "keel: kzg recover: cell_indices 0: want a whole number"
echo '{"cell_indices": [], "cells": []}' >"$tmp/bad.json"
run_keel kzg recover "$tmp/bad.json"
expect_result recover-nothing 1 exact "" \
    "keel: kzg recover: fewer than 64 or more than 128 cells to recover from"
echo '[1, 2]' >"$tmp/bad.json"
run_keel kzg verify-cells "$tmp/bad.json"
expect_result verify-cells-not-object 1 exact "" "want a JSON object"
printf '{"commitments": [' >"$tmp/bad.json"
run_keel kzg verify-cells "$tmp/bad.json"
expect_result verify-cells-bad-json 1 exact "" "not valid JSON"
run_keel kzg recover "$tmp/missing.json"
expect_result recover-missing-file 2 exact "" "keel: kzg recover"

finish kzg
