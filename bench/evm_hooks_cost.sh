#!/usr/bin/env bash
# The cost of the tracer hooks with no tracer attached, in instructions (issue 15): the same
# untraced runs of evm-benchmarks cases counted by callgrind in two builds of the EVM, with the
# hooks compiled in (evm_hooks_cost, keel::evm) and with none at all (evm_hooks_cost_nohooks,
# keel_evm_nohooks, built with KEEL_EVM_NO_HOOKS). Instruction counts are repeatable on a
# shared machine where times are not.
#   bench/evm_hooks_cost.sh [BUILD_DIR] [CASE_REGEX]    (default build/release, a mix of cases)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
pick=${2:-'^(snailtracer|blake2b_shifts|sha1_divs|swap_math|jump_around|memory_grow_mstore)/'}
vectors=${KEEL_VECTORS_DIR:-$root/../shared/vectors}/evm/benchmarks
command -v valgrind >/dev/null || { echo "evm_hooks_cost: valgrind is missing (scripts/deps.sh)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions executed inside the EVM library (interpreter, frames, precompiles, state), from
# callgrind's per-file totals; and the whole program's.
count() {
    local exe=$1 out=$tmp/$(basename "$1").out
    valgrind --tool=callgrind --callgrind-out-file="$out" "$exe" "$vectors" "$pick" 1 >/dev/null 2>&1
    callgrind_annotate --auto=no "$out" >"$out.txt" 2>/dev/null
    local total evm
    total=$(awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}' "$out.txt")
    evm=$(awk '/keel\/(evm|state)\// {gsub(",", "", $1); s += $1} END {print s + 0}' "$out.txt")
    echo "$total $evm"
}

echo "evm_hooks_cost: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); cases matching '$pick'"
read -r hooks_total hooks_evm < <(count "$build/bench/evm_hooks_cost")
read -r none_total none_evm < <(count "$build/bench/evm_hooks_cost_nohooks")
printf '%-28s %16s %16s\n' "" "program" "keel/evm+state"
printf '%-28s %16s %16s\n' "hooks compiled, no tracer" "$hooks_total" "$hooks_evm"
printf '%-28s %16s %16s\n' "no hooks compiled" "$none_total" "$none_evm"
awk -v a="$hooks_total" -v b="$none_total" -v c="$hooks_evm" -v d="$none_evm" \
    'BEGIN { printf "ratio (hooks / none)         %16.5f %16.5f\n", a / b, (d > 0 ? c / d : 0) }'
