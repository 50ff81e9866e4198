# Sourced by the tests that run `keel node` (test/interop/*.sh, test/cli/node_test.sh).
#   start_keel_node OUT KEEL ARGS...   starts KEEL node ARGS... in the background, its output in
#                                      OUT; sets node_pid, and port and auth (the JSON-RPC and
#                                      Engine API ports its start lines name, empty if none
#                                      appeared within 20 s or it exited). Returns 1 then.
# hive's JWT secret: the 32 ASCII bytes "secretsecretsecretsecretsecretse", hex.
hive_jwt_secret=7365637265747365637265747365637265747365637265747365637265747365
start_keel_node() {
    local out=$1 keel=$2
    shift 2
    "$keel" node "$@" >"$out" 2>&1 &
    node_pid=$!
    port= auth=
    for _ in $(seq 400); do
        port=$(sed -n 's|^node: JSON-RPC over HTTP on http://127.0.0.1:\([0-9]*\) .*|\1|p' "$out")
        auth=$(sed -n 's|^node: Engine API on http://127.0.0.1:\([0-9]*\) .*|\1|p' "$out")
        [[ -n "$port" && -n "$auth" ]] && return 0
        kill -0 "$node_pid" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}
