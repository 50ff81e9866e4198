#!/usr/bin/env bash
# The struct (opcode) logger side by side, in one run: keel (`keel evm run --tx --struct-log`,
# output to /dev/null) and anvil 1.7.1's revm-inspectors (`debug_traceCall` with the contract as
# a state override, the response streamed and dropped by the client) on evm-benchmarks calls,
# both as the same Prague transaction with the same tracer options, so both write the same
# steps (the byte counts are printed: they differ by the JSON-RPC envelope). Prints per case the
# JSON size, both wall times, anvil's as a multiple of keel's, and both peak resident sizes.
#
# Honest figures:
#  - wall time on both sides, keel's including its process start, anvil's from the request to the
#    response's last byte (its HTTP and JSON are part of what a trace costs there);
#  - one thread each: keel and anvil pinned to PIN_CPU (default 0), the RPC client on the other;
#  - keel best of ROUNDS (default 3) runs; anvil one traced call per case (seconds each), in a
#    fresh anvil whose peak RSS is then that case's.
# The cases: CASES, a space-separated list of <test>/<input>:<options>, options being d (the
# defaults: stack and storage) or b (disableStack and disableStorage). The default list keeps
# anvil under ~10 GB of memory.
#   bench/side_by_side_trace.sh [PATH_TO_KEEL_BUILD]   (default build/release; ROUNDS, PIN_CPU, CASES)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
keel=$build/apps/keel/keel
rounds=${ROUNDS:-3}
pin=${PIN_CPU:-0}
other=$(( (pin + 1) % $(nproc) ))
cases=${CASES:-"structarray_alloc/0:d sha1_divs/1:d weierstrudel/1:b blake2b_shifts/0:b snailtracer/0:b"}
vectors=${KEEL_VECTORS_DIR:-$root/../shared/vectors}/evm/benchmarks
[[ -x "$keel" ]] || { echo "side_by_side_trace: build first (make build)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "side_by_side_trace: ROUNDS must be a positive integer" >&2; exit 2; }
for t in taskset /usr/bin/time; do
    command -v "$t" >/dev/null || { echo "side_by_side_trace: needs $t" >&2; exit 2; }
done
anvil=$root/bench/peers/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil
# shellcheck source=bench/peers/machine.sh
source "$root/bench/peers/machine.sh"
keel_peers_installed "$anvil"

keel_machine_line
echo "keel and anvil pinned to CPU $pin, the RPC client to CPU $other; keel best of $rounds"
lines=()
for c in $cases; do
    name=${c%%:*} opt=${c##*:}
    case $opt in
        d) config='{}' ;;
        b) config='{"disableStack":true,"disableStorage":true}' ;;
        *) echo "side_by_side_trace: $c: options must be d or b" >&2; exit 2 ;;
    esac
    while IFS= read -r l; do lines+=("$l"); done < <(cd "$root/bench/peers" &&
        taskset -c "$other" node peers-trace.mjs "$keel" "$anvil" "$vectors" "$pin" "$name" "$config" "$rounds")
done
node - "${lines[@]}" <<'JS'
const rows = process.argv.slice(2).map((l) => JSON.parse(l));
const key = (r) => `${r.name} ${r.config.disableStack ? 'no stack/storage' : 'defaults'}`;
const by = new Map();
for (const r of rows) by.set(key(r), { ...by.get(key(r)), [r.side]: r });
console.log(`\n${'case'.padEnd(40)} ${'JSON MB'.padStart(8)} ${'keel ms'.padStart(9)} ${'GB/s'.padStart(6)} ${'anvil ms'.padStart(10)} ${'anvil/keel'.padStart(10)} ${'keel RSS'.padStart(9)} ${'anvil RSS'.padStart(10)}`);
let worst = Infinity;
for (const [k, { keel, anvil }] of by) {
  const ratio = anvil.ms / keel.ms;
  worst = Math.min(worst, ratio);
  console.log(`${k.padEnd(40)} ${(keel.bytes / 1e6).toFixed(1).padStart(8)} ${keel.ms.toFixed(1).padStart(9)} ` +
              `${(keel.bytes / keel.ms / 1e6).toFixed(2).padStart(6)} ${anvil.ms.toFixed(1).padStart(10)} ` +
              `${(ratio.toFixed(1) + 'x').padStart(10)} ${(keel.rss_mb.toFixed(0) + ' MB').padStart(9)} ` +
              `${(anvil.rss_mb.toFixed(0) + ' MB').padStart(10)}`);
  if (Math.abs(anvil.bytes - keel.bytes) > 64)
    console.log(`  note: the outputs differ in size by ${anvil.bytes - keel.bytes} bytes`);
}
console.log(`\nsummary: struct logger, slowest anvil/keel ratio ${worst.toFixed(1)}x (wall time, same output)`);
JS
keel_load_line
