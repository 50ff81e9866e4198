#!/usr/bin/env bash
# Installs every Debian package keel needs to build, test, fuzz and benchmark (DESIGN.md §6).
# Idempotent: quiet when everything is present; runs `apt-get update` only when something is missing.
#   scripts/deps.sh           build, test, fuzz and bench dependencies
#   scripts/deps.sh --peers   also Node.js and npm, for the side-by-side peers in bench/ (skipped
#                             when a `node` and `npm` are already on PATH, e.g. from NodeSource),
#                             GNU time for their peak-RSS figures, wrk for the RPC load bench,
#                             and Node's headers (libnode-dev with Debian's nodejs) for the native
#                             modules of Lodestar (test/interop/lodestar.sh)
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config ccache git
    libsecp256k1-dev libssl-dev libsnappy-dev librocksdb-dev
    libcli11-dev libfmt-dev nlohmann-json3-dev
    libgtest-dev libgmock-dev libbenchmark-dev libgmp-dev
    libboost-dev libtbb-dev libjemalloc-dev
    clang-19 libclang-rt-19-dev clang-format-19 valgrind
    curl python3 python3-yaml
)

if [[ "${1:-}" == "--peers" ]]; then
    # GNU time: bench/peers/peers-trace.mjs reads both sides' peak RSS with /usr/bin/time -f %M.
    # wrk: the load generator of bench/side_by_side_rpc.sh.
    packages+=(time wrk)
    if ! { command -v node && command -v npm; } >/dev/null; then
        packages+=(nodejs npm libnode-dev)
    elif [[ $(dpkg-query -W -f='${Status}' nodejs 2>/dev/null) == "install ok installed" &&
            ! -f /usr/include/node/node_api.h ]]; then
        packages+=(libnode-dev)  # Debian's nodejs ships its headers apart
    fi
fi

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "deps.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi

echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps.sh: done"
