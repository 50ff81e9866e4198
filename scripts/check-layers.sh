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
files=()
while IFS= read -r f; do
    [[ -f "$f" ]] && files+=("$f")
done < <(git ls-files '*.cpp' '*.hpp'; git ls-files --others --exclude-standard '*.cpp' '*.hpp')
# One grep over every file, one awk over its "file:line:include" lines (a process per include
# line made this check take half a minute).
allowed=$(for m in "${!deps[@]}"; do echo "$m ${deps[$m]}"; done)
printf '%s\0' "${files[@]}" |
    xargs -0 grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]keel/' |
    awk -v allowed="$allowed" '
        BEGIN {
            n = split(allowed, rows, "\n")
            for (i = 1; i <= n; ++i) {
                k = split(rows[i], w, " ")
                if (k == 0) continue
                known[w[1]] = 1
                for (j = 2; j <= k; ++j) ok[w[1] " " w[j]] = 1
            }
        }
        {
            f = $0; sub(/:.*/, "", f)
            rest = substr($0, length(f) + 2)
            line = rest; sub(/:.*/, "", line)
            inc = substr(rest, length(line) + 2)
            owner = ""
            if (f ~ /^keel\/[^\/]+\//) { split(f, p, "/"); owner = p[2] }
            if (!match(inc, /keel\/[a-z0-9_]+\//)) next
            target = substr(inc, RSTART + 5, RLENGTH - 6)
            if (inc ~ /keel\/[a-z0-9_]+\/detail\// && target != owner) {
                print f ":" line ": includes another module'"'"'s detail/: " inc; bad = 1
            }
            if (owner != "" && target != owner && !((owner " " target) in ok)) {
                print f ":" line ": keel/" owner " does not declare DEPS " target ": " inc; bad = 1
            }
        }
        END { exit bad }' || status=1
if ((status == 0)); then echo "check-layers: includes agree with declared DEPS"; fi
exit $status
