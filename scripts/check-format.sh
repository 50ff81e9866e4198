#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format 19 (.clang-format) would write.
# Pinned to the clang the project installs (scripts/deps.sh): versions format differently.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' | sort -u)
existing=()
for f in "${files[@]}"; do [[ -f "$f" ]] && existing+=("$f"); done
# Forty files per clang-format process, one process per core: each unformatted file is named in
# a "<file>:<line>:<col>: error: code should be clang-formatted" line on stderr.
rc=0
out=$(printf '%s\0' "${existing[@]}" |
    xargs -0 -n 40 -P "$(nproc)" clang-format-19 --dry-run -Werror 2>&1 >/dev/null) || rc=$?
mapfile -t bad < <(sed -n 's/^\([^:]*\.[ch]pp\):[0-9]*:[0-9]*: error: .*/\1/p' <<<"$out" | sort -u)
if ((rc != 0 && ${#bad[@]} == 0)); then
    echo "check-format: clang-format-19 failed (exit $rc):" >&2
    head -n 20 <<<"$out" >&2
    exit 1
fi
if ((${#bad[@]})); then
    echo "check-format: not clang-formatted (run 'make format'):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files formatted"
