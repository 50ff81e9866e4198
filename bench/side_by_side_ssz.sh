#!/usr/bin/env bash
# SSZ side by side, in one run: keel and Lodestar's stack from npm (@chainsafe/ssz 1.9.0,
# @lodestar/types 1.50.0, @chainsafe/hashtree 1.0.2; bench/peers/peers-ssz.mjs) on the same
# inputs — SHA-256 of 64-byte blocks (one core, 1,024 per call) and decode + hash_tree_root of
# the real mainnet beacon blocks in ../shared/vectors/ssz/mainnet_blocks (both must print the
# canonical root). Prints each figure and keel's ratio.
#
#   bench/side_by_side_ssz.sh [PATH_TO_KEEL_BUILD]   (default build/release)
# Still to come with issue 5: a generated deneb block and BeaconState of 1M validators.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
keel=$build/apps/keel/keel
bench=$build/bench/keel-bench
vectors=${KEEL_VECTORS_DIR:-$root/../shared/vectors}/ssz/mainnet_blocks
[[ -x "$keel" && -x "$bench" ]] || { echo "side_by_side_ssz: build first (make build)" >&2; exit 2; }
if [[ ! -d "$root/bench/peers/node_modules/@lodestar/types" ]]; then
    bash "$root/scripts/deps.sh" --peers
    (cd "$root/bench/peers" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
keel_sha=$("$bench" --benchmark_filter='BM_Sha256_64ManyDefault$' --benchmark_format=json 2>/dev/null |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).benchmarks[0].items_per_second))')

args=() dirs=()
while IFS=$'\t' read -r fork dir _ _ _ _ _ want; do
    [[ $fork == fork ]] && continue
    args+=("$fork:$vectors/$fork/$dir/block.ssz")
    dirs+=("$fork/$dir:$want")
done <"$vectors/INDEX.tsv"
peer=$(node "$root/bench/peers/peers-ssz.mjs" "${args[@]}")

node - "$keel_sha" "$peer" <<'EOF'
const [keelSha, peerJson] = process.argv.slice(2);
const peer = JSON.parse(peerJson);
console.log(`SHA-256, 64-byte blocks, one core: keel ${(keelSha / 1e6).toFixed(1)} M/s, ` +
            `hashtree ${(peer.sha256_64_per_s / 1e6).toFixed(1)} M/s, ratio ${(keelSha / peer.sha256_64_per_s).toFixed(2)}x`);
EOF
printf '\n%-26s %8s  %-16s %-20s %-8s\n' "block (mainnet)" "bytes" "keel ms (best)" "lodestar ms" "ratio"
i=0
for entry in "${dirs[@]}"; do
    name=${entry%%:*} want=${entry#*:}
    file="$vectors/$name/block.ssz"
    got=$("$keel" ssz block-root --repeat 50 "$file" 2>"$build/ssz-bench-err.txt")
    [[ "$got" == "$want" ]] || { echo "keel root of $name is $got, want $want" >&2; exit 1; }
    keel_best=$(sed -E 's/.*decode \+ root ([0-9.]+) ms.*/\1/' "$build/ssz-bench-err.txt")
    keel_ms=$(sed -E 's/.*mean ([0-9.]+) ms.*/\1/' "$build/ssz-bench-err.txt")
    node - "$peer" "$i" "$want" "$name" "$keel_ms" "$(stat -c %s "$file")" "$keel_best" <<'EOF'
const [peerJson, i, want, name, keelMs, bytes, keelBest] = process.argv.slice(2);
const b = JSON.parse(peerJson).blocks[Number(i)];
if (b.root !== want) { console.error(`lodestar root of ${name} is ${b.root}, want ${want}`); process.exit(1); }
const peerMs = b.decode_ms + b.root_ms;
console.log(`${name.padEnd(26)} ${bytes.padStart(8)}  ${(Number(keelMs).toFixed(3) + " (" + Number(keelBest).toFixed(3) + ")").padEnd(16)} ` +
            `${peerMs.toFixed(3).padEnd(20)} ${(peerMs / keelMs).toFixed(1)}x`);
EOF
    i=$((i + 1))
done
echo
echo "keel: decode + hash_tree_root, mean of 50 (best in brackets; keel ssz block-root --repeat 50);"
echo "lodestar: deserialize plus hashTreeRoot of a fresh value, each averaged over >= 1 s. The ratio"
echo "compares the means. Both roots equal the canonical ones."
