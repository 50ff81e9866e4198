#!/usr/bin/env bash
# Runs `keel ARGS...` with every folder among ARGS replaced by a deterministic sample of the
# fixture files under it: the 1st, (N+1)th, (2N+1)th ... *.json file in sorted path order. With
# N = 1 it is `keel ARGS...` as given. The sanitizer build runs the big vector suites this way
# (KEEL_SPEC_SAMPLE in CMakePresets.json): every file still runs under `make test`. With N > 1,
# files whose path matches the extended regex in $KEEL_SAMPLE_SKIP stay out of the sample (the
# CTest entry that sets it says why).
#   run_sampled.sh N KEEL ARGS...
set -euo pipefail
every=${1:?usage: run_sampled.sh N KEEL ARGS...}
keel=${2:?usage: run_sampled.sh N KEEL ARGS...}
shift 2
[[ $every =~ ^[1-9][0-9]*$ ]] || { echo "run_sampled.sh: N must be a positive integer, not '$every'" >&2; exit 2; }
if ((every == 1)); then
    exec "$keel" "$@"
fi
args=()
for a in "$@"; do
    if [[ -d $a ]]; then
        mapfile -t files < <(find "$a" -type f -name '*.json' | LC_ALL=C sort)
        ((${#files[@]} > 0)) || { echo "run_sampled.sh: no *.json under $a" >&2; exit 1; }
        kept=0 skipped=0
        for ((i = 0; i < ${#files[@]}; i += every)); do
            if [[ -n ${KEEL_SAMPLE_SKIP:-} && ${files[i]} =~ $KEEL_SAMPLE_SKIP ]]; then
                skipped=$((skipped + 1))
                continue
            fi
            args+=("${files[i]}")
            kept=$((kept + 1))
        done
        echo "run_sampled.sh: $kept of ${#files[@]} fixture files under $a (every ${every}th${KEEL_SAMPLE_SKIP:+, $skipped matching $KEEL_SAMPLE_SKIP left out})" >&2
    else
        args+=("$a")
    fi
done
exec "$keel" "${args[@]}"
