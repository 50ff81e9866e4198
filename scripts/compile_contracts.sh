#!/usr/bin/env bash
# Compiles keel/devnet/contracts/*.sol into the .bin files beside them (creation bytecode, hex),
# with solc from npm at a pinned version, installed into build/solc on first use (needs node and
# npm: scripts/deps.sh --peers). `--check` compares the checked-in .bin files instead.
# keel builds from the .bin files; run this after changing a contract, and commit both.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.8.30
dir=build/solc
if [[ ! -f "$dir/node_modules/solc/package.json" ]] ||
   ! grep -q "\"version\": \"$version\"" "$dir/node_modules/solc/package.json"; then
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-save --silent "solc@$version" >/dev/null)
fi
node scripts/compile_contracts.mjs "$dir" keel/devnet/contracts "${1:-}"
