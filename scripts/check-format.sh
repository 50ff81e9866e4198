#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format 19 (.clang-format) would write.
# Pinned to the clang the project installs (scripts/deps.sh): versions format differently.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' | sort -u)
bad=()
for f in "${files[@]}"; do
    [[ -f "$f" ]] || continue
    clang-format-19 --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
    echo "check-format: not clang-formatted (run 'make format'):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files formatted"
