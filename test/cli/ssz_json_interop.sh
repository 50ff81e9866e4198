#!/usr/bin/env bash
# Usage: ssz_json_interop.sh PATH_TO_KEEL VECTORS_DIR. keel's SSZ JSON against an independent
# implementation: Lodestar's (@lodestar/types 1.50.0 on @chainsafe/ssz 1.9.0, from npm in
# bench/peers; installed here with `scripts/deps.sh --peers` and `npm ci` when missing, never
# skipped). For each of the 11 real mainnet blocks (vectors/ssz/mainnet_blocks/INDEX.tsv), as
# <fork>.BeaconBlock and wrapped in a <fork>.SignedBeaconBlock (Lodestar serializes it, with a
# fixed signature):
#   - `keel ssz decode` prints the same JSON value as Lodestar's toJson (compared parsed; the
#     one allowed difference is the case of 20-byte hex strings: Lodestar writes execution
#     addresses with EIP-55 checksum case, keel writes the spec's lower-case hex for all bytes);
#   - Lodestar's JSON through `keel ssz encode` gives the same bytes;
#   - keel's JSON through Lodestar's fromJson + serialize gives the same bytes.
set -uo pipefail
keel=${1:?usage: ssz_json_interop.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: ssz_json_interop.sh PATH_TO_KEEL VECTORS_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
peers="$root/bench/peers"
blocks="$vectors/ssz/mainnet_blocks"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

if [[ ! -d "$peers/node_modules/@lodestar/types" ]]; then
    bash "$root/scripts/deps.sh" --peers || { echo "ssz_json_interop: cannot install Node.js"; exit 1; }
    (cd "$peers" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
        { echo "ssz_json_interop: npm ci failed in bench/peers"; exit 1; }
fi

# lodestar MODE ARGS...: runs the script below with bench/peers as the working directory, so
# that its imports resolve to bench/peers/node_modules.
#   export DIR FORK:NAME:BLOCK.ssz ...  writes DIR/NAME.{block,signed}.{lodestar.json,ssz}
#   check DIR FORK:NAME ...             compares DIR/NAME.{block,signed}.keel.json with
#                                       Lodestar's, and reads keel's JSON back with Lodestar
lodestar() {
    (cd "$peers" && node --input-type=module -e "$(cat <<'EOF'
import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { ssz } from '@lodestar/types';

const [mode, dir, ...items] = process.argv.slice(1);
const kinds = [['block', 'BeaconBlock'], ['signed', 'SignedBeaconBlock']];

// An address in EIP-55 case (Lodestar's ExecutionAddress) equals keel's lower-case form.
const isAddress = (s) => typeof s === 'string' && /^0x[0-9a-fA-F]{40}$/.test(s);

// The first path at which two JSON values differ, with both sides.
function firstDifference(a, b, path = '') {
  if (isDeepStrictEqual(a, b)) return null;
  if (isAddress(a) && isAddress(b) && a === b.toLowerCase()) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null ||
      Array.isArray(a) !== Array.isArray(b)) {
    return `${path || '(top)'}: keel ${JSON.stringify(a)?.slice(0, 80)}, ` +
           `lodestar ${JSON.stringify(b)?.slice(0, 80)}`;
  }
  if (Array.isArray(a) && a.length !== b.length) {
    return `${path}: keel has ${a.length} elements, lodestar ${b.length}`;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!(k in a) || !(k in b)) return `${path}.${k}: only in ${k in a ? 'keel' : 'lodestar'}`;
    const d = firstDifference(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

let failed = 0;
for (const item of items) {
  const [fork, name, file] = item.split(':');
  const types = { block: ssz[fork].BeaconBlock, signed: ssz[fork].SignedBeaconBlock };
  if (mode === 'export') {
    const block = types.block.deserialize(readFileSync(file));
    const signed = { message: block, signature: new Uint8Array(96).fill(0x11) };
    for (const [kind, value] of [['block', block], ['signed', signed]]) {
      writeFileSync(`${dir}/${name}.${kind}.lodestar.json`, JSON.stringify(types[kind].toJson(value)));
      writeFileSync(`${dir}/${name}.${kind}.ssz`, types[kind].serialize(value));
    }
    continue;
  }
  for (const [kind, typeName] of kinds) {
    const label = `${fork}.${typeName} ${name}`;
    const keel = JSON.parse(readFileSync(`${dir}/${name}.${kind}.keel.json`, 'utf8'));
    const theirs = JSON.parse(readFileSync(`${dir}/${name}.${kind}.lodestar.json`, 'utf8'));
    const diff = firstDifference(keel, theirs);
    const bytes = readFileSync(`${dir}/${name}.${kind}.ssz`);
    const back = Buffer.from(types[kind].serialize(types[kind].fromJson(keel)));
    if (diff) {
      console.log(`FAIL json-${kind}-${name}: ${label}: ${diff}`);
      ++failed;
    } else if (!back.equals(bytes)) {
      console.log(`FAIL lodestar-reads-keel-${kind}-${name}: ${label}: bytes differ`);
      ++failed;
    } else {
      console.log(`ok ${label}: same JSON; Lodestar reads keel's JSON to the same bytes`);
    }
  }
}
process.exit(failed ? 1 : 0);
EOF
)" -- "$@")
}

exports=() names=()
while IFS=$'\t' read -r fork dir _; do
    [[ $fork == fork ]] && continue
    exports+=("$fork:$dir:$blocks/$fork/$dir/block.ssz")
    names+=("$fork:$dir")
done <"$blocks/INDEX.tsv"
((${#names[@]} == 11)) || { echo "ssz_json_interop: ${#names[@]} blocks in INDEX.tsv, want 11"; exit 1; }
lodestar export "$tmp" "${exports[@]}"
check lodestar-export $? "Lodestar could not decode the blocks"

for entry in "${names[@]}"; do
    fork=${entry%%:*} dir=${entry#*:}
    for kind in block signed; do
        type=$fork.BeaconBlock
        [[ $kind == signed ]] && type=$fork.SignedBeaconBlock
        # keel's JSON of the bytes Lodestar serialized (for the block, the vector itself).
        "$keel" ssz decode --type "$type" "$tmp/$dir.$kind.ssz" >"$tmp/$dir.$kind.keel.json"
        check "keel-decode-$kind-$dir" $?
        # Lodestar's JSON through keel's encoder.
        "$keel" ssz encode --type "$type" "$tmp/$dir.$kind.lodestar.json" \
            --out "$tmp/$dir.$kind.from-lodestar.ssz"
        check "keel-encode-$kind-$dir" $?
        cmp -s "$tmp/$dir.$kind.ssz" "$tmp/$dir.$kind.from-lodestar.ssz"
        check "keel-encodes-lodestar-json-$kind-$dir" $? "bytes differ"
    done
    cmp -s "$blocks/$fork/$dir/block.ssz" "$tmp/$dir.block.ssz"
    check "lodestar-reserializes-$dir" $? "Lodestar's bytes differ from the vector"
done

report=$(lodestar check "$tmp" "${names[@]}")
status=$?
printf '%s\n' "$report" | grep -v '^ok ' || true
check lodestar-compare "$status" "see above"
[[ $(grep -c '^ok ' <<<"$report") == 22 ]]
check lodestar-compared-22 $? "$(grep -c '^ok ' <<<"$report") comparisons passed, want 22"

finish cli_ssz_json_interop
