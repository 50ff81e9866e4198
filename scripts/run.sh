#!/usr/bin/env bash
# `make run`: keel's main job until the chain store lands. Builds a 100-transaction block body
# (legacy and EIP-1559 shapes) as a JSON item tree, encodes it with `keel rlp encode`, decodes it
# back with `keel rlp decode`, re-encodes the decoded tree, checks both encodings are identical
# byte for byte, and prints the body's size and Keccak-256.
set -euo pipefail
keel=${1:?usage: run.sh PATH_TO_KEEL}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
RANDOM=42   # deterministic body

hexbytes() {  # hexbytes N: N pseudo-random bytes as 0x-hex
    local n=$1 s="0x" i
    for ((i = 0; i < n; i++)); do s+=$(printf '%02x' $((RANDOM % 256))); done
    printf '%s' "$s"
}

{
    printf '[['
    for ((t = 0; t < 100; t++)); do
        ((t > 0)) && printf ','
        to=$(hexbytes 20) r=$(hexbytes 32) s=$(hexbytes 32) data=$(hexbytes $((RANDOM % 200)))
        if ((t % 3 == 0)); then
            # legacy: [nonce, gasPrice, gas, to, value, data, v, r, s]
            printf '[%d,%d,%d,"%s",%d,"%s",%d,"%s","%s"]' $((RANDOM * 7)) $((RANDOM * 100000000)) \
                $((21000 + RANDOM)) "$to" $((RANDOM * RANDOM * 1000)) "$data" 37 "$r" "$s"
        else
            # EIP-1559 payload fields (the typed envelope is a later issue's concern):
            # [chainId, nonce, tip, maxFee, gas, to, value, data, accessList, yParity, r, s]
            printf '[1,%d,%d,%d,%d,"%s",%d,"%s",[["%s",["%s"]]],%d,"%s","%s"]' $((RANDOM * 3)) \
                $((RANDOM * 1000)) $((RANDOM * 300000)) $((50000 + RANDOM)) "$to" \
                $((RANDOM * 65536)) "$data" "$(hexbytes 20)" "$(hexbytes 32)" $((t % 2)) "$r" "$s"
        fi
    done
    printf '],[]]\n'
} >"$work/body.json"

"$keel" rlp encode "@$work/body.json" -o "$work/body.rlp"
"$keel" rlp decode "@$work/body.rlp" >"$work/decoded.json"
"$keel" rlp encode "@$work/decoded.json" -o "$work/again.rlp"
if ! cmp -s "$work/body.rlp" "$work/again.rlp"; then
    echo "run: round trip changed the block body" >&2
    exit 1
fi
echo "block body: 100 transactions, $(stat -c %s "$work/body.rlp") bytes of RLP"
echo "decode -> JSON -> encode: identical bytes"
echo "keccak256(body): $("$keel" keccak "@$work/body.rlp")"
