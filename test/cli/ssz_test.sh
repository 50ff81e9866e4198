#!/usr/bin/env bash
# Usage: ssz_test.sh PATH_TO_KEEL VECTORS_DIR. `keel ssz root` and `keel ssz block-root` on the
# official and real mainnet vectors (roots from their meta.yaml / roots.yaml), a signed block
# made from a real one, and the one-line errors.
set -uo pipefail
keel=${1:?usage: ssz_test.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: ssz_test.sh PATH_TO_KEEL VECTORS_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"
blocks="$vectors/ssz/mainnet_blocks"

# Every real mainnet block: the root is the canonical block root; the fork comes from the slot.
while IFS=$'\t' read -r fork dir _ _ _ _ _ root; do
    [[ $fork == fork ]] && continue
    expect "block-root-$dir" 0 "$root" "" -- ssz block-root "$blocks/$fork/$dir/block.ssz"
done <"$blocks/INDEX.tsv"

# A SignedBeaconBlock around the deneb block (offset 100, a 96-byte signature): same root.
deneb="$blocks/deneb/slot_11378687/block.ssz"
{ printf '\x64\x00\x00\x00'; head -c 96 /dev/zero; cat "$deneb"; } >"$tmp/signed.ssz"
expect signed-block-root 0 "0x452eb0df043bab8ec645217e50a04ff6bc18ba9898468643e44a186b97bb94f1" "" \
    -- ssz block-root --repeat 3 "$tmp/signed.ssz"
expect block-root-forced-fork 1 "" "ssz block-root:" -- ssz block-root --fork bellatrix "$deneb"

# ssz root on official ssz_static cases (snappy block files).
for t in deneb/SignedBeaconBlock capella/BeaconState bellatrix/ExecutionPayload; do
    case="$vectors/ssz/ssz_static/mainnet/$t/ssz_random/case_0"
    want=$(sed -E "s/.*'(0x[0-9a-f]+)'.*/\1/" "$case/roots.yaml")
    expect "root-${t/\//-}" 0 "$want" "" -- ssz root --type "${t/\//.}" "$case/serialized.ssz_snappy"
done

# Errors: one line, exit 1 (bad data) or 2 (usage).
head -c 1000 "$deneb" >"$tmp/cut.ssz"
expect truncated 1 "" "ssz root: $tmp/cut.ssz: ssz: BeaconBlock" -- ssz root --type deneb.BeaconBlock "$tmp/cut.ssz"
expect unknown-type 1 "" "unknown type 'deneb.Nope'" -- ssz root --type deneb.Nope "$deneb"
expect bad-preset 2 "" "--preset" -- ssz root --type deneb.BeaconBlock --preset tiny "$deneb"
expect too-short 1 "" "too short for a beacon block" -- ssz block-root /dev/null
expect bad-fork 2 "" "unknown fork 'merge'" -- ssz block-root --fork merge "$deneb"
printf 'not snappy' >"$tmp/x.ssz_snappy"
expect bad-snappy 1 "" "x.ssz_snappy" -- ssz root --type deneb.BeaconBlock "$tmp/x.ssz_snappy"

finish cli_ssz
