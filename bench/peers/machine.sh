# Sourced by the side-by-side scripts: keel_machine_line prints the line each of them starts with,
# so that every figure says what it was measured on: the CPU model as lscpu names it, its family
# and model numbers (a hypervisor may show a generic model name), the CPUs online, the CPU
# features that choose keel's code paths at start-up (a leading '-' marks one that is absent), and
# the load average, since these figures are wall times and move with the machine's other work.
keel_machine_line() {
    local model family number flags features="" f
    model=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
    family=$(lscpu | sed -n 's/^CPU family:[[:space:]]*//p' | head -1)
    number=$(lscpu | sed -n 's/^Model:[[:space:]]*//p' | head -1)
    flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
    for f in bmi2 avx2 sha_ni avx512f avx512ifma; do
        if [[ $flags == *" $f "* ]]; then features+="$f "; else features+="-$f "; fi
    done
    echo "machine: ${model:-unknown CPU} (family ${family:-?}, model ${number:-?}), $(nproc) CPUs;" \
        "features ${features% }; load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

# keel_peers_installed PATH: installs Node.js (scripts/deps.sh --peers) and the pinned peers
# (npm ci in bench/peers) unless PATH, a file or folder the script needs from them, is there.
keel_peers_installed() {
    [[ -e "$1" ]] && return 0
    local peers
    peers=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    bash "$peers/../../scripts/deps.sh" --peers
    (cd "$peers" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

# keel_load_line: the load average again, for the end of a run.
keel_load_line() {
    echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}
