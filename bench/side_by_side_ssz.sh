#!/usr/bin/env bash
# SSZ side by side, in one run: keel and Lodestar's stack from npm (@chainsafe/ssz 1.9.0,
# @lodestar/types 1.50.0, @chainsafe/hashtree 1.0.2; bench/peers/peers-ssz.mjs) on the same
# inputs — SHA-256 of 64-byte blocks (one core, 1,024 per call); decode + hash_tree_root of
# the real mainnet beacon blocks in ../shared/vectors/ssz/mainnet_blocks (both must print the
# canonical root); and of the generated deneb block (`keel devnet gen-beacon-block`) and
# BeaconState of 1,000,000 validators (`keel devnet gen-beacon-state`), whose roots keel and
# Lodestar must agree on. Prints each figure and keel's ratio. Takes about two minutes (Lodestar
# needs ~15 s per pass over the state).
#
#   bench/side_by_side_ssz.sh [PATH_TO_KEEL_BUILD]   (default build/release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
keel=$build/apps/keel/keel
bench=$build/bench/keel-bench
vectors=${KEEL_VECTORS_DIR:-$root/../shared/vectors}/ssz/mainnet_blocks
[[ -x "$keel" && -x "$bench" ]] || { echo "side_by_side_ssz: build first (make build)" >&2; exit 2; }
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
keel_peers_installed "$root/bench/peers/node_modules/@lodestar/types"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
keel_sha=$("$bench" --benchmark_filter='BM_Sha256_64ManyDefault$' --benchmark_format=json 2>/dev/null |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).benchmarks[0].items_per_second))')

args=() dirs=()
while IFS=$'\t' read -r fork dir _ _ _ _ _ want; do
    [[ $fork == fork ]] && continue
    args+=("block:$fork:$vectors/$fork/$dir/block.ssz")
    dirs+=("$fork/$dir:$want")
done <"$vectors/INDEX.tsv"
gen_block=$build/ssz-bench-block.ssz gen_state=$build/ssz-bench-state.ssz
"$keel" devnet gen-beacon-block --out "$gen_block" >/dev/null
"$keel" devnet gen-beacon-state --validators 1000000 --out "$gen_state" >/dev/null
args+=("signed:deneb:$gen_block" "state:deneb:$gen_state")
peer=$(node --max-old-space-size=16384 "$root/bench/peers/peers-ssz.mjs" "${args[@]}")

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

# The generated inputs: the block through `keel ssz block-root` as above; the state through
# keel-bench (BM_BeaconStateDecode, BM_BeaconStateRoot on 1 and 2 threads, on the same
# generated state), its root from `keel ssz root`.
echo
got=$("$keel" ssz block-root --repeat 50 "$gen_block" 2>"$build/ssz-bench-err.txt")
block_best=$(sed -E 's/.*decode \+ root ([0-9.]+) ms.*/\1/' "$build/ssz-bench-err.txt")
block_ms=$(sed -E 's/.*mean ([0-9.]+) ms.*/\1/' "$build/ssz-bench-err.txt")
state_root=$("$keel" ssz root --type deneb.BeaconState "$gen_state")
state_bench=$("$bench" --benchmark_filter='BM_BeaconState(Decode|Root)' --benchmark_format=json 2>/dev/null)
node - "$peer" "$got" "$block_ms" "$block_best" "$state_root" "$state_bench" <<'EOF'
const [peerJson, blockRoot, blockMs, blockBest, stateRoot, benchJson] = process.argv.slice(2);
const peer = JSON.parse(peerJson).blocks;
const [pb, ps] = peer.slice(-2);
if (pb.root !== blockRoot) { console.error(`block roots differ: keel ${blockRoot}, lodestar ${pb.root}`); process.exit(1); }
if (ps.root !== stateRoot) { console.error(`state roots differ: keel ${stateRoot}, lodestar ${ps.root}`); process.exit(1); }
const ms = (name) => JSON.parse(benchJson).benchmarks.find((b) => b.name.startsWith(name)).real_time;
const decode = ms('BM_BeaconStateDecode'), root1 = ms('BM_BeaconStateRoot/1/'), root2 = ms('BM_BeaconStateRoot/2/');
const peerBlock = pb.decode_ms + pb.root_ms;
console.log(`generated deneb block (${pb.bytes} bytes), decode + root: keel ${Number(blockMs).toFixed(3)} ms ` +
            `(best ${Number(blockBest).toFixed(3)}), lodestar ${peerBlock.toFixed(3)} ms, ratio ${(peerBlock / blockMs).toFixed(1)}x`);
console.log(`generated deneb BeaconState, 1,000,000 validators (${(ps.bytes / 1e6).toFixed(1)} MB), root ${stateRoot}:`);
console.log(`  decode:          keel ${decode.toFixed(1)} ms (${(ps.bytes / decode / 1e6).toFixed(2)} GB/s), ` +
            `lodestar deserializeToViewDU ${ps.decode_ms.toFixed(0)} ms, ratio ${(ps.decode_ms / decode).toFixed(1)}x`);
console.log(`  hash_tree_root:  keel ${root1.toFixed(0)} ms on 1 thread, ${root2.toFixed(0)} ms on 2, ` +
            `lodestar ${ps.root_ms.toFixed(0)} ms (fresh view), ratio ${(ps.root_ms / root1).toFixed(1)}x (1 thread)`);
EOF
echo "keel state figures: keel-bench BM_BeaconStateDecode / BM_BeaconStateRoot (real time); lodestar:"
echo "@chainsafe/ssz ViewDU, one thread, at least 2 runs each. Both roots agree."
