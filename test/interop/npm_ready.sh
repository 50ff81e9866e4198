#!/usr/bin/env bash
# Usage: source npm_ready.sh; npm_ready WHO. Makes sure Node.js and test/interop's npm packages
# (package-lock.json) are installed: `scripts/deps.sh --peers`, then `npm ci` when a package the
# lock names is missing. Several interop tests may start at once (ctest -j): the install runs
# under a lock, once. WHO names the caller in the one-line error.
npm_ready() {
    local who=$1 here root
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    root=$(cd "$here/../.." && pwd)
    (
        flock 9
        missing=0
        for p in @ethereumjs/devp2p @foundry-rs/anvil-linux-amd64 @foundry-rs/cast-linux-amd64 ajv \
            js-yaml ethers viem; do
            [[ -d "$here/node_modules/$p" ]] || missing=1
        done
        ((missing == 0)) && exit 0
        bash "$root/scripts/deps.sh" --peers || { echo "$who: cannot install Node.js"; exit 1; }
        (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
            { echo "$who: npm ci failed in test/interop"; exit 1; }
    ) 9>"$here/.npm.lock"
}
