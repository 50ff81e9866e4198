#!/usr/bin/env bash
# Layering lint (DESIGN.md §1): a file in keel/<m>/ may include <keel/X/...> or "keel/X/..." only
# when X is <m> or a module named in DEPS of keel/<m>/CMakeLists.txt; nothing outside keel/<m>/
# may include keel/<m>/detail/. (keel_module() separately rejects upward or undeclared DEPS at
# configure time.)
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
declare -A deps
for cml in keel/*/CMakeLists.txt; do
    m=$(basename "$(dirname "$cml")")
    # The DEPS line lists module names until the next keyword or the closing parenthesis.
    deps[$m]=$(sed -n 's/^[[:space:]]*DEPS[[:space:]]\+\([^)]*\).*/\1/p' "$cml" | tr -s ' ' ' ')
done
while IFS= read -r f; do
    [[ -f "$f" ]] || continue
    owner=""
    [[ "$f" == keel/*/* ]] && owner=$(echo "$f" | cut -d/ -f2)
    while IFS=: read -r line inc; do
        target=$(echo "$inc" | sed -E 's@.*[<"]keel/([a-z0-9_]+)/.*@\1@')
        if [[ "$inc" =~ keel/[a-z0-9_]+/detail/ && "$target" != "$owner" ]]; then
            echo "$f:$line: includes another module's detail/: $inc"
            status=1
        fi
        if [[ -n "$owner" && "$target" != "$owner" ]]; then
            if [[ -z "${deps[$owner]+x}" ]] || ! [[ " ${deps[$owner]} " == *" $target "* ]]; then
                echo "$f:$line: keel/$owner does not declare DEPS $target: $inc"
                status=1
            fi
        fi
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]keel/' "$f" | cut -d: -f1,2- || true)
done < <(git ls-files '*.cpp' '*.hpp'; git ls-files --others --exclude-standard '*.cpp' '*.hpp')
if ((status == 0)); then echo "check-layers: includes agree with declared DEPS"; fi
exit $status
